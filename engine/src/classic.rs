//! The classic reference player: the textbook design this project grew from.
//!
//! Plain alpha-beta (no transposition table, no threat search) to a fixed depth, over
//! candidates within radius 2 capped at 32, with the classic score table counted over
//! runs of stones: five 10,000,000; open four 1,000,000; simple four 50,000; open three
//! 5,000; closed three 500; open two 100; closed two 10. The opponent's shapes count
//! fully against one's own (defence weight 1.0), black's shapes at 0.92, diagonal shapes
//! at 0.8; black never plays a forbidden point in renju. Every version of the engine must
//! beat it by a wide margin.

use crate::board::{idx_of, Board};
use crate::limits::{time_budget, Limits};
use crate::outcome::Outcome;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::score::MATE;
use crate::search_result::SearchResult;
use crate::stone::Stone;
use std::time::Instant;

/// Default depth of the classic player.
pub const DEPTH: i32 = 4;
const RADIUS: usize = 2;
const CAP: usize = 32;
const FIVE: f64 = 10_000_000.0;
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Score of one run of `len` stones with `open` free ends.
fn shape(len: usize, open: usize) -> f64 {
    match (len, open) {
        (l, _) if l >= 5 => FIVE,
        (4, 2) => 1_000_000.0,
        (4, 1) => 50_000.0,
        (3, 2) => 5_000.0,
        (3, 1) => 500.0,
        (2, 2) => 100.0,
        (2, 1) => 10.0,
        _ => 0.0,
    }
}

/// Sum of the classic shape scores of `stone`'s runs on the board.
fn shapes(b: &Board, stone: Stone) -> f64 {
    let n = b.size() as isize;
    let at = |x: isize, y: isize| -> Option<Option<Stone>> {
        (x >= 0 && y >= 0 && x < n && y < n).then(|| b.stone_at(Pos::new(x as usize, y as usize)))
    };
    let mut total = 0.0;
    for y in 0..n {
        for x in 0..n {
            if at(x, y) != Some(Some(stone)) {
                continue;
            }
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                // Count each run once, from its first stone.
                if at(x - dx, y - dy) == Some(Some(stone)) {
                    continue;
                }
                let mut len = 1;
                while at(x + dx * len as isize, y + dy * len as isize) == Some(Some(stone)) {
                    len += 1;
                }
                let open = (at(x - dx, y - dy) == Some(None)) as usize
                    + (at(x + dx * len as isize, y + dy * len as isize) == Some(None)) as usize;
                let factor = if d >= 2 { 0.8 } else { 1.0 };
                total += shape(len, open) * factor;
            }
        }
    }
    if stone == Stone::Black {
        total *= 0.92;
    }
    total
}

/// Classic evaluation for the side to move.
pub fn evaluate(b: &Board) -> f64 {
    let me = b.side_to_move();
    shapes(b, me) - shapes(b, me.opp())
}

/// The classic reference player as a player kind: [`search`] to [`DEPTH`] plies. It keeps
/// nothing between moves, and parameters and threads do not apply to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classic;

impl Classic {
    /// Searches `board` for the side to move; a game clock in `limits` counts through its
    /// hard limit (the classic player has no soft one: it stops where the time runs out).
    pub fn search(&self, board: &Board, limits: &Limits) -> SearchResult {
        let start = Instant::now();
        let hard = time_budget(limits, board).hard;
        let l = Limits {
            time_ms: hard.map(|h| h.as_millis() as u64),
            ..*limits
        };
        search(board, &l, DEPTH).finish(start)
    }
}

/// One search of the classic player: its node count, clock and limits.
struct Tree {
    nodes: u64,
    start: Instant,
    limits: Limits,
    stopped: bool,
}

impl Tree {
    fn candidates(&self, b: &mut Board) -> Vec<Pos> {
        let n = b.size();
        let me = b.side_to_move();
        if b.stone_count() == 0 {
            return vec![Pos::new(n / 2, n / 2)];
        }
        let mut out: Vec<(f64, Pos)> = Vec::new();
        for p in b.points().collect::<Vec<_>>() {
            if !b.is_empty_at(p) {
                continue;
            }
            let near = (p.y().saturating_sub(RADIUS)..=(p.y() + RADIUS).min(n - 1)).any(|y| {
                (p.x().saturating_sub(RADIUS)..=(p.x() + RADIUS).min(n - 1))
                    .any(|x| b.stone_at(Pos::new(x, y)).is_some())
            });
            if !near || (me == Stone::Black && b.rule() == Rule::Renju && b.is_forbidden(p)) {
                continue;
            }
            // Order by what the point is worth to both sides (attack plus defence).
            let mut worth = 0.0;
            for s in [me, me.opp()] {
                b.place(p, s).expect("empty");
                worth += shapes(b, s);
                b.remove(idx_of(p));
            }
            out.push((worth, p));
        }
        out.sort_by(|a, c| c.0.total_cmp(&a.0).then(a.1.cmp(&c.1)));
        out.truncate(CAP);
        out.into_iter().map(|(_, p)| p).collect()
    }

