//! Alpha-beta search: principal-variation search with iterative deepening, aspiration
//! windows, a shared transposition table, killer and history ordering, threat-gated move
//! generation, VCF quiescence, root VCF/VCT solvers, limits and Lazy SMP threads.

mod control;
mod info;
mod iterate;
mod movegen;
mod negamax;
mod root;
mod worker;

pub use info::{info_line, Info};

use crate::board::Board;
use crate::limits::{time_budget, Limits};
use crate::params::Params;
use crate::search_result::SearchResult;
use crate::tt::TransTable;
use control::Control;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use worker::{Worker, MAX_PLY};

/// A search engine: parameters, a transposition table and a thread count. Keep one per
/// game so the table carries over between moves.
pub struct Engine {
    params: Params,
    tt: Arc<TransTable>,
    threads: usize,
}

impl Engine {
    /// An engine with `tt_mb` megabytes of hash and `threads` search threads.
    pub fn new(params: Params, tt_mb: usize, threads: usize) -> Engine {
        Engine {
            params,
            tt: Arc::new(TransTable::new(tt_mb)),
            threads: threads.max(1),
        }
    }

    /// The parameters in force.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the parameters (and clears the table, whose scores they produced).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.tt.clear();
    }

    /// Sets the thread count.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Resizes the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = Arc::new(TransTable::new(mb));
    }

    /// Forgets everything learned (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Searches `board` for the side to move. `on_info` is called after each iteration.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        mut on_info: Option<&mut dyn FnMut(&Info)>,
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let mut b = board.clone();
        b.set_params(&self.params);
        let budget = time_budget(limits, &b);
        let stop = AtomicBool::new(false);
        let shared_nodes = AtomicU64::new(0);
        let ctl = Control {
            start,
            soft: budget.soft,
            hard: budget.hard,
            saving: budget.saving,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            depth_limit: limits
                .depth
                .unwrap_or(MAX_PLY as i32 - 8)
                .clamp(1, MAX_PLY as i32 - 8),
            stop: &stop,
            shared_nodes: &shared_nodes,
            threads: self.threads,
            completed: AtomicI32::new(0),
            best: Mutex::new(None),
        };
        let mut main = Worker::new(b.clone(), &self.params, &self.tt, &ctl, 0);
        if let Some(r) = main.root_shortcuts() {
            return r.finish(start);
        }
        if self.threads == 1 {
            return main.iterate(&mut on_info).finish(start);
        }
        let params = &self.params;
        let tt = &self.tt;
        let ctl_ref = &ctl;
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|id| {
                    let bb = b.clone();
                    std::thread::Builder::new()
                        .stack_size(16 << 20)
                        .spawn_scoped(scope, move || {
                            let mut w = Worker::new(bb, params, tt, ctl_ref, id);
                            w.iterate(&mut None);
                            w.flush_nodes();
                        })
                        .expect("spawn search thread")
                })
                .collect();
            let r = main.iterate(&mut on_info);
            stop.store(true, Ordering::Relaxed);
            for h in helpers {
                let _ = h.join();
            }
            // The deepest iteration completed by any thread decides the move, unless the main
            // thread's unfinished deeper iteration already proved a better one.
            let shared = ctl.best.lock().map(|mut g| g.take()).unwrap_or(None);
            let mut r = match shared {
                Some(s) if s.depth > main.move_depth && s.best.is_some() => s,
                _ => r,
            };
            main.flush_nodes();
            r.nodes = shared_nodes.load(Ordering::Relaxed);
            r.finish(start)
        })
    }
}

/// Convenience: a fresh single-threaded engine with default parameters searches `board`.
pub fn search_once(board: &Board, params: &Params, limits: &Limits) -> SearchResult {
    Engine::new(params.clone(), 16, 1).search(board, limits, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::rule::Rule;
    use std::time::Duration;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_moves(15, rule, &Pos::parse_list(moves, 15).unwrap()).unwrap()
    }

    #[test]
    fn node_limited_search_is_deterministic() {
        let b = board(Rule::Renju, "h8 i9 i8 g8 j10 h10 j8 k8 j9 j7");
        let a = search_once(&b, &Params::default(), &Limits::nodes(30_000));
        let c = search_once(&b, &Params::default(), &Limits::nodes(30_000));
        assert_eq!(
            (a.best, a.score, a.nodes, &a.pv),
            (c.best, c.score, c.nodes, &c.pv)
        );
        assert!(a.nodes <= 30_000 + 1);
    }

    #[test]
    fn takes_five_and_blocks_four() {
        let b = board(Rule::Standard, "h8 a1 i8 a3 j8 a5 k8 a7");
        let r = search_once(&b, &Params::default(), &Limits::depth(3));
        assert!(matches!(r.best.unwrap().to_string().as_str(), "g8" | "l8"));
        assert_eq!(r.mate, Some(1));
        let b = board(Rule::Standard, "h8 a1 i8 a3 j8 a5 k8");
        let r = search_once(&b, &Params::default(), &Limits::depth(3));
        assert!(matches!(r.best.unwrap().to_string().as_str(), "g8" | "l8"));
        assert_eq!(r.mate, Some(-2));
    }

    #[test]
    fn time_limit_stops_the_search() {
        let b = board(Rule::Freestyle, "h8 i9 g9");
        let t = Instant::now();
        let r = Engine::new(Params::default(), 16, 1).search(&b, &Limits::time_ms(150), None);
        assert!(r.best.is_some());
        // Generous: the limit is checked every 1024 nodes.
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn threads_find_a_legal_move() {
        let b = board(Rule::Renju, "h8 i9 i8 g8 j10 h10");
        let r = Engine::new(Params::default(), 16, 2).search(&b, &Limits::depth(6), None);
        let mut bb = b.clone();
        assert!(bb.is_legal(r.best.unwrap()));
        assert!(r.depth >= 6 || r.mate.is_some());
    }

    #[test]
    fn two_threads_report_rising_depths_and_stop_at_the_depth_limit() {
        // The helper runs an iteration ahead of the main thread and the main thread reports
        // the helper's completed iterations: the depths it reports must still only rise, and
        // the helper's look-ahead must neither overshoot the limit nor end the search early.
        let b = board(Rule::Renju, "h8 i9 i8 g8 j10 h10 j8");
        let mut depths = Vec::new();
        let mut cb = |i: &Info| depths.push(i.depth);
        let r = Engine::new(Params::default(), 16, 2).search(&b, &Limits::depth(9), Some(&mut cb));
        assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
        assert_eq!(r.depth, 9, "{depths:?}");
        assert!(b.clone().is_legal(r.best.unwrap()));
    }

    #[test]
    fn renju_black_never_plays_forbidden() {
        // i8 would be a double-three for black; black to move must pick something else.
        let b = Board::from_stones(
            15,
            Rule::Renju,
            &Pos::parse_list("g8 h8 i9 i10", 15).unwrap(),
            &Pos::parse_list("a1 a3 c1 o15", 15).unwrap(),
        )
        .unwrap();
        let r = search_once(&b, &Params::default(), &Limits::depth(4));
        assert_ne!(r.best.unwrap().to_string(), "i8");
    }
}
