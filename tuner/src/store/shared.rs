//! The shared store: one SPSA tune run by several worker processes (on one machine or many,
//! with a shared filesystem) pointed at one tune folder, asynchronous as fishtest runs its
//! SPSA.
//!
//! The first worker creates the tune (under the folder's lock, see [`crate::lock`]); the others
//! join after checking that their spec and engine are the same. A worker then loops:
//!
//! 1. under the lock: give up claims whose lease ran out (their worker vanished: the
//!    iteration is recorded in `abandoned` and handed out again), claim the lowest iteration
//!    given up or else the next one, and read the current theta;
//! 2. draw iteration `k`'s perturbation around that theta (a function of the seed, `k` and
//!    theta, as in a one-machine tune) and play its pairs, renewing the claim's lease
//!    meanwhile;
//! 3. under the lock: apply the step (fishtest's `a_k (W - L) delta / c_k`, or adam's, with the
//!    moments kept in `shared.json`) to the theta found *now*
//!    (other workers may have moved it meanwhile, as in fishtest), append the history row,
//!    replace `shared.json` (temporary file, fsync, rename) and refresh `state.json` and
//!    `tuned.toml`.
//!
//! A worker killed mid-batch loses only its batch: its claim expires after the lease and the
//! iteration is played again by another worker. A result arriving after its claim was given
//! up is discarded (counted in `discarded`). With one worker the claims come in order and
//! every step is applied to the theta it was drawn around, so the tune equals the one-machine
//! tune.

mod binary;
mod ledger;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::{TuneConfig, FORMAT_VERSION};
use crate::error::{Result, TuneError};
use crate::folder::{
    load_config, write_json, write_start, write_tuned, CONFIG_FILE, HISTORY_FILE, SHARED_FILE,
    STATE_FILE, WORKERS_DIR,
};
use crate::history::{self, HistoryWriter, IterationRecord};
use crate::lock::{now_ms, token, DirLock, LOCK_FILE};
use crate::spsa::Perturbation;
use crate::state::Totals;

pub use binary::BinaryId;
pub use ledger::{Abandoned, Claim, SharedState};
pub use worker::WorkerStats;

use super::{Applied, Assignment, Store, Turn};

/// How a worker runs (what does not change the tune's rules).
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The tune folder.
    pub dir: PathBuf,
    /// Pairs played at once by this worker.
    pub concurrency: usize,
    /// A claim not renewed for this long is given up (its worker is presumed dead).
    pub lease: Duration,
    /// A lock held this long belongs to a dead process and is taken over.
    pub stale_lock: Duration,
    /// How often a worker with nothing to claim looks again.
    pub poll: Duration,
}

impl WorkerOptions {
    /// Defaults for `dir`: a 120 s lease, 30 s stale locks, polling every second.
    pub fn new(dir: &Path, concurrency: usize) -> WorkerOptions {
        WorkerOptions {
            dir: dir.to_path_buf(),
            concurrency,
            lease: Duration::from_secs(120),
            stale_lock: Duration::from_secs(30),
            poll: Duration::from_secs(1),
        }
    }
}

/// The result of a worker's session ([`crate::shared::work`]).
#[derive(Clone, Debug)]
pub struct WorkerOutcome {
    /// This worker's name.
    pub worker: String,
    /// This worker applied the last step (it draws the charts and verifies).
    pub finisher: bool,
    /// The shared state when the worker stopped.
    pub state: SharedState,
    /// The committed history, in the order the steps were applied.
    pub history: Vec<IterationRecord>,
    /// This worker's figures.
    pub stats: WorkerStats,
}

/// What a worker found when it came to claim an iteration.
enum Claimed {
    /// This claim is now the worker's, with the theta to perturb around.
    Mine(Claim, Vec<f64>),
    /// Every iteration left is being played by other workers.
    AllTaken,
    /// Every step is applied: the final state (boxed: with Adam's moments it is large).
    Complete(Box<SharedState>),
}

/// One worker's view of a shared tune folder.
pub struct SharedStore<'a> {
    config: &'a TuneConfig,
    opts: WorkerOptions,
    worker: String,
    stats: Mutex<WorkerStats>,
    finisher: bool,
    ended: Option<SharedState>,
}

