//! Stone colours.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A stone colour; black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stone {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Stone {
    /// The other colour.
    #[inline]
    pub const fn opp(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, black first.
    pub const ALL: [Stone; 2] = [Stone::Black, Stone::White];

    /// The diagram character: `X` for black, `O` for white.
    pub const fn symbol(self) -> char {
        match self {
            Stone::Black => 'X',
            Stone::White => 'O',
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stone::Black => "black",
            Stone::White => "white",
        })
    }
}

impl FromStr for Stone {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Stone::Black),
            "white" | "w" | "o" => Ok(Stone::White),
            _ => Err(format!("unknown colour '{s}' (expected black or white)")),
        }
    }
}
