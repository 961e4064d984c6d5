//! One game of wuzi's arena: where it starts, how it is played and refereed, how it is
//! recorded.
//!
//! - [`opening`]: renju openings in all symmetries, Gomocup and move-list files, random
//!   balanced openings, symmetric deduplication.
//! - [`adjudication`]: ending a game early by proof (VCF) or by the players' scores.
//! - [`referee`]: plays and adjudicates one game (legality, renju fouls, five rules, clocks)
//!   between two [`wuzi_players::Player`]s.
//! - [`record`]: JSON-lines game records, PSQ and move-list export.
//! - [`sgf`]: SGF export of records.
//! - [`error`]: the errors of openings and records, [`GamesError`].
//! - [`progress`]: progress bars on standard error, one look for every long job.
//!
//! Floors: `error`, `opening` and `adjudication` at the ground, `referee` above them,
//! `record` above it, `sgf` above `record`.

#![warn(missing_docs)]

pub mod adjudication;
pub mod error;
pub mod opening;
pub mod progress;
pub mod record;
pub mod referee;
pub mod sgf;

pub use error::GamesError;
pub use opening::Opening;
pub use record::GameRecord;
