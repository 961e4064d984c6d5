//! The in-process engine as a [`Player`]. It owns one [`wuzi_engine::Engine`] that keeps its hash table
//! between the moves of a game and clears it (`new_game`) at the start of each game, so a
//! game's moves never depend on the games played before it.

use wuzi_engine::{Limits, Searcher};

use crate::limits::PlayerLimits;
use crate::player::{GameStart, MoveReply, MoveRequest, Player, PlayerError};
use crate::timer::SearchTimer;

/// The in-process engine as a player.
pub struct EnginePlayer {
    name: String,
    engine: Searcher,
    limits: PlayerLimits,
}

impl EnginePlayer {
    /// A player around an engine (or the classic player), searching under `limits`.
    pub fn new(name: &str, engine: impl Into<Searcher>, limits: PlayerLimits) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            engine: engine.into(),
            limits,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &GameStart) -> std::result::Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> std::result::Result<MoveReply, PlayerError> {
        let limits = Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            time_ms: self.limits.move_ms,
            clock: request.clock.filter(|_| self.limits.game_ms.is_some()),
        };
        let timer = SearchTimer::start();
        let r = self.engine.search(request.board, &limits, None);
        timer.stop();
        Ok(MoveReply {
            mv: r.best,
            nodes: Some(r.nodes),
            depth: Some(r.depth),
            score: Some(r.score),
        })
    }
}
