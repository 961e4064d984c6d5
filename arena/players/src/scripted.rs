//! A player that replays a fixed list of moves (tests, replays).

use wuzi_engine::Pos;

use crate::player::{GameStart, MoveReply, MoveRequest, Player, PlayerError};

/// A player that plays a fixed list of moves, then none (for tests and replays).
pub struct Scripted {
    name: String,
    moves: Vec<Pos>,
    next: usize,
    delay_ms: u64,
}

impl Scripted {
    /// Plays `moves` in order, one per request.
    pub fn new(name: &str, moves: Vec<Pos>) -> Scripted {
        Scripted {
            name: name.to_string(),
            moves,
            next: 0,
            delay_ms: 0,
        }
    }

    /// Sleeps this long before each answer (to test time losses).
    pub fn with_delay(mut self, ms: u64) -> Scripted {
        self.delay_ms = ms;
        self
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &GameStart) -> std::result::Result<(), PlayerError> {
        self.next = 0;
        Ok(())
    }

    fn play(&mut self, _request: &MoveRequest<'_>) -> std::result::Result<MoveReply, PlayerError> {
        if self.delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(self.delay_ms));
        }
        let mv = self.moves.get(self.next).copied();
        self.next += 1;
        Ok(MoveReply {
            mv,
            ..MoveReply::default()
        })
    }
}
