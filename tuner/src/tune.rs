//! The SPSA loop, one for every tune: it takes the next iteration from a [`Store`], plays its
//! game pairs in parallel ([`Games`]) and hands the step back to the store, which applies it
//! to the state it keeps. [`tune`] runs it on a [`LocalStore`] (one process, resumable from
//! its checkpoint); [`crate::shared::work`] runs it on a shared folder.
//!
//! Iteration `k` draws its perturbation from [`Spsa::perturb`] (a function of the seed, `k`
//! and theta), then plays pairs `first_pair(k) ..` of the tune (see [`crate::play`]). The
//! configuration is written to `tune.json` when the tune starts. After each update, the row
//! of `history.csv` is appended and flushed, then the checkpoint `state.json` (iteration,
//! theta, totals) is replaced atomically (temporary file + rename).
//!
//! [`Spsa::perturb`]: crate::spsa::Spsa::perturb

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::setting::Setting;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::history::IterationRecord;
use crate::play::Games;
use crate::state::Totals;
use crate::store::local::LocalStore;
use crate::store::{Store, Turn};

// A tune folder's files, at the path they had before they got a module of their own.
pub use crate::folder::{
    load_config, CONFIG_FILE, HISTORY_FILE, START_FILE, STATE_FILE, TUNED_FILE,
};

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
    /// The starting setting.
    pub start: Setting,
    /// The tuned setting (theta rounded).
    pub tuned: Setting,
    /// Games played in this session.
    pub games_played: u64,
    /// Wall time of this session.
    pub elapsed: Duration,
    /// Skip the verification match: asked for now or when the tune started.
    pub no_verify: bool,
}

/// How a run of the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The store had no iteration left for this session.
    Done,
    /// A signal stopped it: the games of the iteration in progress were dropped, and the
    /// store's state is that after the last completed one.
    Interrupted,
}

/// Runs the SPSA loop on `store` until it has no iteration left or a signal stops it, playing
/// `concurrency` pairs at once. `observer` sees the state after each step applied; `started`
/// is when the session started (for its elapsed time), `games_played` counts the games this
/// session applied.
pub fn drive(
    config: &TuneConfig,
    store: &mut impl Store,
    concurrency: usize,
    started: Instant,
    games_played: &mut u64,
    observer: &mut dyn FnMut(&TuneProgress<'_>),
) -> Result<Ended> {
    let games = Games::new(config, concurrency)?;
    loop {
        let assignment = match store.claim()? {
            Turn::Play(a) => a,
            Turn::Done => return Ok(Ended::Done),
            Turn::Stop => return Ok(Ended::Interrupted),
        };
        let played = store.playing(&assignment, || {
            games.iteration(config, &assignment.theta, assignment.iteration)
        });
        let (pert, batch) = match played {
            // The iteration's games are dropped; the state stays at the last completed one.
            Err(TuneError::Interrupted) => return Ok(Ended::Interrupted),
            other => other?,
        };
        if let Some(applied) = store.record(&assignment, &pert, &batch)? {
            *games_played += applied.record.games();
            observer(&TuneProgress {
                config,
                iteration: applied.state.iteration,
                theta: &applied.state.theta,
                last: Some(&applied.record),
                totals: &applied.state.totals,
                games_done: applied.state.totals.games(),
                games_total: config.pairs * 2,
                games_played: *games_played,
                elapsed: started.elapsed(),
            });
        }
    }
}

/// Runs (or continues) a tune on one machine. `observer` is called before the first
/// iteration and after every iteration, on the calling thread.
pub fn tune(
    config: &TuneConfig,
    opts: &TuneOptions,
    observer: &mut dyn FnMut(&TuneProgress<'_>),
) -> Result<TuneOutcome> {
    config.validate()?;
    let started = Instant::now();
    let mut store = LocalStore::open(
        config,
        opts.out.as_deref(),
        opts.resume,
        opts.max_iterations,
        opts.no_verify,
    )?;
    let resumed_from = store.resumed_from();
    let mut games_played = 0u64;
    let state = store.state();
    observer(&TuneProgress {
        config,
        iteration: resumed_from,
        theta: &state.theta,
        last: None,
        totals: &state.totals,
        games_done: state.totals.games(),
        games_total: config.pairs * 2,
        games_played,
        elapsed: started.elapsed(),
    });
    wuzi_arena::interrupt::games_started();
    let ended = drive(
        config,
        &mut store,
        opts.concurrency,
        started,
        &mut games_played,
        observer,
    )?;
    let (state, history) = store.close()?;
    let tuned = config.setting_at(&state.theta)?;
    Ok(TuneOutcome {
        theta: state.theta,
        iterations_done: state.iteration,
        completed: state.iteration == config.iterations(),
        interrupted: ended == Ended::Interrupted,
        resumed_from,
        history,
        totals: state.totals,
        start: config.start_setting()?,
        tuned,
        games_played,
        elapsed: started.elapsed(),
        no_verify: state.no_verify,
    })
}
