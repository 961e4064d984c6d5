//! A plain position, read and scanned without the engine: the oracle's own board.

use figrid_board::renju as frenju;
use figrid_board::to_idx;
use figrid_board::BitBoard;
use wuzi_engine::{Board, Pos, Rule, Stone};

pub(crate) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

pub(crate) fn cell(s: Stone) -> u8 {
    match s {
        Stone::Black => 1,
        Stone::White => 2,
    }
}

/// A plain position: cells 0 empty, 1 black, 2 white.
#[derive(Clone)]
pub(crate) struct G {
    pub(crate) n: usize,
    pub(crate) rule: Rule,
    pub(crate) c: Vec<u8>,
}

impl G {
    pub(crate) fn from_board(b: &Board) -> G {
        let n = b.size();
        let mut c = vec![0u8; n * n];
        for p in b.points() {
            if let Some(s) = b.stone_at(p) {
                c[p.y() * n + p.x()] = cell(s);
            }
        }
        G {
            n,
            rule: b.rule(),
            c,
        }
    }

    pub(crate) fn at(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.n as i32 || y >= self.n as i32 {
            None
        } else {
            Some(self.c[y as usize * self.n + x as usize])
        }
    }

    pub(crate) fn get(&self, p: Pos) -> u8 {
        self.c[p.y() * self.n + p.x()]
    }

    pub(crate) fn set(&mut self, p: Pos, v: u8) {
        self.c[p.y() * self.n + p.x()] = v;
    }

