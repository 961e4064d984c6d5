//! The evaluation as counts times weights, for fitting the weights to game results.
//!
//! [`crate::board::Board::evaluate`] sums, over the empty cells and both colours, the weight of each
//! of the cell's four line patterns (diagonals scaled by `diagonal`) plus a combination bonus,
//! then subtracts the opponent's sum scaled by `defence` and adds `tempo` and the threat-mask
//! entry of the position. Given the counts of
//! patterns and bonuses of a position ([`EvalFeatures`], from [`crate::board::Board::eval_features`]),
//! the evaluation under any parameter set follows without replaying the board:
//! [`EvalFeatures::evaluate`] equals the board's evaluation exactly.

use super::weights::EvalWeights;
use crate::cell_class::code::{code_of, NCODE};
use crate::cell_class::combo::Combo;
use crate::cell_class::table::{class_combo, NCLASS};
use crate::params::Params;
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::stone::Stone;

/// The parameters the evaluation reads (everything [`EvalWeights::new`] uses); the others
/// are search parameters.
pub const EVAL_PARAMS: &[&str] = &[
    "w_five",
    "w_open_four",
    "w_double_four_line",
    "w_four",
    "w_open_three",
    "w_three",
    "w_open_two",
    "w_two",
    "w_open_one",
    "w_one",
    "w_four_three",
    "w_double_three",
    "w_double_four",
    "w_three_two",
    "defence",
    "black_penalty",
    "diagonal",
    "tempo",
];

/// Per-colour counts of what a position's evaluation sums: line patterns of empty,
/// non-forbidden cells (straight and diagonal apart) and combination bonuses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EvalFeatures {
    /// The rule (renju scales and drops some of black's weights).
    pub rule: Rule,
    /// The side to move (the evaluation's point of view).
    pub side: Stone,
    /// `[colour][0 straight, 1 diagonal][pattern]`: how many (cell, line) pairs hold the
    /// pattern, over the colour's empty cells that are not forbidden.
    pub lines: [[[u16; 12]; 2]; 2],
    /// `[colour][class]`: how many empty cells fall in each combination class (see
    /// [`crate::cell_class::table`]; cells making five or forbidden are in none).
    pub classes: [[u16; NCLASS]; 2],
    /// The threat mask (see [`crate::cell_class::mask`]): the threat classes the side to
    /// move (low bits) and the opponent hold.
    pub threat_mask: u16,
    /// The pattern codes of the same cells (see [`crate::cell_class::code`]), as
    /// (`colour * NCODE + code`, how many cells), ascending and without zeros: a position
    /// holds a few dozen of the 2,730, so they are kept sparse.
    pub codes: Vec<(u16, u16)>,
}

impl EvalFeatures {
    /// Counts with nothing in them, for `rule` and `side` to move.
    pub fn empty(rule: Rule, side: Stone) -> EvalFeatures {
        EvalFeatures {
            rule,
            side,
            lines: [[[0; 12]; 2]; 2],
            classes: [[0; NCLASS]; 2],
            threat_mask: 0,
            codes: Vec::new(),
        }
    }

    /// Adds one empty cell of colour `c` with line patterns `pats` (directions 0-3) and
    /// combination class `class`.
    pub(crate) fn add_cell(&mut self, c: usize, pats: &[u8], class: Option<usize>) {
        for (d, &p) in pats.iter().enumerate() {
            self.lines[c][usize::from(d >= 2)][p as usize] += 1;
        }
        if let Some(k) = class {
            self.classes[c][k] += 1;
        }
        let k = (c * NCODE + code_of(pats)) as u16;
        match self.codes.binary_search_by_key(&k, |&(i, _)| i) {
            Ok(j) => self.codes[j].1 += 1,
            Err(j) => self.codes.insert(j, (k, 1)),
        }
    }

