//! Shared tunes: one SPSA tune run by several worker processes (on one machine or many, with
//! a shared filesystem) pointed at one tune folder, asynchronous as fishtest runs its SPSA.
//!
//! Every node runs `wuzi-tune tune --spec SPEC --out DIR --shared`. The first worker creates
//! the tune (under the folder's lock, see [`crate::lock`]); the others join after checking
//! that their spec and engine are the same. A worker then loops:
//!
//! 1. under the lock: give up claims whose lease ran out (their worker vanished: the
//!    iteration is recorded in `abandoned` and handed out again), claim the lowest iteration
//!    given up or else the next one, and read the current theta;
//! 2. draw iteration `k`'s perturbation around that theta (a function of the seed, `k` and
//!    theta, as in a one-machine tune) and play its pairs, renewing the claim's lease
//!    meanwhile;
//! 3. under the lock: apply the step `a_k (W - L) delta / c_k` to the theta found *now*
//!    (other workers may have moved it meanwhile, as in fishtest), append the history row,
//!    replace `shared.json` (temporary file, fsync, rename) and refresh `state.json` and
//!    `tuned.toml`.
//!
//! A worker killed mid-batch loses only its batch: its claim expires after the lease and the
//! iteration is played again by another worker. A result arriving after its claim was given
//! up is discarded (counted in `discarded`). The worker that applies the last step draws the
//! charts and plays the verification. With one worker the claims come in order and every step
//! is applied to the theta it was drawn around, so the tune equals the one-machine tune.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use wuzi_engine::{Board, Engine, Limits};

use crate::error::{Result, TuneError};
use crate::history::{self, HistoryWriter, IterationRecord};
use crate::lock::{now_ms, token, DirLock};
use crate::spec::{TuneConfig, FORMAT_VERSION};
use crate::tune::{
    load_config, param_file, play_batch, Checkpoint, EnginePool, Totals, TuneProgress, CONFIG_FILE,
    HISTORY_FILE, START_FILE, STATE_FILE, TUNED_FILE,
};

/// The shared state of a tune run by workers (replaced atomically under the lock).
pub const SHARED_FILE: &str = "shared.json";
/// Per-worker progress files (`workers/<worker>.json`).
pub const WORKERS_DIR: &str = "workers";

/// What identifies the program playing the games: workers of one tune must agree on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinaryId {
    /// `wuzi-tune` version.
    pub version: String,
    /// A hash of fixed node-limited searches with the tune's base parameters and of the
    /// engine's declared parameters: engines that would play other games differ here.
    pub fingerprint: String,
}

impl BinaryId {
    /// The identity of this program for `config`.
    pub fn current(config: &TuneConfig) -> Result<BinaryId> {
        let params = config.base_params()?;
        let mut h = wuzi_arena::config::mix64(0x5eed);
        let mut mix = |v: u64| h = wuzi_arena::config::mix64(h ^ v);
        for s in wuzi_engine::Params::SPECS {
            for b in s.name.bytes() {
                mix(u64::from(b));
            }
            mix(s.default as u64);
            mix(s.min as u64);
            mix(s.max as u64);
        }
        let mut engine = Engine::new(params, 1, 1);
        for opening in config.openings.iter().take(3) {
            let board = Board::from_moves(config.game.size, config.game.rule, &opening.moves)?;
            engine.new_game();
            let limits = Limits {
                nodes: Some(3000),
                ..Limits::default()
            };
            let r = engine.search(&board, &limits, None);
            for b in format!("{:?}", r.best).bytes() {
                mix(u64::from(b));
            }
            mix(r.score as u64);
            mix(r.nodes);
        }
        Ok(BinaryId {
            version: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint: format!("{h:016x}"),
        })
    }
}

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
        Ok(s)
    }

    fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(|error| TuneError::Json {
            path: path.to_path_buf(),
            error,
        })?;
        history::write_atomic(path, &(text + "\n"))
    }
}