    pub(crate) fn empties(&self) -> Vec<Pos> {
        let mut v = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                if self.c[y * self.n + x] == 0 {
                    v.push(Pos::new(x, y));
                }
            }
        }
        v
    }

    pub(crate) fn run(&self, x: i32, y: i32, dx: i32, dy: i32, v: u8) -> usize {
        let (mut k, mut x, mut y) = (0, x + dx, y + dy);
        while self.at(x, y) == Some(v) {
            k += 1;
            x += dx;
            y += dy;
        }
        k
    }

    pub(crate) fn exact(&self, s: Stone) -> bool {
        match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => s == Stone::Black,
        }
    }

    /// Does `s` on the empty point `p` make a winning five?
    pub(crate) fn makes_five(&self, p: Pos, s: Stone) -> bool {
        if self.get(p) != 0 {
            return false;
        }
        let v = cell(s);
        let (x, y) = (p.x() as i32, p.y() as i32);
        DIRS.iter().any(|&(dx, dy)| {
            let l = 1 + self.run(x, y, dx, dy, v) + self.run(x, y, -dx, -dy, v);
            l == 5 || (l > 5 && !self.exact(s))
        })
    }

    pub(crate) fn five_points(&self, s: Stone) -> Vec<Pos> {
        self.candidates(s, 4)
            .into_iter()
            .filter(|&p| self.makes_five(p, s))
            .collect()
    }

    /// Empty points lying in some five-window (no opponent stone, on the board) that holds at
    /// least `min_own` stones of `s`: a superset of the points where `s` makes a four
    /// (`min_own` 3) or a five (`min_own` 4). Sorted, without duplicates.
    pub(crate) fn candidates(&self, s: Stone, min_own: usize) -> Vec<Pos> {
        let v = cell(s);
        let o = 3 - v;
        let n = self.n as i32;
        let mut seen = vec![false; self.n * self.n];
        for (i, &c) in self.c.iter().enumerate() {
            if c != v {
                continue;
            }
            let (x, y) = ((i % self.n) as i32, (i / self.n) as i32);
            for &(dx, dy) in &DIRS {
                for start in -4..=0 {
                    let (x0, y0) = (x + start * dx, y + start * dy);
                    let (x4, y4) = (x0 + 4 * dx, y0 + 4 * dy);
                    if x0 < 0
                        || y0 < 0
                        || x0 >= n
                        || y0 >= n
                        || x4 < 0
                        || y4 < 0
                        || x4 >= n
                        || y4 >= n
                    {
                        continue;
                    }
                    let mut own = 0;
                    let mut bad = false;
                    for k in 0..5 {
                        let c = self.c[((y0 + k * dy) * n + x0 + k * dx) as usize];
                        if c == o {
                            bad = true;
                            break;
                        }
                        if c == v {
                            own += 1;
                        }
                    }
                    if bad || own < min_own {
                        continue;
                    }
                    for k in 0..5 {
                        let j = ((y0 + k * dy) * n + x0 + k * dx) as usize;
                        if self.c[j] == 0 {
                            seen[j] = true;
                        }
                    }
                }
            }
        }
        seen.iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(j, _)| Pos::new(j % self.n, j / self.n))
            .collect()
    }

    /// Five points of `s` on the four lines through `p` (within 5 cells).
    pub(crate) fn five_points_near(&self, p: Pos, s: Stone) -> Vec<Pos> {
        let mut out = Vec::new();
        let (x, y) = (p.x() as i32, p.y() as i32);
        for &(dx, dy) in &DIRS {
            for k in -5..=5 {
                let (qx, qy) = (x + k * dx, y + k * dy);
                if self.at(qx, qy) == Some(0) {
                    let q = Pos::new(qx as usize, qy as usize);
                    if self.makes_five(q, s) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }

    /// Renju: is the empty point forbidden for black (figrid-board's judgement)?
    pub(crate) fn forbidden(&self, p: Pos) -> bool {
        if self.rule != Rule::Renju || self.get(p) != 0 {
            return false;
        }
        assert_eq!(self.n, 15, "figrid-board judges 15x15 only");
        let (mut b, mut w) = (BitBoard::EMPTY, BitBoard::EMPTY);
        for y in 0..15 {
            for x in 0..15 {
                match self.c[y * 15 + x] {
                    1 => b.set(to_idx(y, x)),
                    2 => w.set(to_idx(y, x)),
                    _ => {}
                }
            }
        }
        frenju::is_forbidden(&b, &w, to_idx(p.y(), p.x()))
    }

    pub(crate) fn legal(&self, p: Pos, s: Stone) -> bool {
        self.get(p) == 0 && !(s == Stone::Black && self.forbidden(p))
    }

    /// Moves of `s` that make a four: (point, five points after it). Forbidden ones are
    /// skipped unless `ignore_forbidden`. Assumes `s` has no five point now.
    pub(crate) fn four_moves(&mut self, s: Stone, ignore_forbidden: bool) -> Vec<(Pos, usize)> {
        let mut out = Vec::new();
        for p in self.candidates(s, 3) {
            self.set(p, cell(s));
            let k = self.five_points_near(p, s).len();
            self.set(p, 0);
            if k > 0 && (ignore_forbidden || self.legal(p, s)) {
                out.push((p, k));
            }
        }
        out
    }

    pub(crate) fn to_board(&self, to_move: Stone) -> Board {
        let mut bl = Vec::new();
        let mut wh = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                match self.c[y * self.n + x] {
                    1 => bl.push(Pos::new(x, y)),
                    2 => wh.push(Pos::new(x, y)),
                    _ => {}
                }
            }
        }
        let mut b = Board::from_stones(self.n, self.rule, &bl, &wh).unwrap();
        b.set_side_to_move(to_move);
        b
    }

    pub(crate) fn stones(&self, v: u8) -> Vec<Pos> {
        let mut out = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                if self.c[y * self.n + x] == v {
                    out.push(Pos::new(x, y));
                }
            }
        }
        out
    }

    pub(crate) fn diagram(&self) -> String {
        let mut s = String::new();
        for y in (0..self.n).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.n {
                s.push(match self.c[y * self.n + x] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("   ");
        for x in 0..self.n {
            s.push((b'a' + x as u8) as char);
            s.push(' ');
        }
        s.push('\n');
        s
    }
}
