//! The fitter's error type.

use std::path::PathBuf;

use thiserror::Error;
use wuzi_arena::ArenaError;
use wuzi_engine::ParamError;

/// Everything that stops a fit. Each variant names the input at fault, so the command line
/// can print it as is; all are detected before any output file is written.
#[derive(Debug, Error)]
pub enum FitError {
    /// A records path that is not an arena run directory (or its `games.jsonl`).
    #[error("{path}: {message}")]
    Source {
        /// The path given with `--records`.
        path: PathBuf,
        /// What is missing.
        message: String,
    },
    /// The arena could not read a run: `run.json`, a damaged line of `games.jsonl` (named by
    /// file and line), a record that does not belong to its run.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// Records of different board sizes or rules.
    #[error("{path}: {found}, but {first} is {expected}; fit records of one rule and board size at a time")]
    Mismatch {
        /// The run that differs.
        path: PathBuf,
        /// Its rule and size.
        found: String,
        /// The first run.
        first: PathBuf,
        /// The first run's rule and size.
        expected: String,
    },
    /// A recorded game that cannot be replayed on the board.
    #[error("{path}: pair {pair} game {game}: {message}")]
    Replay {
        /// The records file.
        path: PathBuf,
        /// The game's pair.
        pair: u64,
        /// 0 or 1.
        game: u8,
        /// What went wrong.
        message: String,
    },
    /// A parameter file that cannot be loaded.
    // The engine's message may start with the path already: it is not repeated.
    #[error("parameter file {}: {}", .path.display(), .error.without_path(.path))]
    ParamFile {
        /// The file.
        path: PathBuf,
        /// The engine's complaint.
        error: ParamError,
    },
    /// A parameter name the engine does not declare.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A declared parameter that the evaluation does not read.
    #[error("'{0}' is a search parameter, not an evaluation weight: tune it with SPSA (`wuzi-tune tune`); evaluation weights: {1}")]
    NotEval(String, String),
    /// No position survived the filters.
    #[error("no positions to fit: {0}")]
    EmptySample(String),
    /// An option out of its range.
    #[error("{0}")]
    Options(String),
    /// A file could not be written.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A chart could not be drawn.
    #[error("chart {path}: {message}")]
    Chart {
        /// The image stem.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl FitError {
    /// A [`FitError::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        FitError::Io {
            path: path.into(),
            error,
        }
    }
}
