//! A shared tune's worker: its name and the figures it reports (`workers/<worker>.json`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::folder::WORKERS_DIR;
use crate::history;
use crate::lock::now_ms;

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

/// This worker's name: `host-pid-xxxx`.
pub fn worker_name() -> String {
    format!(
        "{}-{}-{:04x}",
        host_name(),
        std::process::id(),
        crate::lock::token() & 0xffff
    )
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into())
}

/// Writes `stats` to `dir/workers/<worker>.json`, stamped now.
pub fn save_stats(dir: &Path, stats: &WorkerStats) {
    let mut s = stats.clone();
    s.updated_ms = now_ms();
    let path = dir.join(WORKERS_DIR).join(format!("{}.json", s.worker));
    if let Ok(text) = serde_json::to_string_pretty(&s) {
        // Progress figures only: a failed write must not stop the worker.
        let _ = history::write_atomic(&path, &(text + "\n"));
    }
}
