//! Measurements of the arena itself: time spent outside the engine's search, games per second
//! with one and several workers, CPU time and peak memory (`wuzi-arena bench`).
//!
//! - Every [`wuzi_players::EnginePlayer`] adds the wall time of each `Engine::search` call to
//!   process-wide counters ([`search_totals`]), and, once [`set_cpu_accounting`] is on, the
//!   calling thread's CPU time spent in it. Everything else a run does (building players and
//!   clearing their hash tables, the referee, records, statistics) is the arena's overhead.
//! - Process CPU time (user + system, all threads, `getrusage`), thread CPU time
//!   (`CLOCK_THREAD_CPUTIME_ID`) and the peak resident set size (`VmHWM` of
//!   `/proc/self/status`) are read on Linux; elsewhere they are `None`.
//! - [`machine_speedup`] measures how much faster the machine runs N threads of plain
//!   arithmetic than one right now, the ceiling of any N-worker speedup on a shared machine.
//! - Each worker keeps at most [`MAX_ENGINES_PER_WORKER`] engines alive (fewer when the run has
//!   fewer players), each with one transposition table of the player's `hash_mb` (`--hash-mb`,
//!   at most [`wuzi_players::MAX_HASH_MB`]); [`hash_bound_bytes`] is the resulting bound on the
//!   hash memory of a run.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use wuzi_players::PlayerKind;
use wuzi_runs::config::RunConfig;
use wuzi_runs::error::Result;
use wuzi_runs::run::{run, RunOptions, PLAYER_CACHE};

pub use wuzi_players::timer::{
    search_totals, set_cpu_accounting, thread_cpu_time, SearchTimer, SearchTotals,
};

/// Most engines a worker holds at once: its cache plus the two players of the game it is
/// setting up.
pub const MAX_ENGINES_PER_WORKER: usize = PLAYER_CACHE + 2;

/// A `kB` field of `/proc/self/status`, in bytes.
fn status_kb(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Peak resident set size of this process so far (`VmHWM`), in bytes; `None` off Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    status_kb("VmHWM")
}

/// User + system CPU time of this process (all threads, finished ones included) so far;
/// `None` off Linux.
pub fn cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage only writes the struct it is given; zeroed is a valid rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a rusage that lives across the call.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        Some(tv(usage.ru_utime) + tv(usage.ru_stime))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// How much faster the machine does the same fixed arithmetic work split over `threads`
/// threads than on one thread, now: `wall(1 thread) / wall(threads)`. About `threads` on an
/// idle machine with that many cores; less when other programs compete for them. Each
/// measurement does about `work` of single-thread work.
pub fn machine_speedup(threads: usize, work: Duration) -> f64 {
    fn spin(iterations: u64) -> u64 {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..iterations {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        x
    }
    let threads = threads.max(1);
    // Calibrate the iteration count to about `work` on one thread.
    let mut n = 1u64 << 16;
    let per_iter = loop {
        let t = Instant::now();
        std::hint::black_box(spin(std::hint::black_box(n)));
        let e = t.elapsed();
        if e > Duration::from_millis(20) || n > 1 << 40 {
            break e.as_secs_f64() / n as f64;
        }
        n *= 4;
    };
    let total = ((work.as_secs_f64() / per_iter.max(1e-12)) as u64).max(1);
    let run = |k: usize| {
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..k {
                s.spawn(|| std::hint::black_box(spin(total / k as u64)));
            }
        });
        t.elapsed().as_secs_f64()
    };
    let one = run(1);
    let many = run(threads);
    one / many.max(1e-9)
}

/// Bound on the hash-table memory of a run with `workers` workers: each worker holds at most
/// `min(engine players, MAX_ENGINES_PER_WORKER)` engines, each with its player's table (the
/// largest `hash_mb` of the run is assumed for all; the classic player's table is 1 MB).
pub fn hash_bound_bytes(config: &RunConfig, workers: usize) -> u64 {
    let mut sizes: Vec<u64> = config
        .players
        .iter()
        .map(|p| match p.kind {
            PlayerKind::Classic => 1,
            _ => p.limits.hash_mb as u64,
        })
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let per_worker: u64 = sizes.iter().take(MAX_ENGINES_PER_WORKER).sum();
    per_worker * workers as u64 * 1024 * 1024
}

