//! The combination table: a value per combination of a cell's line patterns, per colour.
//!
//! A cell's four line patterns are summarised by how many fours (`f`: 0, 1, or 2 for an
//! open four or two fours), open threes (`t`: 0-3, 3 meaning three or more) and open twos
//! (`w`: 0-3) a stone there would make. Each of the 48 classes, per colour, has an entry
//! `cmb_<colour>_f<f>t<t>w<w>` that the cell earns on top of its line values. The four hand
//! weights `w_four_three`, `w_double_three`, `w_double_four` and `w_three_two` generate the
//! default table (a class earns the hand bonus of its combination, or nothing); an entry given
//! in a parameter file overrides its generated value. The entries are ordinary parameters by
//! name, so `--set`, TOML files, the arena's `set=`, SPSA and `wuzi-tune fit` all reach them,
//! at no cost at search time: the board's per-cell summary already indexes a table.
//!
//! The shipped defaults override part of the table with `suites/params/table.toml`, built into
//! the engine: a fit of the table to self-play records that won its SPRTs (see the strength
//! log). Entries it does not list follow the hand weights.
//!
//! Renju black's entries follow the same rules as its hand weights: classes of two open
//! threes or of an open four/two fours earn nothing (they are forbidden or unusable), the
//! others are scaled by `black_penalty`. Cells that make five or that are forbidden belong to
//! no class.

use super::combo::Combo;
use super::summary::Summary;
use crate::stone::Stone;

/// Number of classes per colour.
pub const NCLASS: usize = 48;

/// Smallest entry allowed.
pub const ENTRY_MIN: i32 = -3000;
/// Largest entry allowed.
pub const ENTRY_MAX: i32 = 10000;

/// Every entry's name, black's 48 classes then white's, class `f * 16 + t * 4 + w`.
pub const TABLE_NAMES: [&str; 2 * NCLASS] = [
    "cmb_black_f0t0w0",
    "cmb_black_f0t0w1",
    "cmb_black_f0t0w2",
    "cmb_black_f0t0w3",
    "cmb_black_f0t1w0",
    "cmb_black_f0t1w1",
    "cmb_black_f0t1w2",
    "cmb_black_f0t1w3",
    "cmb_black_f0t2w0",
    "cmb_black_f0t2w1",
    "cmb_black_f0t2w2",
    "cmb_black_f0t2w3",
    "cmb_black_f0t3w0",
    "cmb_black_f0t3w1",
    "cmb_black_f0t3w2",
    "cmb_black_f0t3w3",
    "cmb_black_f1t0w0",
    "cmb_black_f1t0w1",
    "cmb_black_f1t0w2",
    "cmb_black_f1t0w3",
    "cmb_black_f1t1w0",
    "cmb_black_f1t1w1",
    "cmb_black_f1t1w2",
    "cmb_black_f1t1w3",
    "cmb_black_f1t2w0",
    "cmb_black_f1t2w1",
    "cmb_black_f1t2w2",
    "cmb_black_f1t2w3",
    "cmb_black_f1t3w0",
    "cmb_black_f1t3w1",
    "cmb_black_f1t3w2",
    "cmb_black_f1t3w3",
    "cmb_black_f2t0w0",
    "cmb_black_f2t0w1",
    "cmb_black_f2t0w2",
    "cmb_black_f2t0w3",
    "cmb_black_f2t1w0",
    "cmb_black_f2t1w1",
    "cmb_black_f2t1w2",
    "cmb_black_f2t1w3",
    "cmb_black_f2t2w0",
    "cmb_black_f2t2w1",
    "cmb_black_f2t2w2",
    "cmb_black_f2t2w3",
    "cmb_black_f2t3w0",
    "cmb_black_f2t3w1",
    "cmb_black_f2t3w2",
    "cmb_black_f2t3w3",
    "cmb_white_f0t0w0",
    "cmb_white_f0t0w1",
    "cmb_white_f0t0w2",
    "cmb_white_f0t0w3",
    "cmb_white_f0t1w0",
    "cmb_white_f0t1w1",
    "cmb_white_f0t1w2",
    "cmb_white_f0t1w3",
    "cmb_white_f0t2w0",
    "cmb_white_f0t2w1",
    "cmb_white_f0t2w2",
    "cmb_white_f0t2w3",
    "cmb_white_f0t3w0",
    "cmb_white_f0t3w1",
    "cmb_white_f0t3w2",
    "cmb_white_f0t3w3",
    "cmb_white_f1t0w0",
    "cmb_white_f1t0w1",
    "cmb_white_f1t0w2",
    "cmb_white_f1t0w3",
    "cmb_white_f1t1w0",
    "cmb_white_f1t1w1",
    "cmb_white_f1t1w2",
    "cmb_white_f1t1w3",
    "cmb_white_f1t2w0",
    "cmb_white_f1t2w1",
    "cmb_white_f1t2w2",
    "cmb_white_f1t2w3",
    "cmb_white_f1t3w0",
    "cmb_white_f1t3w1",
    "cmb_white_f1t3w2",
    "cmb_white_f1t3w3",
    "cmb_white_f2t0w0",
    "cmb_white_f2t0w1",
    "cmb_white_f2t0w2",
    "cmb_white_f2t0w3",
    "cmb_white_f2t1w0",
    "cmb_white_f2t1w1",
    "cmb_white_f2t1w2",
    "cmb_white_f2t1w3",
    "cmb_white_f2t2w0",
    "cmb_white_f2t2w1",
    "cmb_white_f2t2w2",
    "cmb_white_f2t2w3",
    "cmb_white_f2t3w0",
    "cmb_white_f2t3w1",
    "cmb_white_f2t3w2",
    "cmb_white_f2t3w3",
];

