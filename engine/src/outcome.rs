//! How a game ended.

use crate::stone::Stone;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WinReason {
    /// The winner made five in a row (exactly five where the rule asks for it).
    Five,
    /// Renju: black played a forbidden move and lost.
    Forbidden,
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winning colour.
        winner: Stone,
        /// How.
        reason: WinReason,
    },
    /// The board is full and nobody won.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win {
                winner,
                reason: WinReason::Five,
            } => write!(f, "{winner} wins by five"),
            Outcome::Win {
                winner,
                reason: WinReason::Forbidden,
            } => write!(f, "{winner} wins: black played a forbidden move"),
            Outcome::Draw => f.write_str("draw: the board is full"),
        }
    }
}
