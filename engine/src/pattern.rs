//! Line patterns: what one stone placed on a cell makes along one direction.
//!
//! A cell's pattern in a direction depends only on the 5 cells on each side of it
//! (5, not 4, so that exact-five rules can see overlines). Those 10 cells, 2 bits each
//! (empty, black, white, wall), form a 20-bit key; a table built once per rule maps
//! the key to the pattern for black and for white. The table is built by classifying
//! windows recursively, as `shared/spec/engine-design.md` describes: five, then the
//! points that make five (four), then the points that make fours (three), and so on.

use crate::rule::Rule;
use crate::stone::Stone;
use std::sync::OnceLock;

/// What a stone placed on a cell makes along one line. Ordered from weakest to strongest,
/// except that [`Pattern::Overline`] and [`Pattern::DoubleFour`] are special cases.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through the cell on this line.
    Dead = 0,
    /// Six or more in a row where that is no win (exact-five rules); forbidden for renju black.
    Overline = 1,
    /// One stone that can still grow into a closed two.
    B1 = 2,
    /// One stone that can grow into an open two.
    F1 = 3,
    /// Closed two: one more stone makes a closed three.
    B2 = 4,
    /// Open two: one more stone makes an open three.
    F2 = 5,
    /// Closed three: one more stone makes a simple four.
    B3 = 6,
    /// Open three: one more stone makes a straight four (split threes included).
    F3 = 7,
    /// Simple four: exactly one point makes five.
    B4 = 8,
    /// Straight (open) four: `.XXXX.`, two points make five.
    F4 = 9,
    /// Two fours on one line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`): two five points that
    /// are not the ends of one straight four. Forbidden for renju black, a win for others.
    DoubleFour = 10,
    /// Five in a row (exactly five where the rule asks for it).
    Five = 11,
}

impl Pattern {
    /// Every pattern, weakest first.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// The pattern for a raw table byte.
    #[inline]
    pub const fn from_u8(v: u8) -> Pattern {
        match v {
            0 => Pattern::Dead,
            1 => Pattern::Overline,
            2 => Pattern::B1,
            3 => Pattern::F1,
            4 => Pattern::B2,
            5 => Pattern::F2,
            6 => Pattern::B3,
            7 => Pattern::F3,
            8 => Pattern::B4,
            9 => Pattern::F4,
            10 => Pattern::DoubleFour,
            _ => Pattern::Five,
        }
    }