impl<'a> SharedStore<'a> {
    /// Joins the tune of `config` in `opts.dir` as a new worker, creating it if it does not
    /// exist (under the lock).
    pub fn open(config: &'a TuneConfig, opts: &WorkerOptions) -> Result<SharedStore<'a>> {
        let dir = opts.dir.as_path();
        std::fs::create_dir_all(dir.join(WORKERS_DIR))
            .map_err(|e| TuneError::io(dir.join(WORKERS_DIR), e))?;
        let worker = worker::worker_name();
        let store = SharedStore {
            config,
            opts: opts.clone(),
            stats: Mutex::new(WorkerStats {
                worker: worker.clone(),
                started_ms: now_ms(),
                doing: "joining".into(),
                ..WorkerStats::default()
            }),
            worker,
            finisher: false,
            ended: None,
        };
        let binary = BinaryId::current(config)?;
        store.locked(|_| join_or_create(config, dir, &binary))?;
        Ok(store)
    }

    /// Ends the session once [`Store::claim`] said [`Turn::Done`]: the final state, the
    /// committed history and this worker's figures.
    pub fn close(self) -> Result<WorkerOutcome> {
        let state = self.ended.ok_or_else(|| {
            TuneError::State("the shared tune was left before it was complete".into())
        })?;
        let history = history::read_committed(
            &self.opts.dir.join(HISTORY_FILE),
            self.config.spsa.params.len(),
            state.history_len,
        )?;
        Ok(WorkerOutcome {
            worker: self.worker,
            finisher: self.finisher,
            state,
            history,
            stats: self.stats.into_inner().unwrap_or_else(|e| e.into_inner()),
        })
    }

    fn dir(&self) -> &Path {
        &self.opts.dir
    }

    fn shared_path(&self) -> PathBuf {
        self.dir().join(SHARED_FILE)
    }

    /// Runs `f` holding the folder's lock, with its timing added to the worker's figures.
    ///
    /// After a long wait for the lock (a dead process's lock waiting to go stale, a slow
    /// filesystem) every claim first gets a fresh lease: no worker could renew meanwhile, so
    /// an expired lease would give up live workers' batches (the CI failure of
    /// `four_workers_one_killed_complete_the_tune_and_recover`, where a worker killed while
    /// holding the lock had every other claim given up 30 s later). A dead worker's claim
    /// then expires one lease later.
    fn locked<T>(&self, f: impl FnOnce(&DirLock) -> Result<T>) -> Result<T> {
        let lock = DirLock::acquire(self.dir(), &self.worker, self.opts.stale_lock)?;
        let result = self.extend_leases_after(&lock).and_then(|()| f(&lock));
        let mut s = self.stats();
        s.lock_wait_s += lock.waited.as_secs_f64();
        s.lock_hold_s += lock.held().as_secs_f64();
        s.lock_count += 1;
        result
    }

    /// Under `lock`: gives every claim a fresh lease if this worker waited for the lock
    /// longer than half a lease (see [`Self::locked`]).
    fn extend_leases_after(&self, lock: &DirLock) -> Result<()> {
        let shared_path = self.shared_path();
        if lock.waited < self.opts.lease / 2 || !shared_path.exists() {
            return Ok(());
        }
        let mut state = SharedState::load(&shared_path, self.config)?;
        let n = state.extend_leases(now_ms() + self.opts.lease.as_millis() as u64);
        if n > 0 {
            eprintln!(
                "worker {}: waited {:.1} s for the lock; {n} claim(s) get a fresh lease, as \
                 their workers could not renew meanwhile",
                self.worker,
                lock.waited.as_secs_f64()
            );
            state.save(&shared_path)?;
        }
        Ok(())
    }

    fn stats(&self) -> std::sync::MutexGuard<'_, WorkerStats> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Says what the worker does now in its progress file.
    fn doing(&self, doing: String) {
        self.stats().doing = doing;
        self.save_stats();
    }

    fn save_stats(&self) {
        let stats = self.stats().clone();
        worker::save_stats(self.dir(), &stats);
    }

    /// Under the lock: claims the next iteration, if any.
    fn try_claim(&self) -> Result<Claimed> {
        let config = self.config;
        let n_iterations = config.iterations();
        let shared_path = self.shared_path();
        self.locked(|_| {
            let mut state = SharedState::load(&shared_path, config)?;
            let gave_up = state.give_up_expired(&self.worker);
            if state.applied >= n_iterations {
                return Ok(Claimed::Complete(Box::new(state)));
            }
            let k = if state.requeued.is_empty() {
                if state.next > n_iterations {
                    if gave_up {
                        state.save(&shared_path)?;
                    }
                    return Ok(Claimed::AllTaken);
                }
                state.next += 1;
                state.next - 1
            } else {
                state.requeued.remove(0)
            };
            let now = now_ms();
            let claim = Claim {
                iteration: k,
                worker: self.worker.clone(),
                token: token(),
                claimed_ms: now,
                lease_until_ms: now + self.opts.lease.as_millis() as u64,
            };
            state.claims.push(claim.clone());
            state.save(&shared_path)?;
            Ok(Claimed::Mine(claim, state.theta.clone()))
        })
    }

    /// Under the lock: extends the lease of the claim `token`; `false` when it was given up.
    fn renew(&self, token: u64) -> Result<bool> {
        let shared_path = self.shared_path();
        self.locked(|_| {
            let mut state = SharedState::load(&shared_path, self.config)?;
            match state.claims.iter_mut().find(|c| c.token == token) {
                Some(c) => {
                    c.lease_until_ms = now_ms() + self.opts.lease.as_millis() as u64;
                    state.save(&shared_path)?;
                    Ok(true)
                }
                None => Ok(false),
            }
        })
    }
}

impl Store for SharedStore<'_> {
    /// Claims an iteration, waiting (polling) while every one left is being played by others.
    fn claim(&mut self) -> Result<Turn> {
        loop {
            match self.try_claim()? {
                Claimed::Complete(state) => {
                    self.doing("done".into());
                    self.ended = Some(*state);
                    return Ok(Turn::Done);
                }
                Claimed::AllTaken => {
                    // Everything is claimed: wait for the others (or for a claim to expire).
                    self.doing("waiting for the last iterations".into());
                    std::thread::sleep(self.opts.poll);
                }
                Claimed::Mine(claim, theta) => {
                    self.doing(format!("playing iteration {}", claim.iteration));
                    return Ok(Turn::Play(Assignment {
                        iteration: claim.iteration,
                        theta,
                        token: claim.token,
                    }));
                }
            }
        }
    }

