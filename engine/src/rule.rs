//! The three rule sets.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which rule decides wins and forbidden moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    Freestyle,
    /// Exactly five wins, for both colours; an overline is no win.
    Standard,
    /// Black: exactly five, and overline, double-four and double-three are forbidden.
    /// White: five or more.
    #[default]
    Renju,
}

impl Rule {
    /// All rules, in the order of the Gomocup `rule` bits' usual listing.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// Does `stone` need exactly five (an overline is no win)?
    #[inline]
    pub const fn exact_five(self, stone: crate::stone::Stone) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => matches!(stone, crate::stone::Stone::Black),
        }
    }

    /// The Gomocup `INFO rule` value for this rule (0, 1 or 4).
    pub const fn gomocup_bits(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        })
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Ok(Rule::Freestyle),
            "standard" | "exact" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            _ => Err(format!(
                "unknown rule '{s}' (expected freestyle, standard or renju)"
            )),
        }
    }
}
