//! Finds and verifies tactics positions for `suites/tactics`, independently of the engine's
//! threat solvers.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example mine_tactics -- verify suites/tactics [--only TEXT]
//! cargo run --release -p wuzi-engine --example mine_tactics -- classify --rule renju --black ".." --white ".." --to-move black [--defence]
//! cargo run --release -p wuzi-engine --example mine_tactics -- vcf POSITION        # shortest VCF, winning first fours
//! cargo run --release -p wuzi-engine --example mine_tactics -- vct POSITION [--line ".."]  # prove a VCT, list unrefuted replies
//! cargo run --release -p wuzi-engine --example mine_tactics -- traps POSITION      # renju: forbidden points that would make a four
//! cargo run --release -p wuzi-engine --example mine_tactics -- scatter --rule renju --side black --seed 7 --tries 200000 --min-fours 8
//! cargo run --release -p wuzi-engine --example mine_tactics -- scatter-vct --rule freestyle --side black --seed 11 --tries 4000
//! cargo run --release -p wuzi-engine --example mine_tactics -- batch < positions.txt  # classify `--rule ..` lines
//! ```
//!
//! POSITION is `--rule R [--size N] --black ".." --white ".." --to-move S`. `scatter` places
//! random stones near the centre (no four on the board) and keeps positions whose shortest VCF
//! for the side to move has at least `--min-fours` fours; `scatter-vct` keeps positions with no
//! VCF but a proven VCT (and a VCT for the opponent too, so that quiet moves tend to lose).
//! `mine` plays seeded mixed engine/random games instead (few long VCFs come out of it).
//!
//! The oracle here shares no tactical code with the engine: it scans lines itself to find
//! five points (exact five for standard and renju black, five or more otherwise), takes renju
//! forbidden points from the independent `figrid-board` crate (15x15), and runs its own
//! exhaustive VCF search. Wins that need threes are proven by an AND-OR check in which the
//! defender may answer a three with EVERY legal move; the engine's VCT solver is used only to
//! suggest the attacker's next three, never as evidence.
//!
//! `classify` labels every move of the side to move:
//! - `WIN` (a five, an unstoppable double five point, a block on a forbidden point, or a
//!   proven VCF/VCT after the move),
//! - `LOSS` (a forbidden point, a missed block, or the opponent then has a proven VCF/VCT),
//! - `NONWIN` (a four whose forced block leaves a position where every move provably fails),
//! - `HOLD?` (not a proven loss: after it the opponent has no VCF (exhaustive) and the
//!   engine's VCT solver finds nothing with a large budget; used for defence cases),
//! - `UNKNOWN` (nothing proven).
//!
//! `verify` checks every tactics case: a winning case's `best` must equal the WIN set and the
//! position must have no UNKNOWN move; a `win = false` case must have no WIN and no UNKNOWN move
//! (every move provably fails); a defence case's `best` must equal the set of HOLD? moves, and
//! every other move must be a proven LOSS.

use figrid_board::{renju as frenju, to_idx, BitBoard};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use wuzi_engine::threat::{self, ThreatKind};
use wuzi_engine::{suite, Board, Engine, Limits, Params, Pos, Rule, Stone};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

fn cell(s: Stone) -> u8 {
    match s {
        Stone::Black => 1,
        Stone::White => 2,
    }
}

/// A plain position: cells 0 empty, 1 black, 2 white.
#[derive(Clone)]
struct G {
    n: usize,
    rule: Rule,
    c: Vec<u8>,
}

impl G {
    fn from_board(b: &Board) -> G {
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

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.n as i32 || y >= self.n as i32 {
            None
        } else {
            Some(self.c[y as usize * self.n + x as usize])
        }
    }

    fn get(&self, p: Pos) -> u8 {
        self.c[p.y() * self.n + p.x()]
    }

    fn set(&mut self, p: Pos, v: u8) {
        self.c[p.y() * self.n + p.x()] = v;
    }

    fn empties(&self) -> Vec<Pos> {
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

    fn run(&self, x: i32, y: i32, dx: i32, dy: i32, v: u8) -> usize {
        let (mut k, mut x, mut y) = (0, x + dx, y + dy);
        while self.at(x, y) == Some(v) {
            k += 1;
            x += dx;
            y += dy;
        }
        k
    }

    fn exact(&self, s: Stone) -> bool {
        match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => s == Stone::Black,
        }
    }

