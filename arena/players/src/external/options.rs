//! How the arena talks to one external brain: pacing, set-up mode, waits and extra `INFO`
//! lines. Set per player (`settle-ms=`, `setup=`, `start-ms=`, `end-ms=`, `info=` in a
//! `--player` spec) or per brain in a registry ([`crate::registry`]).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::channel::ParamChannel;

/// Default settle gap of external brains, in ms: no command is sent sooner than this after
/// the brain's last output (Rapfi half-reads a command that arrives within ~30 ms of its
/// move; Piskvork-class managers never send that fast).
pub const DEFAULT_SETTLE_MS: u64 = 50;
/// Default wait for `OK` to `START` before the game goes on without it, in ms.
pub const DEFAULT_START_MS: u64 = 5_000;
/// Default time a brain has to exit after `END` before it is killed, in ms (the run does
/// not wait for it).
pub const DEFAULT_END_MS: u64 = 2_000;

/// How a game that does not start from the empty board is set up in the brain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetupMode {
    /// `BOARD` with every stone in play order, then `DONE` (the protocol's way).
    #[default]
    Board,
    /// For brains that cannot take `BOARD`: each stone in play order as `TURN x,y`, the
    /// brain's answer to each but the last taken back with `TAKEBACK x,y`. Suits brains
    /// that place stones alternately (like mintaka), not ones that track whose stone is whose.
    Turn,
}

impl SetupMode {
    /// Is this the default (`board`)?
    pub fn is_board(&self) -> bool {
        *self == SetupMode::Board
    }
}

impl FromStr for SetupMode {
    type Err = String;

    fn from_str(s: &str) -> Result<SetupMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "board" => Ok(SetupMode::Board),
            "turn" => Ok(SetupMode::Turn),
            _ => Err(format!("unknown set-up mode '{s}' (board or turn)")),
        }
    }
}

impl fmt::Display for SetupMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupMode::Board => "board",
            SetupMode::Turn => "turn",
        })
    }
}

/// Per-brain protocol options; `None` means the default constant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrainOptions {
    /// Settle gap in ms (default [`DEFAULT_SETTLE_MS`]); not charged to any clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<u64>,
    /// Set-up mode for games from an opening.
    #[serde(default, skip_serializing_if = "SetupMode::is_board")]
    pub setup: SetupMode,
    /// Wait for `OK` to `START`, in ms (default [`DEFAULT_START_MS`]); after it the game
    /// goes on with a note in the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<u64>,
    /// Grace after `END` before the brain is killed, in ms (default [`DEFAULT_END_MS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<u64>,
    /// Extra `INFO` lines sent at the start of every game (`KEY VALUE`, without `INFO`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info: Vec<String>,
    /// How parameter values reach the brain, if it takes any (registry `params = ...`,
    /// `--player ...,params=info`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<ParamChannel>,
    /// The parameter values sent through `channel` (name, value as text): `set=NAME=VALUE`
    /// items of a `--player` spec, or a tune's values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, String>,
}

impl BrainOptions {
    /// Are these all defaults?
    pub fn is_default(&self) -> bool {
        *self == BrainOptions::default()
    }

    /// The settle gap in ms.
    pub fn settle(&self) -> u64 {
        self.settle_ms.unwrap_or(DEFAULT_SETTLE_MS)
    }

    /// The wait for `OK` to `START` in ms.
    pub fn start_wait(&self) -> u64 {
        self.start_ms.unwrap_or(DEFAULT_START_MS)
    }

    /// The grace after `END` in ms.
    pub fn end_grace(&self) -> u64 {
        self.end_ms.unwrap_or(DEFAULT_END_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_modes_parse_and_defaults_apply() {
        assert_eq!("TURN".parse::<SetupMode>(), Ok(SetupMode::Turn));
        assert_eq!("board".parse::<SetupMode>(), Ok(SetupMode::Board));
        assert!("takeback"
            .parse::<SetupMode>()
            .unwrap_err()
            .contains("board or turn"));
        let o = BrainOptions::default();
        assert!(o.is_default());
        assert_eq!(
            (o.settle(), o.start_wait(), o.end_grace()),
            (DEFAULT_SETTLE_MS, DEFAULT_START_MS, DEFAULT_END_MS)
        );
        let json = serde_json::to_string(&o).expect("serializes");
        assert_eq!(json, "{}");
        let o = BrainOptions {
            settle_ms: Some(0),
            setup: SetupMode::Turn,
            ..BrainOptions::default()
        };
        let json = serde_json::to_string(&o).expect("serializes");
        assert_eq!(json, r#"{"settle_ms":0,"setup":"turn"}"#);
        assert_eq!(
            serde_json::from_str::<BrainOptions>(&json).expect("parses"),
            o
        );
    }
}
