//! Iterative deepening with aspiration windows, and Lazy SMP's sharing of completed
//! iterations between threads.

use super::info::Info;
use super::movegen;
use super::worker::{Worker, INF};
use crate::board::pos_of;
use crate::score::{MATE, MATE_BOUND};
use crate::search_result::SearchResult;
use std::sync::atomic::Ordering;

impl Worker<'_> {
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
        let start_depth = 1 + (self.id % 2) as i32;
        let mut depth = start_depth;
        while depth <= self.ctl.depth_limit {
            if self.ctl.threads > 1 {
                // Lazy SMP: skip iterations another thread has already completed; the
                // shared table makes catching up cheap.
                let done = self.ctl.completed.load(Ordering::Relaxed);
                if done >= depth {
                    depth = done + 1;
                    if depth > self.ctl.depth_limit {
                        break;
                    }
                    if let Ok(g) = self.ctl.best.lock() {
                        if let Some(b) = g.as_ref() {
                            prev = b.score;
                        }
                    }
                }
            }
            let mut delta = self.params.aspiration;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            let (score, mv) = loop {
                let (score, mv) = self.root_search(&mut root, depth, alpha, beta);
                if self.stopped {
                    break (score, mv);
                }
                if score <= alpha {
                    alpha = (alpha - delta).max(-INF);
                    delta *= 2;
                } else if score >= beta {
                    beta = (beta + delta).min(INF);
                    delta *= 2;
                } else {
                    break (score, mv);
                }
                if delta > 4000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if self.stopped {
                // Keep a move from the unfinished iteration only if it was fully searched.
                if let Some(m) = mv {
                    if score > prev || best.depth == 0 {
                        best.best = Some(pos_of(m));
                        best.pv = self.pv_line();
                        best.score = score;
                    }
                }
                break;
            }
            prev = score;
            best.best = mv.map(pos_of).or(best.best);
            best.score = score;
            best.depth = depth;
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
            if self.id == 0 {
                if let Some(cb) = on_info.as_mut() {
                    cb(&Info {
                        depth,
                        seldepth: self.seldepth,
                        score,
                        nodes: self.total_nodes(),
                        elapsed: self.ctl.start.elapsed(),
                        pv: best.pv.clone(),
                    });
                }
            }
            if score.abs() >= MATE_BOUND && depth >= (MATE - score.abs()) + 2 {
                break;
            }
            if let Some(s) = self.ctl.soft {
                if self.ctl.start.elapsed() >= s {
                    break;
                }
            }
            depth += 1;
        }
        best.nodes = self.nodes;
        if self.id == 0 {
            self.ctl.stop.store(true, Ordering::Relaxed);
        }
        best
    }
}
