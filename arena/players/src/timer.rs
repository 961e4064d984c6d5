//! Clocks on the engine's searches, so the arena can tell its own overhead from search time
//! (`wuzi-arena bench`): every [`crate::EnginePlayer`] adds the wall time of each
//! `Engine::search` call to process-wide counters ([`search_totals`]), and, once
//! [`set_cpu_accounting`] is on, the calling thread's CPU time spent in it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

static SEARCH_NANOS: AtomicU64 = AtomicU64::new(0);
static SEARCH_CPU_NANOS: AtomicU64 = AtomicU64::new(0);
static SEARCHES: AtomicU64 = AtomicU64::new(0);
static CPU_ACCOUNTING: AtomicBool = AtomicBool::new(false);

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Also count the CPU time of engine searches (two clock reads per search; off by default).
pub fn set_cpu_accounting(on: bool) {
    CPU_ACCOUNTING.store(on, Ordering::Relaxed);
}

/// Times one engine search: [`SearchTimer::start`] before it, [`SearchTimer::stop`] after.
#[derive(Debug)]
pub struct SearchTimer {
    wall: Instant,
    cpu: Option<Duration>,
}

impl SearchTimer {
    /// Starts timing on the calling thread.
    pub fn start() -> SearchTimer {
        let cpu = if CPU_ACCOUNTING.load(Ordering::Relaxed) {
            thread_cpu_time()
        } else {
            None
        };
        SearchTimer {
            wall: Instant::now(),
            cpu,
        }
    }

    /// Adds the search's wall (and CPU) time to the process-wide totals.
    pub fn stop(self) {
        SEARCH_NANOS.fetch_add(nanos(self.wall.elapsed()), Ordering::Relaxed);
        SEARCHES.fetch_add(1, Ordering::Relaxed);
        if let (Some(a), Some(b)) = (self.cpu, thread_cpu_time()) {
            SEARCH_CPU_NANOS.fetch_add(nanos(b.saturating_sub(a)), Ordering::Relaxed);
        }
    }
}

/// Searches made by in-process engine players since the process started, and their total wall
/// time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchTotals {
    /// Number of `Engine::search` calls.
    pub searches: u64,
    /// Their summed wall time.
    pub time: Duration,
    /// Their summed CPU time, counted while [`set_cpu_accounting`] is on.
    pub cpu: Duration,
}

impl std::ops::Sub for SearchTotals {
    type Output = SearchTotals;

    fn sub(self, rhs: SearchTotals) -> SearchTotals {
        SearchTotals {
            searches: self.searches.saturating_sub(rhs.searches),
            time: self.time.saturating_sub(rhs.time),
            cpu: self.cpu.saturating_sub(rhs.cpu),
        }
    }
}

/// The current [`SearchTotals`].
pub fn search_totals() -> SearchTotals {
    SearchTotals {
        searches: SEARCHES.load(Ordering::Relaxed),
        time: Duration::from_nanos(SEARCH_NANOS.load(Ordering::Relaxed)),
        cpu: Duration::from_nanos(SEARCH_CPU_NANOS.load(Ordering::Relaxed)),
    }
}

/// CPU time of the calling thread so far; `None` off Linux.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid pointer to a timespec that lives across the call.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
            return None;
        }
        Some(Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        ))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}