/// The class of a cell from its counts: fours (2 for an open four or two fours), open threes
/// and open twos, each clamped to its top value.
#[inline]
pub fn class_index(fours: usize, threes: usize, twos: usize) -> usize {
    fours.min(2) * 16 + threes.min(3) * 4 + twos.min(3)
}

/// The class of a packed cell summary (see [`crate::eval::EvalWeights`]), or `None` for a cell that
/// makes five or is forbidden for renju black.
#[inline]
pub fn class_of_key(key: u16, renju_black: bool) -> Option<usize> {
    let s = Summary::unpack(key);
    if s.five || s.bad || (renju_black && s.fours >= 2) {
        return None;
    }
    let f = if s.open || s.fours >= 2 { 2 } else { s.fours };
    Some(class_index(f, s.threes, s.twos))
}

/// The hand-weight combination a class earns by default (the same rule as
/// [`crate::eval::classify`]).
pub fn class_combo(class: usize) -> Option<Combo> {
    let (f, t, w) = (class / 16, (class / 4) % 4, class % 4);
    match (f, t) {
        (2, _) => Some(Combo::DoubleFour),
        (1, 1..) => Some(Combo::FourThree),
        (1, 0) => None,
        (_, 2..) => Some(Combo::DoubleThree),
        (_, 1) if w >= 1 => Some(Combo::ThreeTwo),
        _ => None,
    }
}

/// Colour and class of an entry name.
pub fn parse_name(name: &str) -> Option<(Stone, usize)> {
    let i = TABLE_NAMES.iter().position(|n| *n == name)?;
    let colour = if i < NCLASS {
        Stone::Black
    } else {
        Stone::White
    };
    Some((colour, i % NCLASS))
}

/// The entries a parameter set overrides; the rest follow the hand weights.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ComboTable(Option<Box<[[Option<i32>; NCLASS]; 2]>>);

impl ComboTable {
    /// The override of a colour's class, if any.
    #[inline]
    pub fn get(&self, c: usize, class: usize) -> Option<i32> {
        self.0.as_ref().and_then(|t| t[c][class])
    }

    /// Overrides one entry (the caller checks the range).
    pub fn set(&mut self, c: usize, class: usize, value: i32) {
        self.0.get_or_insert_with(|| Box::new([[None; NCLASS]; 2]))[c][class] = Some(value);
    }

    /// The overridden entries as (name, value), black's first, in class order.
    pub fn overrides(&self) -> Vec<(&'static str, i32)> {
        let mut out = Vec::new();
        for (i, name) in TABLE_NAMES.iter().enumerate() {
            if let Some(v) = self.get(i / NCLASS, i % NCLASS) {
                out.push((*name, v));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::threat::{classify, Threat};
    use super::*;

    #[test]
    fn names_follow_the_class_order() {
        for c in [Stone::Black, Stone::White] {
            for f in 0..3 {
                for t in 0..4 {
                    for w in 0..4 {
                        let class = class_index(f, t, w);
                        let colour = if c == Stone::Black { "black" } else { "white" };
                        let name = format!("cmb_{colour}_f{f}t{t}w{w}");
                        assert_eq!(TABLE_NAMES[c.index() * NCLASS + class], name);
                        assert_eq!(parse_name(&name), Some((c, class)));
                    }
                }
            }
        }
        assert_eq!(parse_name("cmb_grey_f0t0w0"), None);
    }

    #[test]
    fn classes_agree_with_the_threat_classes() {
        // The generated table gives the hand-weight bonuses exactly where the engine had them:
        // four-three on four-three cells, double-four on open-four cells, double-three on
        // double-three cells, three-two on three cells with an open two, nothing elsewhere;
        // five and forbidden cells are in no class.
        for renju_black in [false, true] {
            for key in 0..(1u16 << 13) {
                let threat = classify(key, renju_black);
                let twos = Summary::unpack(key).twos;
                let expected = match threat {
                    Threat::FourThree => Some(Combo::FourThree),
                    Threat::OpenFour => Some(Combo::DoubleFour),
                    Threat::DoubleThree => Some(Combo::DoubleThree),
                    Threat::Three if twos >= 1 => Some(Combo::ThreeTwo),
                    _ => None,
                };
                let class = class_of_key(key, renju_black);
                assert_eq!(
                    class.is_none(),
                    matches!(threat, Threat::Five | Threat::Forbidden),
                    "key {key:#x}"
                );
                assert_eq!(class.and_then(class_combo), expected, "key {key:#x}");
            }
        }
    }
}
