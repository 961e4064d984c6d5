//! `wuzi-tune tune` and `wuzi-tune resume`: a tune on one machine, or one worker of a shared
//! tune, then its report, charts and verification.

use std::path::{Path, PathBuf};

use wuzi_arena::run::default_concurrency;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::folder::{load_config, HISTORY_FILE, TUNED_FILE};
use crate::shared::{work, WorkerOptions};
use crate::spec::TuneSpec;
use crate::tune::{tune as run, TuneOptions, TuneOutcome, TuneProgress};
use crate::verify::VERIFY_DIR;

use super::verify::run_verify;
use super::{bar, default_out, resolve_spec, this_command, tune_report, Session};

/// `wuzi-tune tune --spec SPEC`: tunes in `out` (default: the spec's), continuing the tune
/// there with `resume`; with `shared`, as one worker of a shared tune whose claims lapse after
/// `lease_s` seconds.
pub fn tune(
    spec: &Path,
    out: Option<PathBuf>,
    resume: bool,
    shared: bool,
    lease_s: f64,
    session: &Session,
) -> Result<()> {
    let parsed = TuneSpec::load(spec)?;
    let config = resolve_spec(&parsed, spec, session.quiet)?;
    let dir = out.unwrap_or_else(|| default_out(&parsed, spec));
    let concurrency = session
        .concurrency
        .or(parsed.concurrency)
        .unwrap_or_else(default_concurrency);
    if concurrency == 0 {
        return Err(TuneError::Usage("--concurrency must be at least 1".into()));
    }
    if shared {
        if !(lease_s.is_finite() && lease_s > 0.0) {
            return Err(TuneError::Usage("--lease-s must be positive".into()));
        }
        let mut opts = WorkerOptions::new(&dir, concurrency);
        opts.lease = std::time::Duration::from_secs_f64(lease_s);
        opts.poll = opts.poll.min(opts.lease / 4);
        return run_worker(&config, &opts, session);
    }
    run_tune(&config, &dir, resume, concurrency, session)
}

/// `wuzi-tune resume DIR`: continues the tune in `dir` from its checkpoint.
pub fn resume(dir: &Path, session: &Session) -> Result<()> {
    let config = load_config(dir)?;
    let concurrency = session.concurrency.unwrap_or_else(default_concurrency);
    if concurrency == 0 {
        return Err(TuneError::Usage("--concurrency must be at least 1".into()));
    }
    run_tune(&config, dir, true, concurrency, session)
}

/// `defence 45.3 w_open_three 61.2`.
fn values(config: &TuneConfig, theta: &[f64]) -> String {
    config
        .spsa
        .params
        .iter()
        .zip(theta)
        .map(|(p, v)| format!("{} {v:.1}", p.name))
        .collect::<Vec<_>>()
        .join(" ")
}

fn tune_message(p: &TuneProgress<'_>) -> String {
    let mut msg = format!(
        "it {}/{} | {}",
        p.iteration,
        p.config.iterations(),
        values(p.config, p.theta)
    );
    if let Some(s) = p.totals.score() {
        msg.push_str(&format!(" | engine+ {s:.3}"));
    }
    msg
}

fn run_tune(
    config: &TuneConfig,
    dir: &Path,
    resume: bool,
    concurrency: usize,
    args: &Session,
) -> Result<()> {
    if !args.quiet {
        eprintln!("tune | {}", config.describe());
        eprintln!(
            "{} worker(s) | output in {}{}",
            concurrency,
            dir.display(),
            if config.limits.is_deterministic() {
                ""
            } else {
                " | WARNING: time limits or threads make games irreproducible (resume and \
                 concurrency change the results)"
            }
        );
    }
    let pb = bar(
        args.quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, eta {eta} | {msg}",
    );
    let opts = TuneOptions {
        concurrency,
        out: Some(dir.to_path_buf()),
        resume,
        max_iterations: args.max_iterations,
        no_verify: args.no_verify,
    };
    let mut observer = |p: &TuneProgress<'_>| {
        pb.set_length(p.games_total);
        pb.set_position(p.games_done);
        pb.set_message(tune_message(p));
    };
    let outcome = run(config, &opts, &mut observer)?;
    pb.finish_and_clear();
    report_tune(config, &outcome, dir);
    let charts = crate::chart::write_tune_charts(dir, config, &outcome.history)?;
    for c in &charts {
        eprintln!("chart: {}", c.display());
    }
    if !outcome.completed || outcome.no_verify {
        tune_report(dir);
    }
    let resume = format!(
        "wuzi-tune resume {}{}",
        wuzi_arena::run_dir::shell_word(&dir.to_string_lossy()),
        if args.no_verify { " --no-verify" } else { "" }
    );
    if outcome.interrupted {
        wuzi_arena::outln!(
            "interrupted after iteration {} of {} ({} of {} games; the games of the iteration \
             in progress were dropped)",
            outcome.iterations_done,
            config.iterations(),
            outcome.totals.games(),
            config.pairs * 2
        );
        wuzi_arena::outln!("resume with: {resume}");
        return Err(TuneError::Interrupted);
    }
    if !outcome.completed {
        eprintln!(
            "stopped after iteration {} of {}; continue with `wuzi-tune resume {}`",
            outcome.iterations_done,
            config.iterations(),
            dir.display()
        );
        return Ok(());
    }
    if outcome.no_verify {
        if !args.no_verify {
            eprintln!(
                "no verification: the tune was started with --no-verify (`wuzi-tune verify {}` \
                 plays it)",
                dir.display()
            );
        }
        return Ok(());
    }
    let verified = run_verify(
        config,
        &outcome.tuned,
        &outcome.start,
        concurrency,
        &dir.join(VERIFY_DIR),
        args.quiet,
    );
    tune_report(dir);
    if matches!(verified, Err(TuneError::Interrupted)) {
        // The tune is done; resuming it plays the rest of the verification.
        wuzi_arena::outln!("resume with: {resume}");
    }
    verified
}

