//! The error of openings and game records.

use std::path::PathBuf;

use thiserror::Error;
use wuzi_engine::BoardError;

/// A bad opening source or record file. Each variant names the input at fault (file, line)
/// and includes the underlying message (no separate `source`, which would print the same
/// message twice in an error chain).
#[derive(Debug, Error)]
pub enum GamesError {
    /// A file could not be read, written or created.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A bad opening source, file or line.
    #[error("openings {source_name}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    Opening {
        /// File name or built-in source name.
        source_name: String,
        /// 1-based line number, when the problem is on one line.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A records file that cannot be used (a corrupt line, a record of another run).
    #[error("{path}, line {line}: {message}")]
    Record {
        /// The records file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A request that cannot be met (a board size no opening fits).
    #[error("{0}")]
    Config(String),
    /// A board error outside of a game (replaying a stored game, checking an opening).
    #[error(transparent)]
    Board(#[from] BoardError),
}

impl GamesError {
    /// A [`GamesError::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        GamesError::Io {
            path: path.into(),
            error,
        }
    }
}

/// Result alias of openings and records.
pub type Result<T, E = GamesError> = std::result::Result<T, E>;
