//! Tuner: SPSA tuning of engine parameters on top of the arena, and fits of the evaluation
//! weights to recorded games.
//!
//! - [`spsa`]: the SPSA method (schedule, perturbation, stochastic rounding, update).
//! - [`spec`]: the tune specification (TOML), checked against the engine's declared ranges.
//! - [`tune`]: the tuning loop, parallel game pairs, checkpoint and resume.
//! - [`shared`]: shared tunes, run by worker processes on one folder (asynchronous SPSA).
//! - [`lock`]: the tune folder's lock, for shared filesystems (NFS included).
//! - [`history`]: the per-iteration CSV history and atomic file writes.
//! - [`verify`]: the match of the tuned set against the start, played by the arena.
//! - [`chart`]: parameter paths and the running score as PNG and SVG.
//! - [`report`]: the tune's self-contained `report.html` (parameters, charts, history,
//!   verification and its games).
//! - [`fit`]: evaluation weights fitted to recorded games (Texel-style), beside SPSA.

#![warn(missing_docs)]

pub mod chart;
pub mod error;
pub mod fit;
pub mod history;
pub mod lock;
pub mod report;
pub mod shared;
pub mod spec;
pub mod spsa;
pub mod tune;
pub mod verify;

pub use error::TuneError;
pub use spec::{TuneConfig, TuneSpec};
pub use tune::{tune, TuneOptions, TuneOutcome};