/// What a worker reports about itself (`workers/<worker>.json`, read by `wuzi-tune status`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerStats {
    /// Worker name (`host-pid-xxxx`).
    pub worker: String,
    /// Started (Unix ms).
    pub started_ms: u64,
    /// Last update (Unix ms).
    pub updated_ms: u64,
    /// What it is doing.
    pub doing: String,
    /// Steps it applied.
    pub iterations: u64,
    /// Pairs it played and applied.
    pub pairs: u64,
    /// Seconds spent playing.
    pub play_s: f64,
    /// Seconds spent waiting for the lock.
    pub lock_wait_s: f64,
    /// Seconds spent holding the lock.
    pub lock_hold_s: f64,
    /// Times it took the lock (claims, renewals, updates).
    pub lock_count: u64,
    /// Its results discarded because its claim had been given up.
    pub discarded: u64,
}

impl WorkerStats {
    /// Pairs played per second of play (0 before any play).
    pub fn pairs_per_s(&self) -> f64 {
        if self.play_s > 0.0 {
            self.pairs as f64 / self.play_s
        } else {
            0.0
        }
    }
}

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

/// The result of [`work`].
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

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into())
}

/// A lock-holding section with its timing added to the worker's figures.
struct Locked<'a> {
    dir: &'a Path,
    worker: &'a str,
    stale: Duration,
    stats: &'a Mutex<WorkerStats>,
}

impl Locked<'_> {
    fn with<T>(&self, f: impl FnOnce(&DirLock) -> Result<T>) -> Result<T> {
        let lock = DirLock::acquire(self.dir, self.worker, self.stale)?;
        let result = f(&lock);
        let mut s = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        s.lock_wait_s += lock.waited.as_secs_f64();
        s.lock_hold_s += lock.held().as_secs_f64();
        s.lock_count += 1;
        result
    }
}

/// Joins the tune in `opts.dir`, creating it if it does not exist (under the lock).
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
    let text = serde_json::to_string_pretty(config).map_err(|error| TuneError::Json {
        path: dir.join(CONFIG_FILE),
        error,
    })?;
    history::write_atomic(&dir.join(CONFIG_FILE), &(text + "\n"))?;
    drop(HistoryWriter::create(&dir.join(HISTORY_FILE), &names)?);
    let history_len = std::fs::metadata(dir.join(HISTORY_FILE))
        .map_err(|e| TuneError::io(dir.join(HISTORY_FILE), e))?
        .len();
    let start = config.start_params()?;
    history::write_atomic(&dir.join(START_FILE), &param_file(&start, config, "start"))?;
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
    };
    write_checkpoint(dir, &state)?;
    state.save(&shared_path)
}

/// `state.json` as a one-machine tune writes it (for `verify` and `status`).
fn write_checkpoint(dir: &Path, state: &SharedState) -> Result<()> {
    Checkpoint {
        format: FORMAT_VERSION,
        iteration: state.applied,
        theta: state.theta.clone(),
        totals: state.totals.clone(),
        no_verify: false,
    }
    .save(&dir.join(STATE_FILE))
}

/// Gives up the claims whose lease ran out; returns whether there were any.
fn give_up_expired(state: &mut SharedState, me: &str) -> bool {
    let now = now_ms();
    let (expired, kept): (Vec<Claim>, Vec<Claim>) =
        state.claims.drain(..).partition(|c| c.lease_until_ms < now);
    state.claims = kept;
    let any = !expired.is_empty();
    for c in expired {
        eprintln!(
            "worker {me}: iteration {} claimed by {} was not renewed for its lease: given up, \
             to be played again",
            c.iteration, c.worker
        );
        state.requeued.push(c.iteration);
        state.abandoned.push(Abandoned {
            iteration: c.iteration,
            worker: c.worker,
            claimed_ms: c.claimed_ms,
            given_up_ms: now,
            given_up_by: me.to_string(),
        });
    }
    state.requeued.sort_unstable();
    any
}

