//! The board: stones, side to move, history, Zobrist hash and incrementally updated
//! line patterns for every empty cell.

mod error;
mod forbidden;
mod grid;
mod move_record;
mod setup;
mod text;
mod zobrist;

pub use error::BoardError;
pub(crate) use grid::{idx_of, pos_of, CELLS, DIR_STEP, PAD, STRIDE};
pub use move_record::MoveRecord;

use crate::cell_class::code::quad_share;
use crate::cell_class::mask::mask_of;
use crate::eval::{classify, table, EvalFeatures, EvalWeights, Threat, NTHREAT};
use crate::outcome::{Outcome, WinReason};
use crate::params::Params;
use crate::pattern::{Pattern, PatternTable, BLACK, EMPTY, WALL};
use crate::pos::Pos;
use crate::pos::{MAX_SIZE, MIN_SIZE};
use crate::rule::Rule;
use crate::stone::Stone;
use zobrist::{ZOBRIST, ZOBRIST_SIDE};

#[inline]
fn threat_of(v: u8) -> Threat {
    match v {
        1 => Threat::Three,
        2 => Threat::DoubleThree,
        3 => Threat::Four,
        4 => Threat::FourThree,
        5 => Threat::OpenFour,
        6 => Threat::Five,
        7 => Threat::Forbidden,
        _ => Threat::None,
    }
}

/// A Gomoku/Renju position under one rule.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    side: Stone,
    stones: usize,
    hash: u64,
    cells: [u8; CELLS],
    /// Lines per direction as 2-bit cells (walls outside the board), 5 walls before the first cell.
    lines: [[u64; 2 * MAX_SIZE]; 4],
    /// Per cell: black's pattern in directions 0-3, then white's.
    pat: [[u8; 8]; CELLS],
    history: Vec<MoveRecord>,
    table: &'static PatternTable,
    /// Evaluation weights in force.
    weights: EvalWeights,
    /// Per empty cell and colour: the cell's value (0 for occupied cells).
    cval: [[i32; 2]; CELLS],
    /// Per empty cell and colour: the cell's threat class (`None` for occupied cells).
    ccls: [[u8; 2]; CELLS],
    /// Per cell and colour: sum of the line values of its four patterns (kept for every
    /// cell, occupied or not, so that pattern changes update it by difference).
    lsum: [[i32; 2]; CELLS],
    /// Per cell and colour: packed summary of its four patterns (see [`EvalWeights`]).
    ckey: [[u16; 2]; CELLS],
    /// Per cell and colour: the quadruple index of its four patterns (kept like `lsum`; see
    /// [`crate::cell_class::code::NQUAD`]), which the pattern-code entry is read by.
    cquad: [[u16; 2]; CELLS],
    /// Per colour: sum of `cval` over empty cells.
    sum: [i32; 2],
    /// Per empty cell and colour: its pattern-code entry (0 for occupied and forbidden
    /// cells). Kept out of `cval`: the entries are fitted to the evaluation, and counted in
    /// the cell values that order moves they played worse (see the strength log).
    cpc: [[i32; 2]; CELLS],
    /// Per colour: sum of `cpc` over empty cells.
    csum: [i32; 2],
    /// Per colour: how many empty cells hold each threat class.
    cnt: [[u16; NTHREAT]; 2],
    /// Per colour and threat class: the set of empty cells with that class, as bits.
    cbits: [[[u64; CELLS / 64]; NTHREAT]; 2],
    /// Stones within the candidate radius of each cell.
    near: [u8; CELLS],
    radius: usize,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && self.rule == other.rule
            && self.side == other.side
            && self.cells == other.cells
            && self.hash == other.hash
    }
}

