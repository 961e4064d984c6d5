//! Iterative deepening with aspiration windows, and Lazy SMP's sharing of completed
//! iterations between threads.

use super::info::Info;
use super::movegen;
use super::worker::{Worker, INF};
use crate::board::pos_of;
use crate::pos::Pos;
use crate::score::{MATE, MATE_BOUND};
use crate::search_result::SearchResult;
use std::sync::atomic::Ordering;

/// How much of its planned time a search under a match clock takes before it starts no
/// further iteration: more while the best move keeps changing or the score falls, less once
/// it has settled (time saved is time for later moves).
fn stability_scale(changes: f64, drop: i32) -> f64 {
    let unsettled = 0.6 + 0.8 * changes.min(2.0);
    let falling = 1.0 + (drop as f64 / 100.0).min(1.0) * 0.5;
    unsettled * falling
}

impl Worker<'_> {
    /// After an iteration of `depth` scored `score`: is the search done (a mate it has seen
    /// to the end, or the planned time spent)?
    fn settled(&self, score: i32, depth: i32, changes: f64, drop: i32) -> bool {
        if score.abs() >= MATE_BOUND && depth >= (MATE - score.abs()) + 2 {
            return true;
        }
        self.ctl.soft.is_some_and(|s| {
            let s = if self.ctl.saving {
                s.mul_f64(stability_scale(changes, drop))
            } else {
                s
            };
            self.ctl.start.elapsed() >= s
        })
    }

    /// The main thread reports a completed iteration (its own or another thread's).
    fn report(&self, on_info: &mut Option<&mut dyn FnMut(&Info)>, r: &SearchResult) {
        if self.id != 0 {
            return;
        }
        if let Some(cb) = on_info.as_mut() {
            cb(&Info {
                depth: r.depth,
                seldepth: r.seldepth,
                score: r.score,
                nodes: self.total_nodes(),
                elapsed: self.ctl.start.elapsed(),
                pv: r.pv.clone(),
            });
        }
    }

    /// Iterative deepening with aspiration windows.
    pub(super) fn iterate(&mut self, on_info: &mut Option<&mut dyn FnMut(&Info)>) -> SearchResult {
        let mut root = movegen::root_moves(&mut self.board, self.params);
        let mut best = self.result(
            root.first().map(|&(m, _)| pos_of(m)),
            0,
            0,
            root.first()
                .map(|&(m, _)| vec![pos_of(m)])
                .unwrap_or_default(),
            "search",
        );
        if root.len() == 1
            && self.ctl.threads == 1
            && self.ctl.depth_limit > 1
            && self.ctl.node_limit == u64::MAX
        {
            // A single legal reply under a clock: no need to think.
            return best;
        }
        let mut prev: i32 = 0;
        // Best-move changes, halved each iteration: how unsettled the search still is.
        let mut changes: f64 = 0.0;
        let start_depth = 1 + (self.id % 2) as i32;
        let mut depth = start_depth;
        while depth <= self.ctl.depth_limit {
            if self.ctl.threads > 1 {
                // Lazy SMP: skip iterations another thread has already completed (the shared
                // table makes catching up cheap), and let odd threads run one iteration
                // ahead, so that two threads search two depths at once, not one twice.
                let done = self.ctl.completed.load(Ordering::Relaxed);
                // Under a depth limit the last iteration is searched by all threads.
                let target =
                    (done + 1 + (self.id % 2) as i32).min(self.ctl.depth_limit.max(done + 1));
                if target > depth {
                    depth = target;
                    if let Ok(g) = self.ctl.best.lock() {
                        if let Some(b) = g.as_ref() {
                            // Adopt it: what this thread returns is then at least this deep.
                            prev = b.score;
                            if b.best.is_some() {
                                best = b.clone();
                                self.move_depth = b.depth;
                            }
                            self.report(on_info, b);
                        }
                    }
                }
                if depth > self.ctl.depth_limit {
                    break;
                }
            }
            self.iter_depth = depth;
            let mut delta = self.params.aspiration;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            // The best move this depth has proven so far: one that raised alpha (a root move is
            // reported only when its search finished), so it beat the last iteration's best
            // move at this depth. An interrupted iteration still has this to give.
            let mut proven: Option<(usize, i32, Vec<Pos>)> = None;
            let (score, mv) = loop {
                let (score, mv) = self.root_search(&mut root, depth, alpha, beta);
                if score > alpha {
                    if let Some(m) = mv {
                        proven = Some((m, score, self.pv_line()));
                    }
                }
                if self.stopped {
                    break (score, mv);
                }
                // Re-search from the fail-soft score, not the old bound, and pull the other
                // bound in after a fail low (as Stockfish does); widen by half, not double.
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INF);
                    delta += delta / 2;
                } else if score >= beta {
                    beta = (score + delta).min(INF);
                    delta += delta / 2;
                } else {
                    break (score, mv);
                }
                if delta > 4000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if self.stopped {
                if self.aborted && !self.ctl.stop.load(Ordering::Relaxed) {
                    // Given up for a deeper completed iteration: go on from there.
                    self.aborted = false;
                    self.stopped = false;
                    if self.settled(best.score, best.depth, changes, 0) {
                        break;
                    }
                    continue;
                }
                if let Some((m, s, pv)) = proven.filter(|_| !self.aborted) {
                    best.best = Some(pos_of(m));
                    best.pv = pv;
                    best.score = s;
                    self.move_depth = depth;
                }
                break;
            }
            if mv.is_some_and(|m| best.best != Some(pos_of(m))) && depth > 1 {
                changes += 1.0;
            }
            let drop = if depth > 1 { (prev - score).max(0) } else { 0 };
            prev = score;
            best.best = mv.map(pos_of).or(best.best);
            best.score = score;
            best.depth = depth;
            self.move_depth = depth;
            best.pv = self.pv_line();
            best.seldepth = self.seldepth;
            best.nodes = self.nodes;
            if self.ctl.threads > 1 {
                if let Ok(mut g) = self.ctl.best.lock() {
                    if g.as_ref().is_none_or(|b| depth > b.depth) {
                        *g = Some(best.clone());
                        self.ctl.completed.store(depth, Ordering::Relaxed);
                    }
                }
            }
            self.report(on_info, &best);
            if self.settled(score, depth, changes, drop) {
                break;
            }
            changes *= 0.5;
            depth += 1;
        }
        best.nodes = self.nodes;
        if self.id == 0 {
            self.ctl.stop.store(true, Ordering::Relaxed);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::stability_scale;

    #[test]
    fn a_settled_search_saves_time_and_an_unsettled_or_falling_one_spends_it() {
        let settled = stability_scale(0.0, 0);
        assert!(settled < 1.0, "settled {settled}");
        assert!(stability_scale(1.0, 0) > 1.0);
        assert!(stability_scale(1.5, 0) > stability_scale(1.0, 0));
        assert!(stability_scale(0.0, 80) > settled);
        // Bounded: a search never plans more than 3.3 times its share (2.2 x 1.5).
        assert!(stability_scale(10.0, 10_000) < 3.31);
    }
}
