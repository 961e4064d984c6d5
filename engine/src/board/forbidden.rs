//! Renju forbidden moves for black, decided exactly as RIF defines them.
//!
//! The cached line patterns answer almost every question with a few byte compares: a five
//! is legal, an overline or two fours are forbidden, fewer than two open threes are legal.
//! Only a possible double-three needs the recursive check of RIF 9.3: a three is real only
//! if one of its straight-four points is itself a legal move that does not make a five.

use super::grid::{idx_of, pos_of, DIR_STEP};
use super::Board;
use crate::pattern::{Pattern, BLACK, EMPTY};
use crate::pos::Pos;
use crate::rule::Rule;
use crate::stone::Stone;

const FIVE: u8 = Pattern::Five as u8;
const OVERLINE: u8 = Pattern::Overline as u8;
const F3: u8 = Pattern::F3 as u8;

impl Board {
    /// Is a black stone on `p` forbidden? Always false under freestyle and standard rules,
    /// for occupied points and for points off the board.
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.rule == Rule::Renju && self.is_empty_at(p) && self.forbidden_idx(idx_of(p))
    }

    /// All of black's forbidden points, sorted by row then column (empty unless renju).
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut out = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                let i = idx_of(Pos::new(x, y));
                if self.cells[i] == EMPTY && self.forbidden_idx(i) {
                    out.push(Pos::new(x, y));
                }
            }
        }
        out
    }

    /// Exact forbidden test for black on the empty padded index `idx` (renju assumed).
    pub(crate) fn forbidden_idx(&mut self, idx: usize) -> bool {
        let p = self.pat[idx];
        let (mut fours, mut threes) = (0, 0);
        let mut over = false;
        for &v in &p[..4] {
            if v == FIVE {
                return false;
            }
            over |= v == OVERLINE;
            fours += Pattern::from_u8(v).fours();
            threes += (v == F3) as u32;
        }
        if over || fours >= 2 {
            return true;
        }
        if threes < 2 {
            return false;
        }
        // Possible double-three: count the threes that are real.
        self.put_black_light(idx);
        let mut real = 0;
        for d in 0..4 {
            if p[d] == F3 && self.three_is_real(idx, d) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.remove_black_light(idx);
        real >= 2
    }

    /// With black on `idx`, does the three through it in direction `d` have a straight-four
    /// point that is a legal black move and does not make a five at the same time?
    fn three_is_real(&mut self, idx: usize, d: usize) -> bool {
        let step = DIR_STEP[d];
        for k in -4isize..=4 {
            if k == 0 {
                continue;
            }
            let e = (idx as isize + k * step) as usize;
            if self.cells[e] != EMPTY || !self.straight_four_with(idx, e, step) {
                continue;
            }
            // A point making a five is a five, not a four made from this three (RIF wording).
            if self.makes_five_idx(e, Stone::Black) {
                continue;
            }
            if !self.forbidden_idx(e) {
                return true;
            }
        }
        false
    }

    /// Would a black stone on `e` give an unbroken four through `idx` (along `step`) with both
    /// ends empty and each end making exactly five?
    fn straight_four_with(&self, idx: usize, e: usize, step: isize) -> bool {
        let is_black = |i: isize| i as usize == e || self.cells[i as usize] == BLACK;
        let mut lo = idx as isize;
        while is_black(lo - step) {
            lo -= step;
        }
        let mut hi = idx as isize;
        while is_black(hi + step) {
            hi += step;
        }
        let len = (hi - lo) / step + 1;
        let contains_e = {
            let off = (e as isize - lo) / step;
            (e as isize - lo) % step == 0 && (0..len).contains(&off)
        };
        len == 4
            && contains_e
            && self.cells[(lo - step) as usize] == EMPTY
            && self.cells[(hi + step) as usize] == EMPTY
            && self.cells[(lo - 2 * step) as usize] != BLACK
            && self.cells[(hi + 2 * step) as usize] != BLACK
    }

    /// Renders the forbidden-point decision for one point (for diagnostics).
    pub fn explain_forbidden(&mut self, p: Pos) -> String {
        if !self.is_empty_at(p) {
            return format!("{p} is not empty");
        }
        let i = idx_of(p);
        let pats: Vec<&str> = (0..4)
            .map(|d| Pattern::from_u8(self.pat[i][d]).name())
            .collect();
        format!(
            "{} black patterns [horizontal {}, vertical {}, diagonal {}, anti-diagonal {}]: {}",
            pos_of(i),
            pats[0],
            pats[1],
            pats[2],
            pats[3],
            if self.is_forbidden(p) {
                "forbidden"
            } else {
                "legal"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &str, white: &str) -> Board {
        Board::from_stones(
            15,
            Rule::Renju,
            &Pos::parse_list(black, 15).unwrap(),
            &Pos::parse_list(white, 15).unwrap(),
        )
        .unwrap()
    }

    fn forb(b: &mut Board) -> String {
        Pos::format_list(&b.forbidden_points())
    }

    #[test]
    fn simple_double_three() {
        let mut b = board("g8 h8 i9 i10", "");
        assert!(
            b.is_forbidden(Pos::parse("i8", 15).unwrap()),
            "{}",
            b.explain_forbidden(Pos::parse("i8", 15).unwrap())
        );
    }

    #[test]
    fn four_three_is_legal() {
        let mut b = board("f8 g8 h8 i10 i11", "e8");
        let p = Pos::parse("i8", 15).unwrap();
        assert!(!b.is_forbidden(p), "{}", b.explain_forbidden(p));
    }

    #[test]
    fn double_four_and_overline() {
        let mut b = board("f8 g8 h8 i9 i10 i11", "e8 i12");
        assert!(b.is_forbidden(Pos::parse("i8", 15).unwrap()));
        let mut b = board("c8 d8 e8 g8 h8", "");
        assert!(b.is_forbidden(Pos::parse("f8", 15).unwrap()));
        assert_eq!(forb(&mut b), "f8");
    }

    #[test]
    fn five_beats_overline_elsewhere() {
        // f8 makes five horizontally and an overline vertically: five wins.
        let mut b = board("b8 c8 d8 e8 f3 f4 f5 f6 f7", "");
        let p = Pos::parse("f8", 15).unwrap();
        assert!(!b.is_forbidden(p));
        assert!(b.makes_five(p, Stone::Black));
    }

    #[test]
    fn white_is_never_forbidden() {
        let mut b = board("", "g8 h8 i9 i10");
        b.set_side_to_move(Stone::White);
        assert!(b.is_legal(Pos::parse("i8", 15).unwrap()));
    }
}