    /// Does `s` on the empty point `p` make a winning five?
    fn makes_five(&self, p: Pos, s: Stone) -> bool {
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

    fn five_points(&self, s: Stone) -> Vec<Pos> {
        self.candidates(s, 4)
            .into_iter()
            .filter(|&p| self.makes_five(p, s))
            .collect()
    }

    /// Empty points lying in some five-window (no opponent stone, on the board) that holds at
    /// least `min_own` stones of `s`: a superset of the points where `s` makes a four
    /// (`min_own` 3) or a five (`min_own` 4). Sorted, without duplicates.
    fn candidates(&self, s: Stone, min_own: usize) -> Vec<Pos> {
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
    fn five_points_near(&self, p: Pos, s: Stone) -> Vec<Pos> {
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
    fn forbidden(&self, p: Pos) -> bool {
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

    fn legal(&self, p: Pos, s: Stone) -> bool {
        self.get(p) == 0 && !(s == Stone::Black && self.forbidden(p))
    }

    /// Moves of `s` that make a four: (point, five points after it). Forbidden ones are
    /// skipped unless `ignore_forbidden`. Assumes `s` has no five point now.
    fn four_moves(&mut self, s: Stone, ignore_forbidden: bool) -> Vec<(Pos, usize)> {
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

    fn to_board(&self, to_move: Stone) -> Board {
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

    fn stones(&self, v: u8) -> Vec<Pos> {
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

    fn diagram(&self) -> String {
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

/// Outcome of a bounded search.
#[derive(Clone, Debug, PartialEq)]
enum Found {
    Yes(Vec<Pos>),
    No,
    Unknown,
}

/// The independent VCF search: exhaustive within a node budget.
struct Vcf<'a> {
    g: &'a mut G,
    a: Stone,
    ignore_forbidden: bool,
    fail: HashMap<Vec<u8>, u32>,
    nodes: u64,
    budget: u64,
    aborted: bool,
}

impl Vcf<'_> {
    /// Attacker to move. Returns the line (attacker's moves and forced replies, ending with the five).
    fn attack(&mut self, depth: u32) -> Option<Vec<Pos>> {
        let a = self.a;
        let d = a.opp();
        let af = self.g.five_points(a);
        if let Some(&f) = af.first() {
            return Some(vec![f]);
        }
        let df = self.g.five_points(d);
        if df.len() >= 2 {
            return None;
        }
        if df.len() == 1 {
            let b = df[0];
            if !(self.ignore_forbidden || self.g.legal(b, a)) {
                return None;
            }
            self.g.set(b, cell(a));
            let r = self.defend(depth);
            self.g.set(b, 0);
            return r.map(|mut l| {
                l.insert(0, b);
                l
            });
        }
        if depth == 0 {
            return None;
        }
        if self.nodes >= self.budget {
            self.aborted = true;
            return None;
        }
        if let Some(&fd) = self.fail.get(&self.g.c) {
            if fd >= depth {
                return None;
            }
        }
        let mut moves = self.g.four_moves(a, self.ignore_forbidden);
        moves.sort_by_key(|&(_, k)| std::cmp::Reverse(k));
        for (p, _) in moves {
            self.nodes += 1;
            self.g.set(p, cell(a));
            let r = self.defend(depth - 1);
            self.g.set(p, 0);
            if let Some(mut l) = r {
                l.insert(0, p);
                return Some(l);
            }
        }
        if !self.aborted {
            self.fail.insert(self.g.c.clone(), depth);
        }
        None
    }

    /// Defender to move after an attacker's move.
    fn defend(&mut self, depth: u32) -> Option<Vec<Pos>> {
        let a = self.a;
        let d = a.opp();
        if !self.g.five_points(d).is_empty() {
            return None;
        }
        let af = self.g.five_points(a);
        match af.len() {
            0 => None,
            1 => {
                let b = af[0];
                if d == Stone::Black && self.g.rule == Rule::Renju && self.g.forbidden(b) {
                    // Black cannot block: it plays elsewhere (shown as the block point) and loses.
                    return Some(vec![b, b]);
                }
                self.g.set(b, cell(d));
                let r = self.attack(depth);
                self.g.set(b, 0);
                r.map(|mut l| {
                    l.insert(0, b);
                    l
                })
            }
            _ => Some(vec![af[0], af[1]]),
        }
    }
}

/// Exhaustive VCF for `a` (to move) in `g`, up to `max` fours; iterative deepening gives a shortest line.
fn vcf(
    g: &mut G,
    a: Stone,
    max: u32,
    shortest: bool,
    ignore_forbidden: bool,
    budget: u64,
) -> Found {
    let mut s = Vcf {
        g,
        a,
        ignore_forbidden,
        fail: HashMap::new(),
        nodes: 0,
        budget,
        aborted: false,
    };
    let mut d = if shortest { 1 } else { max };
    loop {
        if let Some(l) = s.attack(d) {
            return Found::Yes(l);
        }
        if s.aborted {
            return Found::Unknown;
        }
        if d >= max {
            return Found::No;
        }
        d += 1;
    }
}

/// Replays `d`'s VCF line (its own moves; the replies are recomputed as forced blocks) with
/// `d` to move: does it still win?
fn replay_vcf(g: &mut G, d: Stone, line: &[Pos]) -> bool {
    let a = d.opp();
    let mut placed: Vec<Pos> = Vec::new();
    let mut ok = false;
    let mut i = 0;
    loop {
        // d to move
        if !g.five_points(d).is_empty() {
            ok = true;
            break;
        }
        let af = g.five_points(a);
        if i >= line.len() || af.len() >= 2 {
            break;
        }
        let m = line[i];
        i += 2;
        if (af.len() == 1 && af[0] != m) || !g.legal(m, d) {
            break;
        }
        g.set(m, cell(d));
        placed.push(m);
        // a to move
        if !g.five_points(a).is_empty() {
            break;
        }
        let df = g.five_points(d);
        if df.len() >= 2 {
            ok = true;
            break;
        }
        if df.is_empty() {
            break;
        }
        let b = df[0];
        if a == Stone::Black && g.forbidden(b) {
            ok = true;
            break;
        }
        g.set(b, cell(a));
        placed.push(b);
    }
    for p in placed {
        g.set(p, 0);
    }
    ok
}

/// Fours (the move included) in the shortest VCF that starts with `m`; 0 for a five, 99 when
/// `m` wins but not by a VCF.
fn fours_after(g: &G, side: Stone, m: Pos) -> usize {
    if g.makes_five(m, side) {
        return 0;
    }
    let mut g3 = g.clone();
    g3.set(m, cell(side));
    let mut r = Vcf {
        g: &mut g3,
        a: side,
        ignore_forbidden: false,
        fail: HashMap::new(),
        nodes: 0,
        budget: 2_000_000,
        aborted: false,
    };
    for d in 1..=40 {
        if let Some(l) = r.defend(d) {
            return fours_in(&l) + 1;
        }
    }
    99
}

/// Number of attacker fours in a VCF line (the last attacker move is the five).
fn fours_in(line: &[Pos]) -> usize {
    line.len().div_ceil(2) - 1
}

/// Proofs of wins that may use threes. `a` is the attacker.
struct Prover {
    vcf_budget: u64,
    engine_budget: u64,
    memo: HashMap<(Vec<u8>, u8, u32), bool>,
}

impl Prover {
    fn new() -> Prover {
        Prover {
            vcf_budget: 300_000,
            engine_budget: 300_000,
            memo: HashMap::new(),
        }
    }

    /// `a` to move: is a win proven with at most `depth` non-four threats?
    fn attack(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
        let key = (g.c.clone(), cell(a), depth);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let r = self.attack_inner(g, a, depth);
        self.memo.insert(key, r);
        r
    }

    fn attack_inner(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
        let d = a.opp();
        if !g.five_points(a).is_empty() {
            return true;
        }
        let df = g.five_points(d);
        if df.len() >= 2 {
            return false;
        }
        if df.len() == 1 {
            let b = df[0];
            if !g.legal(b, a) {
                return false;
            }
            g.set(b, cell(a));
            let r = self.defend(g, a, depth);
            g.set(b, 0);
            return r;
        }
        if matches!(vcf(g, a, 60, false, false, self.vcf_budget), Found::Yes(_)) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        // Ask the engine for a candidate threat; the proof below does not trust it.
        let mut b = g.to_board(a);
        let Some(w) = threat::solve(&mut b, ThreatKind::Vct, 12, self.engine_budget) else {
            return false;
        };
        let m = w.line[0];
        if !g.legal(m, a) {
            return false;
        }
        g.set(m, cell(a));
        let r = self.defend(g, a, depth - 1);
        g.set(m, 0);
        r
    }

    /// The defender (`a.opp()`) to move after the attacker's move: does the attacker win against every reply?
    fn defend(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
        let d = a.opp();
        if !g.five_points(d).is_empty() {
            return false;
        }
        let af = g.five_points(a);
        if af.len() >= 2 {
            return true;
        }
        if af.len() == 1 {
            let b = af[0];
            if d == Stone::Black && g.forbidden(b) {
                return true;
            }
            g.set(b, cell(d));
            let r = self.attack(g, a, depth);
            g.set(b, 0);
            return r;
        }
        // Attacker's points that give two five points (an open four or a double four).
        let doubles: Vec<Pos> = g
            .candidates(a, 3)
            .into_iter()
            .filter(|&q| {
                g.set(q, cell(a));
                let k = g.five_points_near(q, a).len();
                g.set(q, 0);
                k >= 2
            })
            .collect();
        for r in g.empties() {
            if !g.legal(r, d) {
                continue; // a forbidden move loses at once
            }
            g.set(r, cell(d));
            let d_four = !g.five_points_near(r, d).is_empty();
            let quick = !d_four
                && doubles.iter().any(|&q| {
                    q != r && g.legal(q, a) && {
                        g.set(q, cell(a));
                        let k = g.five_points_near(q, a).len();
                        g.set(q, 0);
                        k >= 2
                    }
                });
            let ok = quick || self.attack(g, a, depth);
            g.set(r, 0);
            if !ok {
                return false;
            }
        }
        true
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Class {
    Win(String),
    Loss(String),
    NonWin,
    Unknown(String),
}

impl Class {
    fn tag(&self) -> &'static str {
        match self {
            Class::Win(_) => "WIN",
            Class::Loss(_) => "LOSS",
            Class::NonWin => "NONWIN",
            Class::Unknown(_) => "UNKNOWN",
        }
    }
}

struct Classifier {
    prover: Prover,
    vct_depth: u32,
    nonwin_memo: HashMap<Vec<u8>, Option<String>>,
    /// Try to prove wins by threes (slower); losses are always tried with threes.
    try_threes: bool,
    /// The opponent's VCF line in the position before the move being classified, if any.
    hint: Vec<Option<Vec<Pos>>>,
    /// Try to prove wins by quiet (non-three) moves too: every reply refuted.
    deep_quiet: bool,
}

impl Classifier {
    fn new() -> Classifier {
        Classifier {
            prover: Prover::new(),
            vct_depth: 8,
            nonwin_memo: HashMap::new(),
            try_threes: true,
            hint: Vec::new(),
            deep_quiet: false,
        }
    }

    /// Is it proven that `d` (to move) wins?
    fn opponent_wins(&mut self, g: &mut G, d: Stone) -> Option<String> {
        match vcf(g, d, 60, true, false, 500_000) {
            Found::Yes(l) => return Some(format!("{d} VCF {}", Pos::format_list(&l))),
            Found::Unknown => return None,
            Found::No => {}
        }
        if self.prover.attack(g, d, self.vct_depth) {
            return Some(format!("{d} VCT"));
        }
        None
    }

    /// `a` to move; every move fails (loses, or is a four that leads to such a position)?
    /// None when proven; else why not.
    fn no_move_wins(&mut self, g: &mut G, a: Stone, depth: u32) -> Option<String> {
        if let Some(r) = self.nonwin_memo.get(&g.c) {
            return r.clone();
        }
        let r = self.no_move_wins_inner(g, a, depth);
        self.nonwin_memo.insert(g.c.clone(), r.clone());
        r
    }

    fn no_move_wins_inner(&mut self, g: &mut G, a: Stone, depth: u32) -> Option<String> {
        self.push_hint(g, a);
        let mut out = None;
        for m in g.empties() {
            match self.class_of(g, a, m, depth, false) {
                Class::Loss(_) | Class::NonWin => {}
                Class::Win(s) => out = Some(format!("{m} wins ({s})")),
                Class::Unknown(s) => out = Some(format!("{m} ({s})")),
            }
            if out.is_some() {
                break;
            }
        }
        self.hint.pop();
        out
    }

    fn push_hint(&mut self, g: &mut G, a: Stone) {
        let h = match vcf(g, a.opp(), 60, false, false, 200_000) {
            Found::Yes(l) => Some(l),
            _ => None,
        };
        self.hint.push(h);
    }

    /// The class of `a` playing `m` in `g`.
    fn class_of(&mut self, g: &mut G, a: Stone, m: Pos, depth: u32, top: bool) -> Class {
        let d = a.opp();
        if g.makes_five(m, a) {
            return Class::Win("five".into());
        }
        if a == Stone::Black && g.forbidden(m) {
            return Class::Loss("forbidden".into());
        }
        g.set(m, cell(a));
        let r = self.after_move(g, a, depth, top);
        g.set(m, 0);
        let _ = d;
        r
    }

    fn after_move(&mut self, g: &mut G, a: Stone, depth: u32, top: bool) -> Class {
        let d = a.opp();
        if !g.five_points(d).is_empty() {
            return Class::Loss(format!("{d} makes five"));
        }
        let af = g.five_points(a);
        if af.len() >= 2 {
            return Class::Win("two five points".into());
        }
        if af.len() == 1 {
            let b = af[0];
            if d == Stone::Black && g.forbidden(b) {
                return Class::Win(format!("block {b} is forbidden"));
            }
            g.set(b, cell(d));
            let r = self.after_block(g, a, b, depth, top);
            g.set(b, 0);
            return r;
        }
        // A quiet move (no four).
        if let Some(why) = self.quick_opponent_vcf(g, d) {
            return Class::Loss(why);
        }
        if !top {
            if self.prover.attack(g, d, self.vct_depth) {
                return Class::Loss(format!("{d} VCT"));
            }
            return Class::Unknown("quiet, no opponent VCF/VCT".into());
        }
        if self.try_threes
            && (self.deep_quiet || has_double_point(g, a))
            && self.prover.defend(g, a, self.vct_depth)
        {
            return Class::Win("VCT".into());
        }
        if let Some(why) = self.opponent_wins(g, d) {
            return Class::Loss(why);
        }
        Class::Unknown("quiet, no proof".into())
    }

    fn quick_opponent_vcf(&mut self, g: &mut G, d: Stone) -> Option<String> {
        if let Some(Some(l)) = self.hint.last() {
            if replay_vcf(g, d, l) {
                return Some(format!("{d} VCF {} (replayed)", Pos::format_list(l)));
            }
        }
        match vcf(g, d, 60, false, false, 200_000) {
            Found::Yes(l) => Some(format!("{d} VCF {}", Pos::format_list(&l))),
            _ => None,
        }
    }

    fn after_block(&mut self, g: &mut G, a: Stone, b: Pos, depth: u32, top: bool) -> Class {
        let d = a.opp();
        match vcf(g, a, 60, true, false, 500_000) {
            Found::Yes(l) => {
                return Class::Win(format!(
                    "{b}, then VCF {} ({} fours)",
                    Pos::format_list(&l),
                    fours_in(&l) + 1
                ))
            }
            Found::Unknown => return Class::Unknown("VCF budget".into()),
            Found::No => {}
        }
        if self.try_threes && (top || depth > 0) && self.prover.attack(g, a, self.vct_depth) {
            return Class::Win(format!("{b}, then VCT"));
        }
        let _ = d;
        if depth == 0 {
            return Class::Unknown("depth".into());
        }
        match self.no_move_wins(g, a, depth - 1) {
            None => Class::NonWin,
            Some(why) => Class::Unknown(format!("{b}, then {why}")),
        }
    }

    /// Every empty point of `a` classified.
    fn classify(&mut self, g: &mut G, a: Stone) -> Vec<(Pos, Class)> {
        let mut out = Vec::new();
        self.push_hint(g, a);
        for m in g.empties() {
            let c = self.class_of(g, a, m, 40, true);
            out.push((m, c));
        }
        self.hint.pop();
        out
    }

    /// For defence: after `m`, has the opponent no VCF (exhaustive) and no VCT (engine, big budget)?
    fn holds(&mut self, g: &mut G, a: Stone, m: Pos, budget: u64) -> bool {
        let d = a.opp();
        g.set(m, cell(a));
        let mut ok = matches!(vcf(g, d, 60, false, false, 2_000_000), Found::No);
        if ok {
            let mut b = g.to_board(d);
            ok = threat::solve(&mut b, ThreatKind::Vct, 10, budget).is_none();
        }
        g.set(m, 0);
        ok
    }
}

/// Has `a` a legal move giving two five points (an open four or a double four)?
fn has_double_point(g: &mut G, a: Stone) -> bool {
    for q in g.candidates(a, 3) {
        g.set(q, cell(a));
        let k = g.five_points_near(q, a).len();
        g.set(q, 0);
        if k >= 2 && g.legal(q, a) {
            return true;
        }
    }
    false
}

fn side_of(b: &Board) -> Stone {
    b.side_to_move()
}

fn pos_set(s: &str, n: usize) -> BTreeSet<Pos> {
    Pos::parse_list(s, n).unwrap().into_iter().collect()
}

fn fmt_set(s: &BTreeSet<Pos>) -> String {
    Pos::format_list(&s.iter().copied().collect::<Vec<_>>())
}

/// Classifies and prints; returns (wins, losses+nonwins, holds, unknowns).
fn report(
    g: &mut G,
    a: Stone,
    verbose: bool,
    defence: bool,
) -> (BTreeSet<Pos>, BTreeSet<Pos>, BTreeSet<Pos>, BTreeSet<Pos>) {
    let mut c = Classifier::new();
    if defence {
        c.prover.engine_budget = 2_000_000;
    }
    if let Ok(v) = std::env::var("PROVER_BUDGET") {
        c.prover.engine_budget = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("VCT_DEPTH") {
        c.vct_depth = v.parse().unwrap();
    }
    c.deep_quiet = !matches!(vcf(g, a, 60, false, false, 1_000_000), Found::No);
    let cls = c.classify(g, a);
    let (mut w, mut l, mut h, mut u) = (
        BTreeSet::new(),
        BTreeSet::new(),
        BTreeSet::new(),
        BTreeSet::new(),
    );
    for (m, k) in &cls {
        match k {
            Class::Win(_) => {
                w.insert(*m);
            }
            Class::Loss(_) | Class::NonWin => {
                l.insert(*m);
            }
            _ => {
                if defence && w.is_empty() && c.holds(g, a, *m, 1_000_000) {
                    h.insert(*m);
                } else {
                    u.insert(*m);
                }
            }
        }
        if verbose && (!matches!(k, Class::Loss(_)) || std::env::var("ALL").is_ok()) {
            let why = match k {
                Class::Win(s) | Class::Loss(s) | Class::Unknown(s) => s.clone(),
                _ => String::new(),
            };
            let tag = if h.contains(m) { "HOLD?" } else { k.tag() };
            println!("  {m:>4} {tag:8} {why}");
        }
    }
    if verbose {
        println!(
            "  ({} proven losses not listed)",
            cls.iter()
                .filter(|(_, k)| matches!(k, Class::Loss(_)))
                .count()
        );
    }
    (w, l, h, u)
}

fn verify(paths: &[PathBuf], only: Option<&str>) -> bool {
    let mut all_ok = true;
    for path in suite::collect_files(paths).unwrap() {
        let file = suite::load(&path).unwrap();
        for case in &file.cases {
            if !case.is_tactical() {
                continue;
            }
            if let Some(o) = only {
                if !case.name.contains(o) {
                    continue;
                }
            }
            let board = case.board(&file).unwrap();
            let n = board.size();
            let a = side_of(&board);
            let mut g = G::from_board(&board);
            let defence = case.win.is_none();
            let t = std::time::Instant::now();
            let (w, _l, h, u) = report(&mut g, a, false, defence);
            let mut problems = Vec::new();
            let best = case.best.as_deref().map(|s| pos_set(s, n));
            let avoid = case
                .avoid
                .as_deref()
                .map(|s| pos_set(s, n))
                .unwrap_or_default();
            match case.win {
                Some(true) => {
                    if w.is_empty() {
                        problems.push("no proven win".to_string());
                    }
                    if let Some(b) = &best {
                        if *b != w {
                            problems.push(format!(
                                "best [{}] != proven wins [{}]",
                                fmt_set(b),
                                fmt_set(&w)
                            ));
                        }
                    }
                    if !u.is_empty() {
                        problems.push(format!("unclassified moves [{}]", fmt_set(&u)));
                    }
                }
                Some(false) => {
                    if !w.is_empty() {
                        problems.push(format!("has wins [{}]", fmt_set(&w)));
                    }
                    if !u.is_empty() {
                        problems.push(format!("not proven to fail: [{}]", fmt_set(&u)));
                    }
                    if let Some(b) = &best {
                        if b.iter().any(|m| !h.contains(m) && !u.contains(m)) && !b.is_empty() {
                            // best moves in a lost position are fine if listed as all moves; just note
                        }
                    }
                }
                None => {
                    if !w.is_empty() {
                        problems.push(format!("side to move wins with [{}]", fmt_set(&w)));
                    }
                    if let Some(b) = &best {
                        let ok: BTreeSet<Pos> = h.union(&u).copied().collect();
                        if *b != h || !u.is_empty() {
                            problems.push(format!(
                                "best [{}] != holding moves [{}] (unclassified [{}])",
                                fmt_set(b),
                                fmt_set(&h),
                                fmt_set(&u)
                            ));
                        }
                        let _ = ok;
                    }
                }
            }
            for m in &avoid {
                if w.contains(m) {
                    problems.push(format!("avoid {m} is a proven win"));
                }
            }
            let secs = t.elapsed().as_secs_f64();
            if problems.is_empty() {
                println!(
                    "ok   {}: {} [wins {}] ({secs:.1}s)",
                    path.display(),
                    case.name,
                    fmt_set(&w)
                );
            } else {
                all_ok = false;
                println!(
                    "BAD  {}: {}: {} ({secs:.1}s)",
                    path.display(),
                    case.name,
                    problems.join("; ")
                );
            }
        }
    }
    all_ok
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn board_from_args(args: &[String]) -> Board {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let bl = Pos::parse_list(arg(args, "--black").unwrap_or(""), size).unwrap();
    let wh = Pos::parse_list(arg(args, "--white").unwrap_or(""), size).unwrap();
    let mut b = Board::from_stones(size, rule, &bl, &wh).unwrap();
    if let Some(s) = arg(args, "--to-move") {
        b.set_side_to_move(s.parse().unwrap());
    }
    b
}

/// Plays seeded games (a mix of engine moves and random nearby moves) and prints positions
/// where the side to move has a shortest VCF of at least `min_fours` fours.
fn mine(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let games: usize = arg(args, "--games").unwrap_or("50").parse().unwrap();
    let min_fours: usize = arg(args, "--min-fours").unwrap_or("8").parse().unwrap();
    let engine_pct: usize = arg(args, "--engine-pct").unwrap_or("50").parse().unwrap();
    let only: Option<Stone> = arg(args, "--side").map(|s| s.parse().unwrap());
    let verbose = args.iter().any(|a| a == "-v");
    let mut rng = Rng(seed);
    let mut engine = Engine::new(Params::default(), 16, 1);
    for game in 0..games {
        let mut b = Board::new(size, rule).unwrap();
        let c = size / 2;
        b.make(Pos::new(c, c)).unwrap();
        let mut found_in_game = 0;
        for ply in 1..(size * size - 10) {
            if b.outcome().is_some() {
                break;
            }
            let side = b.side_to_move();
            // Is there a long VCF for the side to move?
            if ply >= 8 && only.is_none_or(|s| s == side) {
                let mut eb = b.clone();
                if threat::solve(&mut eb, ThreatKind::Vcf, 60, 50_000).is_some() {
                    let mut g = G::from_board(&b);
                    if let Found::Yes(l) = vcf(&mut g, side, 40, true, false, 2_000_000) {
                        let f = fours_in(&l);
                        if verbose {
                            eprintln!("game {game} ply {ply}: {side} VCF {f} fours");
                        }
                        if f >= min_fours {
                            let ign = if rule == Rule::Renju && side == Stone::Black {
                                match vcf(&mut g, side, 40, true, true, 2_000_000) {
                                    Found::Yes(l2) => format!(
                                        "ignoring forbidden: {} fours from {}",
                                        fours_in(&l2),
                                        l2[0]
                                    ),
                                    _ => "ignoring forbidden: none".into(),
                                }
                            } else {
                                String::new()
                            };
                            println!("# game {game} ply {ply} seed {seed}: {side} shortest VCF {f} fours: {} {ign}", Pos::format_list(&l));
                            println!("rule = \"{rule}\"\nsize = {size}\nblack = \"{}\"\nwhite = \"{}\"\nto_move = \"{side}\"", Pos::format_list(&g.stones(1)), Pos::format_list(&g.stones(2)));
                            println!("{}", g.diagram());
                            found_in_game += 1;
                        }
                    }
                    // Keep the game going without the win: the side to move plays elsewhere at random.
                }
            }
            if found_in_game >= 2 {
                break;
            }
            // Next move.
            let mv = if rng.below(100) < engine_pct {
                let n = 200 + rng.below(3000) as u64;
                engine.new_game();
                engine.search(&b, &Limits::nodes(n), None).best
            } else {
                let mut cands: Vec<Pos> = Vec::new();
                for p in b.points().collect::<Vec<_>>() {
                    if !b.is_empty_at(p) {
                        continue;
                    }
                    let near = b.points().any(|q| {
                        b.stone_at(q).is_some()
                            && (q.x() as i32 - p.x() as i32).abs() <= 2
                            && (q.y() as i32 - p.y() as i32).abs() <= 2
                    });
                    if near && b.is_legal(p) {
                        cands.push(p);
                    }
                }
                if cands.is_empty() {
                    None
                } else {
                    Some(cands[rng.below(cands.len())])
                }
            };
            let Some(mv) = mv else { break };
            // Don't let a five end the game too early: block fives, avoid making one.
            b.make(mv).unwrap();
        }
    }
}

/// Random dense scatters near the centre: prints positions where the side to move has a
/// shortest VCF of at least `min_fours` fours (neither side has a four on the board).
fn scatter(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let tries: usize = arg(args, "--tries").unwrap_or("1000").parse().unwrap();
    let min_fours: usize = arg(args, "--min-fours").unwrap_or("8").parse().unwrap();
    let side: Stone = arg(args, "--side").unwrap_or("black").parse().unwrap();
    let lo: usize = arg(args, "--stones-lo").unwrap_or("12").parse().unwrap();
    let hi: usize = arg(args, "--stones-hi").unwrap_or("30").parse().unwrap();
    let region: usize = arg(args, "--region").unwrap_or("10").parse().unwrap();
    let no_win = args.iter().any(|a| a == "--no-win");
    let mut rng = Rng(seed);
    let mut hits = 0;
    for t in 0..tries {
        let k = lo + rng.below(hi - lo + 1);
        let (nb, nw) = if side == Stone::Black {
            (k, k)
        } else {
            (k + 1, k)
        };
        let off = (size - region) / 2;
        let mut g = G {
            n: size,
            rule,
            c: vec![0; size * size],
        };
        let place = |g: &mut G, v: u8, rng: &mut Rng| loop {
            let p = Pos::new(off + rng.below(region), off + rng.below(region));
            if g.get(p) == 0 {
                g.set(p, v);
                break;
            }
        };
        for _ in 0..nb {
            place(&mut g, 1, &mut rng);
        }
        for _ in 0..nw {
            place(&mut g, 2, &mut rng);
        }
        // No five on the board, no four (five point) for either side, no black overline.
        let board = g.to_board(side);
        if board.outcome().is_some()
            || !g.five_points(Stone::Black).is_empty()
            || !g.five_points(Stone::White).is_empty()
        {
            continue;
        }
        let mut over = false;
        for p in g.stones(1) {
            for &(dx, dy) in &DIRS {
                if 1 + g.run(p.x() as i32, p.y() as i32, dx, dy, 1)
                    + g.run(p.x() as i32, p.y() as i32, -dx, -dy, 1)
                    >= 6
                {
                    over = true;
                }
            }
        }
        if over && rule != Rule::Freestyle {
            continue;
        }
        if no_win {
            // Many fours but no VCF, while the opponent has one: a tempting attack that fails.
            let fours = g.four_moves(side, false).len();
            if fours < min_fours
                || !matches!(vcf(&mut g, side, 60, false, false, 300_000), Found::No)
            {
                continue;
            }
            let Found::Yes(ol) = vcf(&mut g, side.opp(), 40, false, false, 300_000) else {
                continue;
            };
            hits += 1;
            println!(
                "# try {t} seed {seed}: {side} has {fours} fours but no VCF; {} VCF {}",
                side.opp(),
                Pos::format_list(&ol)
            );
            println!(
                "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
                Pos::format_list(&g.stones(1)),
                Pos::format_list(&g.stones(2))
            );
            continue;
        }
        let Found::Yes(_) = vcf(&mut g, side, 40, false, false, 100_000) else {
            continue;
        };
        let Found::Yes(l) = vcf(&mut g, side, 40, true, false, 2_000_000) else {
            continue;
        };
        let f = fours_in(&l);
        if f < min_fours {
            continue;
        }
        hits += 1;
        let mut eb = g.to_board(side);
        let eng = threat::solve(&mut eb, ThreatKind::Vcf, 40, 20_000)
            .map(|w| w.line.len())
            .unwrap_or(0);
        let ign = if rule == Rule::Renju && side == Stone::Black {
            match vcf(&mut g, side, 40, true, true, 2_000_000) {
                Found::Yes(l2) => {
                    format!(" ignoring-forbidden {} fours from {}", fours_in(&l2), l2[0])
                }
                _ => " ignoring-forbidden none".into(),
            }
        } else {
            String::new()
        };
        let opp = match vcf(&mut g, side.opp(), 40, false, false, 300_000) {
            Found::Yes(_) => "opp-vcf yes",
            Found::No => "opp-vcf no",
            Found::Unknown => "opp-vcf ?",
        };
        println!(
            "# try {t} seed {seed}: {side} shortest VCF {f} fours: {} engine20k {eng}{ign} {opp}",
            Pos::format_list(&l)
        );
        println!(
            "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
            Pos::format_list(&g.stones(1)),
            Pos::format_list(&g.stones(2))
        );
        print!("{}", g.diagram());
    }
    eprintln!("{hits} hits");
}

/// Random scatters where the side to move has no VCF but a proven VCT, and the opponent would
/// have a VCT of its own if it were to move (so that quiet moves tend to lose).
fn scatter_vct(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let tries: usize = arg(args, "--tries").unwrap_or("1000").parse().unwrap();
    let side: Stone = arg(args, "--side").unwrap_or("black").parse().unwrap();
    let lo: usize = arg(args, "--stones-lo").unwrap_or("6").parse().unwrap();
    let hi: usize = arg(args, "--stones-hi").unwrap_or("16").parse().unwrap();
    let region: usize = arg(args, "--region").unwrap_or("9").parse().unwrap();
    let need_opp = !args.iter().any(|a| a == "--any-opp");
    let mut rng = Rng(seed);
    let mut hits = 0;
    for t in 0..tries {
        let k = lo + rng.below(hi - lo + 1);
        let (nb, nw) = if side == Stone::Black {
            (k, k)
        } else {
            (k + 1, k)
        };
        let off = (size - region) / 2;
        let mut g = G {
            n: size,
            rule,
            c: vec![0; size * size],
        };
        let place = |g: &mut G, v: u8, rng: &mut Rng| loop {
            let p = Pos::new(off + rng.below(region), off + rng.below(region));
            if g.get(p) == 0 {
                g.set(p, v);
                break;
            }
        };
        for _ in 0..nb {
            place(&mut g, 1, &mut rng);
        }
        for _ in 0..nw {
            place(&mut g, 2, &mut rng);
        }
        let board = g.to_board(side);
        if board.outcome().is_some()
            || !g.five_points(Stone::Black).is_empty()
            || !g.five_points(Stone::White).is_empty()
        {
            continue;
        }
        let mut over = false;
        for p in g.stones(1) {
            for &(dx, dy) in &DIRS {
                if 1 + g.run(p.x() as i32, p.y() as i32, dx, dy, 1)
                    + g.run(p.x() as i32, p.y() as i32, -dx, -dy, 1)
                    >= 6
                {
                    over = true;
                }
            }
        }
        if over && rule != Rule::Freestyle {
            continue;
        }
        // No open three on the board for the side to move (wins by one open four are too easy).
        let mut eb = g.to_board(side);
        let Some(w) = threat::solve(&mut eb, ThreatKind::Vct, 8, 20_000) else {
            continue;
        };
        if w.line.len() < 7 {
            continue;
        }
        let mut ob = g.to_board(side.opp());
        if need_opp && threat::solve(&mut ob, ThreatKind::Vct, 8, 20_000).is_none() {
            continue;
        }
        if !matches!(vcf(&mut g, side, 60, false, false, 300_000), Found::No) {
            continue;
        }
        if has_double_point(&mut g, side) {
            continue;
        }
        let mut pr = Prover::new();
        if !pr.attack(&mut g, side, 4) {
            println!(
                "# try {t}: engine VCT not proven: {}",
                Pos::format_list(&w.line)
            );
            continue;
        }
        hits += 1;
        println!(
            "# try {t} seed {seed}: {side} VCT (engine line {} plies): {}",
            w.line.len(),
            Pos::format_list(&w.line)
        );
        println!(
            "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
            Pos::format_list(&g.stones(1)),
            Pos::format_list(&g.stones(2))
        );
        print!("{}", g.diagram());
    }
    eprintln!("{hits} hits");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("verify") => {
            let only = arg(&args, "--only");
            let mut paths: Vec<PathBuf> = Vec::new();
            let mut i = 1;
            while i < args.len() {
                if args[i].starts_with("--") {
                    i += 2;
                } else {
                    paths.push(PathBuf::from(&args[i]));
                    i += 1;
                }
            }
            let ok = verify(&paths, only);
            std::process::exit(if ok { 0 } else { 1 });
        }
        Some("classify") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let mut g = G::from_board(&b);
            print!("{}", g.diagram());
            println!("{a} to move");
            let defence = args.iter().any(|a| a == "--defence");
            let (w, _l, h, u) = report(&mut g, a, true, defence);
            println!(
                "wins [{}]\nholds [{}]\nunknown [{}]",
                fmt_set(&w),
                fmt_set(&h),
                fmt_set(&u)
            );
        }
        Some("vcf") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let mut g = G::from_board(&b);
            print!("{}", g.diagram());
            match vcf(&mut g, a, 60, true, false, 5_000_000) {
                Found::Yes(l) => {
                    println!("{a} VCF, {} fours: {}", fours_in(&l), Pos::format_list(&l))
                }
                f => println!("{a}: {f:?}"),
            }
            if b.rule() == Rule::Renju && a == Stone::Black {
                match vcf(&mut g, a, 60, true, true, 5_000_000) {
                    Found::Yes(l) => println!(
                        "ignoring forbidden: {} fours: {}",
                        fours_in(&l),
                        Pos::format_list(&l)
                    ),
                    f => println!("ignoring forbidden: {f:?}"),
                }
            }
            // Every winning first four.
            let mut firsts = Vec::new();
            for (m, _) in g.four_moves(a, false) {
                g.set(m, cell(a));
                let mut g2 = g.clone();
                let r = Vcf {
                    g: &mut g2,
                    a,
                    ignore_forbidden: false,
                    fail: HashMap::new(),
                    nodes: 0,
                    budget: 5_000_000,
                    aborted: false,
                }
                .defend(60);
                g.set(m, 0);
                if let Some(l) = r {
                    firsts.push(format!("{m}({})", (l.len() + 1).div_ceil(2) - 1));
                }
            }
            println!("VCF first moves: {}", firsts.join(" "));
        }
        Some("batch") => {
            // Lines of position arguments on stdin (`--rule .. --black ".." --white ".." --to-move ..`).
            for line in std::io::stdin().lines() {
                let line = line.unwrap();
                if !line.starts_with("--rule") {
                    continue;
                }
                let mut a: Vec<String> = Vec::new();
                let mut rest = line.as_str();
                while !rest.trim().is_empty() {
                    rest = rest.trim_start();
                    if let Some(r) = rest.strip_prefix('"') {
                        let end = r.find('"').unwrap();
                        a.push(r[..end].to_string());
                        rest = &r[end + 1..];
                    } else {
                        let end = rest.find(' ').unwrap_or(rest.len());
                        a.push(rest[..end].to_string());
                        rest = &rest[end..];
                    }
                }
                let b = board_from_args(&a);
                let side = b.side_to_move();
                let mut g = G::from_board(&b);
                let t = std::time::Instant::now();
                let (w, _l, _h, u) = report(&mut g, side, false, false);
                let mut firsts = Vec::new();
                for m in &w {
                    let fl = fours_after(&g, side, *m);
                    firsts.push(format!("{m}:{fl}"));
                }
                println!(
                    "{line}\n  wins [{}] unknown [{}] ({:.0}s)",
                    firsts.join(" "),
                    fmt_set(&u),
                    t.elapsed().as_secs_f64()
                );
            }
        }
        Some("traps") => {
            // Renju black: forbidden points where black would make a four (tempting but illegal).
            let b = board_from_args(&args);
            let mut g = G::from_board(&b);
            let mut out = Vec::new();
            for (p, k) in g.four_moves(Stone::Black, true) {
                if g.forbidden(p) {
                    out.push(format!("{p}:{k}"));
                }
            }
            println!("{}", out.join(" "));
        }
        Some("vct") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let depth: u32 = arg(&args, "--depth").unwrap_or("6").parse().unwrap();
            let mut eb = b.clone();
            let r = threat::solve(&mut eb, ThreatKind::Vct, 20, 2_000_000);
            println!(
                "engine VCT (depth 20, 2M): {:?}",
                r.as_ref().map(|w| (Pos::format_list(&w.line), w.nodes))
            );
            let mut g = G::from_board(&b);
            let mut pr = Prover::new();
            pr.engine_budget = 300_000;
            println!("prover (depth {depth}): {}", pr.attack(&mut g, a, depth));
            // Follow a given line (attacker, defender, ...) and list the defender replies that
            // the prover cannot refute after its last attacker move.
            if let Some(line) = arg(&args, "--line") {
                let line = Pos::parse_list(line, b.size()).unwrap();
                let mut s = a;
                for m in &line {
                    g.set(*m, cell(s));
                    s = s.opp();
                }
                assert_eq!(s, a.opp(), "the line must end with an attacker move");
                let d = a.opp();
                for r in g.empties() {
                    if !g.legal(r, d) {
                        continue;
                    }
                    g.set(r, cell(d));
                    let ok = pr.attack(&mut g, a, depth);
                    if !ok {
                        let mut eb = g.to_board(a);
                        let e = threat::solve(&mut eb, ThreatKind::Vct, 20, 2_000_000);
                        println!(
                            "  reply {r}: not refuted; engine VCT from there: {:?}",
                            e.map(|w| Pos::format_list(&w.line))
                        );
                    }
                    g.set(r, 0);
                }
            }
        }
        Some("mine") => mine(&args),
        Some("scatter") => scatter(&args),
        Some("scatter-vct") => scatter_vct(&args),
        _ => {
            eprintln!("usage: mine_tactics verify PATHS [--only TEXT] | classify POSITION [--defence] | vcf POSITION | mine [--rule R --seed S --games N --min-fours K --side black|white]");
            std::process::exit(2);
        }
    }
}
