//! The tree below the root: principal-variation search with threat cut-offs, reverse
//! futility, late-move reductions, killer and history updates, and the VCF quiescence past
//! the horizon.

use super::movegen::{self, MoveList};
use super::worker::{Worker, INF, MAX_PLY, NO_EVAL};
use crate::eval::Threat;
use crate::rule::Rule;
use crate::score::{EVAL_LIMIT, MATE, MATE_BOUND};
use crate::stone::Stone;
use crate::tt::{Bound, TtEntry};

impl Worker<'_> {
    /// Threat checks shared by the main search and quiescence. `Some(score)` ends the node.
    #[inline]
    pub(super) fn threat_cutoff(&mut self, ply: usize) -> Option<i32> {
        let me = self.me();
        let op = me.opp();
        if self.board.threat_count(me, Threat::Five) > 0 {
            return Some(MATE - ply as i32 - 1);
        }
        let op_fives = self.board.threat_count(op, Threat::Five);
        if op_fives >= 2 {
            return Some(-(MATE - ply as i32 - 2));
        }
        if op_fives == 0 && self.legal_open_four(me).is_some() {
            return Some(MATE - ply as i32 - 3);
        }
        None
    }

    /// `cut`: the node is expected to fail high (a null-window child of a late move, or the
    /// first child of an expected all node).
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        if self.check_stop() {
            return 0;
        }
        if let Some(s) = self.threat_cutoff(ply) {
            return s;
        }
        if self.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return self.board.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        // Mate-distance pruning.
        let alpha0 = alpha.max(-(MATE - ply as i32));
        let beta0 = beta.min(MATE - ply as i32 - 1);
        if alpha0 >= beta0 {
            return alpha0;
        }
        let me = self.me();
        let op = me.opp();
        self.evals[ply] = NO_EVAL;
        // A single forced block of the opponent's four: play it without spending depth.
        if self.board.threat_count(op, Threat::Five) == 1 {
            let block = self.find(op, Threat::Five).expect("counted");
            if !self.legal(block, me) {
                return -(MATE - ply as i32 - 2);
            }
            self.make(block);
            let ext = self.params.ext_four;
            let child_cut = beta - alpha == 1 && !cut;
            let score = -self.negamax(depth - 1 + ext, -beta, -alpha, ply + 1, child_cut);
            self.undo();
            if score > alpha {
                self.update_pv(ply, block);
            }
            return score;
        }
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, self.params.qs_depth, me, 0);
        }
        let pv_node = beta - alpha > 1;
        let key = self.board.hash();
        let tte = self.tt.probe(key);
        let mut tt_move = 0usize;
        if let Some(e) = tte {
            tt_move = e.mv as usize;
            if !pv_node && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let ev = self.board.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        self.evals[ply] = ev;
        // Reverse futility: far enough above beta with no opponent threat to answer, a
        // shallow search would fail high too.
        if !pv_node
            && depth <= 8
            && self.params.rfp_margin > 0
            && beta.abs() < MATE_BOUND
            && ev - self.params.rfp_margin * depth >= beta
            && self.board.threat_count(op, Threat::OpenFour) == 0
            && self.board.threat_count(op, Threat::FourThree) == 0
        {
            return ev;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        movegen::generate(
            &mut self.board,
            self.killers[ply],
            &self.history,
            &mut list,
            tt_move,
        );
        let best = self.search_moves(
            &mut list, depth, alpha, beta, ply, pv_node, cut, key, tte, false,
        );
        self.lists[ply] = list;
        best
    }

    /// The move loop of [`Worker::negamax`] over a generated list.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves(
        &mut self,
        list: &mut MoveList,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut: bool,
        key: u64,
        tte: Option<TtEntry>,
        exclude_first: bool,
    ) -> i32 {
        let me = self.me();
        let op = me.opp();
        if list.is_empty() {
            // No legal move (renju black with only forbidden points): a loss; else a draw.
            return if self.board.rule() == Rule::Renju && me == Stone::Black {
                -(MATE - ply as i32 - 1)
            } else {
                0
            };
        }
        let mut best = -INF;
        let mut best_move = 0usize;
        let old_alpha = alpha;
        // Unknown two plies up (a forced block, the root) counts as improving: the wider limit.
        // (This node's own evaluation is always taken: negamax sets it before the move loop.)
        let improving =
            ply < 2 || self.evals[ply - 2] == NO_EVAL || self.evals[ply] > self.evals[ply - 2];
        let cap = usize::from(self.lmp[usize::from(improving)][(depth as usize).min(63)]);
        let fail_high = !pv_node
            && cut
            && self.params.fh_margin > 0
            && self.evals[ply] != NO_EVAL
            && self.evals[ply] >= beta.saturating_add(self.params.fh_margin * depth);
        for i in usize::from(exclude_first)..list.len() {
            if i >= cap && best > -MATE_BOUND {
                break;
            }
            let (m, _) = list.pick(i);
            let mut ext = 0;
            if i == 0 && !exclude_first {
                match self.singular(list, depth, beta, ply, cut, key, tte, m) {
                    Singular::Extend => ext = 1,
                    Singular::Cut(s) => return s,
                    Singular::Reduce => ext = -1,
                    Singular::None => {}
                }
            }
            let own_four = self.board.threat_idx(m, me.index()).is_four();
            let forcing = own_four || self.board.threat_idx(m, op.index()) >= Threat::Four;
            if fail_high && !own_four {
                ext -= 1;
            }
            self.make(m);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1 + ext, -beta, -alpha, ply + 1, !pv_node && !cut);
            } else if i == 1 && exclude_first {
                score = -self.negamax(depth - 1 + ext, -beta, -alpha, ply + 1, !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && i >= self.params.lmr_moves as usize && !forcing {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                let full = depth - 1 + ext;
                score = -self.negamax(full - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(full, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(full, -beta, -alpha, ply + 1, false);
                }
            }
            self.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if self.killers[ply][0] != m as u16 {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = m as u16;
                        }
                        let bonus = (depth * depth).min(400);
                        let h = &mut self.history[me.index()][m];
                        *h += bonus - *h * bonus / 16384;
                        // Not the table's move when a singular test left it out.
                        for j in usize::from(exclude_first)..i {
                            let (q, _) = list.get(j);
                            let h = &mut self.history[me.index()][q];
                            *h -= bonus + *h * bonus / 16384;
                        }
                        break;
                    }
                }
            }
        }
        if exclude_first {
            // A singular test: its bound is not this node's.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            TtEntry {
                mv: best_move as u16,
                score: score_to_tt(best, ply),
                eval: 0,
                depth,
                bound,
            },
        );
        best
    }

    /// Singular extension test of the first move (the table's), before it is searched.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        list: &mut MoveList,
        depth: i32,
        beta: i32,
        ply: usize,
        cut: bool,
        key: u64,
        tte: Option<TtEntry>,
        m: usize,
    ) -> Singular {
        let se = self.params.se_depth;
        let Some(e) = tte else {
            return Singular::None;
        };
        if se == 0
            || depth < se
            || e.mv as usize != m
            || list.len() < 2
            || ply >= MAX_PLY / 2
            || e.depth < depth - 3
            || e.bound == Bound::Upper
        {
            return Singular::None;
        }
        let tts = score_from_tt(e.score, ply);
        if tts.abs() >= MATE_BOUND {
            return Singular::None;
        }
        let sbeta = tts - self.params.se_margin * depth;
        let v = self.search_moves(
            list,
            depth / 2,
            sbeta - 1,
            sbeta,
            ply,
            false,
            cut,
            key,
            None,
            true,
        );
        self.pv_len[ply] = 0;
        if self.stopped {
            return Singular::None;
        }
        if v < sbeta {
            Singular::Extend
        } else if sbeta >= beta {
            Singular::Cut(sbeta)
        } else if tts >= beta {
            Singular::Reduce
        } else {
            Singular::None
        }
    }

    /// Past the horizon: stand pat on the evaluation, or continue with own fours (VCF).
    ///
    /// Only `attacker` (the side to move at the horizon) makes fours; after its first four,
    /// only fours on the lines through its previous four (`last`) are tried, which is where
    /// new fours appear. The defender blocks when it must and otherwise stands pat.
    pub(super) fn quiesce(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        attacker: Stone,
        last: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        if self.check_stop() {
            return 0;
        }
        if let Some(s) = self.threat_cutoff(ply) {
            return s;
        }
        if self.board.is_full() {
            return 0;
        }
        let me = self.me();
        let op = me.opp();
        if self.board.threat_count(op, Threat::Five) == 1 {
            let block = self.find(op, Threat::Five).expect("counted");
            if !self.legal(block, me) {
                return -(MATE - ply as i32 - 2);
            }
            if ply >= MAX_PLY - 4 {
                return self.board.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
            }
            self.make(block);
            let score = -self.quiesce(-beta, -alpha, ply + 1, qdepth, attacker, last);
            self.undo();
            if score > alpha {
                self.update_pv(ply, block);
            }
            return score;
        }
        let stand = self.board.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if stand >= beta || qdepth <= 0 || ply >= MAX_PLY - 4 || me != attacker {
            return stand;
        }
        let best = stand;
        if stand > alpha {
            alpha = stand;
        }
        if self.board.threat_count(me, Threat::Four)
            + self.board.threat_count(me, Threat::FourThree)
            == 0
        {
            return best;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        movegen::fours(&mut self.board, &mut list, last);
        let best = self.quiesce_moves(&mut list, best, alpha, beta, ply, qdepth, attacker);
        self.lists[ply] = list;
        best
    }

    /// The move loop of [`Worker::quiesce`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiesce_moves(
        &mut self,
        list: &mut MoveList,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        attacker: Stone,
    ) -> i32 {
        for i in 0..list.len() {
            let (m, _) = list.pick(i);
            self.make(m);
            let score = -self.quiesce(-beta, -alpha, ply + 1, qdepth - 1, attacker, m);
            self.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What the singular test found for the table's move.
enum Singular {
    /// Not tested.
    None,
    /// Only it holds: search it one ply deeper.
    Extend,
    /// Others beat beta too: the node fails high with this score.
    Cut(i32),
    /// It was expected to fail high and others nearly do: one ply less.
    Reduce,
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