    /// Plays while a heartbeat thread renews the claim's lease; stops renewing once the claim
    /// was given up.
    fn playing<T>(&self, assignment: &Assignment, play: impl FnOnce() -> Result<T>) -> Result<T> {
        let stop = Arc::new(AtomicBool::new(false));
        let renew_every = (self.opts.lease / 4).max(Duration::from_millis(50));
        std::thread::scope(|scope| {
            let heartbeat = scope.spawn(|| {
                let mut last = Instant::now();
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20).min(renew_every));
                    if last.elapsed() < renew_every {
                        continue;
                    }
                    last = Instant::now();
                    match self.renew(assignment.token) {
                        Ok(true) => {}
                        Ok(false) => break,
                        // A failed renewal (full disk, NFS hiccup): try again next time.
                        Err(e) => {
                            eprintln!("worker {}: renewing the claim failed: {e}", self.worker)
                        }
                    }
                }
            });
            let t = Instant::now();
            let result = play();
            stop.store(true, Ordering::SeqCst);
            let _ = heartbeat.join();
            self.stats().play_s += t.elapsed().as_secs_f64();
            result
        })
    }

    /// Applies the step to the theta found now, under the lock; a result whose claim was given
    /// up meanwhile is discarded.
    fn record(
        &mut self,
        assignment: &Assignment,
        pert: &Perturbation,
        batch: &Totals,
    ) -> Result<Option<Applied>> {
        let config = self.config;
        let k = assignment.iteration;
        let dir = self.dir().to_path_buf();
        let shared_path = self.shared_path();
        let history_path = dir.join(HISTORY_FILE);
        let applied = self.locked(|lock| {
            let mut state = SharedState::load(&shared_path, config)?;
            let Some(i) = state
                .claims
                .iter()
                .position(|c| c.token == assignment.token)
            else {
                state.discarded += 1;
                state.save(&shared_path)?;
                return Ok(None);
            };
            state.claims.remove(i);
            let mut tune_state = state.tune_state();
            let record = tune_state.step(config, k, pert, batch)?;
            state.history_len =
                history::append_committed(&history_path, state.history_len, &record)?;
            state.set_tune_state(tune_state);
            let last = state.applied == config.iterations();
            if last {
                state.finished_by = Some(self.worker.clone());
            }
            if !lock.still_held() {
                return Err(TuneError::State(format!(
                    "{}: the lock was taken over while this worker held it (a stale-lock \
                     limit shorter than a file update?); the step of iteration {k} was not \
                     applied",
                    dir.join(LOCK_FILE).display()
                )));
            }
            state.save(&shared_path)?;
            state.tune_state().save(&dir.join(STATE_FILE))?;
            write_tuned(&dir, config, &state.theta)?;
            Ok(Some((state, record, last)))
        })?;
        let applied = match applied {
            None => {
                self.stats().discarded += 1;
                eprintln!(
                    "worker {}: iteration {k} had been given up (lease ran out); its result is \
                     discarded",
                    self.worker
                );
                None
            }
            Some((state, record, last)) => {
                self.finisher |= last;
                let mut s = self.stats();
                s.iterations += 1;
                s.pairs += record.games() / 2;
                drop(s);
                Some(Applied {
                    state: state.tune_state(),
                    record,
                })
            }
        };
        self.save_stats();
        Ok(applied)
    }
}

