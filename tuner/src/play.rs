//! The games of an iteration: pair `g` of a tune uses opening [`opening_index`]`(g)`; game 0
//! gives engine+ black, game 1 gives engine- black. Each pair is a pure function of the
//! configuration, the two parameter sets and `g` (node or depth limits, one thread), and the
//! results are counted in pair order, so a tune does not depend on how many pairs run at once.
//!
//! An external brain (`[engine]` of the spec) plays as the arena's external player, built
//! afresh for every pair with the values of engine+ or engine- in its parameter channel; a
//! brain that refuses a parameter stops the tune ([`TuneError::Rejected`]).

use std::sync::Mutex;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use wuzi_arena::config::mix64;
use wuzi_arena::player::PlayerSpec;
use wuzi_arena::player::{GameStart, MoveReply, MoveRequest, Player, PlayerError};
use wuzi_arena::referee::play_game_unless;
use wuzi_arena::stats::Outcome;
use wuzi_arena::{ArenaError, PlayerLimits};
use wuzi_engine::{Engine, Limits, Params, Stone};

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::spsa::Perturbation;
use crate::state::Totals;

/// The players of a tune's games: a pool of threads that plays pairs at once, and the engines
/// they reuse.
pub struct Games {
    pool: rayon::ThreadPool,
    engines: EnginePool,
}

impl Games {
    /// `concurrency` pairs at once with the engines of `config`.
    pub fn new(config: &TuneConfig, concurrency: usize) -> Result<Games> {
        let concurrency = concurrency.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(concurrency)
            .stack_size(64 << 20)
            .thread_name(|i| format!("tune-{i}"))
            .build()
            .map_err(|e| TuneError::State(format!("cannot start {concurrency} workers: {e}")))?;
        Ok(Games {
            pool,
            engines: EnginePool::new(config),
        })
    }

    /// Plays iteration `k` around `theta`: draws its perturbation, plays its pairs of engine+
    /// against engine-, and returns the perturbation with engine+'s results.
    pub fn iteration(
        &self,
        config: &TuneConfig,
        theta: &[f64],
        k: u64,
    ) -> Result<(Perturbation, Totals)> {
        let pert = config.spsa.perturb(theta, k)?;
        let (first, n) = (config.first_pair(k), config.pairs_in_iteration(k));
        let counts = if config.engine.is_some() {
            let plus = config.player("engine+", &config.setting_at(&pert.plus)?);
            let minus = config.player("engine-", &config.setting_at(&pert.minus)?);
            play_batch(&self.pool, first, n, &|g| {
                play_brain_pair(config, &plus, &minus, g)
            })?
        } else {
            let plus = config.params_at(&pert.plus)?;
            let minus = config.params_at(&pert.minus)?;
            let engines = &self.engines;
            play_batch(&self.pool, first, n, &|g| {
                play_pair(config, &plus, &minus, g, engines)
            })?
        };
        Ok((pert, counts))
    }
}

/// Which opening pair `g` of a tune plays: the openings in a seeded order, a fresh shuffle
/// each time the list is used up (as the arena's random order).
pub fn opening_index(config: &TuneConfig, g: u64) -> usize {
    let n = config.openings.len().max(1);
    let cycle = g / n as u64;
    let mut perm: Vec<usize> = (0..n).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(mix64(config.spsa.seed ^ mix64(!cycle)));
    for i in (1..n).rev() {
        perm.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    perm[(g % n as u64) as usize]
}

/// The seed handed to the players of game `game` of pair `g` (the arena's formula).
pub fn game_seed(seed: u64, g: u64, game: u8) -> u64 {
    mix64(seed ^ mix64(g.wrapping_mul(2).wrapping_add(u64::from(game))))
}

/// An engine as a player: like the arena's `EnginePlayer`, but borrowing an engine from the
/// pool so hash tables are allocated once per worker, not once per pair.
struct PoolPlayer<'a> {
    name: &'static str,
    engine: &'a mut Engine,
    limits: &'a PlayerLimits,
}

impl Player for PoolPlayer<'_> {
    fn name(&self) -> &str {
        self.name
    }

    fn new_game(&mut self, _start: &GameStart) -> std::result::Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> std::result::Result<MoveReply, PlayerError> {
        let limits = Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            time_ms: self.limits.move_ms,
            clock: request.clock.filter(|_| self.limits.game_ms.is_some()),
        };
        let r = self.engine.search(request.board, &limits, None);
        Ok(MoveReply {
            mv: r.best,
            nodes: Some(r.nodes),
            depth: Some(r.depth),
            score: Some(r.score),
        })
    }
}

