//! Which colours a human plays.

use crate::stone::Stone;
use std::fmt;
use std::str::FromStr;

/// Which colours a human plays; the engine plays the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Humans {
    /// The human plays black.
    #[default]
    Black,
    /// The human plays white.
    White,
    /// Two humans (the engine only gives hints).
    Both,
    /// The engine plays itself.
    None,
}

impl Humans {
    /// Does a human play this colour?
    pub fn plays(self, stone: Stone) -> bool {
        match self {
            Humans::Black => stone == Stone::Black,
            Humans::White => stone == Stone::White,
            Humans::Both => true,
            Humans::None => false,
        }
    }
}

impl FromStr for Humans {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Humans::Black),
            "white" | "w" | "o" => Ok(Humans::White),
            "both" => Ok(Humans::Both),
            "none" => Ok(Humans::None),
            _ => Err(format!(
                "unknown side '{s}' (expected black, white, both or none)"
            )),
        }
    }
}

impl fmt::Display for Humans {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Humans::Black => "black",
            Humans::White => "white",
            Humans::Both => "both",
            Humans::None => "none",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humans_parse() {
        assert_eq!("Both".parse::<Humans>(), Ok(Humans::Both));
        assert!("red".parse::<Humans>().is_err());
    }
}
