//! The pattern-code table: a value per combination of a cell's four line patterns, per colour.
//!
//! The combination table ([`super::table`]) sees a cell through three counts (fours, open
//! threes, open twos); the pattern code sees all of it: the multiset of the four line patterns
//! a stone there would make (12 patterns, so C(15, 4) = 1,365 codes per colour), as Rapfi's
//! learned evaluation does. Each code has an entry `pcd_<colour>_<p1>_<p2>_<p3>_<p4>`, the
//! patterns strongest first in the tokens of [`TOKENS`] (`pcd_white_f3_b2_f1_d`: an open
//! three, a closed two, an open one and a dead line). The evaluation adds, per colour, the
//! entries of its empty cells that are not forbidden, beside their line values and
//! combination bonuses; the board keeps that sum incrementally apart from the cell values that
//! order moves (counted there too, the first fitted table played worse: see the strength
//! log). Entries not given are 0. Like the threat-mask table it is fitted to renju games and
//! counts under renju only, and renju black's entries are not scaled by `black_penalty` (the
//! fit sets them directly). With no entry set the board skips the lookup.

use super::entries::Entries;
use crate::stone::Stone;
use std::sync::LazyLock;

/// Number of line patterns.
const NPAT: usize = 12;

/// Each pattern's share of a cell's quadruple index (in [`crate::pattern::Pattern`] order): a
/// set of twelve numbers whose sums of four (repeats allowed) all differ, so the sum over a
/// cell's four line patterns names their multiset, and a pattern change updates it with one
/// subtraction of two loads. The commonest patterns (no stone, ones, twos) have the smallest
/// shares: the entries a board reads most lie within the table's first few hundred, a few
/// cache lines (the ordered `12^4` index it replaced spread them over 40 KB a colour).
/// Padded to 16 so that a pattern byte indexes it with a mask (patterns are below 12).
const QUAD_SHARE: [u16; 16] = [
    0, 2603, 5, 1, 55, 21, 153, 368, 856, 1424, 4967, 8194, 0, 0, 0, 0,
];

/// Size of the quadruple index range: four times the largest share, plus one. Most of the
/// range names no multiset and is never read.
pub const NQUAD: usize = 4 * max_share() + 1;

/// The largest of [`QUAD_SHARE`].
const fn max_share() -> usize {
    let (mut m, mut i) = (0, 0);
    while i < NPAT {
        if QUAD_SHARE[i] as usize > m {
            m = QUAD_SHARE[i] as usize;
        }
        i += 1;
    }
    m
}

/// What pattern `p` adds to a cell's quadruple index (see [`QUAD_SHARE`]).
#[inline]
pub const fn quad_share(p: u8) -> i32 {
    QUAD_SHARE[(p & 15) as usize] as i32
}

/// Codes per colour: multisets of four patterns out of twelve.
pub const NCODE: usize = 1365;

/// Smallest entry allowed.
pub const CODE_MIN: i32 = -5000;
/// Largest entry allowed.
pub const CODE_MAX: i32 = 5000;

/// Each pattern's token in an entry name, in [`crate::pattern::Pattern`] order.
pub const TOKENS: [&str; NPAT] = [
    "d", "ol", "b1", "f1", "b2", "f2", "b3", "f3", "b4", "f4", "ff", "five",
];

/// Per quadruple index (see [`QUAD_SHARE`]): its code. Built at compile time (a plain static,
/// read on every cell update: no lazy-initialisation check), which also proves that no two
/// multisets share an index.
static CODE_OF: [u16; NQUAD] = build_code_of();

/// Per code: its quadruple index (the inverse of [`CODE_OF`]).
static QUAD_OF: [u16; NCODE] = build_quad_of();

/// Numbers the sorted quadruples (strongest first) in ascending order, as [`sorted_codes`]
/// does, at the index of their shares' sum.
const fn build_code_of() -> [u16; NQUAD] {
    let quad_of = build_quad_of();
    let mut t = [0u16; NQUAD];
    let mut seen = [false; NQUAD];
    let mut k = 0;
    while k < NCODE {
        let idx = quad_of[k] as usize;
        assert!(!seen[idx], "two multisets share a quadruple index");
        seen[idx] = true;
        t[idx] = k as u16;
        k += 1;
    }
    t
}

