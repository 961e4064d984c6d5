//! The error of runs: everything that can go wrong setting up or running an arena job.

use std::path::PathBuf;

use thiserror::Error;
use wuzi_engine::BoardError;
use wuzi_games::GamesError;
use wuzi_players::SpecError;

use wuzi_stats::SprtParamError;

/// Everything that can go wrong setting up or running an arena job. Each variant names the
/// input at fault (file, line, player, parameter) and includes the underlying error's message,
/// so the command line can print it as is (the variants carry no separate `source`, which
/// would print the same message twice in an error chain).
#[derive(Debug, Error)]
pub enum ArenaError {
    /// A file could not be read, written or created.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A bad sweep axis (`--grid name=lo:hi:step`, `--values`).
    #[error("bad sweep: {0}")]
    Sweep(String),
    /// A bad SPRT specification.
    #[error("bad --sprt: {0}")]
    Sprt(SprtParamError),
    /// A bad `--shard i/n` (the message names the problem).
    #[error("bad --shard {0}")]
    Shard(String),
    /// An inconsistent run configuration (no players, no openings, bad board size...).
    #[error("{0}")]
    Config(String),
    /// `--resume` or `merge` found records of a different run configuration.
    #[error("{0}")]
    Mismatch(String),
    /// A player that cannot be described or built.
    #[error(transparent)]
    Player(#[from] SpecError),
    /// A bad opening source or records file.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// A board error outside of a game (replaying a stored game, checking an opening).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A chart could not be drawn or written.
    #[error("chart: {0}")]
    Chart(String),
    /// A brain registry that cannot be used, or an unknown brain.
    #[error(transparent)]
    Registry(#[from] wuzi_players::registry::RegistryError),
    /// A JSON file (run configuration, summary) that does not parse.
    #[error("{path}: {error}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        error: serde_json::Error,
    },
}

impl From<SprtParamError> for ArenaError {
    fn from(e: SprtParamError) -> Self {
        ArenaError::Sprt(e)
    }
}

impl ArenaError {
    /// An [`ArenaError::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        ArenaError::Io {
            path: path.into(),
            error,
        }
    }
}

/// Result alias of the arena library.
pub type Result<T, E = ArenaError> = std::result::Result<T, E>;
