//! Tuner: SPSA tuning of engine parameters on top of the arena, and fits of the evaluation
//! weights to recorded games.
//!
//! From the ground up (a module uses only those listed before it):
//!
//! - [`spsa`]: the SPSA method (schedules: fishtest's and adam, perturbation, stochastic
//!   rounding, update).
//! - [`error`]: the library's error type.
//! - [`lock`]: the tune folder's lock, for shared filesystems (NFS included).
//! - [`history`]: the per-iteration CSV history and atomic file writes.
//! - [`setting`]: the values a tuned player plays with (engine parameters or brain values).
//! - [`config`]: the resolved tune ([`TuneConfig`]) and its verification match.
//! - [`spec`]: the tune specification (TOML), checked against the engine's declared ranges.
//! - [`folder`]: a tune folder's files: names, `tune.json`, parameter files.
//! - [`state`]: the tune's state (iterations applied, theta, results; `state.json`).
//! - [`play`]: the games of an iteration, pairs played in parallel.
//! - [`store`]: where the state lives while a tune runs: a local folder, or a shared one with
//!   a lock and claims.
//! - [`tune`]: the one SPSA loop over a store; one-machine tunes with checkpoint and resume.
//! - [`shared`]: shared tunes, run by worker processes on one folder (asynchronous SPSA).
//! - [`verify`]: the match of the tuned set against the start, played by the arena.
//! - [`status`]: the progress of a tune folder, as `wuzi-tune status` prints it.
//! - [`chart`]: parameter paths and the running score as PNG and SVG.
//! - [`report`]: the tune's self-contained `report.html` (parameters, charts, history,
//!   verification and its games).
//! - [`fit`]: evaluation weights fitted to recorded games (Texel-style), beside SPSA.
//! - [`command`]: the bodies of `wuzi-tune`'s commands (output, progress bars).

#![warn(missing_docs)]

pub mod chart;
pub mod command;

pub mod config;
pub mod error;
pub mod fit;
pub mod folder;
pub mod history;
pub mod lock;
pub mod play;
pub mod report;
pub mod setting;
pub mod shared;
pub mod spec;
pub mod spsa;
pub mod state;
pub mod status;
pub mod store;
pub mod tune;
pub mod verify;

pub use config::TuneConfig;
pub use error::TuneError;
pub use spec::TuneSpec;
pub use tune::{tune, TuneOptions, TuneOutcome};