/// Engines kept between pairs: a worker takes two, sets their parameters (which clears their
/// tables) and gives them back. A game never depends on an engine's earlier games: the
/// referee starts every game with `new_game`, which clears the table.
struct EnginePool {
    free: Mutex<Vec<Engine>>,
    hash_mb: usize,
    threads: usize,
}

impl EnginePool {
    /// An empty pool for the engines of `config`.
    fn new(config: &TuneConfig) -> EnginePool {
        EnginePool {
            free: Mutex::new(Vec::new()),
            hash_mb: config.limits.hash_mb,
            threads: config.limits.threads,
        }
    }

    fn take(&self, params: &Params) -> Engine {
        let popped = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match popped {
            Some(mut e) => {
                e.set_params(params.clone());
                e
            }
            None => Engine::new(params.clone(), self.hash_mb, self.threads),
        }
    }

    fn give(&self, engine: Engine) {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
    }
}

/// Plays pair `g`: engine+ (`plus`) has black in game 0, engine- in game 1. Returns both
/// results from engine+'s side.
fn play_pair(
    config: &TuneConfig,
    plus: &Params,
    minus: &Params,
    g: u64,
    pool: &EnginePool,
) -> Result<[Outcome; 2]> {
    let mut e_plus = pool.take(plus);
    let mut e_minus = pool.take(minus);
    let mut p = PoolPlayer {
        name: "engine+",
        engine: &mut e_plus,
        limits: &config.limits,
    };
    let mut m = PoolPlayer {
        name: "engine-",
        engine: &mut e_minus,
        limits: &config.limits,
    };
    let out = play_two(config, g, &mut p, &mut m);
    pool.give(e_plus);
    pool.give(e_minus);
    out
}

/// [`play_pair`] for an external brain: `plus` and `minus` are its players with the values
/// of engine+ and engine-, started for this pair (and ended with it).
fn play_brain_pair(
    config: &TuneConfig,
    plus: &PlayerSpec,
    minus: &PlayerSpec,
    g: u64,
) -> Result<[Outcome; 2]> {
    let mut p = plus.build().map_err(ArenaError::from)?;
    let mut m = minus.build().map_err(ArenaError::from)?;
    play_two(config, g, p.as_mut(), m.as_mut())
}

/// The two games of pair `g` between engine+ (`p`) and engine- (`m`), from engine+'s side.
fn play_two(
    config: &TuneConfig,
    g: u64,
    p: &mut dyn Player,
    m: &mut dyn Player,
) -> Result<[Outcome; 2]> {
    let opening = &config.openings[opening_index(config, g)];
    let mut out = [Outcome::Draw; 2];
    for game in 0..2u8 {
        let (players, plus_colour): ([&mut dyn Player; 2], Stone) = if game == 0 {
            ([&mut *p, &mut *m], Stone::Black)
        } else {
            ([&mut *m, &mut *p], Stone::White)
        };
        let seed = game_seed(config.spsa.seed, g, game);
        let r = match play_game_unless(
            &config.game,
            &opening.moves,
            players,
            [&config.limits, &config.limits],
            seed,
            &wuzi_arena::interrupt::requested,
        )? {
            None => return Err(TuneError::Interrupted),
            Some(r) => r,
        };
        if let Some(why) = r.reports.iter().find_map(|rep| rep.rejected.as_ref()) {
            return Err(TuneError::Rejected(why.clone()));
        }
        out[usize::from(game)] = match r.winner {
            None => Outcome::Draw,
            Some(w) if w == plus_colour => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
    }
    Ok(out)
}

/// Plays pairs `first .. first + n` on `pool` (`pair(g)` plays pair `g`) and counts them in
/// pair order: engine+'s wins, draws, losses and pair counts.
fn play_batch(
    pool: &rayon::ThreadPool,
    first: u64,
    n: u64,
    pair: &(dyn Fn(u64) -> Result<[Outcome; 2]> + Sync),
) -> Result<Totals> {
    let results: Vec<Result<[Outcome; 2]>> =
        pool.install(|| (0..n).into_par_iter().map(|j| pair(first + j)).collect());
    let mut counts = Totals::default();
    for r in results {
        let pair = r?;
        for o in pair {
            match o {
                Outcome::Win => counts.wins += 1,
                Outcome::Draw => counts.draws += 1,
                Outcome::Loss => counts.losses += 1,
            }
        }
        counts.penta.add_pair(pair[0], pair[1]);
    }
    Ok(counts)
}
