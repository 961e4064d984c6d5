//! What can go wrong with a game file.

use crate::board::BoardError;
use thiserror::Error;

/// A game file that cannot be read, written or replayed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameFileError {
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The text is not a game in either format.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// A move that cannot be played.
    #[error("move {number} ({pos}): {error}")]
    Move {
        /// 1-based move number.
        number: usize,
        /// The point, in notation (or as written).
        pos: String,
        /// Why.
        error: BoardError,
    },
    /// The game ends before the file does.
    #[error("the game is over after move {number} ({outcome}) but the file goes on")]
    MovesAfterEnd {
        /// The last move of the game.
        number: usize,
        /// How it ended.
        outcome: String,
    },
}
