//! The evaluation weights of a rule and parameter set, turned into lookup arrays.

use crate::cell_class::code::{code_of, quad_of_code, quad_share, CodeTable, NCODE, NQUAD};
use crate::cell_class::combo::Combo;
use crate::cell_class::mask::NMASK;
use crate::cell_class::table::{self, NCLASS};
use crate::cell_class::threat::{classify, Threat};
use crate::params::Params;
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::stone::Stone;
use std::sync::{Arc, OnceLock};

/// Weights turned into lookup arrays, per colour, for one rule and parameter set.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Per colour, per line pattern: value on a horizontal or vertical line.
    pub(super) straight: [[i32; 12]; 2],
    /// Per colour, per line pattern: value on a diagonal.
    pub(super) diagonal: [[i32; 12]; 2],
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
    /// Per colour to move, per threat mask: the threat-mask entry.
    threat: Box<[[i32; NMASK]; 2]>,
    /// Per colour, per pattern code: the pattern-code entry (empty under other rules).
    pattern_code: CodeTable,
    /// The same entries per quadruple index (None when no entry is set), so the board's
    /// update is one lookup from the index it keeps (see [`crate::cell_class::code::NQUAD`]);
    /// entries fit `i16` (`CODE_MIN..=CODE_MAX`), and the table is shared between the boards
    /// of one parameter set.
    quad_code: Option<Arc<[[i16; NQUAD]; 2]>>,
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
            threat: Box::new([[0; NMASK]; 2]),
            // Fitted to renju games like the threat-mask table; the other rules go without.
            pattern_code: if renju {
                p.code.clone()
            } else {
                CodeTable::default()
            },
            quad_code: None,
        };
        for c in 0..2 {
            for i in 0..12 {
                w.diagonal[c][i] = w.straight[c][i] * p.diagonal / 100;
            }
            for class in 0..NCLASS {
                w.class_bonus[c][class] = p.table_entry(c, class);
            }
            // The threat-mask table is fitted to renju games; the other rules go without it.
            if renju {
                for (m, v) in w.threat[c].iter_mut().enumerate() {
                    *v = p.threat.value(c, m);
                }
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
        if w.pattern_code.is_set() {
            // Only the indices that name a multiset are ever read; the rest stay 0.
            let mut t = Box::new([[0i16; NQUAD]; 2]);
            for (c, row) in t.iter_mut().enumerate() {
                for k in 0..NCODE {
                    // In range by the parameter's bounds (CODE_MIN..=CODE_MAX).
                    let e = w.pattern_code.value(c, k);
                    row[quad_of_code(k)] = e.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                }
            }
            w.quad_code = Some(Arc::from(t));
        }
        w
    }

    /// Value and threat class of a cell for colour `c` given its four line patterns (the
    /// value that orders moves: line values and combination bonus, no pattern-code entry).
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

    /// Does the pattern-code table have an entry (else [`EvalWeights::code_value`] is 0)?
    #[inline]
    pub fn has_codes(&self) -> bool {
        self.pattern_code.is_set()
    }

    /// The pattern-code entry of colour `c` for a cell with line patterns `pats` (see
    /// [`crate::cell_class::code`]).
    #[inline]
    pub fn code_value(&self, c: usize, pats: &[u8]) -> i32 {
        self.pattern_code.value(c, code_of(pats))
    }

    /// The pattern-code entry of colour `c` for the quadruple index `quad` the board keeps
    /// (0 without a table).
    #[inline]
    pub fn quad_value(&self, c: usize, quad: u16) -> i32 {
        self.quad_code
            .as_ref()
            .map_or(0, |t| i32::from(t[c & 1][usize::from(quad) % NQUAD]))
    }

    /// What a pattern change from `old` to `new` adds to the quadruple index.
    #[inline]
    pub fn quad_delta(old: u8, new: u8) -> i32 {
        quad_share(new) - quad_share(old)
    }

    /// The pattern-code entry of colour `c` for code `k`.
    #[inline]
    pub fn code_entry(&self, c: usize, k: usize) -> i32 {
        self.pattern_code.value(c, k)
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

    /// The threat-mask entry for colour index `c` to move and mask `m` (see
    /// [`crate::cell_class::mask`]).
    #[inline]
    pub fn threat_value(&self, c: usize, m: usize) -> i32 {
        self.threat[c][m]
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
            for (entry, &(class, threat)) in self.combo[c].iter_mut().zip(key_classes(renju_black))
            {
                let bonus = if class == NO_CLASS {
                    0
                } else {
                    self.class_bonus[c][class as usize]
                };
                *entry = (bonus, threat);
            }
        }
    }
}

/// Per packed summary: combination class and threat class.
type KeyClasses = [(u8, Threat); 1 << 13];

/// Marks a summary with no combination class (a five, or forbidden for renju black).
const NO_CLASS: u8 = u8::MAX;

/// Per packed summary: its combination class ([`NO_CLASS`] for none) and threat class. They
/// depend only on whether the colour is renju black, not on the weights, so they are worked
/// out once: every board and every search builds its weights, and classifying 2 x 8,192
/// summaries each time was most of that cost.
fn key_classes(renju_black: bool) -> &'static KeyClasses {
    static TABLES: OnceLock<Box<[KeyClasses; 2]>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut t = Box::new([[(NO_CLASS, Threat::None); 1 << 13]; 2]);
        for (i, table) in t.iter_mut().enumerate() {
            let renju_black = i == 1;
            for (key, entry) in table.iter_mut().enumerate() {
                let class = table::class_of_key(key as u16, renju_black).map_or(NO_CLASS, |k| {
                    debug_assert!(k < NCLASS);
                    k as u8
                });
                *entry = (class, classify(key as u16, renju_black));
            }
        }
        t
    });
    &tables[renju_black as usize]
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::new(&Params::default(), Rule::Renju)
    }
}