/// Reads the committed rows of a shared tune's history (in the order they were applied).
pub fn read_history(dir: &Path, config: &TuneConfig, len: u64) -> Result<Vec<IterationRecord>> {
    let path = dir.join(HISTORY_FILE);
    let bytes = std::fs::read(&path).map_err(|e| TuneError::io(&path, e))?;
    let committed = &bytes[..(len as usize).min(bytes.len())];
    let text = std::str::from_utf8(committed).map_err(|e| TuneError::History {
        path: path.clone(),
        line: 0,
        message: e.to_string(),
    })?;
    let n = config.spsa.params.len();
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            history::parse_row(l, n).map_err(|message| TuneError::History {
                path: path.clone(),
                line: i + 1,
                message,
            })
        })
        .collect()
}

/// Appends `row` to the history after cutting it to its committed length; returns the new
/// committed length.
fn append_history(path: &Path, committed: u64, row: &IterationRecord) -> Result<u64> {
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| TuneError::io(path, e))?;
    f.set_len(committed).map_err(|e| TuneError::io(path, e))?;
    let line = history::row(row) + "\n";
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(committed))
        .and_then(|_| f.write_all(line.as_bytes()))
        .and_then(|()| f.sync_data())
        .map_err(|e| TuneError::io(path, e))?;
    Ok(committed + line.len() as u64)
}

fn save_stats(dir: &Path, stats: &Mutex<WorkerStats>) {
    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner()).clone();
    s.updated_ms = now_ms();
    let path = dir.join(WORKERS_DIR).join(format!("{}.json", s.worker));
    if let Ok(text) = serde_json::to_string_pretty(&s) {
        // Progress figures only: a failed write must not stop the worker.
        let _ = history::write_atomic(&path, &(text + "\n"));
    }
}

fn set_doing(stats: &Mutex<WorkerStats>, doing: String) {
    stats.lock().unwrap_or_else(|e| e.into_inner()).doing = doing;
}

