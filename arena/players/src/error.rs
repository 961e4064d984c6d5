//! The error of player specifications: what is wrong with a `--player` text, a parameter
//! file or a setting given to a player.

use thiserror::Error;
use wuzi_engine::ParamError;

/// A player that cannot be described or built. Each variant names the player or the text at
/// fault and includes the underlying message (no separate `source`, which would print the
/// same message twice in an error chain).
#[derive(Debug, Error)]
pub enum SpecError {
    /// A parameter file or `--set` override was rejected by the engine.
    #[error("player '{player}': {error}")]
    Params {
        /// The player whose parameters are bad.
        player: String,
        /// The engine's complaint (malformed TOML, unknown parameter, out of range).
        error: ParamError,
    },
    /// A malformed player specification (`--player name=...,nodes=...`).
    #[error("bad player spec '{spec}': {message}")]
    PlayerSpec {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// A request the player cannot take (a parameter set on a player that has none).
    #[error("{0}")]
    Config(String),
}

/// Result alias of player specifications.
pub type Result<T, E = SpecError> = std::result::Result<T, E>;
