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

/// How long one move may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TimeBudget {
    /// Start no further iteration after this.
    pub soft: Option<Duration>,
    /// Stop now.
    pub hard: Option<Duration>,
    /// A match clock binds: time not spent now is there for later moves, so `soft` is a
    /// plan the search scales by how settled it is. Without it (a fixed time per move, or
    /// a clock whose turn limit is the tighter one) the search uses the whole turn, since
    /// an unfinished iteration still gives the moves it proved better.
    pub saving: bool,
}

/// The time budget of a search under `l` on `b`.
pub(crate) fn time_budget(l: &Limits, b: &Board) -> TimeBudget {
    let mut soft: Option<u64> = l.time_ms;
    let mut hard: Option<u64> = l.time_ms;
    let mut saving = false;
    if let Some(c) = l.clock {
        let empties = (b.size() * b.size()).saturating_sub(b.stone_count()) as u64;
        let moves_to_go = (empties / 3).clamp(8, 30);
        // Keep a margin for process and pipe latency; never plan to use the last of the clock.
        let margin = 30 + c.time_left_ms / 50;
        let left = c.time_left_ms.saturating_sub(margin);
        let mut opt = left / moves_to_go + c.increment_ms * 8 / 10;
        let mut max = (left / 4 + c.increment_ms).min(left);
        saving = true;
        if let Some(turn) = c.turn_ms {
            let turn = turn.saturating_sub(30 + turn / 20);
            // Is the match clock, not the turn limit, what this move must save for?
            saving = opt < turn;
            opt = opt.min(turn);
            max = max.min(turn);
        }
        opt = opt.min(max);
        let planned = if saving { opt * 6 / 10 } else { max };
        soft = Some(soft.map_or(planned, |s| s.min(planned)));
        hard = Some(hard.map_or(max, |h| h.min(max)));
    }
    TimeBudget {
        soft: soft.map(Duration::from_millis),
        hard: hard.map(|h| Duration::from_millis(h.max(1))),
        saving,
    }
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
        let t = time_budget(&l, &b);
        assert!(t.hard.unwrap() <= Duration::from_millis(1000 / 4));
        assert!(t.soft.unwrap() <= t.hard.unwrap());
        assert!(t.saving, "a short match clock binds");
        let l = Limits {
            clock: Some(Clock {
                time_left_ms: 100_000,
                increment_ms: 0,
                turn_ms: Some(300),
            }),
            ..Limits::default()
        };
        let t = time_budget(&l, &b);
        assert!(t.hard.unwrap() < Duration::from_millis(300));
        // The turn limit binds: the whole turn is used.
        assert_eq!(t.soft, t.hard);
        assert!(!t.saving);
    }

    #[test]
    fn a_fixed_time_per_move_is_used_whole() {
        let b = Board::new(15, Rule::Renju).unwrap();
        let t = time_budget(&Limits::time_ms(500), &b);
        assert_eq!(t.hard, Some(Duration::from_millis(500)));
        assert_eq!(t.soft, t.hard);
        assert!(!t.saving);
    }
}