/// Joins the tune in `dir`, creating it if it does not exist (called under the lock).
fn join_or_create(config: &TuneConfig, dir: &Path, binary: &BinaryId) -> Result<()> {
    let shared_path = dir.join(SHARED_FILE);
    if shared_path.exists() {
        let old = load_config(dir)?;
        if let Some(what) = old.difference(config) {
            return Err(TuneError::State(format!(
                "{}: this worker's spec differs from the tune's ({what}); every worker of a \
                 shared tune must use the same spec",
                dir.join(CONFIG_FILE).display()
            )));
        }
        let state = SharedState::load(&shared_path, config)?;
        if state.binary != *binary {
            return Err(TuneError::State(format!(
                "{}: the tune was started by wuzi-tune {} (engine fingerprint {}), this worker \
                 is {} ({}); run the same build on every node",
                shared_path.display(),
                state.binary.version,
                state.binary.fingerprint,
                binary.version,
                binary.fingerprint
            )));
        }
        return Ok(());
    }
    if dir.join(STATE_FILE).exists() {
        return Err(TuneError::State(format!(
            "{} holds a one-machine tune (no {SHARED_FILE}); continue it with `wuzi-tune \
             resume {}`, or choose another --out",
            dir.join(STATE_FILE).display(),
            dir.display()
        )));
    }
    let names: Vec<String> = config.spsa.params.iter().map(|p| p.name.clone()).collect();
    write_json(&dir.join(CONFIG_FILE), config)?;
    drop(HistoryWriter::create(&dir.join(HISTORY_FILE), &names)?);
    let history_len = std::fs::metadata(dir.join(HISTORY_FILE))
        .map_err(|e| TuneError::io(dir.join(HISTORY_FILE), e))?
        .len();
    write_start(dir, config)?;
    let state = SharedState {
        format: FORMAT_VERSION,
        binary: binary.clone(),
        next: 1,
        requeued: Vec::new(),
        claims: Vec::new(),
        applied: 0,
        theta: config.spsa.start_theta(),
        totals: Totals::default(),
        history_len,
        abandoned: Vec::new(),
        discarded: 0,
        finished_by: None,
        moments: Default::default(),
    };
    state.tune_state().save(&dir.join(STATE_FILE))?;
    state.save(&shared_path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::TuneSpec;

    /// A worker killed while it held the lock (the lock stays until it is stale, longer than
    /// a lease): the next worker to get the lock must not give up the live claims whose
    /// renewals were blocked meanwhile (the CI failure of
    /// `four_workers_one_killed_complete_the_tune_and_recover`); a claim nobody renews is
    /// still given up one lease later.
    #[test]
    fn a_stuck_lock_does_not_cost_the_live_claims() {
        let dir = std::env::temp_dir().join(format!("wuzi-stuck-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = TuneSpec::parse(
            "pairs = 16\npairs_per_iteration = 4\nseed = 1\n[limits]\nnodes = 100\n\
             [params.defence]\nmin = 20\nmax = 200\n",
            Path::new("t.toml"),
        )
        .and_then(|s| s.resolve(Path::new(".")))
        .expect("valid");
        let mut opts = WorkerOptions::new(&dir, 1);
        opts.lease = Duration::from_millis(400);
        opts.stale_lock = Duration::from_millis(1500);
        let a = SharedStore::open(&config, &opts).expect("creates");
        let Claimed::Mine(claim_a, _) = a.try_claim().expect("claims") else {
            panic!("a claims iteration 1")
        };
        // A process died holding the lock.
        std::fs::write(
            dir.join(LOCK_FILE),
            format!(
                "{{\"worker\":\"dead\",\"token\":1,\"taken_ms\":{}}}",
                now_ms()
            ),
        )
        .expect("lock");
        let b = SharedStore::open(&config, &opts).expect("joins after the stale lock");
        let Claimed::Mine(claim_b, _) = b.try_claim().expect("claims") else {
            panic!("b claims")
        };
        let state = SharedState::load(&dir.join(SHARED_FILE), &config).expect("state");
        assert_eq!(claim_b.iteration, 2, "a's live claim was given up");
        assert!(state.abandoned.is_empty(), "{:?}", state.abandoned);
        assert!(state.claims.iter().any(|c| c.token == claim_a.token));
        // Nobody renews: a lease later both claims expire and are played again.
        std::thread::sleep(opts.lease + Duration::from_millis(100));
        let Claimed::Mine(again, _) = b.try_claim().expect("claims") else {
            panic!("b claims again")
        };
        assert_eq!(again.iteration, 1);
        let state = SharedState::load(&dir.join(SHARED_FILE), &config).expect("state");
        assert_eq!(state.abandoned.len(), 2, "{:?}", state.abandoned);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
