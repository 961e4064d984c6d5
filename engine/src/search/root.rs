//! The root of the tree: forced moves and proven wins before any search, and the search
//! of the root moves, reordered by score.

use super::movegen;
use super::worker::{Worker, INF};
use crate::board::pos_of;
use crate::eval::Threat;
use crate::score::MATE;
use crate::search_result::SearchResult;
use crate::threat::{self, ThreatKind};

impl Worker<'_> {
    /// Forced moves and proven wins at the root, before any tree search.
    pub(super) fn root_shortcuts(&mut self) -> Option<SearchResult> {
        let me = self.me();
        let op = me.opp();
        if let Some(f) = self.find(me, Threat::Five) {
            return Some(self.result(Some(pos_of(f)), MATE - 1, 1, vec![pos_of(f)], "forced"));
        }
        let legal = movegen::any_legal(&mut self.board);
        let Some(any) = legal else {
            return Some(self.result(None, 0, 0, vec![], "forced"));
        };
        if self.board.threat_count(op, Threat::Five) >= 1 {
            let block = self.find(op, Threat::Five).expect("counted");
            let lost = self.board.threat_count(op, Threat::Five) >= 2 || !self.legal(block, me);
            if lost || self.params.vcf_nodes == 0 {
                let mv = if self.legal(block, me) { block } else { any };
                return Some(self.result(
                    Some(pos_of(mv)),
                    if lost { -(MATE - 2) } else { 0 },
                    1,
                    vec![pos_of(mv)],
                    "forced",
                ));
            }
            // A single forced block: search it normally (it may still lose or win).
            return None;
        }
        if self.params.vcf_nodes > 0 {
            let budget = (self.params.vcf_nodes as u64).min(self.ctl.move_nodes() / 4);
            let mut spent = 0;
            let r =
                threat::solve_counting(&mut self.board, ThreatKind::Vcf, 40, budget, &mut spent);
            self.nodes += spent;
            if let Some(w) = r {
                let plies = w.line.len() as i32;
                return Some(self.result(
                    w.line.first().copied(),
                    MATE - plies,
                    plies,
                    w.line,
                    "vcf",
                ));
            }
        }
        if self.params.vct_nodes > 0 && self.board.threat_count(op, Threat::Five) == 0 {
            let budget = (self.params.vct_nodes as u64).min(self.ctl.move_nodes() / 16);
            let mut spent = 0;
            let r = threat::solve_counting(
                &mut self.board,
                ThreatKind::Vct,
                self.params.vct_depth as u32,
                budget,
                &mut spent,
            );
            self.nodes += spent;
            if let Some(w) = r {
                let plies = w.line.len() as i32;
                return Some(self.result(
                    w.line.first().copied(),
                    MATE - plies,
                    plies,
                    w.line,
                    "vct",
                ));
            }
        }
        None
    }

    /// Searches the root moves, reordering them by score; returns the best score and move.
    pub(super) fn root_search(
        &mut self,
        root: &mut [(usize, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<usize>) {
        let mut best = -INF;
        let mut best_move = None;
        self.pv_len[0] = 0;
        for i in 0..root.len() {
            let m = root[i].0;
            self.make(m);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1, -beta, -alpha, 1, false);
            } else {
                score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, -beta, -alpha, 1, false);
                }
            }
            self.undo();
            if self.stopped {
                // An interrupted search's score means nothing (not even for the first move).
                break;
            }
            root[i].1 = if score > alpha || i == 0 {
                score
            } else {
                -INF + i as i32
            };
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, m);
                }
                if score >= beta {
                    break;
                }
            }
        }
        // Stable sort keeps the previous order among equal (failed-low) moves.
        root.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        (best, best_move)
    }
}
