//! Arena: engine-vs-engine matches, statistics, records and charts.
//!
//! - [`player`]: player specifications and the [`player::Player`] trait (the in-process engine,
//!   the classic reference player, external brains).
//! - [`external`]: external Gomocup brains (`pbrain-*` programs) run as child processes.
//! - [`opening`]: renju openings in all symmetries, Gomocup and move-list files, random
//!   balanced openings, symmetric deduplication.
//! - [`referee`]: plays and adjudicates one game (legality, renju fouls, five rules, clocks).
//! - [`config`]: a run's configuration and its deterministic schedule (openings, colours, seeds,
//!   shards, sweep grids).
//! - [`default_match`]: the built-in default match (`wuzi-arena match` with no `--player`).
//! - [`run`]: the parallel runner with SPRT early stopping, records, `--resume` and `merge`.
//! - [`run_dir`]: the files of a run folder; folders shared by the shards of one run.
//! - [`run_charts`]: the charts of a run (score, colours, SPRT path, sweep Elo), PNG + SVG.
//! - [`summary`]: per-matchup tallies in pair order, the summary and its tables.
//! - [`record`]: JSON-lines game records, PSQ and move-list export.
//! - [`report`]: self-contained HTML reports (summary, inline SVG charts, per-opening table,
//!   non-five endings, a game viewer) of runs and gates.
//! - [`stats`]: pentanomial statistics and the SPRT.
//! - [`gate`]: the strength-regression gate (suites, then an SPRT against a baseline).
//! - [`interrupt`]: Ctrl-C / SIGTERM: one process-wide flag that stops runs cleanly.
//! - [`bench`]: measurements of the arena itself (overhead, scaling, CPU time, peak memory).
//! - [`chart`]: PNG + SVG charts of scores, Elo sweeps, SPRT runs, colour splits and tuning.

#![warn(missing_docs)]

pub mod bench;
pub mod chart;
pub mod config;
pub mod default_match;
pub mod error;
pub mod external;
pub mod gate;
pub mod interrupt;
pub mod opening;
pub mod player;
pub mod record;
pub mod referee;
pub mod registry;
pub mod report;
pub mod run;
pub mod run_charts;
pub mod run_dir;
pub mod stats;
pub mod summary;

pub use config::{Matchup, RunConfig, RunKind, Shard};
pub use error::ArenaError;
pub use player::{Player, PlayerLimits, PlayerSpec};
pub use record::GameRecord;
pub use run::{merge, run, RunOptions, RunOutcome};
pub use summary::Summary;
