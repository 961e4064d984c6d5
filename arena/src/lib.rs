//! Arena: engine-vs-engine matches, statistics, records, charts, reports and the gate.
//!
//! The arena is built as floors of crates, each using only those below it (see the README's
//! "Architecture"):
//!
//! | floor | crate | owns |
//! |---|---|---|
//! | 1 | `wuzi-stats` ([`stats`]) | W/D/L and pentanomial tallies, Elo, LOS, the SPRT (pure) |
//! | 1 | `wuzi-charts` ([`chart`]) | PNG + SVG charts (drawing only) |
//! | 1 | `wuzi-players` ([`player`], [`external`], [`registry`]) | the `Player` trait, the engine, external brains, limits |
//! | 2 | `wuzi-games` ([`opening`], [`adjudication`], [`referee`], [`record`], [`sgf`]) | one game: openings, adjudication, referee, records, SGF |
//! | 3 | `wuzi-runs` ([`config`], [`run`], [`run_dir`], [`summary`], [`interrupt`], [`error`], [`replay`], [`analysis`]) | many games: schedule, runner, run folders, summaries, replay, analysis |
//! | 4 | `wuzi-reports` ([`report`], [`run_charts`]) | charts and HTML reports of run folders |
//! | 5 | `wuzi-arena` (this crate) | [`gate`], [`bench`], [`default_match`] and the `wuzi-arena` command |
//!
//! This crate also re-exports the floors below under the module names the arena has always
//! had (`wuzi_arena::run`, `wuzi_arena::player`, ...), so programs built on the arena (the
//! tuner, the tests) need one dependency.
//!
//! - [`gate`]: the strength-regression gate (suites, then an SPRT against a baseline).
//! - [`bench`]: measurements of the arena itself (overhead, scaling, CPU time, peak memory).
//! - [`default_match`]: the built-in default match (`wuzi-arena match` with no `--player`).

#![warn(missing_docs)]

pub mod bench;
pub mod default_match;
pub mod gate;

pub use wuzi_charts as chart;
pub use wuzi_games::{adjudication, opening, progress, record, referee, sgf};
pub use wuzi_players as player;
pub use wuzi_players::{external, registry};
pub use wuzi_reports as report;
pub use wuzi_reports::run_charts;
pub use wuzi_runs::{
    analysis, config, error, interrupt, out, outln, replay, run, run_dir, stdout, summary,
};
pub use wuzi_stats as stats;

pub use config::{Matchup, RunConfig, RunKind, Shard};
pub use error::ArenaError;
pub use player::{Player, PlayerLimits, PlayerSpec};
pub use record::GameRecord;
pub use summary::Summary;
pub use wuzi_games::GamesError;
pub use wuzi_players::SpecError;
pub use wuzi_runs::{merge, RunOptions, RunOutcome};
