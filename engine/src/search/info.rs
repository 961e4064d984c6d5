//! Progress of a search, reported after each iteration.

use crate::pos::Pos;
use crate::score::score_text;
use std::time::Duration;

/// Progress of an iteration, for printing.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Score for the side to move.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

/// One line of search progress: depth, score, nodes, speed, time and principal variation.
pub fn info_line(i: &Info) -> String {
    let ms = i.elapsed.as_millis().max(1) as u64;
    format!(
        "depth {}-{} score {} nodes {} speed {}k/s time {}ms pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nodes / ms,
        ms,
        Pos::format_list(&i.pv)
    )
}
