//! The tune's state: how far the SPSA has come (iterations applied, theta, engine+'s
//! results). Both stores keep it and write it to `state.json` after every step; the shared
//! store also carries it in `shared.json` beside its claims.

use std::path::Path;

use serde::{Deserialize, Serialize};
use wuzi_arena::stats::Penta;

use crate::config::{TuneConfig, FORMAT_VERSION};
use crate::error::{Result, TuneError};
use crate::folder::{read_json, write_json};
use crate::history::IterationRecord;
use crate::spsa::{Moments, Perturbation};

/// Engine+'s results over the iterations played so far (or over one iteration's games).
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

    /// Adds the results of `other`.
    pub fn add(&mut self, other: &Totals) {
        for (t, p) in self.penta.counts.iter_mut().zip(other.penta.counts) {
            *t += p;
        }
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Checks that a state file's progress could have been reached by the tune of `config`: every
/// value of `theta` lies in its parameter's range (SPSA keeps it there; the engine would
/// silently clamp it), and `totals` counts exactly `pairs` pairs (those of the iterations
/// applied), two games each, with points that agree with the pair counts. The error says what
/// does not hold: a hand-edited file that passes is a tune that could have happened.
pub fn check_progress(
    config: &TuneConfig,
    theta: &[f64],
    totals: &Totals,
    pairs: u64,
) -> std::result::Result<(), String> {
    for (p, v) in config.spsa.params.iter().zip(theta) {
        if !(p.min..=p.max).contains(v) {
            return Err(format!(
                "{} = {v} is outside its range {}..={}",
                p.name, p.min, p.max
            ));
        }
    }
    let c = totals.penta.counts;
    let counted = c.iter().try_fold(0u64, |a, &n| a.checked_add(n));
    // Half-points per pair: LL 0, LD 1, WL or DD 2, WD 3, WW 4.
    let points = c
        .iter()
        .zip(0u64..)
        .try_fold(0u64, |a, (&n, w)| a.checked_add(n.checked_mul(w)?));
    let games = totals
        .wins
        .checked_add(totals.draws)
        .and_then(|g| g.checked_add(totals.losses));
    let won = totals
        .wins
        .checked_mul(2)
        .and_then(|w| w.checked_add(totals.draws));
    if counted != Some(pairs) || games != Some(2 * pairs) || won != points {
        return Err(format!(
            "results of {} games (pairs {:?}) where the iterations applied play {pairs} pairs",
            totals.wins as u128 + totals.draws as u128 + totals.losses as u128,
            c
        ));
    }
    Ok(())
}

/// The state of a tune, as the checkpoint `state.json` holds it; the configuration it belongs
/// to is in `tune.json` ([`crate::folder::load_config`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// Layout version.
    pub format: u32,
    /// Iterations completed (steps applied).
    pub iteration: u64,
    /// Theta after the last completed iteration.
    pub theta: Vec<f64>,
    /// Engine+'s results so far.
    pub totals: Totals,
    /// The tune was started (or resumed) with `--no-verify`: a resume, which may not repeat
    /// the flag, skips the verification match too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_verify: bool,
    /// Adam's moments (the adam schedule); absent for fishtest's, so its checkpoints keep
    /// their layout.
    #[serde(default, skip_serializing_if = "Moments::is_empty")]
    pub moments: Moments,
}

impl TuneState {
    /// The state of a tune of `config` before its first iteration.
    pub fn start(config: &TuneConfig, no_verify: bool) -> TuneState {
        TuneState {
            format: FORMAT_VERSION,
            iteration: 0,
            theta: config.spsa.start_theta(),
            totals: Totals::default(),
            no_verify,
            moments: Moments::default(),
        }
    }

    /// Reads a checkpoint of a tune of `config`.
    pub fn load(path: &Path, config: &TuneConfig) -> Result<TuneState> {
        let cp: TuneState = read_json(path)?;
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
            || !cp.moments.fit(
                config.spsa.schedule.method,
                cp.iteration,
                config.spsa.params.len(),
            )
        {
            return Err(TuneError::State(format!(
                "{}: inconsistent checkpoint (iteration {} of {}, {} values for {} parameters, \
                 or moments that do not fit the schedule)",
                path.display(),
                cp.iteration,
                config.iterations(),
                cp.theta.len(),
                config.spsa.params.len()
            )));
        }
        // A one-machine tune applies its iterations in order.
        let pairs = config
            .pairs
            .min(cp.iteration.saturating_mul(config.pairs_per_iteration));
        check_progress(config, &cp.theta, &cp.totals, pairs).map_err(|m| {
            TuneError::State(format!("{}: {m}; the file is damaged", path.display()))
        })?;
        Ok(cp)
    }

    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_json(path, self)
    }

    /// Applies the SPSA step of iteration `k` (perturbation `pert`, engine+'s results
    /// `batch`) to the current theta, counts the results, and returns the history row.
    pub fn step(
        &mut self,
        config: &TuneConfig,
        k: u64,
        pert: &Perturbation,
        batch: &Totals,
    ) -> Result<IterationRecord> {
        self.theta = config.spsa.step(
            &self.theta,
            &mut self.moments,
            pert,
            batch.wins,
            batch.losses,
        )?;
        self.totals.add(batch);
        self.iteration += 1;
        Ok(IterationRecord {
            iteration: k,
            theta: self.theta.clone(),
            c_k: pert.c_k.clone(),
            a_k: pert.a_k.clone(),
            plus: pert.plus.clone(),
            minus: pert.minus.clone(),
            wins: batch.wins,
            draws: batch.draws,
            losses: batch.losses,
        })
    }
}
