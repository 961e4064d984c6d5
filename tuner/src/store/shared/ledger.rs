//! The ledger of a shared tune (`shared.json`): the iterations claimed, given up and still to
//! hand out, beside the tune's state.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::{TuneConfig, FORMAT_VERSION};
use crate::error::{Result, TuneError};
use crate::folder::write_json;
use crate::lock::now_ms;
use crate::spsa::Moments;
use crate::state::{Totals, TuneState};

use super::binary::BinaryId;

/// An iteration being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// Iteration number (1-based).
    pub iteration: u64,
    /// The worker playing it.
    pub worker: String,
    /// This claim (a worker's late result is accepted only while its claim stands).
    pub token: u64,
    /// When it was claimed (Unix ms).
    pub claimed_ms: u64,
    /// The claim is given up after this time unless renewed (Unix ms).
    pub lease_until_ms: u64,
}

/// A claim given up because its worker stopped renewing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abandoned {
    /// Iteration number.
    pub iteration: u64,
    /// The worker that vanished.
    pub worker: String,
    /// When it had claimed it (Unix ms).
    pub claimed_ms: u64,
    /// When it was given up (Unix ms).
    pub given_up_ms: u64,
    /// The worker that gave it up.
    pub given_up_by: String,
}

/// The state of a shared tune (`shared.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedState {
    /// Layout version.
    pub format: u32,
    /// The program the tune was started with.
    pub binary: BinaryId,
    /// The next iteration never claimed (1-based).
    pub next: u64,
    /// Iterations given up, to be claimed again (lowest first).
    pub requeued: Vec<u64>,
    /// Iterations being played.
    pub claims: Vec<Claim>,
    /// Steps applied.
    pub applied: u64,
    /// Theta after the steps applied so far.
    pub theta: Vec<f64>,
    /// Engine+'s results over the applied iterations.
    pub totals: Totals,
    /// Length in bytes of the committed part of `history.csv` (a row written by a worker that
    /// failed before replacing this file is cut off by the next).
    pub history_len: u64,
    /// Claims given up.
    pub abandoned: Vec<Abandoned>,
    /// Results that arrived after their claim was given up (not applied).
    pub discarded: u64,
    /// The worker that applied the last step (and verifies).
    pub finished_by: Option<String>,
    /// Adam's moments after the steps applied so far (the adam schedule; absent for
    /// fishtest's).
    #[serde(default, skip_serializing_if = "Moments::is_empty")]
    pub moments: Moments,
}

impl SharedState {
    /// Reads and checks `shared.json` for `config`; any damage is an error naming the file.
    pub fn load(path: &Path, config: &TuneConfig) -> Result<SharedState> {
        let text = std::fs::read_to_string(path).map_err(|e| TuneError::io(path, e))?;
        let s: SharedState = serde_json::from_str(&text).map_err(|error| TuneError::Json {
            path: path.to_path_buf(),
            error,
        })?;
        let n = config.iterations();
        if s.format != FORMAT_VERSION
            || s.theta.len() != config.spsa.params.len()
            || s.theta.iter().any(|v| !v.is_finite())
            || !s.moments.fit(
                config.spsa.schedule.method,
                s.applied,
                config.spsa.params.len(),
            )
            || s.applied > n
            || s.next == 0
            || s.next > n + 1
            || s.requeued.iter().any(|&k| k == 0 || k >= s.next)
            || s.claims
                .iter()
                .any(|c| c.iteration == 0 || c.iteration >= s.next)
        {
            return Err(TuneError::State(format!(
                "{}: inconsistent shared state (format {}, {} values for {} parameters, \
                 {} of {n} steps applied, next iteration {}); the file is damaged",
                path.display(),
                s.format,
                s.theta.len(),
                config.spsa.params.len(),
                s.applied,
                s.next
            )));
        }
        // Every iteration before `next` is applied, claimed or given up and waiting: the
        // applied ones are what the totals count.
        let damaged =
            |m: String| TuneError::State(format!("{}: {m}; the file is damaged", path.display()));
        let open: std::collections::BTreeSet<u64> = s
            .claims
            .iter()
            .map(|c| c.iteration)
            .chain(s.requeued.iter().copied())
            .collect();
        if open.len() != s.claims.len() + s.requeued.len()
            || s.applied + open.len() as u64 != s.next - 1
        {
            return Err(damaged(format!(
                "{} steps applied, {} iterations claimed or given up, next iteration {}",
                s.applied,
                open.len(),
                s.next
            )));
        }
        let before_next = config
            .pairs
            .min((s.next - 1).saturating_mul(config.pairs_per_iteration));
        let open_pairs: u64 = open.iter().map(|&k| config.pairs_in_iteration(k)).sum();
        crate::state::check_progress(config, &s.theta, &s.totals, before_next - open_pairs)
            .map_err(damaged)?;
        Ok(s)
    }

    /// Replaces `shared.json` atomically (temporary file, fsync, rename).
    pub fn save(&self, path: &Path) -> Result<()> {
        write_json(path, self)
    }

    /// The tune's state that this file carries (as `state.json` holds it).
    pub fn tune_state(&self) -> TuneState {
        TuneState {
            format: FORMAT_VERSION,
            iteration: self.applied,
            theta: self.theta.clone(),
            totals: self.totals.clone(),
            no_verify: false,
            moments: self.moments.clone(),
        }
    }

    /// Takes the tune's state after a step: steps applied, theta and totals.
    pub fn set_tune_state(&mut self, state: TuneState) {
        self.applied = state.iteration;
        self.theta = state.theta;
        self.totals = state.totals;
        self.moments = state.moments;
    }

    /// Extends every claim's lease to at least `until_ms`; returns how many it extended.
    /// For a worker that waited for the lock longer than half a lease: the other workers'
    /// renewals were blocked as long, so their leases say nothing about whether they live.
    pub fn extend_leases(&mut self, until_ms: u64) -> usize {
        let mut n = 0;
        for c in &mut self.claims {
            if c.lease_until_ms < until_ms {
                c.lease_until_ms = until_ms;
                n += 1;
            }
        }
        n
    }

    /// Gives up the claims whose lease ran out (for worker `me`); returns whether there
    /// were any.
    pub fn give_up_expired(&mut self, me: &str) -> bool {
        let now = now_ms();
        let (expired, kept): (Vec<Claim>, Vec<Claim>) =
            self.claims.drain(..).partition(|c| c.lease_until_ms < now);
        self.claims = kept;
        let any = !expired.is_empty();
        for c in expired {
            eprintln!(
                "worker {me}: iteration {} claimed by {} was not renewed for its lease: given up, \
                 to be played again",
                c.iteration, c.worker
            );
            self.requeued.push(c.iteration);
            self.abandoned.push(Abandoned {
                iteration: c.iteration,
                worker: c.worker,
                claimed_ms: c.claimed_ms,
                given_up_ms: now,
                given_up_by: me.to_string(),
            });
        }
        self.requeued.sort_unstable();
        any
    }
}