    fn out_of_budget(&mut self) -> bool {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        // Every node: the classic player's nodes are slow (each ranks its candidates by full
        // evaluations), so a clock read is cheap beside them.
        if let Some(t) = self.limits.time_ms {
            if self.start.elapsed().as_millis() as u64 >= t {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn alphabeta(&mut self, b: &mut Board, depth: i32, mut alpha: f64, beta: f64) -> f64 {
        if let Some(o) = b.outcome() {
            // The side that just moved won (or the board filled up).
            return match o {
                Outcome::Draw => 0.0,
                _ => -FIVE * 10.0 - depth as f64,
            };
        }
        if self.out_of_budget() || depth == 0 {
            return evaluate(b);
        }
        let moves = self.candidates(b);
        if moves.is_empty() {
            return 0.0;
        }
        let mut best = f64::NEG_INFINITY;
        for m in moves {
            b.make(m).expect("candidate is empty");
            self.nodes += 1;
            let s = -self.alphabeta(b, depth - 1, -beta, -alpha);
            b.undo();
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta || self.stopped {
                break;
            }
        }
        best
    }
}

/// Searches like the textbook engine: iterative deepening up to `depth` plies (the node and
/// time limits of `limits` stop it early), returning the best move of the deepest completed
/// iteration.
pub fn search(board: &Board, limits: &Limits, depth: i32) -> SearchResult {
    let mut b = board.clone();
    let depth = limits.depth.map_or(depth, |d| d.min(depth)).max(1);
    let mut c = Tree {
        nodes: 0,
        start: Instant::now(),
        limits: *limits,
        stopped: false,
    };
    let moves = c.candidates(&mut b);
    let mut best = moves.first().copied();
    let mut best_score = 0.0;
    let mut done = 0;
    for d in 1..=depth {
        let mut alpha = f64::NEG_INFINITY;
        let mut iter_best = None;
        for &m in &moves {
            b.make(m).expect("empty");
            c.nodes += 1;
            let s = -c.alphabeta(&mut b, d - 1, f64::NEG_INFINITY, -alpha);
            b.undo();
            if c.stopped {
                break;
            }
            if s > alpha {
                alpha = s;
                iter_best = Some(m);
            }
        }
        if c.stopped {
            break;
        }
        best = iter_best.or(best);
        best_score = alpha;
        done = d;
    }
    let score = if best_score >= FIVE * 5.0 {
        MATE - 1
    } else if best_score <= -FIVE * 5.0 {
        -(MATE - 2)
    } else {
        (best_score / 100.0).clamp(-20_000.0, 20_000.0) as i32
    };
    SearchResult {
        best,
        score,
        mate: None,
        depth: done,
        seldepth: done,
        nodes: c.nodes,
        time_ms: c.start.elapsed().as_millis() as u64,
        pv: best.into_iter().collect(),
        source: "classic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &str) -> Board {
        Board::from_moves(15, Rule::Renju, &Pos::parse_list(moves, 15).unwrap()).unwrap()
    }

    #[test]
    fn classic_scores_shapes_by_the_table() {
        let b = Board::from_stones(
            15,
            Rule::Freestyle,
            &Pos::parse_list("h8 i8 j8", 15).unwrap(),
            &[],
        )
        .unwrap();
        // One open three (horizontal); singles in other directions score nothing.
        assert_eq!(shapes(&b, Stone::Black), 5_000.0 * 0.92);
    }

    #[test]
    fn classic_takes_a_five_and_blocks_a_four() {
        let b = board("h8 a1 i8 a3 j8 a5 k8 a7");
        let r = search(&b, &Limits::default(), 2);
        assert!(matches!(
            r.best.map(|p| p.to_string()).as_deref(),
            Some("g8") | Some("l8")
        ));
        let b = board("h8 a1 i8 a3 j8 a5 k8");
        let r = search(&b, &Limits::default(), 2);
        assert!(
            matches!(
                r.best.map(|p| p.to_string()).as_deref(),
                Some("g8") | Some("l8")
            ),
            "{:?}",
            r.best
        );
    }
}
