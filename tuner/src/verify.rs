//! Verification: a match of the tuned set against the starting set, played by the arena's
//! runner ([`wuzi_arena::run`]), so it gets the arena's records (`games.jsonl`), resume,
//! summary (`summary.json`) and statistics (pentanomial Elo interval, SPRT).

use std::path::{Path, PathBuf};

use wuzi_arena::config::RunConfig;
use wuzi_arena::run::{run, Progress, RunOptions, RunOutcome};
use wuzi_arena::stats::Estimate;
use wuzi_engine::Params;

use crate::setting::Setting;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::folder::{load_config, STATE_FILE, TUNED_FILE};
use crate::state::TuneState;

pub use crate::config::{START, TUNED};

/// Default directory of the verification match inside a tune directory.
pub const VERIFY_DIR: &str = "verify";

/// The verification match: `tuned` (first) against `start`, with the tune's board, rule and
/// limits and the verification's openings (default: the tune's), pairs, seed and SPRT.
///
/// Under node or depth limits a game is a function of its opening and the two parameter sets,
/// so pairs beyond the number of openings replay the same games: their results are not new
/// evidence and the Elo interval is then too narrow. Give the match at least as many openings
/// as pairs ([`repeats_openings`]).
pub fn verify_config(config: &TuneConfig, tuned: &Setting, start: &Setting) -> Result<RunConfig> {
    Ok(config.verification(tuned, start))
}

/// The result of a verification match.
#[derive(Clone, Debug)]
pub struct VerifyOutcome {
    /// The arena's outcome (summary with timing).
    pub run: RunOutcome,
    /// Logistic Elo of tuned against start with its 95% interval.
    pub elo: Option<Estimate>,
    /// The match's directory, when it was recorded.
    pub dir: Option<PathBuf>,
}

/// Plays (or continues) the verification match of `tuned` against `start`. With `out`, the
/// arena's files go there and a match already recorded with the same settings is continued.
pub fn verify(
    config: &TuneConfig,
    tuned: &Setting,
    start: &Setting,
    concurrency: usize,
    out: Option<&Path>,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<VerifyOutcome> {
    let run_config = verify_config(config, tuned, start)?;
    let opts = RunOptions {
        concurrency: concurrency.max(1),
        out: out.map(Path::to_path_buf),
        resume: true,
    };
    let outcome = run(&run_config, &opts, observer)?;
    let elo = outcome.summary.matchups.first().and_then(|m| m.elo);
    Ok(VerifyOutcome {
        run: outcome,
        elo,
        dir: out.map(Path::to_path_buf),
    })
}

/// A tune directory's contents, as the verification needs them.
#[derive(Clone, Debug)]
pub struct LoadedTune {
    /// The tune's configuration.
    pub config: TuneConfig,
    /// The starting setting.
    pub start: Setting,
    /// The tuned setting (`tuned.toml` for the engine, else theta rounded).
    pub tuned: Setting,
    /// Iterations completed.
    pub iteration: u64,
}

/// The configuration, starting set and tuned set of the tune in `dir` (from `tune.json`, the
/// checkpoint and `tuned.toml`).
pub fn load_tune(dir: &Path) -> Result<LoadedTune> {
    let config = load_config(dir)?;
    let cp = TuneState::load(&dir.join(STATE_FILE), &config)?;
    let start = config.start_setting()?;
    let tuned_path = dir.join(TUNED_FILE);
    // An engine's `tuned.toml` may have been edited by hand; a brain's values come from theta.
    let tuned = if tuned_path.exists() && config.engine.is_none() {
        Setting::Engine(
            Params::load(&tuned_path).map_err(|error| TuneError::ParamFile {
                path: tuned_path,
                error,
            })?,
        )
    } else {
        config.setting_at(&cp.theta)?
    };
    Ok(LoadedTune {
        config,
        start,
        tuned,
        iteration: cp.iteration,
    })
}

/// Does the verification play some openings more than once with reproducible games (more
/// pairs than openings under node or depth limits)? Its Elo interval would be too narrow.
pub fn repeats_openings(config: &TuneConfig) -> bool {
    let n = config
        .verify
        .openings
        .as_ref()
        .map_or(config.openings.len(), |o| o.list.len()) as u64;
    config.verify.pairs > n && config.limits.is_deterministic()
}