    /// Colour `c`'s pattern codes and their counts (see [`EvalFeatures::codes`]).
    pub fn codes_of(&self, c: usize) -> impl Iterator<Item = (usize, u16)> + '_ {
        let lo = (c * NCODE) as u16;
        self.codes
            .iter()
            .filter(move |&&(i, _)| (lo..lo + NCODE as u16).contains(&i))
            .map(move |&(i, n)| (usize::from(i - lo), n))
    }

    /// How many of colour `c`'s cells earn the hand-weight combination `k` (the cells of
    /// every class that `k` generates).
    pub fn combo_count(&self, c: usize, k: Combo) -> u32 {
        (0..NCLASS)
            .filter(|&class| class_combo(class) == Some(k))
            .map(|class| u32::from(self.classes[c][class]))
            .sum()
    }

    /// Colour `c`'s potential (the sum of its cell values) under `w`.
    pub fn potential(&self, w: &EvalWeights, c: usize) -> i32 {
        let mut v = 0i32;
        for p in 0..12 {
            v += i32::from(self.lines[c][0][p]) * w.straight[c][p]
                + i32::from(self.lines[c][1][p]) * w.diagonal[c][p];
        }
        for (class, &n) in self.classes[c].iter().enumerate() {
            v += i32::from(n) * w.class_bonus(c, class);
        }
        if w.has_codes() {
            for (k, n) in self.codes_of(c) {
                v += i32::from(n) * w.code_entry(c, k);
            }
        }
        v
    }

    /// The evaluation for the side to move under `w` (built for this rule): exactly what
    /// [`crate::board::Board::evaluate`] returns for the position with those weights.
    pub fn evaluate(&self, w: &EvalWeights) -> i32 {
        let me = self.side.index();
        self.potential(w, me) - self.potential(w, 1 - me) * w.defence / 100
            + w.tempo
            + w.threat_value(me, usize::from(self.threat_mask))
    }

    /// The evaluation under parameter set `p` (see [`EvalFeatures::evaluate`]).
    pub fn evaluate_params(&self, p: &Params) -> i32 {
        self.evaluate(&EvalWeights::new(p, self.rule))
    }

    /// Total count of pattern `p` for colour `c` over both line kinds.
    pub fn pattern_count(&self, c: usize, p: Pattern) -> u32 {
        u32::from(self.lines[c][0][p as usize]) + u32::from(self.lines[c][1][p as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::pos::Pos;

    /// A small seeded generator (SplitMix64); the engine has no random-number dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }
    }

    /// A parameter set with every evaluation weight drawn at random within its range.
    fn random_params(rng: &mut Rng) -> Params {
        let mut p = Params::default();
        for name in EVAL_PARAMS {
            let s = Params::spec(name).expect("declared");
            let v = s.min as i64 + rng.below((s.max - s.min + 1) as u64) as i64;
            p.set(name, v).expect("in range");
        }
        // Half the sets override a random part of the combination table as well.
        if rng.below(2) == 0 {
            for s in Params::table_specs() {
                if rng.below(3) == 0 {
                    p.set(s.name, rng.below(4000) as i64 - 1000)
                        .expect("in range");
                }
            }
        }
        // And every set gives every threat-mask entry a value.
        for s in Params::mask_specs() {
            p.set(s.name, rng.below(4000) as i64 - 2000)
                .expect("in range");
        }
        // Two sets in three give every pattern-code entry a value.
        if rng.below(3) != 0 {
            for s in Params::code_specs() {
                p.set(s.name, rng.below(2000) as i64 - 1000)
                    .expect("in range");
            }
        }
        p
    }

    #[test]
    fn reconstruction_equals_the_board_evaluation() {
        // Random games under every rule, evaluated with random weights at every ply: the
        // counts times the weights must give the board's incremental evaluation exactly
        // (integer truncations of diagonal, black_penalty and defence included).
        let mut rng = Rng(12);
        for rule in [Rule::Renju, Rule::Freestyle, Rule::Standard] {
            for game in 0..6 {
                let params = if game == 0 {
                    Params::default()
                } else {
                    random_params(&mut rng)
                };
                let mut b = Board::new(15, rule).unwrap();
                b.set_params(&params);
                let w = EvalWeights::new(&params, rule);
                for _ in 0..90 {
                    let f = b.eval_features();
                    assert_eq!(f.side, b.side_to_move());
                    assert_eq!(f.evaluate(&w), b.evaluate(), "{rule} {params:?}\n{b:?}");
                    assert_eq!(f.evaluate_params(&params), b.evaluate());
                    if b.outcome().is_some() {
                        break;
                    }
                    // Near the centre, so that threes, fours and forbidden points appear.
                    let empty: Vec<Pos> = b
                        .points()
                        .filter(|&p| b.is_empty_at(p) && p.x().abs_diff(7) + p.y().abs_diff(7) <= 6)
                        .collect();
                    if empty.is_empty() {
                        break;
                    }
                    b.make(empty[rng.below(empty.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
    }

    #[test]
    fn eval_params_are_exactly_those_the_evaluation_reads() {
        // Moving a listed parameter or a table entry changes the weights; moving any other
        // does not.
        // (Pattern-code entries count under renju only; every 13th is tried.)
        let tables = Params::table_specs()
            .iter()
            .map(|s| (s, Rule::Freestyle))
            .chain(
                Params::code_specs()
                    .iter()
                    .step_by(13)
                    .map(|s| (s, Rule::Renju)),
            );
        for (s, rule) in tables {
            let mut p = Params::default();
            p.set(s.name, i64::from(s.default) + 7).unwrap();
            assert_ne!(
                EvalWeights::new(&p, rule),
                EvalWeights::new(&Params::default(), rule),
                "{}",
                s.name
            );
        }
        // The scalars from a set without table overrides: the shipped table shadows some hand
        // combination weights (all of w_three_two's classes), which then only generate the
        // entries a table leaves out.
        let hand = Params {
            combo: crate::cell_class::table::ComboTable::default(),
            ..Params::default()
        };
        for s in Params::SPECS {
            let mut p = hand.clone();
            let v = if s.default != s.max { s.max } else { s.min };
            p.set(s.name, v as i64).unwrap();
            let changed = [Rule::Renju, Rule::Freestyle]
                .iter()
                .any(|&r| EvalWeights::new(&p, r) != EvalWeights::new(&hand, r));
            assert_eq!(changed, EVAL_PARAMS.contains(&s.name), "{}", s.name);
        }
    }

    #[test]
    fn counts_follow_the_patterns() {
        // Black h8 i8 j8 (open three, white to move) under freestyle: black has open-four
        // cells (g8, k8) that also earn the open-four bonus.
        let b = Board::from_moves(
            15,
            Rule::Freestyle,
            &Pos::parse_list("h8 a1 i8 a3 j8 a5", 15).unwrap(),
        )
        .unwrap();
        let f = b.eval_features();
        assert_eq!(f.side, Stone::Black);
        assert!(f.pattern_count(0, Pattern::F4) >= 2, "{f:?}");
        assert!(f.combo_count(0, Combo::DoubleFour) >= 2, "{f:?}");
        assert_eq!(f.combo_count(1, Combo::DoubleFour), 0, "{f:?}");
    }
}
