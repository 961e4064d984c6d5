//! A game clock, as a limit of a search.

/// A game clock for time management.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the rest of the game, in milliseconds.
    pub time_left_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
    /// Most time allowed for one move (Gomocup `timeout_turn`), if any.
    pub turn_ms: Option<u64>,
}
