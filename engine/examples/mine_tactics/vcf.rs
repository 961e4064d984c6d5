//! The oracle's own VCF search: exhaustive within a node budget, and its replay.

use crate::grid::{cell, G};
use std::collections::HashMap;
use wuzi_engine::{Pos, Rule, Stone};

/// Outcome of a bounded search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Found {
    Yes(Vec<Pos>),
    No,
    Unknown,
}

/// The independent VCF search: exhaustive within a node budget.
pub(crate) struct Vcf<'a> {
    pub(crate) g: &'a mut G,
    pub(crate) a: Stone,
    pub(crate) ignore_forbidden: bool,
    pub(crate) fail: HashMap<Vec<u8>, u32>,
    pub(crate) nodes: u64,
    pub(crate) budget: u64,
    pub(crate) aborted: bool,
}

impl Vcf<'_> {
    /// Attacker to move. Returns the line (attacker's moves and forced replies, ending with the five).
    pub(crate) fn attack(&mut self, depth: u32) -> Option<Vec<Pos>> {
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
    pub(crate) fn defend(&mut self, depth: u32) -> Option<Vec<Pos>> {
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
pub(crate) fn vcf(
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
pub(crate) fn replay_vcf(g: &mut G, d: Stone, line: &[Pos]) -> bool {
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
pub(crate) fn fours_after(g: &G, side: Stone, m: Pos) -> usize {
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
pub(crate) fn fours_in(line: &[Pos]) -> usize {
    line.len().div_ceil(2) - 1
}
