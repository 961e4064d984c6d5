//! The fixed `bench` positions: all three rules, openings to endgames.
//!
//! Searched one by one to a fixed depth with a fresh table and one thread, the total node
//! count is the engine's behaviour signature: any change to search or evaluation shows up.

use crate::board::Board;
use crate::limits::Limits;
use crate::params::Params;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::search::Engine;
use std::time::Instant;

/// Bench positions: (name, rule, size, moves).
pub const POSITIONS: &[(&str, Rule, usize, &str)] = &[
    ("renju-r2-4", Rule::Renju, 15, "h8 i9 j8 k8"),
    ("renju-r2-10", Rule::Renju, 15, "h8 i9 j8 k8 i8 f8 h6 k9 k7 j9"),
    ("renju-r2-16", Rule::Renju, 15, "h8 i9 j8 k8 i8 f8 h6 k9 k7 j9 h9 h7 j7 k6 j6 l7"),
    ("renju-r2-24", Rule::Renju, 15, "h8 i9 j8 k8 i8 f8 h6 k9 k7 j9 h9 h7 j7 k6 j6 l7 j5 j4 i10 l9 m9 l8 l6 l10"),
    ("renju-r2-32", Rule::Renju, 15, "h8 i9 j8 k8 i8 f8 h6 k9 k7 j9 h9 h7 j7 k6 j6 l7 j5 j4 i10 l9 m9 l8 l6 l10 l11 n5 m6 m8 g10 f11 m5 n4"),
    ("renju-r3-6", Rule::Renju, 15, "h8 h9 j10 i9 g9 i7"),
    ("renju-r3-12", Rule::Renju, 15, "h8 h9 j10 i9 g9 i7 i10 g10 k9 l8 i8 k7"),
    ("renju-r3-20", Rule::Renju, 15, "h8 h9 j10 i9 g9 i7 i10 g10 k9 l8 i8 k7 j8 g8 j9 j7 h7 k10 h11 k8"),
    ("renju-r1-8", Rule::Renju, 15, "h8 h9 h10 i7 i9 j8 j10 g7"),
    ("standard-s1-6", Rule::Standard, 15, "h8 i9 g10 g9 h9 h10"),
    ("standard-s1-14", Rule::Standard, 15, "h8 i9 g10 g9 h9 h10 i8 j7 j8 g8 k9 i11 k8 l8"),
    ("standard-s1-26", Rule::Standard, 15, "h8 i9 g10 g9 h9 h10 i8 j7 j8 g8 k9 i11 k8 l8 j12 k10 j11 l10 j10 j9 j13 j14 i12 h11 k12 f8"),
    ("standard-s2-12", Rule::Standard, 15, "h8 h9 i10 j9 i9 i8 j10 k11 k10 h10 l9 j7"),
    ("standard-s2-22", Rule::Standard, 15, "h8 h9 i10 j9 i9 i8 j10 k11 k10 h10 l9 j7 l10 m10 k6 j11 i11 l8 g7 f6 g10 m11"),
    ("freestyle-f1-6", Rule::Freestyle, 15, "h8 i8 j9 k6 h9 k9"),
    ("freestyle-f1-12", Rule::Freestyle, 15, "h8 i8 j9 k6 h9 k9 i10 k8 k7 l5 h10 h7"),
    ("freestyle-f2-10", Rule::Freestyle, 15, "h8 i9 j7 i7 i8 j8 h9 g10 h10 h7"),
    ("freestyle-f2-22", Rule::Freestyle, 15, "h8 i9 j7 i7 i8 j8 h9 g10 h10 h7 k9 k7 j11 h11 i12 g8 l9 k10 m9 j9 o9 n9"),
    ("freestyle-f2-34", Rule::Freestyle, 15, "h8 i9 j7 i7 i8 j8 h9 g10 h10 h7 k9 k7 j11 h11 i12 g8 l9 k10 m9 j9 o9 n9 j12 g9 g11 g6 g7 i6 j5 i10 g12 e10 f9 h12"),
    ("freestyle-20x20", Rule::Freestyle, 20, "k11 l12 j12 l10 l11 k10 m12 j9 i8 n13 m10 m11"),
];

/// Default bench depth: deep enough that the singular extension (from depth 8) is searched,
/// so the signature changes when it does.
pub const DEPTH: i32 = 9;

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
