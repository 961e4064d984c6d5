//! What can be wrong with a command or a board line.

use thiserror::Error;

/// A command or board line that cannot be carried out. The brain answers `ERROR` and the
/// message, and keeps its state.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// A game command before `START`.
    #[error("no game: send START first")]
    NoGame,
    /// `START` with a size that is not a number from 5 to 20.
    #[error("unsupported board size '{0}' (square boards from 5 to 20 only)")]
    BadSize(String),
    /// `RECTSTART` with anything but a square board from 5 to 20.
    #[error("unsupported board {0} (square boards from 5 to 20 only)")]
    BadRect(String),
    /// Coordinates that are not `x,y` with two non-negative integers.
    #[error("bad coordinates '{0}': expected x,y with two numbers from 0")]
    BadCoords(String),
    /// Coordinates outside the board.
    #[error("{x},{y} is off the {size}x{size} board")]
    OffBoard {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// Board side.
        size: usize,
    },
    /// A stone on a point that already holds one.
    #[error("{x},{y} is already occupied")]
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A `BOARD` line that is not `x,y,who` with `who` 1, 2 or 3.
    #[error("bad board line '{0}': expected x,y,who with who 1 (own), 2 (opponent) or 3")]
    BadBoardLine(String),
    /// `TAKEBACK` of an empty point.
    #[error("no stone at {x},{y} to take back")]
    NothingToTakeBack {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// `INFO` with a value that does not fit the key.
    #[error("bad INFO value '{value}' for {key}")]
    BadInfo {
        /// The key, lower case.
        key: String,
        /// The rejected value.
        value: String,
    },
    /// `INFO NAME VALUE` for one of the engine's tunable parameters with a value it does
    /// not take (not an integer, or outside the declared range).
    #[error("parameter {name}: {message}")]
    BadParam {
        /// The parameter, as `wuzi params` names it.
        name: String,
        /// The engine's complaint (names the range).
        message: String,
    },
    /// `INFO` without a value.
    #[error("INFO needs a key and a value")]
    InfoMissingValue,
    /// A move was asked for but the board has no legal point left.
    #[error("no legal move left: the board is full")]
    NoMove,
    /// A `SWAP2BOARD` line that is not `x,y`.
    #[error("bad SWAP2BOARD line '{0}': expected x,y")]
    BadSwap2Line(String),
    /// `SWAP2BOARD` with a stone count other than 0, 3 or 5.
    #[error("SWAP2BOARD with {0} stones: swap2 asks with 0, 3 or 5")]
    Swap2Stones(usize),
}
