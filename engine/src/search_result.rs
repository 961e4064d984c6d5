//! The answer of a search, whichever player kind searched.

use crate::pos::Pos;
use crate::score::mate_distance;
use std::time::Instant;

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Move to play (None only when no legal move exists).
    pub best: Option<Pos>,
    /// Score for the side to move (mate scores beyond [`crate::score::MATE_BOUND`]).
    pub score: i32,
    /// Plies to a forced result: positive when the side to move wins, negative when it loses.
    pub mate: Option<i32>,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Nodes (moves made), all threads and solvers.
    pub nodes: u64,
    /// Time spent in milliseconds.
    pub time_ms: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
    /// What produced the move: `forced`, `vcf`, `vct` or `search`.
    pub source: &'static str,
}

impl SearchResult {
    /// Stamps the time since `start` and the mate distance of the score.
    pub(crate) fn finish(mut self, start: Instant) -> SearchResult {
        self.time_ms = start.elapsed().as_millis() as u64;
        self.mate = mate_distance(self.score);
        self
    }
}
