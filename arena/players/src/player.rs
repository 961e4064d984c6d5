//! The [`Player`] trait the referee talks to, and what passes between them: the game's start,
//! a move request, the reply, a failure, and what a player adds to the game's record.
//!
//! New kinds of players add a [`crate::PlayerKind`] variant, a type implementing [`Player`]
//! and a case in [`crate::PlayerSpec::build`], as the external Gomocup brain
//! ([`crate::external`]) does; the referee, runner and records need no change.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use wuzi_engine::Clock;
use wuzi_engine::{Board, Pos, Rule, Stone};

/// What a player is told when a game starts.
#[derive(Clone, Debug)]
pub struct GameStart {
    /// Board side.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// The colour this player has.
    pub color: Stone,
    /// A seed derived from the run seed, the pair and the game, for players that randomise.
    pub seed: u64,
}

/// A request for a move.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The referee's position (the side to move is the player's colour).
    pub board: &'a Board,
    /// Every move since the empty board, opening included, black first.
    pub moves: &'a [Pos],
    /// The player's clock, when it plays under a game time or a move time.
    pub clock: Option<Clock>,
}

/// A player's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveReply {
    /// The move; `None` when the player has none to give (it loses).
    pub mv: Option<Pos>,
    /// Nodes searched, if known.
    pub nodes: Option<u64>,
    /// Depth reached, if known.
    pub depth: Option<i32>,
    /// Score for the side to move in the engine's units, if known.
    pub score: Option<i32>,
}

/// Why a player failed to answer; the referee scores the game as a loss for it.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PlayerError {
    /// The player could not be started or stopped working (a panic, a dead process).
    #[error("crash: {0}")]
    Crash(String),
    /// The player answered something that is not a move (off the notation, protocol error).
    #[error("illegal answer: {0}")]
    Illegal(String),
    /// The player did not answer in time (external players).
    #[error("timeout: {0}")]
    Timeout(String),
}

/// Something that plays games: the referee's only view of a player.
pub trait Player: Send {
    /// The player's name.
    fn name(&self) -> &str;
    /// A new game starts: forget the previous one.
    fn new_game(&mut self, start: &GameStart) -> std::result::Result<(), PlayerError>;
    /// The move for the side to move in `request.board`.
    fn play(&mut self, request: &MoveRequest<'_>) -> std::result::Result<MoveReply, PlayerError>;
    /// How much of the last [`Player::play`] call, in ms, is not the player's own time
    /// (an external brain's settle gap and set-up) and so not charged to its clock.
    fn unclocked_ms(&self) -> u64 {
        0
    }
    /// The game is over (no answer expected). External players may use it to clean up.
    fn end_game(&mut self) {}
    /// Write the next game's protocol lines to `path` (`--log-io`; the file and its folder
    /// are created, an older file replaced). Only external brains have a protocol: other
    /// players ignore it and write nothing.
    fn log_io_to(&mut self, path: &std::path::Path) {
        let _ = path;
    }
    /// What the game's record should say about this player (called once, after
    /// [`Player::end_game`]).
    fn report(&mut self) -> PlayerReport {
        PlayerReport::default()
    }
}

/// What a player adds to a game's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerReport {
    /// The limits the player was given, as it was told them (an external brain's limit
    /// `INFO` lines).
    pub given: Option<String>,
    /// Notes: protocol events and lines the brain sent that were not understood (capped).
    pub notes: Vec<String>,
    /// The last protocol lines of the game (`> sent`, `< received`, at most
    /// [`crate::external::TAIL_LINES`], each cut), for the record of a loss by crash, time
    /// or illegal move; empty for players without a protocol.
    pub last_lines: Vec<String>,
    /// The parameter values an external brain was given through its channel, and how
    /// ([`crate::external::ParamChannel`]).
    pub params: Option<GivenParams>,
    /// The brain refused its parameters (an `ERROR` naming one, or no start with them): the
    /// run or tune must stop rather than count the game.
    pub rejected: Option<String>,
}

/// What a brain was given for one game: the channel, the values and the text sent (the
/// `INFO` lines, the arguments, or the file written). Kept in the game's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenParams {
    /// `info`, `args` or `config`.
    pub via: String,
    /// Each parameter's value, as sent.
    pub values: BTreeMap<String, String>,
    /// How they went: `INFO defence 60; INFO tempo 20`, `--set defence=60 ...` or
    /// `config.toml (from /path/template.toml)`.
    pub sent: String,
}