/// Runs one worker of the shared tune in `opts.dir` until every iteration is applied.
/// `observer` sees the shared progress after each step this worker applies.
pub fn work(
    config: &TuneConfig,
    opts: &WorkerOptions,
    observer: &mut dyn FnMut(&TuneProgress<'_>),
) -> Result<WorkerOutcome> {
    config.validate()?;
    wuzi_arena::interrupt::games_started();
    let dir = opts.dir.as_path();
    std::fs::create_dir_all(dir.join(WORKERS_DIR))
        .map_err(|e| TuneError::io(dir.join(WORKERS_DIR), e))?;
    let worker = format!(
        "{}-{}-{:04x}",
        host_name(),
        std::process::id(),
        token() & 0xffff
    );
    let stats = Mutex::new(WorkerStats {
        worker: worker.clone(),
        started_ms: now_ms(),
        doing: "joining".into(),
        ..WorkerStats::default()
    });
    let locked = Locked {
        dir,
        worker: &worker,
        stale: opts.stale_lock,
        stats: &stats,
    };
    let binary = BinaryId::current(config)?;
    locked.with(|_| join_or_create(config, dir, &binary))?;
    let shared_path = dir.join(SHARED_FILE);
    let history_path = dir.join(HISTORY_FILE);
    let start_time = Instant::now();
    let n_iterations = config.iterations();
    let engines = EnginePool::new(config);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.concurrency.max(1))
        .stack_size(64 << 20)
        .thread_name(|i| format!("tune-{i}"))
        .build()
        .map_err(|e| TuneError::State(format!("cannot start workers: {e}")))?;
    let mut games_played = 0u64;
    let mut finisher = false;

    loop {
        // 1. Claim an iteration.
        let claim = locked.with(|_| {
            let mut state = SharedState::load(&shared_path, config)?;
            let gave_up = give_up_expired(&mut state, &worker);
            if state.applied >= n_iterations {
                return Ok(Err(state));
            }
            let k = if state.requeued.is_empty() {
                if state.next > n_iterations {
                    if gave_up {
                        state.save(&shared_path)?;
                    }
                    return Ok(Ok(None));
                }
                state.next += 1;
                state.next - 1
            } else {
                state.requeued.remove(0)
            };
            let now = now_ms();
            let claim = Claim {
                iteration: k,
                worker: worker.clone(),
                token: token(),
                claimed_ms: now,
                lease_until_ms: now + opts.lease.as_millis() as u64,
            };
            state.claims.push(claim.clone());
            state.save(&shared_path)?;
            Ok(Ok(Some((claim, state.theta.clone()))))
        })?;
        let (claim, theta) = match claim {
            Err(state) => {
                set_doing(&stats, "done".into());
                save_stats(dir, &stats);
                let history = read_history(dir, config, state.history_len)?;
                return Ok(WorkerOutcome {
                    worker: worker.clone(),
                    finisher,
                    state,
                    history,
                    stats: stats.lock().unwrap_or_else(|e| e.into_inner()).clone(),
                });
            }
            Ok(None) => {
                // Everything is claimed: wait for the others (or for a claim to expire).
                set_doing(&stats, "waiting for the last iterations".into());
                save_stats(dir, &stats);
                std::thread::sleep(opts.poll);
                continue;
            }
            Ok(Some(c)) => c,
        };
        let k = claim.iteration;
        set_doing(&stats, format!("playing iteration {k}"));
        save_stats(dir, &stats);

        // 2. Play the batch, renewing the lease.
        let stop = Arc::new(AtomicBool::new(false));
        let lost = AtomicBool::new(false);
        let renew_every = (opts.lease / 4).max(Duration::from_millis(50));
        let played = std::thread::scope(|scope| {
            let heartbeat = scope.spawn(|| {
                let mut last = Instant::now();
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20).min(renew_every));
                    if last.elapsed() < renew_every {
                        continue;
                    }
                    last = Instant::now();
                    let renewed = locked.with(|_| {
                        let mut state = SharedState::load(&shared_path, config)?;
                        match state.claims.iter_mut().find(|c| c.token == claim.token) {
                            Some(c) => {
                                c.lease_until_ms = now_ms() + opts.lease.as_millis() as u64;
                                state.save(&shared_path)?;
                                Ok(true)
                            }
                            None => Ok(false),
                        }
                    });
                    match renewed {
                        Ok(true) => {}
                        Ok(false) => {
                            lost.store(true, Ordering::SeqCst);
                            break;
                        }
                        // A failed renewal (full disk, NFS hiccup): try again next time.
                        Err(e) => eprintln!("worker {worker}: renewing the claim failed: {e}"),
                    }
                }
            });
            let t = Instant::now();
            let result = (|| {
                let pert = config.spsa.perturb(&theta, k)?;
                let plus = config.params_at(&pert.plus)?;
                let minus = config.params_at(&pert.minus)?;
                let counts = play_batch(
                    config,
                    &pool,
                    &engines,
                    &plus,
                    &minus,
                    config.first_pair(k),
                    config.pairs_in_iteration(k),
                )?;
                Ok::<_, TuneError>((pert, counts))
            })();
            stop.store(true, Ordering::SeqCst);
            let _ = heartbeat.join();
            stats.lock().unwrap_or_else(|e| e.into_inner()).play_s += t.elapsed().as_secs_f64();
            result
        })?;
        let (pert, (wins, draws, losses, penta)) = played;

        // 3. Apply the step to the current theta.
        let applied = locked.with(|lock| {
            let mut state = SharedState::load(&shared_path, config)?;
            let Some(i) = state.claims.iter().position(|c| c.token == claim.token) else {
                state.discarded += 1;
                state.save(&shared_path)?;
                return Ok(None);
            };
            state.claims.remove(i);
            let theta = config.spsa.update(&state.theta, &pert, wins, losses)?;
            let record = IterationRecord {
                iteration: k,
                theta: theta.clone(),
                c_k: pert.c_k.clone(),
                a_k: pert.a_k.clone(),
                plus: pert.plus.clone(),
                minus: pert.minus.clone(),
                wins,
                draws,
                losses,
            };
            state.history_len = append_history(&history_path, state.history_len, &record)?;
            state.theta = theta;
            state.totals.wins += wins;
            state.totals.draws += draws;
            state.totals.losses += losses;
            for (t, p) in state.totals.penta.counts.iter_mut().zip(penta.counts) {
                *t += p;
            }
            state.applied += 1;
            let last = state.applied == n_iterations;
            if last {
                state.finished_by = Some(worker.clone());
            }
            if !lock.still_held() {
                return Err(TuneError::State(format!(
                    "{}: the lock was taken over while this worker held it (a stale-lock \
                     limit shorter than a file update?); the step of iteration {k} was not \
                     applied",
                    dir.join(crate::lock::LOCK_FILE).display()
                )));
            }
            state.save(&shared_path)?;
            write_checkpoint(dir, &state)?;
            let tuned = config.params_at(&state.theta)?;
            history::write_atomic(&dir.join(TUNED_FILE), &param_file(&tuned, config, "tuned"))?;
            Ok(Some((state, record, last)))
        })?;
        if lost.load(Ordering::SeqCst) || applied.is_none() {
            let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
            if applied.is_none() {
                s.discarded += 1;
                eprintln!(
                    "worker {worker}: iteration {k} had been given up (lease ran out); its \
                     result is discarded"
                );
            }
        }
        if let Some((state, record, last)) = applied {
            finisher |= last;
            let games = record.games();
            games_played += games;
            {
                let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                s.iterations += 1;
                s.pairs += games / 2;
            }
            observer(&TuneProgress {
                config,
                iteration: state.applied,
                theta: &state.theta,
                last: Some(&record),
                totals: &state.totals,
                games_done: state.totals.games(),
                games_total: config.pairs * 2,
                games_played,
                elapsed: start_time.elapsed(),
            });
        }
        save_stats(dir, &stats);
    }
}