/// Every code's quadruple index, codes numbered as [`sorted_codes`] does.
const fn build_quad_of() -> [u16; NCODE] {
    let mut t = [0u16; NCODE];
    let mut k = 0;
    let mut a = 0;
    while a < NPAT {
        let mut b = 0;
        while b <= a {
            let mut c = 0;
            while c <= b {
                let mut d = 0;
                while d <= c {
                    t[k] = QUAD_SHARE[a] + QUAD_SHARE[b] + QUAD_SHARE[c] + QUAD_SHARE[d];
                    k += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// Every code's patterns, strongest first; codes in ascending order of that quadruple.
fn sorted_codes() -> Vec<[usize; 4]> {
    let mut v = Vec::with_capacity(NCODE);
    for a in 0..NPAT {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    v.push([a, b, c, d]);
                }
            }
        }
    }
    v.sort_unstable();
    debug_assert_eq!(v.len(), NCODE);
    v
}

/// The code of a cell's four line patterns (any order).
#[inline]
pub fn code_of(pats: &[u8]) -> usize {
    code_of_quad((0..4).map(|d| quad_share(pats[d]) as usize).sum())
}

/// The code of a quadruple index (see [`QUAD_SHARE`]).
#[inline]
pub fn code_of_quad(quad: usize) -> usize {
    usize::from(CODE_OF[quad])
}

/// The quadruple index of a code (see [`QUAD_SHARE`]).
#[inline]
pub fn quad_of_code(code: usize) -> usize {
    usize::from(QUAD_OF[code])
}

/// Every entry's name: black's 1,365 codes then white's, in code order.
pub fn code_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let codes = sorted_codes();
        let mut v = Vec::with_capacity(2 * NCODE);
        for colour in ["black", "white"] {
            for q in &codes {
                let name = format!(
                    "pcd_{colour}_{}_{}_{}_{}",
                    TOKENS[q[0]], TOKENS[q[1]], TOKENS[q[2]], TOKENS[q[3]]
                );
                v.push(&*Box::leak(name.into_boxed_str()));
            }
        }
        v
    });
    &NAMES
}

/// Colour and code of an entry name (its patterns in any order).
pub fn parse_code_name(name: &str) -> Option<(Stone, usize)> {
    let rest = name.strip_prefix("pcd_")?;
    let (colour, rest) = if let Some(r) = rest.strip_prefix("black_") {
        (Stone::Black, r)
    } else {
        (Stone::White, rest.strip_prefix("white_")?)
    };
    let mut pats = [0u8; 4];
    let mut n = 0;
    for tok in rest.split('_') {
        let p = TOKENS.iter().position(|t| *t == tok)?;
        *pats.get_mut(n)? = p as u8;
        n += 1;
    }
    (n == 4).then(|| (colour, code_of(&pats)))
}

/// The entries of a parameter set, per colour and code (see [`Entries`]).
pub type CodeTable = Entries<NCODE>;

impl CodeTable {
    /// The non-zero entries, as (name, value), black's first, in code order.
    pub fn overrides(&self) -> Vec<(&'static str, i32)> {
        self.named(code_names())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Pattern;

    #[test]
    fn codes_ignore_the_order_of_the_lines() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..NPAT.pow(4) {
            let q = [i / 1728, (i / 144) % 12, (i / 12) % 12, i % 12].map(|p| p as u8);
            let k = code_of(&q);
            assert!(k < NCODE);
            for perm in [[3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1], [0, 2, 1, 3]] {
                assert_eq!(code_of(&perm.map(|j| q[j])), k, "{q:?}");
            }
            seen.insert(k);
        }
        assert_eq!(seen.len(), NCODE, "every code is reached");
        // Different multisets, different codes.
        let f3 = Pattern::F3 as u8;
        let b3 = Pattern::B3 as u8;
        assert_ne!(code_of(&[f3, b3, 0, 0]), code_of(&[f3, f3, 0, 0]));
    }

    #[test]
    fn names_parse_back_to_their_code() {
        let names = code_names();
        assert_eq!(names.len(), 2 * NCODE);
        for (i, n) in names.iter().enumerate() {
            let colour = if i < NCODE {
                Stone::Black
            } else {
                Stone::White
            };
            assert_eq!(parse_code_name(n), Some((colour, i % NCODE)), "{n}");
        }
        let q = [Pattern::F3, Pattern::B2, Pattern::F1, Pattern::Dead].map(|p| p as u8);
        assert_eq!(names[NCODE + code_of(&q)], "pcd_white_f3_b2_f1_d");
        // Any order parses to the same entry.
        assert_eq!(
            parse_code_name("pcd_white_d_f1_b2_f3"),
            Some((Stone::White, code_of(&q)))
        );
        for bad in [
            "pcd_grey_d_d_d_d",
            "pcd_black_d_d_d",
            "pcd_black_d_d_d_d_d",
            "pcd_black_d_d_d_x",
            "thr_black_m00000_o00000",
        ] {
            assert_eq!(parse_code_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_table_of_zeros_equals_no_table() {
        let mut t = CodeTable::default();
        assert!(!t.is_set());
        t.set(0, 99, -40);
        assert!(t.is_set());
        assert_eq!(t.overrides(), vec![(code_names()[99], -40)]);
        t.set(0, 99, 0);
        assert_eq!(t, CodeTable::default());
    }
}
