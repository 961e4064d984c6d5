//! Pattern evaluation: per-cell values and threat classes derived from line patterns.
//!
//! Every empty cell has, for each colour, a value (what a stone there would make, summed
//! over its four lines, plus extras for combinations such as four-three) and a threat
//! class. The board keeps both up to date on every move, with their sums and per-class
//! counts, so the evaluation and "who threatens what" are O(1) at every node.

use crate::{Params, Pattern, Rule, Stone};

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
    /// Does a stone here make at least a four (a forcing move)?
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Threat::Four | Threat::FourThree | Threat::OpenFour)
    }
}

const FIVE: u8 = Pattern::Five as u8;

/// Weights turned into lookup arrays, per colour, for one rule and parameter set.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Per colour, per line pattern: value on a horizontal or vertical line.
    straight: [[i32; 12]; 2],
    /// Per colour, per line pattern: value on a diagonal.
    diagonal: [[i32; 12]; 2],
    four_three: [i32; 2],
    double_three: [i32; 2],
    double_four: [i32; 2],
    three_two: [i32; 2],
    renju: bool,
    /// Opponent potential weight, percent.
    pub defence: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl EvalWeights {
    /// Weights for `rule` from a parameter set.
    pub fn new(p: &Params, rule: Rule) -> EvalWeights {
        let renju = rule == Rule::Renju;
        let mut line = [0i32; 12];
        line[Pattern::B1 as usize] = p.w_one;
        line[Pattern::F1 as usize] = p.w_open_one;
        line[Pattern::B2 as usize] = p.w_two;
        line[Pattern::F2 as usize] = p.w_open_two;
        line[Pattern::B3 as usize] = p.w_three;
        line[Pattern::F3 as usize] = p.w_open_three;
        line[Pattern::B4 as usize] = p.w_four;
        line[Pattern::F4 as usize] = p.w_open_four;
        line[Pattern::DoubleFour as usize] = p.w_double_four_line;
        line[Pattern::Five as usize] = p.w_five;
        let mut w = EvalWeights {
            straight: [line; 2],
            diagonal: [line; 2],
            four_three: [p.w_four_three; 2],
            double_three: [p.w_double_three; 2],
            double_four: [p.w_double_four; 2],
            three_two: [p.w_three_two; 2],
            renju,
            defence: p.defence,
            tempo: p.tempo,
        };
        for c in 0..2 {
            for i in 0..12 {
                w.diagonal[c][i] = w.straight[c][i] * p.diagonal / 100;
            }
        }
        if renju {
            // Renju black cannot use double-fours or double-threes, and its shapes are
            // discounted for the risk of being pinned on forbidden points.
            let b = Stone::Black.index();
            w.straight[b][Pattern::DoubleFour as usize] = 0;
            w.diagonal[b][Pattern::DoubleFour as usize] = 0;
            w.double_three[b] = 0;
            w.double_four[b] = 0;
            for arr in [&mut w.straight[b], &mut w.diagonal[b]] {
                for v in arr.iter_mut() {
                    *v = *v * p.black_penalty / 100;
                }
            }
            w.four_three[b] = w.four_three[b] * p.black_penalty / 100;
            w.three_two[b] = w.three_two[b] * p.black_penalty / 100;
        }
        w
    }

    /// Value and threat class of a cell for colour `c` given its four line patterns.
    #[inline]
    pub fn cell(&self, c: usize, pats: &[u8]) -> (i32, Threat) {
        let mut v = self.straight[c][pats[0] as usize]
            + self.straight[c][pats[1] as usize]
            + self.diagonal[c][pats[2] as usize]
            + self.diagonal[c][pats[3] as usize];
        let (mut fours, mut threes, mut twos) = (0u32, 0u32, 0u32);
        let mut open_four = false;
        let mut bad = false;
        for &p in pats {
            match p {
                FIVE => return (v, Threat::Five),
                x if x == Pattern::F4 as u8 => {
                    fours += 1;
                    open_four = true
                }
                x if x == Pattern::DoubleFour as u8 => {
                    fours += 2;
                    bad |= self.renju && c == 0;
                }
                x if x == Pattern::B4 as u8 => fours += 1,
                x if x == Pattern::F3 as u8 => threes += 1,
                x if x == Pattern::F2 as u8 => twos += 1,
                x if x == Pattern::Overline as u8 => bad |= self.renju && c == 0,
                _ => {}
            }
        }
        let renju_black = self.renju && c == 0;
        if bad || (renju_black && fours >= 2) {
            return (0, Threat::Forbidden);
        }
        let class = if open_four || fours >= 2 {
            v += self.double_four[c];
            Threat::OpenFour
        } else if fours == 1 && threes >= 1 {
            v += self.four_three[c];
            Threat::FourThree
        } else if fours == 1 {
            Threat::Four
        } else if threes >= 2 {
            v += self.double_three[c];
            Threat::DoubleThree
        } else if threes == 1 {
            if twos >= 1 {
                v += self.three_two[c];
            }
            Threat::Three
        } else {
            Threat::None
        };
        (v, class)
    }
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::new(&Params::default(), Rule::Renju)
    }
}
