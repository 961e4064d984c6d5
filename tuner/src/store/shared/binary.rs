//! The identity of the program playing a shared tune's games: every worker must agree on it.

use serde::{Deserialize, Serialize};
use wuzi_engine::{Board, Engine, Limits};

use crate::config::TuneConfig;
use crate::error::Result;

/// What identifies the program playing the games: workers of one tune must agree on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinaryId {
    /// `wuzi-tune` version.
    pub version: String,
    /// A hash of fixed node-limited searches with the tune's base parameters and of the
    /// engine's declared parameters: engines that would play other games differ here.
    pub fingerprint: String,
}

impl BinaryId {
    /// The identity of this program for `config`.
    pub fn current(config: &TuneConfig) -> Result<BinaryId> {
        let params = config.base_params()?;
        let mut h = wuzi_arena::config::mix64(0x5eed);
        let mut mix = |v: u64| h = wuzi_arena::config::mix64(h ^ v);
        for s in wuzi_engine::Params::SPECS {
            for b in s.name.bytes() {
                mix(u64::from(b));
            }
            mix(s.default as u64);
            mix(s.min as u64);
            mix(s.max as u64);
        }
        let mut engine = Engine::new(params, 1, 1);
        for opening in config.openings.iter().take(3) {
            let board = Board::from_moves(config.game.size, config.game.rule, &opening.moves)?;
            engine.new_game();
            let limits = Limits {
                nodes: Some(3000),
                ..Limits::default()
            };
            let r = engine.search(&board, &limits, None);
            for b in format!("{:?}", r.best).bytes() {
                mix(u64::from(b));
            }
            mix(r.score as u64);
            mix(r.nodes);
        }
        Ok(BinaryId {
            version: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint: format!("{h:016x}"),
        })
    }
}
