//! What the manager set with `INFO`: time and memory, and the limits of a move under them.

use crate::clock::Clock;
use crate::limits::Limits;

/// Nodes searched when `timeout_turn` is 0 ("play at once").
pub const QUICK_NODES: u64 = 3_000;
/// `timeout_turn` before any `INFO` (the piskvork default), in milliseconds.
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 30_000;
/// `timeout_match` before any `INFO` (the piskvork default), in milliseconds.
pub const DEFAULT_TIMEOUT_MATCH_MS: u64 = 1_000_000_000;
/// The game clock used when the match time is unlimited, in milliseconds.
pub(super) const UNLIMITED_MS: u64 = 1_000_000_000;
/// Below this much time for a move, search a fixed small number of nodes instead.
const QUICK_BELOW_MS: u64 = 15;
/// Nodes searched when the clock is about to run out (a few milliseconds' work).
pub const PANIC_NODES: u64 = 300;

/// Time and memory settings from `INFO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Milliseconds per move; 0 = play at once.
    pub timeout_turn: u64,
    /// Milliseconds per game; 0 = no limit.
    pub timeout_match: u64,
    /// Milliseconds left in the game, as last sent.
    pub time_left: Option<u64>,
    /// Memory limit in bytes; 0 = none.
    pub max_memory: u64,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network).
    pub game_type: u32,
    /// `max_node` (Yixin-Board): most nodes per search.
    pub max_nodes: Option<u64>,
    /// `max_depth` (Yixin-Board): deepest iteration per search.
    pub max_depth: Option<i32>,
}

impl Settings {
    /// Is every search limited by nodes or depth rather than the clock (so reproducible)?
    pub fn is_reproducible(&self) -> bool {
        self.max_nodes.is_some() || self.max_depth.is_some()
    }

    /// The limits for a move when `elapsed_ms` have already passed since the command came:
    /// `max_node`/`max_depth` when set (no clock then), else the time settings.
    pub fn limits(&self, elapsed_ms: u64) -> Limits {
        let s = self;
        if s.is_reproducible() {
            return Limits {
                nodes: s.max_nodes,
                depth: s.max_depth,
                ..Limits::default()
            };
        }
        if s.timeout_turn == 0 {
            return Limits::nodes(QUICK_NODES);
        }
        let game_left = if s.timeout_match == 0 {
            UNLIMITED_MS
        } else {
            s.time_left.unwrap_or(s.timeout_match)
        };
        let turn = s.timeout_turn.saturating_sub(elapsed_ms);
        let left = game_left.saturating_sub(elapsed_ms);
        if turn.min(left) < QUICK_BELOW_MS {
            return Limits::nodes(PANIC_NODES);
        }
        Limits {
            clock: Some(Clock {
                time_left_ms: left,
                increment_ms: 0,
                turn_ms: Some(turn),
            }),
            ..Limits::default()
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
            timeout_match: DEFAULT_TIMEOUT_MATCH_MS,
            time_left: None,
            max_memory: 0,
            game_type: 0,
            max_nodes: None,
            max_depth: None,
        }
    }
}
