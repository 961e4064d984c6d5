//! When a search stops, and how much of a game clock one move may take.

use crate::board::Board;
use crate::clock::Clock;
use std::time::Duration;

/// When to stop searching. Several limits may be combined; the first reached stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<i32>,
    /// Most nodes (moves made, solvers included).
    pub nodes: Option<u64>,
    /// Time for this move, in milliseconds.
    pub time_ms: Option<u64>,
    /// A game clock; the time manager decides how much of it this move gets.
    pub clock: Option<Clock>,
}

impl Limits {
    /// A depth limit.
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// A node limit.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    /// A time limit per move.
    pub fn time_ms(t: u64) -> Limits {
        Limits {
            time_ms: Some(t),
            ..Limits::default()
        }
    }
}

/// Soft (do not start another iteration) and hard (stop now) time limits.
pub(crate) fn time_budget(l: &Limits, b: &Board) -> (Option<Duration>, Option<Duration>) {
    let mut soft: Option<u64> = None;
    let mut hard: Option<u64> = None;
    if let Some(t) = l.time_ms {
        hard = Some(t);
        soft = Some(t * 6 / 10);
    }
    if let Some(c) = l.clock {
        let empties = (b.size() * b.size()).saturating_sub(b.stone_count()) as u64;
        let moves_to_go = (empties / 3).clamp(8, 30);
        // Keep a margin for process and pipe latency; never plan to use the last of the clock.
        let margin = 30 + c.time_left_ms / 50;
        let left = c.time_left_ms.saturating_sub(margin);
        let mut opt = left / moves_to_go + c.increment_ms * 8 / 10;
        let mut max = (left / 4 + c.increment_ms).min(left);
        if let Some(turn) = c.turn_ms {
            let turn = turn.saturating_sub(30 + turn / 20);
            opt = opt.min(turn);
            max = max.min(turn);
        }
        opt = opt.min(max);
        soft = Some(soft.map_or(opt * 6 / 10, |s| s.min(opt * 6 / 10)));
        hard = Some(hard.map_or(max, |h| h.min(max)));
    }
    (
        soft.map(Duration::from_millis),
        hard.map(|h| Duration::from_millis(h.max(1))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::rule::Rule;

    #[test]
    fn clock_budget_never_exceeds_the_time_left() {
        let b = Board::from_moves(15, Rule::Renju, &Pos::parse_list("h8 i9", 15).unwrap()).unwrap();
        let l = Limits {
            clock: Some(Clock {
                time_left_ms: 1000,
                increment_ms: 0,
                turn_ms: Some(5000),
            }),
            ..Limits::default()
        };
        let (soft, hard) = time_budget(&l, &b);
        assert!(hard.unwrap() <= Duration::from_millis(1000 / 4));
        assert!(soft.unwrap() <= hard.unwrap());
        let l = Limits {
            clock: Some(Clock {
                time_left_ms: 100_000,
                increment_ms: 0,
                turn_ms: Some(300),
            }),
            ..Limits::default()
        };
        assert!(time_budget(&l, &b).1.unwrap() < Duration::from_millis(300));
    }
}