/// What one run cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Worker threads.
    pub workers: usize,
    /// Games played.
    pub games: u64,
    /// Wall time of the whole run (setup, games, records and the summary).
    pub elapsed: Duration,
    /// User + system CPU time of the process during the run.
    pub cpu: Option<Duration>,
    /// Engine searches during the run and their wall time.
    pub search: SearchTotals,
    /// Peak resident set size of the process after the run.
    pub peak_rss: Option<u64>,
}

impl Measurement {
    /// Games per second of wall time.
    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Worker time outside `Engine::search` as a fraction of the time inside it:
    /// `(workers x elapsed - search) / search` (exact for one worker; with several, idle time
    /// at the end of the run counts as overhead).
    pub fn overhead(&self) -> Option<f64> {
        let search = self.search.time.as_secs_f64();
        let busy = self.elapsed.as_secs_f64() * self.workers as f64;
        (search > 0.0).then(|| (busy - search).max(0.0) / search)
    }

    /// CPU time outside `Engine::search` (all threads: workers and the recording thread) as a
    /// fraction of the CPU time inside it; needs [`set_cpu_accounting`] and Linux.
    pub fn cpu_overhead(&self) -> Option<f64> {
        let search = self.search.cpu.as_secs_f64();
        let cpu = self.cpu?.as_secs_f64();
        (search > 0.0).then(|| (cpu - search).max(0.0) / search)
    }

    /// Worker time outside `Engine::search` per game, in ms.
    pub fn overhead_ms_per_game(&self) -> Option<f64> {
        let busy = self.elapsed.as_secs_f64() * self.workers as f64;
        (self.games > 0)
            .then(|| (busy - self.search.time.as_secs_f64()).max(0.0) * 1000.0 / self.games as f64)
    }
}

/// Plays `config` with `workers` workers (records into `out` when given, no progress output)
/// and measures it.
pub fn measure(config: &RunConfig, workers: usize, out: Option<PathBuf>) -> Result<Measurement> {
    let opts = RunOptions {
        concurrency: workers,
        out,
        resume: false,
    };
    let search0 = search_totals();
    let cpu0 = cpu_time();
    let start = Instant::now();
    let outcome = run(config, &opts, &mut |_| {})?;
    let elapsed = start.elapsed();
    let cpu = match (cpu0, cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    Ok(Measurement {
        workers: workers.max(1),
        games: outcome.games_played,
        elapsed,
        cpu,
        search: search_totals() - search0,
        peak_rss: peak_rss_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_runs::config::tests_support::tiny_config;

    #[test]
    fn proc_readers_work_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_bytes().is_some_and(|b| b > 100_000));
            assert!(cpu_time().is_some());
            let t = thread_cpu_time().expect("thread clock");
            std::hint::black_box((0..1_000_000u64).sum::<u64>());
            assert!(thread_cpu_time().expect("thread clock") >= t);
        }
    }

    #[test]
    fn machine_speedup_is_positive() {
        let s = machine_speedup(2, Duration::from_millis(20));
        assert!(s.is_finite() && s > 0.1, "{s}");
    }

    #[test]
    fn hash_bound_counts_engines_per_worker() {
        let config = tiny_config(1);
        // Two players of 16 MB, two workers.
        assert_eq!(hash_bound_bytes(&config, 2), 2 * 2 * 16 * 1024 * 1024);
    }

    #[test]
    fn measure_counts_searches() {
        let config = tiny_config(1);
        let m = measure(&config, 1, None).expect("runs");
        assert_eq!(m.games, 2);
        assert!(m.search.searches > 0 && m.search.time > Duration::ZERO);
        assert!(m.overhead().is_some_and(|o| o >= 0.0));
    }
}
