//! Pattern evaluation: per-cell values and threat classes derived from line patterns.
//!
//! Every empty cell has, for each colour, a value (what a stone there would make, summed
//! over its four lines, plus extras for combinations such as four-three) and a threat
//! class. The board keeps both up to date on every move, with their sums and per-class
//! counts, so the evaluation and "who threatens what" are O(1) at every node.

use crate::params::Params;
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::stone::Stone;

pub mod features;
pub mod table;

pub use features::{EvalFeatures, EVAL_PARAMS};
pub use table::NCLASS;

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

/// A combination bonus a cell can earn on top of its four line values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Combo {
    /// A four and an open three (`w_four_three`).
    FourThree = 0,
    /// Two open threes (`w_double_three`).
    DoubleThree = 1,
    /// An open four or two fours (`w_double_four`).
    DoubleFour = 2,
    /// An open three and an open two (`w_three_two`).
    ThreeTwo = 3,
}

/// A cell's packed summary unpacked (see [`EvalWeights::build_tables`] for the packing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    /// A stone here makes five.
    pub five: bool,
    /// ... an open four.
    pub open: bool,
    /// ... a shape forbidden to renju black (overline, or two fours on one line).
    pub bad: bool,
    /// Fours made (an open four counts one, two fours on one line two).
    pub fours: usize,
    /// Open threes made.
    pub threes: usize,
    /// Open twos made.
    pub twos: usize,
}

impl Summary {
    /// Unpacks a summary key.
    #[inline]
    pub fn unpack(key: u16) -> Summary {
        let key = key as usize;
        Summary {
            five: key & 1 != 0,
            open: key & 2 != 0,
            bad: key & 4 != 0,
            fours: (key >> 3) & 15,
            threes: (key >> 7) & 7,
            twos: (key >> 10) & 7,
        }
    }
}

/// Threat class of a cell from its packed summary (see [`EvalWeights`]); independent of the
/// weights. (Its combination class is [`table::class_of_key`].)
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

/// Weights turned into lookup arrays, per colour, for one rule and parameter set.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Per colour, per line pattern: value on a horizontal or vertical line.
    straight: [[i32; 12]; 2],
    /// Per colour, per line pattern: value on a diagonal.
    diagonal: [[i32; 12]; 2],
    /// Per colour, per combination class: the cell's bonus (renju black's rules applied).
    class_bonus: [[i32; NCLASS]; 2],
    renju: bool,
    /// Opponent potential weight, percent.
    pub defence: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Per colour, per line pattern: its code in the packed summary.
    code: [[u16; 12]; 2],
    /// Per colour, per packed summary: combination bonus and threat class.
    combo: Box<[[(i32, Threat); 1 << 13]; 2]>,
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
            class_bonus: [[0; NCLASS]; 2],
            renju,
            defence: p.defence,
            tempo: p.tempo,
            code: [[0; 12]; 2],
            combo: Box::new([[(0, Threat::None); 1 << 13]; 2]),
        };
        for c in 0..2 {
            for i in 0..12 {
                w.diagonal[c][i] = w.straight[c][i] * p.diagonal / 100;
            }
            for class in 0..NCLASS {
                w.class_bonus[c][class] = p.table_entry(c, class);
            }
        }
        if renju {
            // Renju black cannot use double-fours or double-threes, and its shapes are
            // discounted for the risk of being pinned on forbidden points.
            let b = Stone::Black.index();
            w.straight[b][Pattern::DoubleFour as usize] = 0;
            w.diagonal[b][Pattern::DoubleFour as usize] = 0;
            for arr in [&mut w.straight[b], &mut w.diagonal[b]] {
                for v in arr.iter_mut() {
                    *v = *v * p.black_penalty / 100;
                }
            }
            for (class, v) in w.class_bonus[b].iter_mut().enumerate() {
                *v = match table::class_combo(class) {
                    Some(Combo::DoubleThree | Combo::DoubleFour) => 0,
                    _ => *v * p.black_penalty / 100,
                };
            }
        }
        w.build_tables();
        w
    }

    /// Value and threat class of a cell for colour `c` given its four line patterns.
    #[inline]
    pub fn cell(&self, c: usize, pats: &[u8]) -> (i32, Threat) {
        let code = &self.code[c];
        let key = code[pats[0] as usize]
            + code[pats[1] as usize]
            + code[pats[2] as usize]
            + code[pats[3] as usize];
        let (bonus, class) = self.combo[c][key as usize];
        if class == Threat::Forbidden {
            return (0, class);
        }
        let v = self.straight[c][pats[0] as usize]
            + self.straight[c][pats[1] as usize]
            + self.diagonal[c][pats[2] as usize]
            + self.diagonal[c][pats[3] as usize];
        (v + bonus, class)
    }

    /// Value of pattern `p` for colour `c` on a line of direction `d`.
    #[inline]
    pub fn line_value(&self, c: usize, d: usize, p: u8) -> i32 {
        if d < 2 {
            self.straight[c][p as usize]
        } else {
            self.diagonal[c][p as usize]
        }
    }

    /// Code of pattern `p` for colour `c` in the packed summary.
    #[inline]
    pub fn code(&self, c: usize, p: u8) -> u16 {
        self.code[c][p as usize]
    }

    /// Value and class of a cell for colour `c` from its line-value sum and packed summary
    /// (both kept incrementally by the board).
    #[inline]
    pub fn from_summary(&self, c: usize, line_sum: i32, key: u16) -> (i32, Threat) {
        let (bonus, class) = self.combo[c][key as usize];
        if class == Threat::Forbidden {
            (0, class)
        } else {
            (line_sum + bonus, class)
        }
    }

    /// The bonus a cell of combination class `class` earns for colour `c`.
    #[inline]
    pub fn class_bonus(&self, c: usize, class: usize) -> i32 {
        self.class_bonus[c][class]
    }

    /// Builds the summary codes and the combination table from the weights.
    ///
    /// Each line pattern adds a code to a packed summary (five, open four, forbidden shape,
    /// number of fours, threes and open twos); the summary indexes a table giving the
    /// cell's threat class and combination bonus, so no branching over patterns per cell.
    fn build_tables(&mut self) {
        for c in 0..2 {
            let renju_black = self.renju && c == 0;
            let mut code = [0u16; 12];
            code[Pattern::Five as usize] = 1;
            code[Pattern::F4 as usize] = (1 << 1) | (1 << 3);
            code[Pattern::DoubleFour as usize] = (2 << 3) | if renju_black { 1 << 2 } else { 0 };
            code[Pattern::B4 as usize] = 1 << 3;
            code[Pattern::F3 as usize] = 1 << 7;
            code[Pattern::F2 as usize] = 1 << 10;
            code[Pattern::Overline as usize] = if renju_black { 1 << 2 } else { 0 };
            self.code[c] = code;
            for key in 0..(1usize << 13) {
                let class = classify(key as u16, renju_black);
                let bonus = table::class_of_key(key as u16, renju_black)
                    .map_or(0, |k| self.class_bonus[c][k]);
                let entry = (bonus, class);
                self.combo[c][key] = entry;
            }
        }
    }
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::new(&Params::default(), Rule::Renju)
    }
}
