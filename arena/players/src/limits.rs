//! How long and how deep a player may think: [`PlayerLimits`], time controls, hash sizes.

use serde::{Deserialize, Serialize};

/// Largest hash table an arena engine may use, in MB (many engines run at once).
pub const MAX_HASH_MB: usize = 1024;
/// Default hash table size per engine, in MB.
pub const DEFAULT_HASH_MB: usize = 16;

/// Search and clock limits of one player. Several limits may be combined; the engine stops at
/// the first one reached. With only node and depth limits games are reproducible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerLimits {
    /// Most nodes per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Deepest iteration per move, in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    /// Time per move in milliseconds (also enforced by the referee).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_ms: Option<u64>,
    /// Time for the whole game in milliseconds (enforced by the referee).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_ms: Option<u64>,
    /// Increment added to the game clock after each move, in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inc_ms: u64,
    /// Search threads per engine.
    pub threads: usize,
    /// Hash table per engine, in MB (at most [`MAX_HASH_MB`]).
    pub hash_mb: usize,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Default for PlayerLimits {
    fn default() -> Self {
        PlayerLimits {
            nodes: None,
            depth: None,
            move_ms: None,
            game_ms: None,
            inc_ms: 0,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

impl PlayerLimits {
    /// Are the player's moves a function of the position alone (node or depth limits, no
    /// clock, one thread)?
    pub fn is_deterministic(&self) -> bool {
        (self.nodes.is_some() || self.depth.is_some())
            && self.move_ms.is_none()
            && self.game_ms.is_none()
            && self.threads <= 1
    }

    /// Does any limit stop a search?
    pub fn is_bounded(&self) -> bool {
        self.nodes.is_some()
            || self.depth.is_some()
            || self.move_ms.is_some()
            || self.game_ms.is_some()
    }

    /// Short text such as `nodes 2000`, `10000+100 ms`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.move_ms {
            parts.push(format!("{t} ms/move"));
        }
        if let Some(g) = self.game_ms {
            parts.push(format!("{g}+{} ms", self.inc_ms));
        }
        if self.threads != 1 {
            parts.push(format!("{} threads", self.threads));
        }
        parts.join(", ")
    }
}

/// Parses a time control `GAME_MS[+INC_MS]`, e.g. `60000+500`.
pub fn parse_tc(text: &str) -> std::result::Result<(u64, u64), String> {
    let (g, i) = text.split_once('+').unwrap_or((text, "0"));
    let g = g
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("tc: '{text}' is not GAME_MS[+INC_MS]"))?;
    let i = i
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("tc: '{text}' is not GAME_MS[+INC_MS]"))?;
    if g == 0 {
        return Err("tc: the game time must be positive".into());
    }
    Ok((g, i))
}