/// One worker of a shared tune; the one that applies the last step reports, draws the charts
/// and verifies.
fn run_worker(config: &TuneConfig, opts: &WorkerOptions, args: &Session) -> Result<()> {
    let dir = &opts.dir;
    if !args.quiet {
        eprintln!("tune | {}", config.describe());
        eprintln!(
            "shared tune worker, {} pair(s) at once | folder {} | lease {:.0} s",
            opts.concurrency,
            dir.display(),
            opts.lease.as_secs_f64()
        );
    }
    if args.max_iterations.is_some() {
        return Err(TuneError::Usage("--max-iterations applies to one-machine tunes; stop a shared worker with a signal (its claim is given up after the lease)".into()));
    }
    let pb = bar(
        args.quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games (all workers), eta {eta} | {msg}",
    );
    let mut observer = |p: &TuneProgress<'_>| {
        pb.set_length(p.games_total);
        pb.set_position(p.games_done);
        pb.set_message(tune_message(p));
    };
    let outcome = match work(config, opts, &mut observer) {
        Err(TuneError::Interrupted) => {
            pb.finish_and_clear();
            wuzi_arena::outln!(
                "interrupted: this worker's claimed iteration is played again by another worker \
                 after its lease; start a worker again with: {}",
                this_command()
            );
            return Err(TuneError::Interrupted);
        }
        other => other?,
    };
    pb.finish_and_clear();
    let s = &outcome.stats;
    wuzi_arena::outln!(
        "worker {}: {} iteration(s), {} pairs in {:.1} s of play ({:.3} pairs/s); lock: {} \
         acquisitions, {:.1} ms waiting + {:.1} ms holding per iteration",
        s.worker,
        s.iterations,
        s.pairs,
        s.play_s,
        s.pairs_per_s(),
        s.lock_count,
        1000.0 * s.lock_wait_s / s.iterations.max(1) as f64,
        1000.0 * s.lock_hold_s / s.iterations.max(1) as f64
    );
    if !outcome.finisher {
        wuzi_arena::outln!(
            "tune complete ({} iterations); {} applied the last step and verifies",
            outcome.state.applied,
            outcome
                .state
                .finished_by
                .as_deref()
                .unwrap_or("another worker")
        );
        return Ok(());
    }
    let tuned = config.setting_at(&outcome.state.theta)?;
    let start = config.start_setting()?;
    let o = TuneOutcome {
        theta: outcome.state.theta.clone(),
        iterations_done: outcome.state.applied,
        completed: true,
        interrupted: false,
        resumed_from: 0,
        history: outcome.history.clone(),
        totals: outcome.state.totals.clone(),
        start: start.clone(),
        tuned: tuned.clone(),
        games_played: s.pairs * 2,
        elapsed: std::time::Duration::from_secs_f64(s.play_s),
        no_verify: args.no_verify,
    };
    report_tune(config, &o, dir);
    if !outcome.state.abandoned.is_empty() {
        wuzi_arena::outln!(
            "{} claim(s) given up after their lease and played again; {} late result(s) \
             discarded",
            outcome.state.abandoned.len(),
            outcome.state.discarded
        );
    }
    // The paths in the order the steps were applied.
    let mut rows = outcome.history.clone();
    for (i, r) in rows.iter_mut().enumerate() {
        r.iteration = i as u64 + 1;
    }
    for c in crate::chart::write_tune_charts(dir, config, &rows)? {
        eprintln!("chart: {}", c.display());
    }
    if !args.no_verify {
        run_verify(
            config,
            &tuned,
            &start,
            opts.concurrency,
            &dir.join(VERIFY_DIR),
            args.quiet,
        )?;
    }
    tune_report(dir);
    Ok(())
}

fn report_tune(config: &TuneConfig, o: &TuneOutcome, dir: &Path) {
    wuzi_arena::outln!(
        "{} of {} iterations ({} games this session in {:.1} s; engine+ {}-{}-{} overall)",
        o.iterations_done,
        config.iterations(),
        o.games_played,
        o.elapsed.as_secs_f64(),
        o.totals.wins,
        o.totals.draws,
        o.totals.losses
    );
    wuzi_arena::outln!(
        "{:<20} {:>10} {:>12} {:>8} {:>10} {:>10}",
        "parameter",
        "start",
        "theta",
        "tuned",
        "min",
        "max"
    );
    for (i, p) in config.spsa.params.iter().enumerate() {
        wuzi_arena::outln!(
            "{:<20} {:>10} {:>12.3} {:>8} {:>10} {:>10}",
            p.name,
            p.start,
            o.theta[i],
            o.tuned.get(&p.name).unwrap_or_else(|| "-".into()),
            p.min,
            p.max
        );
    }
    wuzi_arena::outln!("tuned parameters: {}", dir.join(TUNED_FILE).display());
    wuzi_arena::outln!("history: {}", dir.join(HISTORY_FILE).display());
}
