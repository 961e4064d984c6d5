//! The SPSA tuning loop: plays each iteration's game pairs in parallel, updates theta, and
//! keeps a checkpoint so an interrupted tune resumes exactly.
//!
//! Iteration `k` draws its perturbation from [`Spsa::perturb`] (a function of the seed, `k`
//! and theta), then plays pairs `first_pair(k) ..` of the tune: pair `g` uses opening
//! [`opening_index`]`(g)`; game 0 gives engine+ black, game 1 gives engine- black. Each pair
//! is a pure function of the configuration, theta and `g` (node or depth limits, one thread),
//! and the results are counted in pair order, so the tune does not depend on how many pairs
//! run at once. The configuration is written to `tune.json` when the tune starts. After each
//! update, the row of `history.csv` is appended and flushed, then the checkpoint `state.json`
//! (iteration, theta, totals) is replaced atomically (temporary file + rename). A tune resumed
//! from the checkpoint cuts the history to the checkpoint's iteration and continues with the
//! same theta, so it ends with the same values and the same history as an uninterrupted run.
//!
//! [`Spsa::perturb`]: crate::spsa::Spsa::perturb

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use wuzi_arena::config::mix64;
use wuzi_arena::player::{GameStart, MoveReply, MoveRequest, Player, PlayerError};
use wuzi_arena::referee::play_game_unless;
use wuzi_arena::stats::{Outcome, Penta};
use wuzi_arena::PlayerLimits;
use wuzi_engine::{Engine, Limits, Params, Stone};

use crate::error::{Result, TuneError};
use crate::history::{self, HistoryWriter, IterationRecord};
use crate::spec::{TuneConfig, FORMAT_VERSION};

/// The tune's configuration in a tune directory (written when the tune starts).
pub const CONFIG_FILE: &str = "tune.json";
/// Checkpoint file in a tune directory (replaced after every iteration).
pub const STATE_FILE: &str = "state.json";
/// History file in a tune directory.
pub const HISTORY_FILE: &str = "history.csv";
/// The tuned parameter set (updated after every iteration).
pub const TUNED_FILE: &str = "tuned.toml";
/// The starting parameter set.
pub const START_FILE: &str = "start.toml";

/// Engine+'s results over the iterations played so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Games won by engine+.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games lost by engine+.
    pub losses: u64,
    /// Pair counts of engine+ `[LL, LD, WL+DD, WD, WW]`.
    pub penta: Penta,
}

impl Totals {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Engine+'s mean score; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let g = self.games();
        (g > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / g as f64)
    }
}

/// The checkpoint written after every iteration (`state.json`); the configuration it belongs
/// to is in `tune.json` ([`load_config`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Layout version.
    pub format: u32,
    /// Iterations completed.
    pub iteration: u64,
    /// Theta after the last completed iteration.
    pub theta: Vec<f64>,
    /// Engine+'s results so far.
    pub totals: Totals,
    /// The tune was started (or resumed) with `--no-verify`: a resume, which may not repeat
    /// the flag, skips the verification match too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_verify: bool,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| TuneError::io(path, e))?;
    serde_json::from_str(&text).map_err(|error| TuneError::Json {
        path: path.to_path_buf(),
        error,
    })
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|error| TuneError::Json {
        path: path.to_path_buf(),
        error,
    })?;
    history::write_atomic(path, &(text + "\n"))
}

/// Reads and checks the configuration of the tune in `dir` (`tune.json`).
pub fn load_config(dir: &Path) -> Result<TuneConfig> {
    let path = dir.join(CONFIG_FILE);
    if !path.exists() {
        return Err(TuneError::State(format!(
            "{} holds no tune ({CONFIG_FILE} is missing)",
            dir.display()
        )));
    }
    let config: TuneConfig = read_json(&path)?;
    config
        .validate()
        .map_err(|e| TuneError::State(format!("{}: {e}", path.display())))?;
    Ok(config)
}

impl Checkpoint {
    /// Reads a checkpoint of a tune of `config`.
    pub fn load(path: &Path, config: &TuneConfig) -> Result<Checkpoint> {
        let cp: Checkpoint = read_json(path)?;
        if cp.format != FORMAT_VERSION {
            return Err(TuneError::State(format!(
                "{}: checkpoint format {} is not supported (expected {FORMAT_VERSION})",
                path.display(),
                cp.format
            )));
        }
        if cp.theta.len() != config.spsa.params.len()
            || cp.iteration > config.iterations()
            || cp.theta.iter().any(|v| !v.is_finite())
        {
            return Err(TuneError::State(format!(
                "{}: inconsistent checkpoint (iteration {} of {}, {} values for {} parameters)",
                path.display(),
                cp.iteration,
                config.iterations(),
                cp.theta.len(),
                config.spsa.params.len()
            )));
        }
        Ok(cp)
    }

    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_json(path, self)
    }
}

