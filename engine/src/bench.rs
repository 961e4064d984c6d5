//! The fixed `bench` positions: all three rules, openings to endgames.
//!
//! Searched one by one to a fixed depth with a fresh table and one thread, the total node
//! count is the engine's behaviour signature: any change to search or evaluation shows up.

use crate::search::{Engine, Limits};
use crate::{Board, Params, Pos, Rule};
use std::time::Instant;

/// Bench positions: (name, rule, size, moves).
pub const POSITIONS: &[(&str, Rule, usize, &str)] = &[
    ("renju-opening-kagetsu", Rule::Renju, 15, "h8 h9 i9"),
    ("renju-opening-ukigetsu", Rule::Renju, 15, "h8 i9 j10"),
    (
        "renju-early",
        Rule::Renju,
        15,
        "h8 h9 i10 i8 g9 j11 g8 g10 f8",
    ),
    (
        "renju-middle-1",
        Rule::Renju,
        15,
        "h8 i9 i8 g8 j10 h10 j8 k8 j9 j7 k10 l11 i10 h11",
    ),
    (
        "renju-middle-2",
        Rule::Renju,
        15,
        "h8 h9 j9 i10 i8 g8 j8 k8 j10 j11 h10 g11 k9 l9 i11 h12",
    ),
    (
        "renju-middle-3",
        Rule::Renju,
        15,
        "h8 i9 g9 i7 i8 g7 h7 h6 j9 f8 k10 l11 j10 j8 k9 l8 k11 k12",
    ),
    (
        "renju-late",
        Rule::Renju,
        15,
        "h8 i9 g9 i7 i8 g7 h7 h6 j9 f8 k10 l11 j10 j8 k9 l8 k11 k12 l9 m9 h10 g11 i11 j12 g10 f10",
    ),
    ("standard-opening", Rule::Standard, 15, "h8 i9 g7"),
    (
        "standard-middle",
        Rule::Standard,
        15,
        "h8 i8 h9 h7 i10 g8 j11 k12 g9 f9 j9 k9 i9 k11",
    ),
    (
        "standard-late",
        Rule::Standard,
        15,
        "h8 i8 h9 h7 i10 g8 j11 k12 g9 f9 j9 k9 i9 k11 g10 f11 j8 j10 e8 l10",
    ),
    ("freestyle-opening", Rule::Freestyle, 15, "h8 i7 i9"),
    (
        "freestyle-middle",
        Rule::Freestyle,
        15,
        "h8 i9 g9 i7 i8 j9 h10 h9 g7 f6 g8 g10 f8 e8",
    ),
    (
        "freestyle-20",
        Rule::Freestyle,
        20,
        "k11 l12 j12 l10 l11 k10 m12 j9 i8 n13 m10 m11",
    ),
    (
        "freestyle-late",
        Rule::Freestyle,
        15,
        "h8 i9 g9 i7 i8 j9 h10 h9 g7 f6 g8 g10 f8 e8 h6 h7 f9 e10 j7 k6 e9 d9",
    ),
];

/// Default bench depth.
pub const DEPTH: i32 = 7;

/// One position's bench line.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Position name.
    pub name: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// Best move.
    pub best: Option<Pos>,
    /// Score.
    pub score: i32,
    /// Milliseconds.
    pub ms: u64,
    /// Depth reached.
    pub depth: i32,
}

/// The bench board of one entry.
pub fn board_of(rule: Rule, size: usize, moves: &str) -> Board {
    let m = Pos::parse_list(moves, size).expect("bench moves parse");
    Board::from_moves(size, rule, &m).expect("bench moves legal")
}

/// Runs the bench with `limits` per position (fresh engine each, one thread).
pub fn run(params: &Params, limits: &Limits, mut each: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    let mut out = Vec::new();
    for &(name, rule, size, moves) in POSITIONS {
        let b = board_of(rule, size, moves);
        let mut e = Engine::new(params.clone(), 16, 1);
        let t = Instant::now();
        let r = e.search(&b, limits, None);
        let line = BenchLine {
            name,
            nodes: r.nodes,
            best: r.best,
            score: r.score,
            ms: t.elapsed().as_millis() as u64,
            depth: r.depth,
        };
        each(&line);
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_games_in_progress() {
        assert!(POSITIONS.len() >= 12);
        for &(name, rule, size, moves) in POSITIONS {
            let b = board_of(rule, size, moves);
            assert!(b.outcome().is_none(), "{name} is over");
            assert!(
                b.history().iter().all(|r| !r.forbidden),
                "{name} has a forbidden move"
            );
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let p = Params::default();
        let a: Vec<u64> = run(&p, &Limits::depth(3), |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        let b: Vec<u64> = run(&p, &Limits::depth(3), |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        assert_eq!(a, b);
    }
}
