//! The result of one game from engine A's side.

use serde::{Deserialize, Serialize};

/// Result of one game from engine A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Engine A won.
    Win,
    /// Draw.
    Draw,
    /// Engine A lost.
    Loss,
}

impl Outcome {
    /// Half-points for engine A: win 2, draw 1, loss 0.
    pub fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// The same game seen from the opponent's side.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_helpers() {
        assert_eq!(Outcome::Win.half_points(), 2);
        assert_eq!(Outcome::Draw.half_points(), 1);
        assert_eq!(Outcome::Loss.half_points(), 0);
        assert_eq!(Outcome::Win.flipped(), Outcome::Loss);
        assert_eq!(Outcome::Draw.flipped(), Outcome::Draw);
    }
}
