//! One search thread's state: its board, node count, killers, history, principal
//! variation and move lists, and the small steps every part of the search takes.

use super::control::Control;
use super::movegen::MoveList;
use crate::board::{pos_of, Board, CELLS};
use crate::eval::Threat;
use crate::params::Params;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::search_result::SearchResult;
use crate::stone::Stone;
use crate::tt::TransTable;
use std::sync::atomic::Ordering;

/// Deepest ply of the tree (arrays are sized by it).
pub(super) const MAX_PLY: usize = 128;
/// Beyond every score: the open window.
pub(super) const INF: i32 = 32_000;
/// `Worker::evals` of a node that took no static evaluation (a forced block, the root).
pub(super) const NO_EVAL: i32 = i32::MIN;

/// One search thread.
pub(super) struct Worker<'a> {
    pub(super) board: Board,
    pub(super) params: &'a Params,
    pub(super) tt: &'a TransTable,
    pub(super) ctl: &'a Control<'a>,
    pub(super) id: usize,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    pub(super) seldepth: i32,
    pub(super) stopped: bool,
    /// Lazy SMP: the iteration this thread is searching, and whether it gave it up because
    /// another thread completed it (`stopped` is then set only to unwind the tree).
    pub(super) iter_depth: i32,
    pub(super) aborted: bool,
    /// The depth of the iteration the returned best move comes from (an unfinished one when
    /// it proved a move better than the last completed iteration's).
    pub(super) move_depth: i32,
    pub(super) killers: [[u16; 2]; MAX_PLY],
    pub(super) history: Vec<[i32; CELLS]>,
    pub(super) pv: Vec<[u16; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY],
    pub(super) lmr: [[u8; 64]; 64],
    /// Move-count limits by [improving][depth] (see `lmp_scale`).
    pub(super) lmp: [[u16; 64]; 2],
    /// The static evaluation of each ply's node, [`NO_EVAL`] where none was taken.
    pub(super) evals: [i32; MAX_PLY],
    /// One reusable move list per ply.
    pub(super) lists: Vec<MoveList>,
}

/// Most moves searched at a node, by [improving][depth]: `cand_cap` everywhere, or with
/// `lmp_scale` > 0 Rapfi's depth-dependent count, (3 + d^1.32 x scale) / (2 - improving),
/// few near the leaves and more at depth, where a pruned refutation costs most.
pub(super) fn move_limits(params: &Params) -> [[u16; 64]; 2] {
    let mut lmp = [[params.cand_cap as u16; 64]; 2];
    if params.lmp_scale > 0 {
        for (imp, row) in lmp.iter_mut().enumerate() {
            for (d, cap) in row.iter_mut().enumerate() {
                let base = 3.0 + (d as f64).powf(1.32) * params.lmp_scale as f64 / 100.0;
                *cap = (base / (2 - imp) as f64).max(1.0) as u16;
            }
        }
    }
    lmp
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        board: Board,
        params: &'a Params,
        tt: &'a TransTable,
        ctl: &'a Control<'a>,
        id: usize,
    ) -> Worker<'a> {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = params.lmr_base as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() * 100.0 / params.lmr_div as f64;
                *r = v.max(0.0) as u8;
            }
        }
        Worker {
            board,
            params,
            tt,
            ctl,
            id,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            iter_depth: i32::MAX,
            aborted: false,
            move_depth: 0,
            killers: [[0; 2]; MAX_PLY],
            history: vec![[0; CELLS]; 2],
            pv: vec![[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            lmr,
            lmp: move_limits(params),
            evals: [NO_EVAL; MAX_PLY],
            lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
        }
    }

    pub(super) fn result(
        &self,
        best: Option<Pos>,
        score: i32,
        depth: i32,
        pv: Vec<Pos>,
        source: &'static str,
    ) -> SearchResult {
        SearchResult {
            best,
            score,
            mate: None,
            depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            time_ms: 0,
            pv,
            source,
        }
    }

    pub(super) fn me(&self) -> Stone {
        self.board.side_to_move()
    }

    pub(super) fn legal(&mut self, idx: usize, stone: Stone) -> bool {
        !(stone == Stone::Black
            && self.board.rule() == Rule::Renju
            && self.board.forbidden_idx(idx))
    }

    /// First empty cell where `stone` has class `t`.
    pub(super) fn find(&self, stone: Stone, t: Threat) -> Option<usize> {
        self.board.cells_with(stone, t).next()
    }

    /// A legal cell where `stone` makes an open four, if any.
    pub(super) fn legal_open_four(&mut self, stone: Stone) -> Option<usize> {
        if self.board.threat_count(stone, Threat::OpenFour) == 0 {
            return None;
        }
        let cells: Vec<usize> = self.board.cells_with(stone, Threat::OpenFour).collect();
        cells.into_iter().find(|&i| self.legal(i, stone))
    }

    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.ctl.threads == 1 {
            if self.nodes >= self.ctl.node_limit {
                self.stopped = true;
                return true;
            }
        } else if self.nodes & 255 == 0 {
            let delta = self.nodes - self.flushed;
            self.flushed = self.nodes;
            let total = self.ctl.shared_nodes.fetch_add(delta, Ordering::Relaxed) + delta;
            if total >= self.ctl.node_limit {
                self.ctl.stop.store(true, Ordering::Relaxed);
            }
            // Another thread completed this iteration: searching on repeats its work.
            if self.ctl.completed.load(Ordering::Relaxed) >= self.iter_depth {
                self.aborted = true;
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(h) = self.ctl.hard {
                if self.ctl.start.elapsed() >= h {
                    self.ctl.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.ctl.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    pub(super) fn make(&mut self, idx: usize) {
        self.nodes += 1;
        self.board.make_idx(idx);
    }

    pub(super) fn undo(&mut self) {
        self.board.undo();
    }

    pub(super) fn flush_nodes(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.ctl.shared_nodes.fetch_add(delta, Ordering::Relaxed);
    }

    pub(super) fn total_nodes(&self) -> u64 {
        if self.ctl.threads == 1 {
            self.nodes
        } else {
            self.ctl.shared_nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
        }
    }

    pub(super) fn pv_line(&self) -> Vec<Pos> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|&m| pos_of(m as usize))
            .collect()
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: usize) {
        self.pv[ply][0] = m as u16;
        let child = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_limits_follow_depth_and_improvement() {
        // Off: the fixed cap at every depth, improving or not.
        let fixed = Params::default();
        let mut off = fixed.clone();
        off.lmp_scale = 0;
        assert!(move_limits(&off)
            .iter()
            .flatten()
            .all(|&c| c == off.cand_cap as u16));
        // On at 100 (Rapfi's count): 2 moves at depth 1, 11 at depth 10 when not improving,
        // twice that when improving, never fewer at a greater depth.
        let mut on = fixed;
        on.lmp_scale = 100;
        let l = move_limits(&on);
        assert_eq!((l[0][1], l[0][10], l[1][10]), (2, 11, 23));
        for imp in 0..2 {
            assert!(l[imp].windows(2).all(|w| w[0] <= w[1]), "{:?}", l[imp]);
        }
        assert!((1..64).all(|d| l[1][d] >= 2 * l[0][d]));
    }
}