/// How to run a tune (what does not change its results).
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Pairs played at once.
    pub concurrency: usize,
    /// Directory for the checkpoint, history, parameter files and charts; `None` keeps
    /// nothing (no resume).
    pub out: Option<PathBuf>,
    /// Continue the tune checkpointed in `out` instead of refusing to overwrite it.
    pub resume: bool,
    /// Stop after this iteration (counted from the start of the tune, not of the session),
    /// leaving a checkpoint to resume from.
    pub max_iterations: Option<u64>,
    /// No verification match after the tune; kept in the checkpoint, so a resume of a tune
    /// started with it skips the match too ([`TuneOutcome::no_verify`]).
    pub no_verify: bool,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            concurrency: wuzi_arena::run::default_concurrency(),
            out: None,
            resume: false,
            max_iterations: None,
            no_verify: false,
        }
    }
}

/// What the observer sees before the first iteration and after each one.
pub struct TuneProgress<'a> {
    /// The tune.
    pub config: &'a TuneConfig,
    /// Iterations completed.
    pub iteration: u64,
    /// Current theta.
    pub theta: &'a [f64],
    /// The iteration just completed (`None` for the first call).
    pub last: Option<&'a IterationRecord>,
    /// Engine+'s results so far.
    pub totals: &'a Totals,
    /// Games played in the tune so far (resumed ones included).
    pub games_done: u64,
    /// Games in the whole tune.
    pub games_total: u64,
    /// Games played in this session.
    pub games_played: u64,
    /// Time since the session started.
    pub elapsed: Duration,
}

/// The result of [`tune`].
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// Theta after the last completed iteration.
    pub theta: Vec<f64>,
    /// Iterations completed (resumed ones included).
    pub iterations_done: u64,
    /// Every planned iteration was played.
    pub completed: bool,
    /// A signal stopped the tune (see `wuzi_arena::interrupt`): the games of the iteration in
    /// progress were dropped, and the checkpoint resumes after the last completed one.
    pub interrupted: bool,
    /// Iterations completed before this session (from the checkpoint).
    pub resumed_from: u64,
    /// One record per completed iteration, from the first.
    pub history: Vec<IterationRecord>,
    /// Engine+'s results over the whole tune.
    pub totals: Totals,
    /// The starting parameter set.
    pub start: Params,
    /// The tuned parameter set (theta rounded).
    pub tuned: Params,
    /// Games played in this session.
    pub games_played: u64,
    /// Wall time of this session.
    pub elapsed: Duration,
    /// Skip the verification match: asked for now or when the tune started.
    pub no_verify: bool,
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
pub(crate) struct EnginePool {
    free: Mutex<Vec<Engine>>,
    hash_mb: usize,
    threads: usize,
}

