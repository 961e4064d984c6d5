//! What can be wrong with a position or a move.

use crate::pos::{NotationError, Pos};
use thiserror::Error;

/// A problem with a position or a move.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// Board side outside 5..=20.
    #[error("board size {0} is not supported (5 to 20)")]
    BadSize(usize),
    /// A point outside the board.
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(Pos, usize),
    /// A point that already holds a stone.
    #[error("{0} is already occupied")]
    Occupied(Pos),
    /// A malformed point or move list.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A diagram row of the wrong length or with an unknown character.
    #[error("bad diagram: {0}")]
    Diagram(String),
}