    /// Short name used in diagnostics.
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::Dead => "dead",
            Pattern::Overline => "overline",
            Pattern::B1 => "b1",
            Pattern::F1 => "f1",
            Pattern::B2 => "b2",
            Pattern::F2 => "f2",
            Pattern::B3 => "b3",
            Pattern::F3 => "f3",
            Pattern::B4 => "b4",
            Pattern::F4 => "f4",
            Pattern::DoubleFour => "double-four",
            Pattern::Five => "five",
        }
    }

    /// How many fours this line pattern holds (0, 1 or 2).
    #[inline]
    pub const fn fours(self) -> u32 {
        match self {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// Cell contents as stored in line words: 2 bits each.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
#[cfg(test)]
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// How one colour's fives are counted when building its table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Five or more wins.
    Free,
    /// Exactly five wins; an overline is nothing special.
    Exact,
    /// Exactly five; overline and double-four points cannot be played (renju black).
    RenjuBlack,
}

/// Memoised classification over 11-cell windows (22-bit keys, centre included).
struct Classifier {
    mode: Mode,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = 0xFF;

#[inline]
fn cell(key: u32, i: usize) -> u8 {
    ((key >> (2 * i)) & 3) as u8
}

#[inline]
fn with(key: u32, i: usize, v: u8) -> u32 {
    (key & !(3 << (2 * i))) | ((v as u32) << (2 * i))
}

impl Classifier {
    fn new(mode: Mode) -> Self {
        Classifier {
            mode,
            memo: vec![UNKNOWN; 1 << 22],
        }
    }

    /// Length of the run of own stones (value 1) through the centre cell 5.
    fn run(key: u32) -> usize {
        let mut n = 1;
        let mut i = 4;
        while cell(key, i) == BLACK {
            n += 1;
            if i == 0 {
                break;
            }
            i -= 1;
        }
        for i in 6..11 {
            if cell(key, i) != BLACK {
                break;
            }
            n += 1;
        }
        n
    }

    fn is_five(&self, key: u32) -> bool {
        let n = Self::run(key);
        n == 5 || (n > 5 && self.mode == Mode::Free)
    }

    /// Classifies a window whose centre holds an own stone (1); own = 1, other = 2, wall = 3.
    fn classify(&mut self, key: u32) -> u8 {
        let m = self.memo[key as usize];
        if m != UNKNOWN {
            return m;
        }
        let result = self.compute(key);
        self.memo[key as usize] = result;
        result
    }

    fn compute(&mut self, key: u32) -> u8 {
        let n = Self::run(key);
        if n >= 5 {
            return if n == 5 || self.mode == Mode::Free {
                Pattern::Five as u8
            } else {
                Pattern::Overline as u8
            };
        }
        // Points that make a five through the centre.
        let mut five_points = [0usize; 9];
        let mut nf = 0;
        for e in 1..10 {
            if e != 5 && cell(key, e) == EMPTY && self.is_five(with(key, e, BLACK)) {
                five_points[nf] = e;
                nf += 1;
            }
        }
        if nf >= 2 {
            // Two five points at distance 5 with four own stones between: a straight four.
            for a in 0..nf {
                for b in a + 1..nf {
                    let (lo, hi) = (five_points[a], five_points[b]);
                    if hi - lo == 5 && (lo + 1..hi).all(|i| cell(key, i) == BLACK) {
                        return Pattern::F4 as u8;
                    }
                }
            }
            return Pattern::DoubleFour as u8;
        }
        if nf == 1 {
            return Pattern::B4 as u8;
        }
        let mut best = Pattern::Dead as u8;
        let mut any = false;
        for e in 1..10 {
            if e == 5 || cell(key, e) != EMPTY {
                continue;
            }
            let child = self.classify(with(key, e, BLACK));
            let step = match Pattern::from_u8(child) {
                Pattern::F4 => Pattern::F3,
                Pattern::DoubleFour if self.mode != Mode::RenjuBlack => Pattern::F3,
                Pattern::B4 => Pattern::B3,
                Pattern::F3 => Pattern::F2,
                Pattern::B3 => Pattern::B2,
                Pattern::F2 => Pattern::F1,
                Pattern::B2 => Pattern::B1,
                Pattern::B1 | Pattern::F1 => {
                    any = true;
                    continue;
                }
                _ => continue,
            };
            best = best.max(step as u8);
        }
        if best == Pattern::Dead as u8 && any {
            // Room for a five exists but nothing nearer than a lone stone: still alive.
            best = Pattern::B1 as u8;
        }
        best
    }
}

/// Inserts the centre cell (as an own stone) into a 20-bit key.
#[inline]
fn expand(key20: u32) -> u32 {
    (key20 & 0x3FF) | ((BLACK as u32) << 10) | ((key20 >> 10) << 12)
}

/// Number of ternary neighbourhoods: 10 cells, each empty, own or blocked.
const TERNARY: usize = 59_049;

/// The pattern table of one rule.
///
/// A wall blocks a line exactly as an opponent stone does, so each colour's pattern
/// depends only on the 10 neighbours read as empty / own / blocked: 3^10 keys, a
/// 59 KB table per colour that stays in cache (a direct 20-bit table would be 2 MB).
/// Two small tables per colour turn each half of the 2-bit key into its ternary index.
pub struct PatternTable {
    black: Vec<u8>,
    white: Vec<u8>,
    /// Per colour: ternary index of the low 5 cells, and of the high 5 cells (times 3^5).
    tern: [[[u16; 1024]; 2]; 2],
}

impl PatternTable {
    fn build(rule: Rule) -> PatternTable {
        let mode_of = |stone: Stone| match (rule, stone) {
            (Rule::Freestyle, _) | (Rule::Renju, Stone::White) => Mode::Free,
            (Rule::Standard, _) => Mode::Exact,
            (Rule::Renju, Stone::Black) => Mode::RenjuBlack,
        };
        let mut black = Classifier::new(mode_of(Stone::Black));
        // One classifier serves both colours when they count fives the same way.
        let mut white_other =
            (mode_of(Stone::White) != black.mode).then(|| Classifier::new(mode_of(Stone::White)));
        let mut tb = vec![0u8; TERNARY];
        let mut tw = vec![0u8; TERNARY];
        for t in 0..TERNARY {
            // Decode to a 22-bit window key (own = 1, blocked = 2) with the own centre.
            let mut key20 = 0u32;
            let mut rest = t;
            for i in 0..10 {
                key20 |= ((rest % 3) as u32) << (2 * i);
                rest /= 3;
            }
            let key = expand(key20);
            tb[t] = black.classify(key);
            tw[t] = match white_other.as_mut() {
                Some(c) => c.classify(key),
                None => black.classify(key),
            };
        }
        let mut tern = [[[0u16; 1024]; 2]; 2];
        for half in 0..1024usize {
            for (c, map) in [[0u16, 1, 2, 2], [0, 2, 1, 2]].iter().enumerate() {
                let mut v = 0u16;
                for i in (0..5).rev() {
                    v = v * 3 + map[(half >> (2 * i)) & 3];
                }
                tern[c][0][half] = v;
                tern[c][1][half] = v * 243;
            }
        }
        PatternTable {
            black: tb,
            white: tw,
            tern,
        }
    }

    /// The table for `rule`, built on first use and shared for the life of the process.
    pub fn get(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let i = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
        };
        TABLES[i].get_or_init(|| PatternTable::build(rule))
    }

    /// The `[black, white]` pattern bytes for a 20-bit neighbourhood key.
    #[inline]
    pub fn lookup(&self, key20: u32) -> [u8; 2] {
        let lo = (key20 & 0x3FF) as usize;
        let hi = (key20 >> 10) as usize & 0x3FF;
        let ib = (self.tern[0][0][lo] + self.tern[0][1][hi]) as usize;
        let iw = (self.tern[1][0][lo] + self.tern[1][1][hi]) as usize;
        // Both indices are below 3^10 by construction; `get` keeps the code safe without a panic path.
        [
            self.black.get(ib).copied().unwrap_or(0),
            self.white.get(iw).copied().unwrap_or(0),
        ]
    }
}

/// Builds a 20-bit key from a readable window such as `"XX.X_.XX.."`, where the
/// centre (`_`) is left out: 5 cells left of the centre, then 5 right. `#` is a wall.
#[cfg(test)]
pub(crate) fn key_of(window: &str) -> u32 {
    let cells: Vec<u8> = window
        .chars()
        .filter(|&c| c != '_')
        .map(|c| match c {
            'X' => BLACK,
            'O' => WHITE,
            '#' => WALL,
            _ => EMPTY,
        })
        .collect();
    assert_eq!(cells.len(), 10, "window {window}");
    cells
        .iter()
        .enumerate()
        .fold(0, |k, (i, &v)| k | ((v as u32) << (2 * i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn black(rule: Rule, w: &str) -> Pattern {
        Pattern::from_u8(PatternTable::get(rule).lookup(key_of(w))[0])
    }
    fn white(rule: Rule, w: &str) -> Pattern {
        Pattern::from_u8(PatternTable::get(rule).lookup(key_of(w))[1])
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(black(Rule::Renju, "...XX_XX..."), Pattern::Five);
        assert_eq!(black(Rule::Renju, "..XXX_XX..."), Pattern::Overline);
        assert_eq!(black(Rule::Freestyle, "..XXX_XX..."), Pattern::Five);
        assert_eq!(black(Rule::Standard, "..XXX_XX..."), Pattern::Overline);
        // Renju white: overline wins.
        assert_eq!(white(Rule::Renju, "..OOO_OO..."), Pattern::Five);
        assert_eq!(white(Rule::Standard, "..OOO_OO..."), Pattern::Overline);
    }

    #[test]
    fn fours() {
        assert_eq!(black(Rule::Renju, "....X_XX..."), Pattern::F4);
        assert_eq!(black(Rule::Renju, "....O_XXX.."), Pattern::B4);
        assert_eq!(black(Rule::Renju, "....X_X.X.."), Pattern::B4);
        // A gap whose filling makes six is no five point: X.XXXX is not a four through the gap.
        assert_eq!(black(Rule::Renju, "...X._XXX.."), Pattern::B4);
        assert!(black(Rule::Renju, "...X._XXXO.") < Pattern::B3);
        assert_eq!(white(Rule::Renju, "...O._OOOX."), Pattern::B4);
        // One-line double fours: X.XXX.X, XX.XX.XX, XXX.X.XXX with the new stone inside.
        assert_eq!(black(Rule::Renju, "..X.X_X.X.."), Pattern::DoubleFour);
        assert_eq!(black(Rule::Renju, "..XX._X.XX."), Pattern::DoubleFour);
        assert_eq!(black(Rule::Renju, ".XXX._.XXX."), Pattern::DoubleFour);
        // XX.XX with the gap making six is a single four at the far end only.
        assert_eq!(black(Rule::Renju, "...XX_.XX.."), Pattern::B3);
        assert_eq!(black(Rule::Freestyle, "...XX_.XX.."), Pattern::B4);
    }

    #[test]
    fn threes() {
        assert_eq!(black(Rule::Renju, "....._XX..."), Pattern::F3);
        assert_eq!(black(Rule::Renju, "....X_.X..."), Pattern::F3);
        assert_eq!(black(Rule::Renju, "....O_XX..."), Pattern::B3);
        // A stone beyond the far end still leaves a straight four on the near side.
        assert_eq!(black(Rule::Renju, ".X..._XX..."), Pattern::F3);
        assert_eq!(white(Rule::Renju, ".O..._OO..."), Pattern::F3);
        assert_eq!(black(Rule::Renju, "#####_XX..."), Pattern::B3);
    }

    #[test]
    fn twos_and_dead() {
        assert_eq!(black(Rule::Renju, "....._X...."), Pattern::F2);
        assert_eq!(black(Rule::Renju, "..O.._XO..."), Pattern::Dead);
        assert_eq!(black(Rule::Renju, ".O..._...O."), Pattern::F1);
        assert_eq!(black(Rule::Renju, "...O._.O..."), Pattern::Dead);
    }
}
