//! One game of wuzi's arena: where it starts, how it is played and refereed, how it is
//! recorded.
//!
//! - [`opening`]: renju openings in all symmetries, Gomocup and move-list files, random
//!   balanced openings, symmetric deduplication.
//! - [`referee`]: plays and adjudicates one game (legality, renju fouls, five rules, clocks)
//!   between two [`wuzi_players::Player`]s.
//! - [`record`]: JSON-lines game records, PSQ and move-list export.
//! - [`sgf`]: SGF export of records.
//! - [`error`]: the errors of openings and records, [`GamesError`].
//!
//! Floors: `error` and `opening` at the ground, `referee` above `opening`, `record` above
//! both, `sgf` above `record`.

#![warn(missing_docs)]

pub mod error;
pub mod opening;
pub mod record;
pub mod referee;
pub mod sgf;

pub use error::GamesError;
pub use opening::Opening;
pub use record::GameRecord;
