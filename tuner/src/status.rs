//! `wuzi-tune status`: the progress of a tune folder, shared or not, also while its workers
//! run.

use std::path::Path;

use crate::error::Result;
use crate::folder::{load_config, SHARED_FILE, STATE_FILE, WORKERS_DIR};
use crate::lock::now_ms;
use crate::state::TuneState;
use crate::store::shared::{SharedState, WorkerStats};

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
        let cp = TuneState::load(&dir.join(STATE_FILE), &config)?;
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