/// The progress of the tune in `dir`, shared or not, as `wuzi-tune status` prints it.
pub fn status(dir: &Path) -> Result<String> {
    use std::fmt::Write as _;
    let config = load_config(dir)?;
    let mut out = String::new();
    let n = config.iterations();
    let names: Vec<&str> = config.spsa.params.iter().map(|p| p.name.as_str()).collect();
    let shared_path = dir.join(SHARED_FILE);
    let (applied, theta, totals) = if shared_path.exists() {
        let s = SharedState::load(&shared_path, &config)?;
        (s.applied, s.theta.clone(), s.totals.clone())
    } else {
        let cp = Checkpoint::load(&dir.join(STATE_FILE), &config)?;
        (cp.iteration, cp.theta, cp.totals)
    };
    let _ = writeln!(
        out,
        "tune {}: {applied} of {n} iterations applied, {} of {} pairs ({:.0} %)",
        dir.display(),
        totals.games() / 2,
        config.pairs,
        100.0 * totals.games() as f64 / (2 * config.pairs).max(1) as f64
    );
    let _ = writeln!(
        out,
        "theta: {}",
        names
            .iter()
            .zip(&theta)
            .map(|(n, v)| format!("{n} {v:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(s) = totals.score() {
        let _ = writeln!(
            out,
            "engine+ {}-{}-{} (score {s:.3})",
            totals.wins, totals.draws, totals.losses
        );
    }
    if !shared_path.exists() {
        let _ = writeln!(out, "one-machine tune (no {SHARED_FILE})");
        return Ok(out);
    }
    let s = SharedState::load(&shared_path, &config)?;
    let now = now_ms();
    let _ = writeln!(
        out,
        "next iteration {}, {} being played, {} to replay, {} claim(s) given up, {} late \
         result(s) discarded{}",
        s.next.min(n + 1),
        s.claims.len(),
        s.requeued.len(),
        s.abandoned.len(),
        s.discarded,
        s.finished_by
            .as_ref()
            .map(|w| format!("; finished by {w}"))
            .unwrap_or_default()
    );
    for c in &s.claims {
        let _ = writeln!(
            out,
            "  iteration {:>5}  {}  for {:.0} s, lease {:.0} s left",
            c.iteration,
            c.worker,
            now.saturating_sub(c.claimed_ms) as f64 / 1000.0,
            c.lease_until_ms.saturating_sub(now) as f64 / 1000.0
        );
    }
    for a in &s.abandoned {
        let _ = writeln!(
            out,
            "  given up: iteration {} of {} (after {:.0} s), by {}",
            a.iteration,
            a.worker,
            a.given_up_ms.saturating_sub(a.claimed_ms) as f64 / 1000.0,
            a.given_up_by
        );
    }
    let mut workers: Vec<WorkerStats> = std::fs::read_dir(dir.join(WORKERS_DIR))
        .map(|l| {
            l.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .filter_map(|t| serde_json::from_str(&t).ok())
                .collect()
        })
        .unwrap_or_default();
    workers.sort_by_key(|w| w.started_ms);
    if !workers.is_empty() {
        let _ = writeln!(
            out,
            "{:<28} {:>6} {:>7} {:>9} {:>10} {:>13} {:>8}  doing",
            "worker", "iters", "pairs", "pairs/s", "lock ops", "lock ms/iter", "seen"
        );
    }
    for w in &workers {
        let _ = writeln!(
            out,
            "{:<28} {:>6} {:>7} {:>9.3} {:>10} {:>13.2} {:>6.0} s  {}",
            w.worker,
            w.iterations,
            w.pairs,
            w.pairs_per_s(),
            w.lock_count,
            if w.iterations > 0 {
                1000.0 * (w.lock_wait_s + w.lock_hold_s) / w.iterations as f64
            } else {
                0.0
            },
            now.saturating_sub(w.updated_ms) as f64 / 1000.0,
            w.doing
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::TuneSpec;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wuzi-shared-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn small() -> TuneConfig {
        TuneSpec::parse(
            "pairs = 8\npairs_per_iteration = 4\nseed = 1\n[limits]\nnodes = 100\nhash_mb = 2\n\
             [params.defence]\nmin = 20\nmax = 200\n",
            Path::new("t.toml"),
        )
        .and_then(|s| s.resolve(Path::new(".")))
        .expect("valid")
    }

    /// A full disk while the state is replaced: an error naming the file, the state and the
    /// history untouched, and the tune completes once there is room again.
    #[test]
    #[cfg(target_os = "linux")]
    fn full_disk_leaves_the_state_intact() {
        let dir = temp_dir("full");
        let config = small();
        let opts = WorkerOptions::new(&dir, 1);
        join_or_create(&config, &dir, &BinaryId::current(&config).expect("id")).expect("creates");
        let state_before = std::fs::read(dir.join(SHARED_FILE)).expect("state");
        let history_before = std::fs::read(dir.join(HISTORY_FILE)).expect("history");
        // Writes of the next shared.json land on /dev/full (ENOSPC), as on a full disk.
        let tmp = dir.join(format!("{SHARED_FILE}.tmp"));
        std::os::unix::fs::symlink("/dev/full", &tmp).expect("symlink");
        let e = work(&config, &opts, &mut |_| {}).unwrap_err().to_string();
        assert!(e.contains("shared.json"), "{e}");
        assert_eq!(
            std::fs::read(dir.join(SHARED_FILE)).expect("state"),
            state_before
        );
        assert_eq!(
            std::fs::read(dir.join(HISTORY_FILE)).expect("h"),
            history_before
        );
        std::fs::remove_file(&tmp).expect("room again");
        let o = work(&config, &opts, &mut |_| {}).expect("completes");
        assert_eq!(o.state.applied, 2);
        assert_eq!(o.history.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A history row written by a worker that failed before committing the state is cut off
    /// by the next append.
    #[test]
    fn uncommitted_history_rows_are_cut() {
        let dir = temp_dir("cut");
        let path = dir.join(HISTORY_FILE);
        std::fs::write(&path, "header\n").expect("writes");
        let row = IterationRecord {
            iteration: 1,
            theta: vec![1.0],
            c_k: vec![2.0],
            a_k: vec![0.5],
            plus: vec![3.0],
            minus: vec![1.0],
            wins: 1,
            draws: 0,
            losses: 1,
        };
        let committed = append_history(&path, 7, &row).expect("appends");
        // An uncommitted, half-written row after it.
        let mut text = std::fs::read_to_string(&path).expect("reads");
        text.push_str("2,1.5,2.0");
        std::fs::write(&path, &text).expect("writes");
        let next = append_history(&path, committed, &row).expect("appends");
        let text = std::fs::read_to_string(&path).expect("reads");
        assert_eq!(text, format!("header\n{0}\n{0}\n", history::row(&row)));
        assert_eq!(next, text.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
