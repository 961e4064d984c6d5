//! Runs of many wuzi games: what to play, playing it in parallel, and what is left on disk.
//!
//! - [`config`]: a run's configuration ([`RunConfig`]) and its deterministic schedule
//!   (openings, colours, seeds, shards, sweep grids).
//! - [`run`]: the parallel runner with SPRT early stopping, `--resume` and `merge`.
//! - [`run_dir`]: the files of a run folder; folders shared by the shards of one run.
//! - [`replay`]: one recorded game played again with its players and compared move by move.
//! - [`analysis`]: every position of a run's games searched by an analyst; mistakes per
//!   player, decisive mistakes, positions exported as a tactics suite.
//! - [`summary`]: per-matchup tallies in pair order, the summary and its tables.
//! - [`interrupt`]: Ctrl-C / SIGTERM: one process-wide flag that stops runs cleanly.
//! - [`atomic`]: files written whole or not at all.
//! - [`stdout`]: the commands' standard output, where a closed pipe is not a panic.
//! - [`error`]: [`ArenaError`], which also carries the players' and games' errors.
//!
//! Floors, each using only those below it: `error`, `interrupt`, `stdout` at the ground;
//! `atomic`; `config`; `summary`; `run_dir`; `run` and `replay`; `analysis` on top (it names
//! games as `replay` does).

#![warn(missing_docs)]

pub mod analysis;
pub mod atomic;
pub mod config;
pub mod error;
pub mod interrupt;
pub mod replay;
pub mod run;
pub mod run_dir;
pub mod stdout;
pub mod summary;

pub use config::{Matchup, RunConfig, RunKind, Shard};
pub use error::ArenaError;
pub use run::{merge, run, RunOptions, RunOutcome};
pub use summary::Summary;
