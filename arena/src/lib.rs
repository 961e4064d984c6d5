//! Arena: engine-vs-engine matches, statistics, records and charts.
//!
//! - [`player`]: player specifications and the [`player::Player`] trait (the in-process engine
//!   now; an external Gomocup brain can be added as another implementation).
//! - [`opening`]: renju openings in all symmetries, Gomocup and move-list files, random
//!   balanced openings, duplicate removal.
//! - [`referee`]: plays and adjudicates one game (legality, renju fouls, five rules, clocks).
//! - [`stats`]: pentanomial statistics and the SPRT.

#![warn(missing_docs)]

pub mod error;
pub mod opening;
pub mod player;
pub mod referee;
pub mod stats;

pub use error::ArenaError;
pub use player::{Player, PlayerLimits, PlayerSpec};
