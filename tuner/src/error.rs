//! The tuner library's error type.

use std::path::PathBuf;

use thiserror::Error;
use wuzi_arena::stats::SprtParamError;
use wuzi_arena::ArenaError;
use wuzi_engine::{BoardError, ParamError};

use crate::fit::FitError;
use crate::spsa::SpsaError;

/// Everything that can go wrong reading a tune specification, tuning or verifying. Each
/// variant names the input at fault (file, key, line) and includes the underlying message, so
/// the command line can print it as is.
#[derive(Debug, Error)]
pub enum TuneError {
    /// The specification file is not valid TOML or has a field of the wrong type or an unknown
    /// field.
    #[error("{path}: {message}")]
    SpecSyntax {
        /// The specification file.
        path: PathBuf,
        /// The parser's message (with line and column).
        message: String,
    },
    /// A key of the specification has a value that cannot be used.
    #[error("{key}: {message}")]
    Spec {
        /// The key, as `params.defence.min` or `pairs_per_iteration`.
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A parameter file (the base set, a tuned set) could not be loaded.
    // The engine's message may start with the path already: it is not repeated.
    #[error("parameter file {}: {}", .path.display(), .error.without_path(.path))]
    ParamFile {
        /// The parameter file.
        path: PathBuf,
        /// The engine's complaint.
        error: ParamError,
    },
    /// The engine rejected a parameter value (should not happen with a validated spec).
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The SPSA set-up was rejected.
    #[error(transparent)]
    Spsa(#[from] SpsaError),
    /// The external brain refused a parameter value (it named it in an `ERROR`, or did not
    /// start with it): the tune stops; its checkpoint keeps the iterations completed.
    #[error("{0} (the tune stops; its checkpoint keeps the iterations completed)")]
    Rejected(String),
    /// The arena rejected the openings, the players or a verification run.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// A board error while playing an opening.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A checkpoint that does not parse.
    #[error("{path}: {error}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        error: serde_json::Error,
    },
    /// The history file does not agree with the checkpoint.
    #[error("{path}, line {line}: {message}")]
    History {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The output directory holds a tune that cannot be continued with these settings, or
    /// none when one is needed.
    #[error("{0}")]
    State(String),
    /// A signal (Ctrl-C, SIGTERM) stopped the games of an iteration; the checkpoint holds
    /// the last completed one.
    #[error("interrupted")]
    Interrupted,
    /// A command-line option has a value that cannot be used.
    #[error("{0}")]
    Usage(String),
    /// The spec named here could not be resolved.
    #[error("spec {}", .path.display())]
    InSpec {
        /// The spec file.
        path: PathBuf,
        /// Why.
        #[source]
        error: Box<TuneError>,
    },
    /// An SPRT given on the command line does not parse.
    #[error(transparent)]
    Sprt(#[from] SprtParamError),
    /// A fit of evaluation weights failed.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// The worker threads could not be started.
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// A chart could not be drawn.
    #[error("chart {path}: {message}")]
    Chart {
        /// The image file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl TuneError {
    /// A [`TuneError::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        TuneError::Io {
            path: path.into(),
            error,
        }
    }

    /// A [`TuneError::Spec`] for `key`.
    pub fn spec(key: impl Into<String>, message: impl Into<String>) -> Self {
        TuneError::Spec {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// Result alias of the tuner library.
pub type Result<T, E = TuneError> = std::result::Result<T, E>;
