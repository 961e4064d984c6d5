//! Proofs of wins that may use threes, the defender answering a three with every legal move.

use crate::grid::{cell, G};
use crate::vcf::{vcf, Found};
use std::collections::HashMap;
use wuzi_engine::threat::ThreatKind;
use wuzi_engine::{threat, Pos, Stone};

/// Proofs of wins that may use threes. `a` is the attacker.
pub(crate) struct Prover {
    pub(crate) vcf_budget: u64,
    pub(crate) engine_budget: u64,
    pub(crate) memo: HashMap<(Vec<u8>, u8, u32), bool>,
}

impl Prover {
    pub(crate) fn new() -> Prover {
        Prover {
            vcf_budget: 300_000,
            engine_budget: 300_000,
            memo: HashMap::new(),
        }
    }

    /// `a` to move: is a win proven with at most `depth` non-four threats?
    pub(crate) fn attack(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
        let key = (g.c.clone(), cell(a), depth);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let r = self.attack_inner(g, a, depth);
        self.memo.insert(key, r);
        r
    }

    pub(crate) fn attack_inner(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
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
    pub(crate) fn defend(&mut self, g: &mut G, a: Stone, depth: u32) -> bool {
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
