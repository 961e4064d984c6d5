//! Labels every move of the side to move: WIN, LOSS, NONWIN, HOLD? or UNKNOWN.

use crate::grid::{cell, G};
use crate::prover::Prover;
use crate::vcf::{fours_in, replay_vcf, vcf, Found};
use std::collections::HashMap;
use wuzi_engine::threat::ThreatKind;
use wuzi_engine::{threat, Pos, Stone};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Class {
    Win(String),
    Loss(String),
    NonWin,
    Unknown(String),
}

impl Class {
    pub(crate) fn tag(&self) -> &'static str {
        match self {
            Class::Win(_) => "WIN",
            Class::Loss(_) => "LOSS",
            Class::NonWin => "NONWIN",
            Class::Unknown(_) => "UNKNOWN",
        }
    }
}

pub(crate) struct Classifier {
    pub(crate) prover: Prover,
    pub(crate) vct_depth: u32,
    pub(crate) nonwin_memo: HashMap<Vec<u8>, Option<String>>,
    /// Try to prove wins by threes (slower); losses are always tried with threes.
    pub(crate) try_threes: bool,
    /// The opponent's VCF line in the position before the move being classified, if any.
    pub(crate) hint: Vec<Option<Vec<Pos>>>,
    /// Try to prove wins by quiet (non-three) moves too: every reply refuted.
    pub(crate) deep_quiet: bool,
}

impl Classifier {
    pub(crate) fn new() -> Classifier {
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
    pub(crate) fn opponent_wins(&mut self, g: &mut G, d: Stone) -> Option<String> {
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
    pub(crate) fn no_move_wins(&mut self, g: &mut G, a: Stone, depth: u32) -> Option<String> {
        if let Some(r) = self.nonwin_memo.get(&g.c) {
            return r.clone();
        }
        let r = self.no_move_wins_inner(g, a, depth);
        self.nonwin_memo.insert(g.c.clone(), r.clone());
        r
    }

    pub(crate) fn no_move_wins_inner(&mut self, g: &mut G, a: Stone, depth: u32) -> Option<String> {
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

    pub(crate) fn push_hint(&mut self, g: &mut G, a: Stone) {
        let h = match vcf(g, a.opp(), 60, false, false, 200_000) {
            Found::Yes(l) => Some(l),
            _ => None,
        };
        self.hint.push(h);
    }

    /// The class of `a` playing `m` in `g`.
    pub(crate) fn class_of(&mut self, g: &mut G, a: Stone, m: Pos, depth: u32, top: bool) -> Class {
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

    pub(crate) fn after_move(&mut self, g: &mut G, a: Stone, depth: u32, top: bool) -> Class {
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

    pub(crate) fn quick_opponent_vcf(&mut self, g: &mut G, d: Stone) -> Option<String> {
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

    pub(crate) fn after_block(
        &mut self,
        g: &mut G,
        a: Stone,
        b: Pos,
        depth: u32,
        top: bool,
    ) -> Class {
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
    pub(crate) fn classify(&mut self, g: &mut G, a: Stone) -> Vec<(Pos, Class)> {
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
    pub(crate) fn holds(&mut self, g: &mut G, a: Stone, m: Pos, budget: u64) -> bool {
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
pub(crate) fn has_double_point(g: &mut G, a: Stone) -> bool {
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
