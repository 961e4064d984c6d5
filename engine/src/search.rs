//! Alpha-beta search: principal-variation search with iterative deepening, aspiration
//! windows, a shared transposition table, killer and history ordering, threat-gated move
//! generation, VCF quiescence, root VCF/VCT solvers, limits and Lazy SMP threads.

mod movegen;

use crate::board::{pos_of, Board, CELLS};
use crate::eval::Threat;
use crate::limits::{time_budget, Limits};
use crate::params::Params;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::score::{EVAL_LIMIT, MATE, MATE_BOUND};
use crate::search_result::SearchResult;
use crate::stone::Stone;
use crate::threat::{self, ThreatKind};
use crate::tt::{Bound, TransTable, TtEntry};
use movegen::MoveList;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const MAX_PLY: usize = 128;
const INF: i32 = 32_000;

/// Progress of an iteration, for printing.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Score for the side to move.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

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
        let (soft, hard) = time_budget(limits, &b);
        let stop = AtomicBool::new(false);
        let shared_nodes = AtomicU64::new(0);
        let ctl = Control {
            start,
            soft,
            hard,
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
            // The deepest iteration completed by any thread decides the move.
            let shared = ctl.best.lock().map(|mut g| g.take()).unwrap_or(None);
            let mut r = match shared {
                Some(s) if s.depth > r.depth && s.best.is_some() => s,
                _ => r,
            };
            main.flush_nodes();
            r.nodes = shared_nodes.load(Ordering::Relaxed);
            r.finish(start)
        })
    }
}

struct Control<'a> {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    node_limit: u64,
    depth_limit: i32,
    stop: &'a AtomicBool,
    shared_nodes: &'a AtomicU64,
    threads: usize,
    /// Lazy SMP: the deepest iteration any thread completed, and its result.
    completed: AtomicI32,
    best: Mutex<Option<SearchResult>>,
}

struct Worker<'a> {
    board: Board,
    params: &'a Params,
    tt: &'a TransTable,
    ctl: &'a Control<'a>,
    id: usize,
    nodes: u64,
    flushed: u64,
    seldepth: i32,
    stopped: bool,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<[i32; CELLS]>,
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    lmr: [[u8; 64]; 64],
    /// One reusable move list per ply.
    lists: Vec<MoveList>,
}

impl<'a> Worker<'a> {
    fn new(
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
            killers: [[0; 2]; MAX_PLY],
            history: vec![[0; CELLS]; 2],
            pv: vec![[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            lmr,
            lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
        }
    }

    fn result(
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

    fn me(&self) -> Stone {
        self.board.side_to_move()
    }

    fn legal(&mut self, idx: usize, stone: Stone) -> bool {
        !(stone == Stone::Black
            && self.board.rule() == Rule::Renju
            && self.board.forbidden_idx(idx))
    }

    /// First empty cell where `stone` has class `t`.
    fn find(&self, stone: Stone, t: Threat) -> Option<usize> {
        self.board.cells_with(stone, t).next()
    }

    /// A legal cell where `stone` makes an open four, if any.
    fn legal_open_four(&mut self, stone: Stone) -> Option<usize> {
        if self.board.threat_count(stone, Threat::OpenFour) == 0 {
            return None;
        }
        let cells: Vec<usize> = self.board.cells_with(stone, Threat::OpenFour).collect();
        cells.into_iter().find(|&i| self.legal(i, stone))
    }

    /// Forced moves and proven wins at the root, before any tree search.
    fn root_shortcuts(&mut self) -> Option<SearchResult> {
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
            let budget = (self.params.vcf_nodes as u64).min(self.ctl.node_limit / 4);
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
            let budget = (self.params.vct_nodes as u64).min(self.ctl.node_limit / 16);
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

    fn check_stop(&mut self) -> bool {
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

    fn make(&mut self, idx: usize) {
        self.nodes += 1;
        self.board.make_idx(idx);
    }

    fn undo(&mut self) {
        self.board.undo();
    }

    /// Iterative deepening with aspiration windows.
    fn iterate(&mut self, on_info: &mut Option<&mut dyn FnMut(&Info)>) -> SearchResult {
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

    fn flush_nodes(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.ctl.shared_nodes.fetch_add(delta, Ordering::Relaxed);
    }

    fn total_nodes(&self) -> u64 {
        if self.ctl.threads == 1 {
            self.nodes
        } else {
            self.ctl.shared_nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
        }
    }

    fn pv_line(&self) -> Vec<Pos> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|&m| pos_of(m as usize))
            .collect()
    }

    /// Searches the root moves, reordering them by score; returns the best score and move.
    fn root_search(
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
                score = -self.negamax(depth - 1, -beta, -alpha, 1);
            } else {
                score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, -beta, -alpha, 1);
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

    fn update_pv(&mut self, ply: usize, m: usize) {
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

    /// Threat checks shared by the main search and quiescence. `Some(score)` ends the node.
    #[inline]
    fn threat_cutoff(&mut self, ply: usize) -> Option<i32> {
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

    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
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
        // A single forced block of the opponent's four: play it without spending depth.
        if self.board.threat_count(op, Threat::Five) == 1 {
            let block = self.find(op, Threat::Five).expect("counted");
            if !self.legal(block, me) {
                return -(MATE - ply as i32 - 2);
            }
            self.make(block);
            let ext = self.params.ext_four;
            let score = -self.negamax(depth - 1 + ext, -beta, -alpha, ply + 1);
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
        movegen::generate(self, &mut list, tt_move, ply);
        let best = self.search_moves(&list, depth, alpha, beta, ply, pv_node, key);
        self.lists[ply] = list;
        best
    }

    /// The move loop of [`Worker::negamax`] over a generated list.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        list: &MoveList,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        key: u64,
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
        let cap = self.params.cand_cap as usize;
        for i in 0..list.len() {
            if i >= cap && best > -MATE_BOUND {
                break;
            }
            let (m, _) = list.get(i);
            let forcing = self.board.threat_idx(m, me.index()).is_four()
                || self.board.threat_idx(m, op.index()) >= Threat::Four;
            self.make(m);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
            } else {
                let mut r = 0;
                if depth >= 3 && i >= self.params.lmr_moves as usize && !forcing {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
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
                        for j in 0..i {
                            let (q, _) = list.get(j);
                            let h = &mut self.history[me.index()][q];
                            *h -= bonus + *h * bonus / 16384;
                        }
                        break;
                    }
                }
            }
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

    /// Past the horizon: stand pat on the evaluation, or continue with own fours (VCF).
    ///
    /// Only `attacker` (the side to move at the horizon) makes fours; after its first four,
    /// only fours on the lines through its previous four (`last`) are tried, which is where
    /// new fours appear. The defender blocks when it must and otherwise stands pat.
    fn quiesce(
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
        movegen::fours(self, &mut list, last);
        let best = self.quiesce_moves(&list, best, alpha, beta, ply, qdepth, attacker);
        self.lists[ply] = list;
        best
    }

    /// The move loop of [`Worker::quiesce`].
    #[allow(clippy::too_many_arguments)]
    fn quiesce_moves(
        &mut self,
        list: &MoveList,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        attacker: Stone,
    ) -> i32 {
        for i in 0..list.len() {
            let (m, _) = list.get(i);
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

/// Convenience: a fresh single-threaded engine with default parameters searches `board`.
pub fn search_once(board: &Board, params: &Params, limits: &Limits) -> SearchResult {
    Engine::new(params.clone(), 16, 1).search(board, limits, None)
}

#[cfg(test)]
mod tests {
    use super::*;

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
