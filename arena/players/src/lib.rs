//! Players of wuzi's arena: who plays a game, under which limits, and the [`Player`] trait the
//! referee talks to.
//!
//! - [`player`]: the [`Player`] trait and its messages (game start, move request, reply,
//!   failure, report) — all a referee knows of a player.
//! - [`limits`]: [`PlayerLimits`] (nodes, depth, move time, game clock, threads, hash).
//! - [`engine_player`]: the in-process engine ([`EnginePlayer`]).
//! - [`scripted`]: a player that replays fixed moves ([`Scripted`]).
//! - [`external`]: external Gomocup brains (`pbrain-*` programs) run as child processes.
//! - [`registry`]: brains named in a registry file (`engines.toml`).
//! - [`spec`]: [`PlayerSpec`], the serializable description of a player, parsed from
//!   `--player` text and built into a [`Player`].
//! - [`timer`]: clocks on the engine's searches (the arena's own overhead is the rest).
//! - [`error`]: the errors of describing and building players, [`SpecError`].
//!
//! Floors, each using only those below it: `player`, `limits`, `timer`, `error` at the
//! ground; `engine_player`, `scripted`, `external`; `registry`; `spec` on top.

#![warn(missing_docs)]

pub mod engine_player;
pub mod error;
pub mod external;
pub mod limits;
pub mod player;
pub mod registry;
pub mod scripted;
pub mod spec;
pub mod timer;

pub use engine_player::EnginePlayer;
pub use error::SpecError;
pub use limits::{parse_tc, PlayerLimits, DEFAULT_HASH_MB, MAX_HASH_MB};
pub use player::{
    GameStart, GivenParams, MoveReply, MoveRequest, Player, PlayerError, PlayerReport,
};
pub use scripted::Scripted;
pub use spec::{params_from_diff, PlayerKind, PlayerSpec};