impl Board {
    /// An empty board of side `size` (5 to 20) under `rule`, black to move.
    pub fn new(size: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::BadSize(size));
        }
        let mut b = Board {
            size,
            rule,
            side: Stone::Black,
            stones: 0,
            hash: 0,
            cells: [WALL; CELLS],
            lines: [[u64::MAX; 2 * MAX_SIZE]; 4],
            pat: [[0; 8]; CELLS],
            history: Vec::with_capacity(size * size),
            table: PatternTable::get(rule),
            weights: EvalWeights::new(&Params::default(), rule),
            cval: [[0; 2]; CELLS],
            ccls: [[0; 2]; CELLS],
            lsum: [[0; 2]; CELLS],
            ckey: [[0; 2]; CELLS],
            cquad: [[0; 2]; CELLS],
            cbits: [[[0; CELLS / 64]; NTHREAT]; 2],
            sum: [0; 2],
            cpc: [[0; 2]; CELLS],
            csum: [0; 2],
            cnt: [[0; NTHREAT]; 2],
            near: [0; CELLS],
            radius: Params::default().radius as usize,
        };
        for y in 0..size {
            for x in 0..size {
                let p = Pos::new(x, y);
                b.cells[idx_of(p)] = EMPTY;
                for d in 0..4 {
                    let (l, q) = b.line_pos(p, d);
                    b.lines[d][l] &= !(3u64 << (2 * q));
                }
            }
        }
        for y in 0..size {
            for x in 0..size {
                let p = Pos::new(x, y);
                for d in 0..4 {
                    let (l, q) = b.line_pos(p, d);
                    b.refresh(idx_of(p), d, l, q);
                }
            }
        }
        Ok(b)
    }

    /// Uses the evaluation weights and candidate radius of a parameter set.
    pub fn set_params(&mut self, params: &Params) {
        self.weights = EvalWeights::new(params, self.rule);
        self.radius = params.radius.clamp(1, 3) as usize;
        self.cval = [[0; 2]; CELLS];
        self.ccls = [[0; 2]; CELLS];
        self.sum = [0; 2];
        self.cpc = [[0; 2]; CELLS];
        self.csum = [0; 2];
        self.cnt = [[0; NTHREAT]; 2];
        self.cbits = [[[0; CELLS / 64]; NTHREAT]; 2];
        self.near = [0; CELLS];
        for i in 0..CELLS {
            for c in 0..2 {
                let pats = &self.pat[i][c * 4..c * 4 + 4];
                self.lsum[i][c] = (0..4).map(|d| self.weights.line_value(c, d, pats[d])).sum();
                self.ckey[i][c] = pats.iter().map(|&p| self.weights.code(c, p)).sum();
                self.cquad[i][c] = pats.iter().map(|&p| quad_share(p)).sum::<i32>() as u16;
            }
        }
        for i in 0..CELLS {
            match self.cells[i] {
                EMPTY => self.recell(i),
                WALL => {}
                _ => self.add_near(i, 1),
            }
        }
    }

    /// Static evaluation for the side to move: own potential minus the opponent's,
    /// weighted by the defence factor, plus the tempo bonus and the threat-mask entry.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let me = self.side.index();
        (self.sum[me] + self.csum[me])
            - (self.sum[1 - me] + self.csum[1 - me]) * self.weights.defence / 100
            + self.weights.tempo
            + self.weights.threat_value(me, self.threat_mask())
    }

    /// The threat mask of the position (see [`crate::cell_class::mask`]): which threat
    /// classes the side to move and the opponent hold.
    #[inline]
    pub fn threat_mask(&self) -> usize {
        let me = self.side.index();
        mask_of(&self.cnt[me], &self.cnt[1 - me])
    }

    /// The counts of line patterns and combination bonuses that [`Board::evaluate`] weighs
    /// (see [`EvalFeatures`]): `eval_features().evaluate(w)` equals the evaluation under `w`.
    pub fn eval_features(&self) -> EvalFeatures {
        let mut f = EvalFeatures::empty(self.rule, self.side);
        f.threat_mask = self.threat_mask() as u16;
        for p in self.points() {
            let i = idx_of(p);
            if self.cells[i] != EMPTY {
                continue;
            }
            for c in 0..2 {
                let renju_black = self.rule == Rule::Renju && c == 0;
                // Forbidden cells are worth nothing to renju black.
                if classify(self.ckey[i][c], renju_black) != Threat::Forbidden {
                    let class = table::class_of_key(self.ckey[i][c], renju_black);
                    f.add_cell(c, &self.pat[i][c * 4..c * 4 + 4], class);
                }
            }
        }
        f
    }

    /// How many empty cells give `stone` the threat class `t`.
    #[inline]
    pub fn threat_count(&self, stone: Stone, t: Threat) -> u32 {
        self.cnt[stone.index()][t as usize] as u32
    }

    /// The threat class of a stone of `stone` on the empty point `p`.
    pub fn threat(&self, p: Pos, stone: Stone) -> Threat {
        if !self.is_empty_at(p) {
            return Threat::None;
        }
        threat_of(self.ccls[idx_of(p)][stone.index()])
    }

    /// Threat class by padded index.
    #[inline]
    pub(crate) fn threat_idx(&self, idx: usize, c: usize) -> Threat {
        threat_of(self.ccls[idx][c])
    }

    /// The empty cells (padded indices, ascending) where `stone` has class `t`.
    #[inline]
    pub(crate) fn cells_with(&self, stone: Stone, t: Threat) -> impl Iterator<Item = usize> + '_ {
        self.cbits[stone.index()][t as usize]
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| {
                let mut b = bits;
                std::iter::from_fn(move || {
                    if b == 0 {
                        return None;
                    }
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    Some(w * 64 + i)
                })
            })
    }

    /// Value of a stone of colour index `c` on the empty `idx`.
    #[inline]
    pub(crate) fn value_idx(&self, idx: usize, c: usize) -> i32 {
        self.cval[idx][c]
    }

    /// Is the empty `idx` within the candidate radius of some stone?
    #[inline]
    pub(crate) fn is_near(&self, idx: usize) -> bool {
        self.near[idx] > 0
    }

    /// The raw cell array (padded), for move generation.
    #[inline]
    pub(crate) fn cell_raw(&self, idx: usize) -> u8 {
        self.cells[idx]
    }

    fn add_near(&mut self, idx: usize, delta: i8) {
        let r = self.radius as isize;
        for dy in -r..=r {
            for dx in -r..=r {
                let c = (idx as isize + dy * STRIDE as isize + dx) as usize;
                self.near[c] = self.near[c].wrapping_add_signed(delta);
            }
        }
    }

    /// Recomputes both colours' value and class of the cell at `idx` from its patterns.
    #[inline]
    fn recell(&mut self, idx: usize) {
        self.recell_colour(idx, 0);
        self.recell_colour(idx, 1);
    }

    /// Recomputes colour `c`'s value and class of the cell at `idx`, keeping sums and counts.
    #[inline]
    fn recell_colour(&mut self, idx: usize, c: usize) {
        self.recell_colour_quad(idx, c, self.cquad[idx][c]);
    }

    /// As [`Board::recell_colour`], given the cell's quadruple index `quad` (the caller that
    /// has just changed it passes it on: read back from memory right after the narrow store,
    /// it stalled on store forwarding, the hottest load of the update with a pattern-code table).
    #[inline]
    fn recell_colour_quad(&mut self, idx: usize, c: usize, quad: u16) {
        let empty = self.cells[idx] == EMPTY;
        let (v, t) = if empty {
            self.weights
                .from_summary(c, self.lsum[idx][c], self.ckey[idx][c])
        } else {
            (0, Threat::None)
        };
        self.sum[c] += v - self.cval[idx][c];
        self.cval[idx][c] = v;
        // Without a pattern-code table `cpc` and `csum` stay 0: nothing to keep.
        if self.weights.has_codes() {
            let cv = if empty && t != Threat::Forbidden {
                self.weights.quad_value(c, quad)
            } else {
                0
            };
            self.csum[c] += cv - self.cpc[idx][c];
            self.cpc[idx][c] = cv;
        }
        let old = self.ccls[idx][c] as usize;
        if old != t as usize {
            let (word, bit) = (idx / 64, 1u64 << (idx % 64));
            if old != 0 {
                self.cnt[c][old] -= 1;
                self.cbits[c][old][word] &= !bit;
            }
            if t != Threat::None {
                self.cnt[c][t as usize] += 1;
                self.cbits[c][t as usize][word] |= bit;
            }
            self.ccls[idx][c] = t as u8;
        }
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whose move it is.
    #[inline]
    pub fn side_to_move(&self) -> Stone {
        self.side
    }

    /// Sets whose move it is (for positions set up stone by stone).
    pub fn set_side_to_move(&mut self, side: Stone) {
        if side != self.side {
            self.hash ^= ZOBRIST_SIDE;
            self.side = side;
        }
    }

    /// Zobrist hash of stones and side to move; equal to the hash recomputed from scratch.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the stones, for checking the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Stone::White {
            ZOBRIST_SIDE
        } else {
            0
        };
        for (i, &c) in self.cells.iter().enumerate() {
            if c == BLACK || c == BLACK + 1 {
                h ^= ZOBRIST[(c - 1) as usize][i];
            }
        }
        h
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// Is every cell taken?
    #[inline]
    pub fn is_full(&self) -> bool {
        self.stones == self.size * self.size
    }

    /// The moves made with [`Board::make`], oldest first (stones placed directly are not moves).
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|r| r.pos)
    }

    /// The stone on a point, if any. Points off the board are empty.
    #[inline]
    pub fn stone_at(&self, p: Pos) -> Option<Stone> {
        if !p.on_board(self.size) {
            return None;
        }
        match self.cells[idx_of(p)] {
            1 => Some(Stone::Black),
            2 => Some(Stone::White),
            _ => None,
        }
    }

    /// Is the point on the board and empty?
    #[inline]
    pub fn is_empty_at(&self, p: Pos) -> bool {
        p.on_board(self.size) && self.cells[idx_of(p)] == EMPTY
    }

    /// All stones of one colour, sorted by row then column.
    pub fn stones_of(&self, stone: Stone) -> Vec<Pos> {
        self.points()
            .filter(|&p| self.stone_at(p) == Some(stone))
            .collect()
    }

    /// Every point of the board, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| Pos::new(x, y)))
    }

    /// What a stone of `stone` placed on the empty point `p` makes along direction `dir`
    /// (0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal). Occupied points give `Dead`.
    pub fn pattern(&self, p: Pos, stone: Stone, dir: usize) -> Pattern {
        if !self.is_empty_at(p) {
            return Pattern::Dead;
        }
        Pattern::from_u8(self.pat[idx_of(p)][stone.index() * 4 + dir])
    }

    /// Places a stone without recording a move (position set-up). The side to move is unchanged.
    pub fn place(&mut self, p: Pos, stone: Stone) -> Result<(), BoardError> {
        self.check_empty(p)?;
        self.put(idx_of(p), stone);
        Ok(())
    }

    /// Plays a move for the side to move and records it. Any empty point is accepted, including
    /// a forbidden one (the record says so, and [`Board::outcome`] reports the loss).
    pub fn make(&mut self, p: Pos) -> Result<MoveRecord, BoardError> {
        self.check_empty(p)?;
        Ok(self.make_idx(idx_of(p)))
    }

    /// Takes back the last recorded move.
    pub fn undo(&mut self) -> Option<Pos> {
        let rec = self.history.pop()?;
        self.remove(idx_of(rec.pos));
        self.set_side_to_move(rec.stone);
        Some(rec.pos)
    }

    fn check_empty(&self, p: Pos) -> Result<(), BoardError> {
        if !p.on_board(self.size) {
            return Err(BoardError::OffBoard(p, self.size));
        }
        if self.cells[idx_of(p)] != EMPTY {
            return Err(BoardError::Occupied(p));
        }
        Ok(())
    }

    /// Makes a move on an empty padded index (no checks beyond debug assertions).
    pub(crate) fn make_idx(&mut self, idx: usize) -> MoveRecord {
        debug_assert_eq!(self.cells[idx], EMPTY);
        let stone = self.side;
        let five = self.makes_five_idx(idx, stone);
        let forbidden =
            !five && stone == Stone::Black && self.rule == Rule::Renju && self.forbidden_idx(idx);
        let rec = MoveRecord {
            pos: pos_of(idx),
            stone,
            five,
            forbidden,
        };
        self.put(idx, stone);
        self.history.push(rec);
        self.set_side_to_move(stone.opp());
        rec
    }

    /// Does a stone of `stone` on empty `idx` make a winning five?
    #[inline]
    pub(crate) fn makes_five_idx(&self, idx: usize, stone: Stone) -> bool {
        let p = &self.pat[idx][stone.index() * 4..stone.index() * 4 + 4];
        p.contains(&(Pattern::Five as u8))
    }

    /// Does a stone of `stone` on the empty point make a winning five?
    pub fn makes_five(&self, p: Pos, stone: Stone) -> bool {
        self.is_empty_at(p) && self.makes_five_idx(idx_of(p), stone)
    }

    /// Line and position within the line of a point in direction `d`.
    #[inline]
    fn line_pos(&self, p: Pos, d: usize) -> (usize, usize) {
        let (x, y, n) = (p.x(), p.y(), self.size);
        match d {
            0 => (y, x + PAD),
            1 => (x, y + PAD),
            2 => (x + n - 1 - y, x.min(y) + PAD),
            _ => {
                let s = x + y;
                (s, x - s.saturating_sub(n - 1) + PAD)
            }
        }
    }

    /// Recomputes both colours' patterns of the cell at `idx` in direction `d`.
    #[inline]
    fn refresh(&mut self, idx: usize, d: usize, line: usize, q: usize) {
        let word = self.lines[d][line];
        self.refresh_from(idx, d, word, q);
    }

    /// As [`Board::refresh`], with the line word already loaded.
    #[inline(always)]
    fn refresh_from(&mut self, idx: usize, d: usize, word: u64, q: usize) {
        let idx = idx & (CELLS - 1);
        let k22 = (word >> ((2 * (q - PAD)) & 63)) as u32 & 0x3F_FFFF;
        let k20 = (k22 & 0x3FF) | ((k22 >> 12) << 10);
        let [b, w] = self.table.lookup(k20);
        // Most cells in the window keep their patterns; only changed ones need re-valuing.
        for (c, new) in [(0, b), (1, w)] {
            let old = self.pat[idx][c * 4 + d];
            if old != new {
                self.pat[idx][c * 4 + d] = new;
                self.lsum[idx][c] +=
                    self.weights.line_value(c, d, new) - self.weights.line_value(c, d, old);
                self.ckey[idx][c] =
                    self.ckey[idx][c] + self.weights.code(c, new) - self.weights.code(c, old);
                let quad = if self.weights.has_codes() {
                    let q =
                        (i32::from(self.cquad[idx][c]) + EvalWeights::quad_delta(old, new)) as u16;
                    self.cquad[idx][c] = q;
                    q
                } else {
                    0
                };
                self.recell_colour_quad(idx, c, quad);
            }
        }
    }

    /// Sets a cell and updates lines, hash and the patterns of the empty cells it affects.
    pub(crate) fn put(&mut self, idx: usize, stone: Stone) {
        self.cells[idx] = stone as u8 + 1;
        self.hash ^= ZOBRIST[stone.index()][idx];
        self.stones += 1;
        self.recell(idx);
        self.add_near(idx, 1);
        self.update_around(idx, stone as u64 + 1);
    }

    /// Clears a cell, the inverse of [`Board::put`].
    pub(crate) fn remove(&mut self, idx: usize) {
        let stone = self.cells[idx] - 1;
        self.cells[idx] = EMPTY;
        self.hash ^= ZOBRIST[stone as usize][idx];
        self.stones -= 1;
        self.add_near(idx, -1);
        self.update_around(idx, EMPTY as u64);
        // Its patterns may equal the stale ones kept while occupied: value it explicitly.
        self.recell(idx);
    }

    fn update_around(&mut self, idx: usize, value: u64) {
        let p = pos_of(idx);
        for d in 0..4 {
            let (line, q) = self.line_pos(p, d);
            let w = &mut self.lines[d][line];
            *w = (*w & !(3u64 << (2 * q))) | (value << (2 * q));
            let word = *w;
            let step = DIR_STEP[d];
            for k in -(PAD as isize)..=(PAD as isize) {
                let c = (idx as isize + k * step) as usize & (CELLS - 1);
                if self.cells[c] == EMPTY {
                    self.refresh_from(c, d, word, (q as isize + k) as usize);
                }
            }
        }
    }

    /// Places a black stone for a forbidden-move check: only the cell, the line words and the
    /// black patterns of the affected cells change. Valid only until [`Board::remove_black_light`]
    /// undoes it, which restores every pattern byte exactly, so the evaluation state (built from
    /// pattern bytes) stays consistent without being touched.
    pub(crate) fn put_black_light(&mut self, idx: usize) {
        self.cells[idx] = BLACK;
        self.update_black_patterns(idx, BLACK as u64);
    }

    /// Undoes [`Board::put_black_light`].
    pub(crate) fn remove_black_light(&mut self, idx: usize) {
        self.cells[idx] = EMPTY;
        self.update_black_patterns(idx, EMPTY as u64);
    }

    fn update_black_patterns(&mut self, idx: usize, value: u64) {
        let p = pos_of(idx);
        for d in 0..4 {
            let (line, q) = self.line_pos(p, d);
            let w = &mut self.lines[d][line];
            *w = (*w & !(3u64 << (2 * q))) | (value << (2 * q));
            let word = *w;
            let step = DIR_STEP[d];
            for k in -(PAD as isize)..=(PAD as isize) {
                let c = (idx as isize + k * step) as usize & (CELLS - 1);
                if self.cells[c] == EMPTY {
                    let qk = (q as isize + k) as usize;
                    let k22 = (word >> ((2 * (qk - PAD)) & 63)) as u32 & 0x3F_FFFF;
                    let k20 = (k22 & 0x3FF) | ((k22 >> 12) << 10);
                    self.pat[c][d] = self.table.lookup(k20)[0];
                }
            }
        }
    }

    /// The colour with a winning five on the board, found by scanning (for set-up positions).
    /// If both colours have one, the side not to move is taken to have made it last.
    fn five_on_board(&self) -> Option<Stone> {
        let mut found = [false; 2];
        for idx in 0..CELLS {
            let c = self.cells[idx];
            if c != 1 && c != 2 {
                continue;
            }
            let stone = if c == 1 { Stone::Black } else { Stone::White };
            for step in DIR_STEP {
                let prev = (idx as isize - step) as usize;
                if self.cells[prev] == c {
                    continue;
                }
                let mut n = 1;
                let mut j = idx as isize + step;
                while self.cells[j as usize] == c {
                    n += 1;
                    j += step;
                }
                if n == 5 || (n > 5 && !self.rule.exact_five(stone)) {
                    found[stone.index()] = true;
                }
            }
        }
        match found {
            [true, true] => Some(self.side.opp()),
            [true, false] => Some(Stone::Black),
            [false, true] => Some(Stone::White),
            _ => None,
        }
    }

    /// The result if the game is over: the last move made a five, was a forbidden renju move,
    /// or filled the board. For a position set up without moves, a five on the board counts.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.history.last() {
            Some(r) if r.five => {
                return Some(Outcome::Win {
                    winner: r.stone,
                    reason: WinReason::Five,
                })
            }
            Some(r) if r.forbidden => {
                return Some(Outcome::Win {
                    winner: Stone::White,
                    reason: WinReason::Forbidden,
                })
            }
            Some(_) => {}
            None => {
                if let Some(winner) = self.five_on_board() {
                    return Some(Outcome::Win {
                        winner,
                        reason: WinReason::Five,
                    });
                }
            }
        }
        self.is_full().then_some(Outcome::Draw)
    }

    /// Empty points the side to move may play: all of them, less black's forbidden points in renju.
    pub fn legal_moves(&mut self) -> Vec<Pos> {
        let check = self.rule == Rule::Renju && self.side == Stone::Black;
        let mut out = Vec::new();
        for p in self.points().collect::<Vec<_>>() {
            let i = idx_of(p);
            if self.cells[i] == EMPTY && !(check && self.forbidden_idx(i)) {
                out.push(p);
            }
        }
        out
    }

    /// Is a move by the side to move on `p` legal (on the board, empty, not forbidden)?
    pub fn is_legal(&mut self, p: Pos) -> bool {
        self.is_empty_at(p) && !(self.side == Stone::Black && self.is_forbidden(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn moves(s: &str) -> Vec<Pos> {
        Pos::parse_list(s, 15).unwrap()
    }

    #[test]
    fn make_undo_restores_board_and_hash() {
        let mut b = Board::new(15, Rule::Renju).unwrap();
        let start = b.clone();
        for m in moves("h8 i9 g7 j10 f6 k11 a1 o15") {
            b.make(m).unwrap();
            assert_eq!(b.hash(), b.hash_from_scratch());
        }
        while b.undo().is_some() {
            assert_eq!(b.hash(), b.hash_from_scratch());
        }
        assert_eq!(b, start);
        assert_eq!(b.pat, start.pat);
        assert_eq!(b.lines, start.lines);
    }

    #[test]
    fn incremental_evaluation_equals_a_fresh_computation() {
        // The defaults, and generation 3's pattern-code table (the board keeps its index and
        // sum only when a table is set).
        let gen3 = Params::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/generation3.toml"),
        )
        .expect("generation 3");
        for (rule, params) in Rule::ALL
            .into_iter()
            .flat_map(|r| [(r, Params::default()), (r, gen3.clone())])
        {
            let mut b = Board::new(15, rule).unwrap();
            b.set_params(&params);
            let seq = moves("h8 i9 h9 h10 g8 i8 i10 j8 g10 g9 f8 e8 k8 j9 f10 e10 h7 g6");
            for (i, &m) in seq.iter().enumerate() {
                b.make(m).unwrap();
                if i % 5 == 4 {
                    b.undo();
                    b.make(m).unwrap();
                }
                let mut fresh = b.clone();
                fresh.set_params(&params);
                assert_eq!(b.sum, fresh.sum, "{rule} after {m}");
                assert_eq!(b.cnt, fresh.cnt, "{rule} after {m}");
                assert_eq!(b.cval, fresh.cval, "{rule} after {m}");
                assert_eq!(b.ccls, fresh.ccls, "{rule} after {m}");
                assert_eq!(b.near, fresh.near, "{rule} after {m}");
                assert_eq!(b.lsum, fresh.lsum, "{rule} after {m}");
                assert_eq!(b.ckey, fresh.ckey, "{rule} after {m}");
                assert_eq!(b.cbits, fresh.cbits, "{rule} after {m}");
                assert_eq!(b.cpc, fresh.cpc, "{rule} after {m}");
                assert_eq!(b.csum, fresh.csum, "{rule} after {m}");
                if b.weights.has_codes() {
                    assert_eq!(b.cquad, fresh.cquad, "{rule} after {m}");
                }
                assert_eq!(b.evaluate(), fresh.evaluate());
            }
        }
    }

    #[test]
    fn same_position_same_score_whatever_the_move_order() {
        let a = Board::from_moves(15, Rule::Renju, &moves("h8 i9 g7 j10 f6 h9")).unwrap();
        let b = Board::from_moves(15, Rule::Renju, &moves("f6 h9 h8 j10 g7 i9")).unwrap();
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.evaluate(), b.evaluate());
    }

    #[test]
    fn five_wins_in_every_direction() {
        for line in [
            "a1 a15 b1 b15 c1 c15 d1 d15 e1",
            "a1 o1 a2 o2 a3 o3 a4 o4 a5",
            "a1 o1 b2 o2 c3 o3 d4 o4 e5",
            "a15 o1 b14 o2 c13 o3 d12 o4 e11",
        ] {
            let b = Board::from_moves(15, Rule::Renju, &moves(line)).unwrap();
            assert_eq!(
                b.outcome(),
                Some(Outcome::Win {
                    winner: Stone::Black,
                    reason: WinReason::Five
                }),
                "{line}"
            );
        }
    }

    #[test]
    fn occupied_and_off_board_moves_are_errors() {
        let mut b = Board::new(9, Rule::Freestyle).unwrap();
        b.make(Pos::new(4, 4)).unwrap();
        assert_eq!(
            b.make(Pos::new(4, 4)),
            Err(BoardError::Occupied(Pos::new(4, 4)))
        );
        assert!(matches!(
            b.make(Pos::new(9, 0)),
            Err(BoardError::OffBoard(..))
        ));
        assert!(Board::new(4, Rule::Renju).is_err());
        assert!(Board::new(21, Rule::Renju).is_err());
    }

    #[test]
    fn full_board_is_a_draw() {
        // Fill a 5x5 freestyle board with pairs of colours shifted by two each row: no five anywhere.
        let mut b = Board::new(5, Rule::Freestyle).unwrap();
        for y in 0..5 {
            for x in 0..5 {
                let s = if (x + 2 * y) % 4 < 2 {
                    Stone::Black
                } else {
                    Stone::White
                };
                b.place(Pos::new(x, y), s).unwrap();
            }
        }
        assert_eq!(b.outcome(), Some(Outcome::Draw));
    }
}
