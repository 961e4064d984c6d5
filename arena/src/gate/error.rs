//! The gate's error ([`GateError`]).
use std::path::PathBuf;

use super::config::DEFAULT_REFERENCE;
use thiserror::Error;
use wuzi_engine::suite::SuiteError;

use wuzi_runs::error::ArenaError;

/// Why the gate could not run (exit status 2). Each names the input at fault.
#[derive(Debug, Error)]
pub enum GateError {
    /// A bad player, opening, SPRT or run setting, or a failed run.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// A suite folder or file that cannot be read or parsed.
    #[error("suite: {0}")]
    Suite(#[from] SuiteError),
    /// A suite path without a single case.
    #[error("suite {0}: no cases found")]
    EmptySuite(PathBuf),
    /// An inconsistent gate configuration.
    #[error("{0}")]
    Config(String),
    /// A git command failed (unknown reference, not a repository, worktree problems).
    #[error("git {command}: {message}")]
    Git {
        /// The git arguments.
        command: String,
        /// What git said.
        message: String,
    },
    /// A built brain does not report the commit it was built from (issue 14: a build that
    /// is not the code it claims to be must never be played).
    #[error(
        "{what}: {} reports {reported}, expected commit {expected}; refusing to play a build \
         that is not the code it claims to be",
        binary.display()
    )]
    WrongCommit {
        /// Which brain (`the candidate`, `baseline <ref>`).
        what: String,
        /// The binary asked.
        binary: PathBuf,
        /// The commit it should report.
        expected: String,
        /// What it reported.
        reported: String,
    },
    /// Building an engine failed.
    #[error("building {what} failed: {message} (full log: {})", log.display())]
    Build {
        /// What was built (`the candidate`, `baseline <ref>`).
        what: String,
        /// The end of the build output, or why the build could not start.
        message: String,
        /// The build log.
        log: PathBuf,
    },
    /// A build that succeeded left no brain where its registry entry's `binary` says.
    #[error(
        "building {what}: the build succeeded but left no executable brain '{}' (looked for {}; \
         full log: {})",
        binary.display(),
        looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" and "),
        log.display()
    )]
    NoBinary {
        /// What was built (`the candidate`, `baseline <ref>`).
        what: String,
        /// The entry's `binary`.
        binary: PathBuf,
        /// The paths looked at.
        looked: Vec<PathBuf>,
        /// The build log.
        log: PathBuf,
    },
    /// Candidate and baseline are the same player (same binary and same parameters): every
    /// game pair is a mirror, so the gate would pass whatever the engine's code does.
    #[error(
        "candidate and baseline are the same player ({0}): their games are mirror pairs that \
         prove nothing, so this gate could not fail; compare with another build \
         (--baseline-ref, or the recorded reference of {DEFAULT_REFERENCE}) or other \
         parameters, or pass --allow-identical to play them anyway"
    )]
    IdenticalPlayers(String),
    /// A signal (Ctrl-C, SIGTERM) stopped the gate before its verdict (see
    /// [`wuzi_runs::interrupt`]); the games played are recorded in `dir`.
    #[error(
        "interrupted after {games} of {planned} games: no verdict{}",
        dir.as_ref().map_or_else(String::new, |d| format!(" (the games played are in {})", d.display()))
    )]
    Interrupted {
        /// Games finished.
        games: u64,
        /// Games the budget allows.
        planned: u64,
        /// The match folder, once games started.
        dir: Option<PathBuf>,
    },
    /// A file of the output folder could not be written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
}

impl GateError {
    pub(crate) fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        GateError::Io {
            path: path.into(),
            error,
        }
    }
}

impl From<wuzi_players::SpecError> for GateError {
    fn from(e: wuzi_players::SpecError) -> Self {
        GateError::Arena(e.into())
    }
}

impl From<wuzi_games::GamesError> for GateError {
    fn from(e: wuzi_games::GamesError) -> Self {
        GateError::Arena(e.into())
    }
}