impl EnginePool {
    /// An empty pool for the engines of `config`.
    pub(crate) fn new(config: &TuneConfig) -> EnginePool {
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
    let opening = &config.openings[opening_index(config, g)];
    let mut e_plus = pool.take(plus);
    let mut e_minus = pool.take(minus);
    let mut out = [Outcome::Draw; 2];
    let mut failure = None;
    let mut interrupted = false;
    for game in 0..2u8 {
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
        let (players, plus_colour): ([&mut dyn Player; 2], Stone) = if game == 0 {
            ([&mut p, &mut m], Stone::Black)
        } else {
            ([&mut m, &mut p], Stone::White)
        };
        let seed = game_seed(config.spsa.seed, g, game);
        match play_game_unless(
            &config.game,
            &opening.moves,
            players,
            [&config.limits, &config.limits],
            seed,
            &wuzi_arena::interrupt::requested,
        ) {
            Ok(None) => {
                interrupted = true;
                break;
            }
            Ok(Some(r)) => {
                out[usize::from(game)] = match r.winner {
                    None => Outcome::Draw,
                    Some(w) if w == plus_colour => Outcome::Win,
                    Some(_) => Outcome::Loss,
                };
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    pool.give(e_plus);
    pool.give(e_minus);
    match failure {
        Some(e) => Err(e.into()),
        None if interrupted => Err(TuneError::Interrupted),
        None => Ok(out),
    }
}

/// Plays pairs `first .. first + n` of engine+ (`plus`) against engine- (`minus`) on `pool`
/// and counts them in pair order: engine+'s wins, draws, losses and pair counts.
pub(crate) fn play_batch(
    config: &TuneConfig,
    pool: &rayon::ThreadPool,
    engines: &EnginePool,
    plus: &Params,
    minus: &Params,
    first: u64,
    n: u64,
) -> Result<(u64, u64, u64, Penta)> {
    let results: Vec<Result<[Outcome; 2]>> = pool.install(|| {
        (0..n)
            .into_par_iter()
            .map(|j| play_pair(config, plus, minus, first + j, engines))
            .collect()
    });
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let mut penta = Penta::default();
    for r in results {
        let pair = r?;
        for o in pair {
            match o {
                Outcome::Win => wins += 1,
                Outcome::Draw => draws += 1,
                Outcome::Loss => losses += 1,
            }
        }
        penta.add_pair(pair[0], pair[1]);
    }
    Ok((wins, draws, losses, penta))
}

/// The starting state of a tune in `opts.out`: fresh, or from its checkpoint.
struct Resumed {
    iteration: u64,
    theta: Vec<f64>,
    totals: Totals,
    history: Vec<IterationRecord>,
    writer: Option<HistoryWriter>,
    no_verify: bool,
}

fn open_dir(config: &TuneConfig, opts: &TuneOptions) -> Result<Resumed> {
    let mut state = Resumed {
        iteration: 0,
        theta: config.spsa.start_theta(),
        totals: Totals::default(),
        history: Vec::new(),
        writer: None,
        no_verify: opts.no_verify,
    };
    let Some(dir) = &opts.out else {
        return Ok(state);
    };
    std::fs::create_dir_all(dir).map_err(|e| TuneError::io(dir, e))?;
    let names: Vec<String> = config.spsa.params.iter().map(|p| p.name.clone()).collect();
    let state_path = dir.join(STATE_FILE);
    let history_path = dir.join(HISTORY_FILE);
    let config_path = dir.join(CONFIG_FILE);
    let shared_path = dir.join(crate::shared::SHARED_FILE);
    if shared_path.exists() {
        return Err(TuneError::State(format!(
            "{} belongs to a shared tune: run its workers with `wuzi-tune tune --spec SPEC \
             --out {} --shared`",
            shared_path.display(),
            dir.display()
        )));
    }
    if state_path.exists() {
        if !opts.resume {
            return Err(TuneError::State(format!(
                "{} already holds a tune: add --resume to continue it, or choose another --out",
                dir.display()
            )));
        }
        let old = load_config(dir)?;
        if let Some(what) = old.difference(config) {
            return Err(TuneError::State(format!(
                "{} holds a tune with different {what}; resume it with the same spec \
                 (or `wuzi-tune resume {}`), or choose another --out",
                dir.display(),
                dir.display()
            )));
        }
        let cp = Checkpoint::load(&state_path, config)?;
        let rows = history::load_and_cut(&history_path, &names, cp.iteration)?;
        if let Some(last) = rows.last() {
            if last.theta != cp.theta {
                return Err(TuneError::History {
                    path: history_path,
                    line: rows.len() + 1,
                    message: "theta differs from the checkpoint's".into(),
                });
            }
        }
        if old != *config {
            // Same tune, other descriptions or verification settings: keep the new ones.
            write_json(&config_path, config)?;
        }
        state.iteration = cp.iteration;
        state.theta = cp.theta;
        state.totals = cp.totals;
        state.no_verify = opts.no_verify || cp.no_verify;
        state.history = rows;
        state.writer = Some(HistoryWriter::append(&history_path)?);
    } else {
        write_json(&config_path, config)?;
        state.writer = Some(HistoryWriter::create(&history_path, &names)?);
        Checkpoint {
            format: FORMAT_VERSION,
            iteration: 0,
            theta: state.theta.clone(),
            totals: Totals::default(),
            no_verify: state.no_verify,
        }
        .save(&state_path)?;
    }
    let start = config.start_params()?;
    history::write_atomic(&dir.join(START_FILE), &param_file(&start, config, "start"))?;
    Ok(state)
}

/// A parameter file: a comment naming the tune, then [`Params::to_toml`].
pub fn param_file(params: &Params, config: &TuneConfig, what: &str) -> String {
    let names: Vec<&str> = config.spsa.params.iter().map(|p| p.name.as_str()).collect();
    format!(
        "# wuzi-tune {what} parameters ({}; base: {})\n\n{}",
        names.join(", "),
        config.base_source,
        params.to_toml()
    )
}

/// Runs (or continues) a tune. `observer` is called before the first iteration and after
/// every iteration, on the calling thread.
pub fn tune(
    config: &TuneConfig,
    opts: &TuneOptions,
    observer: &mut dyn FnMut(&TuneProgress<'_>),
) -> Result<TuneOutcome> {
    config.validate()?;
    let start_time = Instant::now();
    let spsa = &config.spsa;
    let Resumed {
        iteration: resumed_from,
        mut theta,
        mut totals,
        mut history,
        mut writer,
        no_verify,
    } = open_dir(config, opts)?;
    let total_iterations = config.iterations();
    let last = opts
        .max_iterations
        .map_or(total_iterations, |m| m.min(total_iterations));
    let games_total = config.pairs * 2;
    let mut games_played = 0u64;

    let concurrency = opts.concurrency.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .stack_size(64 << 20)
        .thread_name(|i| format!("tune-{i}"))
        .build()
        .map_err(|e| TuneError::State(format!("cannot start {concurrency} workers: {e}")))?;
    let engines = EnginePool::new(config);

    observer(&TuneProgress {
        config,
        iteration: resumed_from,
        theta: &theta,
        last: None,
        totals: &totals,
        games_done: totals.games(),
        games_total,
        games_played,
        elapsed: start_time.elapsed(),
    });

    let mut done = resumed_from;
    let mut interrupted = false;
    wuzi_arena::interrupt::games_started();
    for k in resumed_from + 1..=last {
        if wuzi_arena::interrupt::requested() {
            interrupted = true;
            break;
        }
        let pert = spsa.perturb(&theta, k)?;
        let plus = config.params_at(&pert.plus)?;
        let minus = config.params_at(&pert.minus)?;
        let played = play_batch(
            config,
            &pool,
            &engines,
            &plus,
            &minus,
            config.first_pair(k),
            config.pairs_in_iteration(k),
        );
        let (wins, draws, losses, penta) = match played {
            // The iteration's games are dropped; the checkpoint stays at k - 1.
            Err(TuneError::Interrupted) => {
                interrupted = true;
                break;
            }
            other => other?,
        };
        for (t, p) in totals.penta.counts.iter_mut().zip(penta.counts) {
            *t += p;
        }
        totals.wins += wins;
        totals.draws += draws;
        totals.losses += losses;
        games_played += wins + draws + losses;
        theta = spsa.update(&theta, &pert, wins, losses)?;
        let record = IterationRecord {
            iteration: k,
            theta: theta.clone(),
            c_k: pert.c_k,
            a_k: pert.a_k,
            plus: pert.plus,
            minus: pert.minus,
            wins,
            draws,
            losses,
        };
        if let (Some(dir), Some(w)) = (&opts.out, writer.as_mut()) {
            w.write(&record)?;
            Checkpoint {
                format: FORMAT_VERSION,
                iteration: k,
                theta: theta.clone(),
                totals: totals.clone(),
                no_verify,
            }
            .save(&dir.join(STATE_FILE))?;
            let tuned = config.params_at(&theta)?;
            history::write_atomic(&dir.join(TUNED_FILE), &param_file(&tuned, config, "tuned"))?;
        }
        history.push(record);
        done = k;
        observer(&TuneProgress {
            config,
            iteration: k,
            theta: &theta,
            last: history.last(),
            totals: &totals,
            games_done: totals.games(),
            games_total,
            games_played,
            elapsed: start_time.elapsed(),
        });
    }

    let tuned = config.params_at(&theta)?;
    if let Some(dir) = &opts.out {
        history::write_atomic(&dir.join(TUNED_FILE), &param_file(&tuned, config, "tuned"))?;
    }
    Ok(TuneOutcome {
        theta,
        iterations_done: done,
        completed: done == total_iterations,
        interrupted,
        resumed_from,
        history,
        totals,
        start: config.start_params()?,
        tuned,
        games_played,
        elapsed: start_time.elapsed(),
        no_verify,
    })
}
