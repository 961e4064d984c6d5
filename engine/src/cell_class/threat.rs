//! A cell's threat class: what a stone placed there would make.

use super::summary::Summary;

/// A cell's threat class for one colour: what a stone placed there would make.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    None = 0,
    /// An open three.
    Three = 1,
    /// Two open threes (for renju black possibly forbidden; checked where it matters).
    DoubleThree = 2,
    /// A simple four.
    Four = 3,
    /// A four and an open three.
    FourThree = 4,
    /// An open four or two fours: wins unless the opponent makes five first.
    OpenFour = 5,
    /// Five.
    Five = 6,
    /// Renju black: overline or double-four without five (a forbidden point).
    Forbidden = 7,
}

/// Number of threat classes.
pub const NTHREAT: usize = 8;

impl Threat {
    /// Every class, weakest first.
    pub const ALL: [Threat; NTHREAT] = [
        Threat::None,
        Threat::Three,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::OpenFour,
        Threat::Five,
        Threat::Forbidden,
    ];

    /// Does a stone here make at least a four (a forcing move)?
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Threat::Four | Threat::FourThree | Threat::OpenFour)
    }
}

/// Threat class of a cell from its packed summary (see [`crate::eval::EvalWeights`]); independent of the
/// weights. (Its combination class is [`super::table::class_of_key`].)
pub(crate) fn classify(key: u16, renju_black: bool) -> Threat {
    let s = Summary::unpack(key);
    if s.five {
        Threat::Five
    } else if s.bad || (renju_black && s.fours >= 2) {
        Threat::Forbidden
    } else if s.open || s.fours >= 2 {
        Threat::OpenFour
    } else if s.fours == 1 && s.threes >= 1 {
        Threat::FourThree
    } else if s.fours == 1 {
        Threat::Four
    } else if s.threes >= 2 {
        Threat::DoubleThree
    } else if s.threes == 1 {
        Threat::Three
    } else {
        Threat::None
    }
}
