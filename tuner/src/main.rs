//! `wuzi-tune`: SPSA tuning of engine parameters (fishtest / OpenBench style) with
//! checkpoints, resume, CSV history, charts and a verification match played by the arena.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wuzi_arena::opening::{progress_bar, show_progress};
use wuzi_arena::run::{default_concurrency, Progress};
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_arena::summary::{fmt_estimate, render};
use wuzi_engine::Params;
use wuzi_tuner::fit::report::write_outputs;
use wuzi_tuner::fit::{fit, FitOptions, FitProgress, FitSettings, FitSummary, SampleOptions};
use wuzi_tuner::shared::{work, WorkerOptions};
use wuzi_tuner::spec::{load_openings, verify_openings_seed, TuneConfig, TuneSpec};
use wuzi_tuner::tune::{load_config, tune, TuneOptions, TuneOutcome, TuneProgress};
use wuzi_tuner::verify::{load_tune, repeats_openings, verify, VERIFY_DIR};
use wuzi_tuner::TuneError;

#[derive(Parser)]
#[command(
    name = "wuzi-tune",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION,
    about = "SPSA tuning of wuzi engine parameters, with checkpoints, resume, charts and verification; fits of evaluation weights to recorded games",
    after_help = "A spec is a TOML file: base parameter file, [params.NAME] tables (start, min, max, \
c_end, r_end), pairs, pairs_per_iteration, [limits], openings, rule, size, seed, out, [verify]. \
See `wuzi-tune tune --help` and suites/params/tune-example.toml.\n\nExit status: 0 when the command \
completes, 2 on any error (bad spec, unreadable files)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Tune the parameters of a spec, then verify the result against the start.
    Tune {
        /// The tune specification (TOML).
        #[arg(long)]
        spec: PathBuf,
        /// Output directory (default: the spec's `out`, else `tunes/<spec name>`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue the tune checkpointed in the output directory.
        #[arg(long, conflicts_with = "shared")]
        resume: bool,
        /// Run as one worker of a tune shared by several processes or machines on one folder
        /// (the first creates the tune, the others join; run the same command on every node).
        /// Asynchronous SPSA as fishtest's: each worker claims the next iteration, plays its
        /// pairs and applies its step to the current parameters.
        #[arg(long)]
        shared: bool,
        /// --shared: a claimed iteration whose worker stops renewing it for this many seconds
        /// is given up and played again by another worker.
        #[arg(long, default_value_t = 120.0, requires = "shared")]
        lease_s: f64,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Show the progress of a tune (shared or not), also while its workers run.
    Status {
        /// The tune directory.
        dir: PathBuf,
    },
    /// Continue the tune in DIR from its checkpoint (no spec needed).
    Resume {
        /// The tune directory.
        dir: PathBuf,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Play the tuned set of a tune directory against its start with the arena.
    Verify {
        /// The tune directory (or give --spec).
        #[arg(required_unless_present = "spec", conflicts_with = "spec")]
        dir: Option<PathBuf>,
        /// The tune's spec: verify the tune in its output directory (with the settings recorded
        /// when the tune started, unless options override them).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// Game pairs (default: the spec's [verify] pairs); with --sprt, the most pairs.
        #[arg(long)]
        pairs: Option<u64>,
        /// SPRT `elo0,elo1[,alpha,beta]`: stop when it decides.
        #[arg(long)]
        sprt: Option<String>,
        /// Elo model of the SPRT bounds: logistic or normalized.
        #[arg(long, default_value = "logistic", value_parser = parse_model)]
        sprt_model: EloModel,
        /// Match seed (default: the spec's).
        #[arg(long)]
        seed: Option<u64>,
        /// Openings of the match: renju26, random[:COUNT[:STONES]] or a file (default: the
        /// spec's [verify] openings, else the tune's). Random openings are drawn from a seed
        /// derived from the match seed. --pairs defaults to their number.
        #[arg(long)]
        openings: Option<String>,
        /// Games played at once (default: all cores).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Directory of the match's records (default: DIR/verify, or DIR/verify-<pairs>-<seed>
        /// when the options differ from the spec's).
        #[arg(long)]
        out: Option<PathBuf>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Write DIR/report.html for a tune: parameters, paths and running-score charts, history,
    /// and the verification match with its games (one self-contained page). `tune`, `resume`
    /// and `verify` write it at the end.
    Report {
        /// The tune directory.
        dir: PathBuf,
        /// Write the page here instead of DIR/report.html.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Most games of the verification in the viewer (0: all).
        #[arg(long, default_value_t = wuzi_arena::report::games::DEFAULT_MAX_GAMES)]
        max_games: usize,
    },
    /// Check a spec and print the resolved set-up and schedule without playing.
    Check {
        /// The tune specification (TOML).
        #[arg(long)]
        spec: PathBuf,
    },
    /// Fit evaluation weights to the results of recorded games (Texel-style), from arena runs.
    ///
    /// Replays every game of the runs, takes the positions after the opening where the side
    /// to move neither wins at once nor must block a four, labels each with the game's result
    /// for the side to move, dedupes them and balances the colours; fits the sigmoid scale K,
    /// then the chosen weights (Adam on the exact gradient of the evaluation, integer weights
    /// kept in their declared ranges), reporting the validation loss of every epoch.
    /// Writes DIR/fitted.toml (a complete parameter file for --params), summary.json,
    /// epochs.csv, loss.{png,svg}, paths.{png,svg} and report.html.
    Fit {
        /// An arena run directory (run.json + games.jsonl: a match, a shard, a merged run) or
        /// its games.jsonl; repeat for more runs (same rule and board size).
        #[arg(long = "records", required = true)]
        records: Vec<PathBuf>,
        /// Starting parameter file (default: the engine's defaults).
        #[arg(long)]
        base: Option<PathBuf>,
        /// An evaluation weight to fit; repeat (default: all scalar evaluation weights). A
        /// trailing `*` takes every weight with that prefix: `cmb_*` is the whole combination
        /// table (see `wuzi params --table`), `cmb_white_*` white's half.
        #[arg(long = "param")]
        params: Vec<String>,
        /// Output directory (default: fits/<name of the first records directory>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Share of the game pairs held out for the validation loss (0 to 0.9).
        #[arg(long, default_value_t = 0.1)]
        validation: f64,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 100)]
        epochs: usize,
        /// Positions per Adam step.
        #[arg(long, default_value_t = 4096)]
        batch: usize,
        /// Adam step size in SPSA steps (c_end) of each weight; decays linearly to a tenth.
        #[arg(long, default_value_t = 0.5)]
        lr: f64,
        /// Loss: ce (cross-entropy) or mse (squared error, classic Texel).
        #[arg(long, default_value = "ce")]
        loss: wuzi_tuner::fit::Loss,
        /// Use this sigmoid scale K (per eval unit) instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Weight of the recorded search score in the label (0: game result only, 1: score
        /// only); positions without a recorded score keep the result.
        #[arg(long, default_value_t = 0.0)]
        score_weight: f64,
        /// Plies after the opening's stones before positions are taken.
        #[arg(long, default_value_t = 2)]
        skip_plies: usize,
        /// Keep all positions instead of as many with white to move as with black to move.
        #[arg(long)]
        no_balance: bool,
        /// At most this many positions (a seeded subsample).
        #[arg(long)]
        max_positions: Option<usize>,
        /// Fit no logit offset per colour to move (by default one is fitted beside the weights
        /// and not written: the evaluation has no colour term, and without the offsets the
        /// weights bend to express which colour the openings favour).
        #[arg(long)]
        no_colour_offsets: bool,
        /// Keep the last epoch's weights (default: those of the epoch with the lowest
        /// validation loss; a warning says when an earlier epoch was better).
        #[arg(long)]
        keep_last: bool,
        /// Leave at its start a weight whose feature occurs in fewer training positions
        /// than this (rare combination-table classes would otherwise fit noise).
        #[arg(long, default_value_t = 200)]
        min_positions: usize,
        /// Pull of each weight back towards its start: adds l2/2 times its squared move, in
        /// SPSA steps, to the loss (0: none).
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Seed of the split, the colour balance, the subsample and the batch order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores); the result does not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// List the engine's parameters with their defaults and declared ranges.
    Params,
}

/// Options of a tuning session (they do not change the results).
#[derive(clap::Args, Clone)]
struct RunArgs {
    /// Game pairs played at once (default: the spec's, else all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Stop after this iteration of the tune (a checkpoint stays; resume later).
    #[arg(long)]
    max_iterations: Option<u64>,
    /// Do not play the verification match at the end.
    #[arg(long)]
    no_verify: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn parse_model(s: &str) -> std::result::Result<EloModel, String> {
    match s.to_ascii_lowercase().as_str() {
        "logistic" => Ok(EloModel::Logistic),
        "normalized" | "normalised" => Ok(EloModel::Normalized),
        _ => Err(format!("unknown Elo model '{s}' (logistic or normalized)")),
    }
}

fn bar(quiet: bool, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
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
    args: &RunArgs,
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
    let outcome = tune(config, &opts, &mut observer)?;
    pb.finish_and_clear();
    report_tune(config, &outcome, dir);
    let charts = wuzi_tuner::chart::write_tune_charts(dir, config, &outcome.history)?;
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
        println!(
            "interrupted after iteration {} of {} ({} of {} games; the games of the iteration \
             in progress were dropped)",
            outcome.iterations_done,
            config.iterations(),
            outcome.totals.games(),
            config.pairs * 2
        );
        println!("resume with: {resume}");
        return Err(TuneError::Interrupted.into());
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
    if matches!(
        verified.as_ref().map_err(|e| e.downcast_ref::<TuneError>()),
        Err(Some(TuneError::Interrupted))
    ) {
        // The tune is done; resuming it plays the rest of the verification.
        println!("resume with: {resume}");
    }
    verified
}

/// Writes the tune's `report.html`; a failure is reported, not fatal (`wuzi-tune report DIR`
/// retries).
fn tune_report(dir: &Path) {
    match wuzi_tuner::report::write_tune_report(dir, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: report not written: {e:#} (retry with `wuzi-tune report`)"),
    }
}

/// One worker of a shared tune; the one that applies the last step reports, draws the charts
/// and verifies.
fn run_worker(config: &TuneConfig, opts: &WorkerOptions, args: &RunArgs) -> Result<()> {
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
        bail!("--max-iterations applies to one-machine tunes; stop a shared worker with a signal (its claim is given up after the lease)");
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
            println!(
                "interrupted: this worker's claimed iteration is played again by another worker \
                 after its lease; start a worker again with: {}",
                this_command()
            );
            return Err(TuneError::Interrupted.into());
        }
        other => other?,
    };
    pb.finish_and_clear();
    let s = &outcome.stats;
    println!(
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
        println!(
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
    let tuned = config.params_at(&outcome.state.theta)?;
    let start = config.start_params()?;
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
        println!(
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
    for c in wuzi_tuner::chart::write_tune_charts(dir, config, &rows)? {
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
    println!(
        "{} of {} iterations ({} games this session in {:.1} s; engine+ {}-{}-{} overall)",
        o.iterations_done,
        config.iterations(),
        o.games_played,
        o.elapsed.as_secs_f64(),
        o.totals.wins,
        o.totals.draws,
        o.totals.losses
    );
    println!(
        "{:<20} {:>10} {:>12} {:>8} {:>10} {:>10}",
        "parameter", "start", "theta", "tuned", "min", "max"
    );
    for (i, p) in config.spsa.params.iter().enumerate() {
        println!(
            "{:<20} {:>10} {:>12.3} {:>8} {:>10} {:>10}",
            p.name,
            p.start,
            o.theta[i],
            o.tuned.get(&p.name).unwrap_or_default(),
            p.min,
            p.max
        );
    }
    println!(
        "tuned parameters: {}",
        dir.join(wuzi_tuner::tune::TUNED_FILE).display()
    );
    println!(
        "history: {}",
        dir.join(wuzi_tuner::tune::HISTORY_FILE).display()
    );
}

fn run_verify(
    config: &TuneConfig,
    tuned: &Params,
    start: &Params,
    concurrency: usize,
    out: &Path,
    quiet: bool,
) -> Result<()> {
    if repeats_openings(config) {
        eprintln!(
            "WARNING: {} pairs on fewer openings replay identical games under node or depth \
             limits; the Elo interval will be too narrow (give [verify] openings, e.g. \
             random:{}, or fewer pairs)",
            config.verify.pairs, config.verify.pairs
        );
    }
    if !quiet {
        eprintln!(
            "verify | tuned vs start | {} pairs{} | records in {}",
            config.verify.pairs,
            config
                .verify
                .sprt
                .map(|s| format!(" | SPRT [{}, {}] {}", s.elo0, s.elo1, s.model))
                .unwrap_or_default(),
            out.display()
        );
    }
    let pb = bar(
        quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, eta {eta} | {msg}",
    );
    let mut observer = |p: &Progress<'_>| {
        pb.set_length(p.total);
        pb.set_position(p.done);
        if let [t] = p.tallies {
            pb.set_message(format!("Elo {}", fmt_estimate(t.penta.elo_estimate())));
        }
    };
    let outcome = verify(config, tuned, start, concurrency, Some(out), &mut observer)?;
    pb.finish_and_clear();
    print!("{}", render(&outcome.run.summary));
    if !outcome.run.interrupted {
        println!(
            "verification: tuned vs start Elo {}",
            fmt_estimate(outcome.elo)
        );
    }
    for c in wuzi_tuner::chart::write_verify_charts(out)? {
        eprintln!("chart: {}", c.display());
    }
    match wuzi_arena::report::write_run_report(out, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: verification report not written: {e:#}"),
    }
    if outcome.run.interrupted {
        return Err(TuneError::Interrupted.into());
    }
    Ok(())
}

fn run_fit(options: &FitOptions, dir: &Path, threads: Option<usize>, quiet: bool) -> Result<()> {
    if threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let pb = bar(quiet, "{elapsed_precise} [{bar:30}] {pos}/{len} {msg}");
    let progress = |p: FitProgress<'_>| match p {
        FitProgress::Replay(done, total) => {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
            pb.set_message("games replayed");
        }
        FitProgress::Epoch(r, total) => {
            pb.set_length(total as u64);
            pb.set_position(r.epoch as u64);
            pb.set_message(format!(
                "epochs | train {:.5} | validation {}",
                r.train_loss,
                r.validation_loss
                    .map_or_else(|| "-".to_string(), |v| format!("{v:.5}"))
            ));
        }
    };
    let outcome = pool.install(|| fit(options, &progress))?;
    pb.finish_and_clear();
    for s in outcome.sample.sources.iter().filter(|s| s.truncated) {
        eprintln!(
            "note: {}: the last line of games.jsonl was cut off (an interrupted run) and was ignored",
            s.path.display()
        );
    }
    print!("{}", FitSummary::new(&outcome).table());
    for f in write_outputs(dir, &outcome)? {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

fn default_out(spec: &TuneSpec, path: &Path) -> PathBuf {
    spec.out.clone().unwrap_or_else(|| {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tune".into());
        Path::new("tunes").join(stem)
    })
}

fn spec_dir(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Resolves a spec with a progress bar (unless `quiet`) over the random openings it builds.
fn resolve_spec(parsed: &TuneSpec, spec: &Path, quiet: bool) -> Result<TuneConfig> {
    let bar = progress_bar(quiet, "random openings");
    let config = parsed.resolve_with(&spec_dir(spec), &mut |done, total| {
        show_progress(&bar, done, total)
    });
    bar.finish_and_clear();
    config.with_context(|| format!("spec {}", spec.display()))
}

fn main_inner() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Tune {
            spec,
            out,
            resume,
            shared,
            lease_s,
            run,
        } => {
            let parsed = TuneSpec::load(&spec)?;
            let config = resolve_spec(&parsed, &spec, run.quiet)?;
            let dir = out.unwrap_or_else(|| default_out(&parsed, &spec));
            let concurrency = run
                .concurrency
                .or(parsed.concurrency)
                .unwrap_or_else(default_concurrency);
            if concurrency == 0 {
                bail!("--concurrency must be at least 1");
            }
            if shared {
                if !(lease_s.is_finite() && lease_s > 0.0) {
                    bail!("--lease-s must be positive");
                }
                let mut opts = WorkerOptions::new(&dir, concurrency);
                opts.lease = std::time::Duration::from_secs_f64(lease_s);
                opts.poll = opts.poll.min(opts.lease / 4);
                return run_worker(&config, &opts, &run);
            }
            run_tune(&config, &dir, resume, concurrency, &run)
        }
        Command::Status { dir } => {
            print!("{}", wuzi_tuner::status::status(&dir)?);
            Ok(())
        }
        Command::Resume { dir, run } => {
            let config = load_config(&dir)?;
            let concurrency = run.concurrency.unwrap_or_else(default_concurrency);
            if concurrency == 0 {
                bail!("--concurrency must be at least 1");
            }
            run_tune(&config, &dir, true, concurrency, &run)
        }
        Command::Verify {
            dir,
            spec,
            pairs,
            sprt,
            sprt_model,
            seed,
            openings,
            concurrency,
            out,
            quiet,
        } => {
            let dir = match (dir, spec) {
                (Some(d), _) => d,
                (None, Some(spec)) => default_out(&TuneSpec::load(&spec)?, &spec),
                (None, None) => bail!("give the tune directory or --spec"),
            };
            let loaded = load_tune(&dir)?;
            let (mut config, start, tuned) = (loaded.config, loaded.start, loaded.tuned);
            if loaded.iteration < config.iterations() && !quiet {
                eprintln!(
                    "note: the tune is at iteration {} of {}; verifying its current values",
                    loaded.iteration,
                    config.iterations()
                );
            }
            let spec_verify = config.verify.clone();
            if let Some(p) = pairs {
                if p == 0 {
                    bail!("--pairs must be at least 1");
                }
                config.verify.pairs = p;
            }
            if let Some(s) = sprt {
                config.verify.sprt = Some(SprtParams::parse(&s, sprt_model)?);
            }
            if let Some(s) = seed {
                config.verify.seed = s;
            }
            if let Some(text) = &openings {
                let bar = progress_bar(quiet, "random openings");
                let set = load_openings(
                    text,
                    None,
                    false,
                    Path::new("."),
                    &config.game,
                    verify_openings_seed(config.verify.seed),
                    pairs,
                    &mut |done, total| show_progress(&bar, done, total),
                )?;
                bar.finish_and_clear();
                if pairs.is_none() {
                    config.verify.pairs = set.list.len() as u64;
                }
                config.verify.openings = Some(set);
            }
            let out = out.unwrap_or_else(|| {
                if config.verify == spec_verify {
                    dir.join(VERIFY_DIR)
                } else {
                    let name: String = format!(
                        "verify-{}-{}{}{}",
                        config.verify.pairs,
                        config.verify.seed,
                        config
                            .verify
                            .sprt
                            .map(|s| format!("-sprt{}_{}", s.elo0, s.elo1))
                            .unwrap_or_default(),
                        openings.map(|o| format!("-{o}")).unwrap_or_default()
                    )
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
                    dir.join(name)
                }
            });
            let concurrency = concurrency.unwrap_or_else(default_concurrency);
            if concurrency == 0 {
                bail!("--concurrency must be at least 1");
            }
            let verified = run_verify(&config, &tuned, &start, concurrency, &out, quiet);
            if matches!(
                verified.as_ref().map_err(|e| e.downcast_ref::<TuneError>()),
                Err(Some(TuneError::Interrupted))
            ) {
                // The verification continues its recorded games when run again.
                println!("resume with: {}", this_command());
            }
            verified?;
            tune_report(&dir);
            Ok(())
        }
        Command::Report {
            dir,
            out,
            max_games,
        } => {
            let path = wuzi_tuner::report::write_tune_report(
                &dir,
                out.as_deref(),
                &wuzi_arena::report::ReportOptions { max_games },
            )?;
            eprintln!("report: {}", path.display());
            Ok(())
        }
        Command::Check { spec } => {
            let parsed = TuneSpec::load(&spec)?;
            let config = resolve_spec(&parsed, &spec, false)?;
            println!("{}", config.describe());
            println!("base: {}", config.base_source);
            println!("openings: {}", config.openings_source);
            println!(
                "{:<20} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>10}",
                "parameter", "start", "min", "max", "c_end", "r_end", "c_1", "a_1", "max step"
            );
            let s = &config.spsa.schedule;
            for p in &config.spsa.params {
                // The largest first-iteration move: a_1 * 2 * pairs_per_iteration / c_1.
                let step = s.a_k(p, 1) * 2.0 * config.pairs_per_iteration as f64 / s.c_k(p, 1);
                println!(
                    "{:<20} {:>8} {:>8} {:>8} {:>8.3} {:>8} {:>9.3} {:>9.4} {:>10.3}",
                    p.name,
                    p.start,
                    p.min,
                    p.max,
                    p.c_end,
                    p.r_end,
                    s.c_k(p, 1),
                    s.a_k(p, 1),
                    step
                );
            }
            println!(
                "verify: {} pairs on {}, seed {}{}",
                config.verify.pairs,
                config.verify.openings.as_ref().map_or(
                    "the tune's openings".to_string(),
                    |o| format!("{} ({})", o.source, o.list.len())
                ),
                config.verify.seed,
                config
                    .verify
                    .sprt
                    .map(|s| format!(", SPRT {s} ({})", s.model))
                    .unwrap_or_default()
            );
            if repeats_openings(&config) {
                println!(
                    "WARNING: the verification plays more pairs than it has openings: games \
                     repeat and its Elo interval would be too narrow"
                );
            }
            println!("output: {}", default_out(&parsed, &spec).display());
            Ok(())
        }
        Command::Fit {
            records,
            base,
            params,
            out,
            validation,
            epochs,
            batch,
            lr,
            loss,
            k,
            score_weight,
            skip_plies,
            no_balance,
            max_positions,
            no_colour_offsets,
            keep_last,
            min_positions,
            l2,
            seed,
            threads,
            quiet,
        } => {
            let options = FitOptions {
                records,
                base,
                sample: SampleOptions {
                    skip_plies,
                    balance: !no_balance,
                    validation,
                    max_positions,
                    seed,
                },
                fit: FitSettings {
                    params,
                    loss,
                    epochs,
                    batch,
                    lr,
                    seed,
                    k,
                    colour_offsets: !no_colour_offsets,
                    keep_last,
                    min_positions,
                    l2,
                },
                score_weight,
            };
            let dir = out.unwrap_or_else(|| wuzi_tuner::fit::default_out(&options.records));
            run_fit(&options, &dir, threads, quiet)
        }
        Command::Params => {
            println!(
                "{:<20} {:>8} {:>8} {:>8}  meaning",
                "name", "default", "min", "max"
            );
            for s in Params::SPECS {
                println!(
                    "{:<20} {:>8} {:>8} {:>8}  {}",
                    s.name,
                    s.default,
                    s.min,
                    s.max,
                    s.help.trim()
                );
            }
            let t = Params::table_specs();
            println!(
                "and {} combination table entries, {} .. {}, range {}..={} (`wuzi params \
                 --table` shows their values)",
                t.len(),
                t[0].name,
                t[t.len() - 1].name,
                t[0].min,
                t[0].max
            );
            Ok(())
        }
    }
}

/// This program's command line, as one line a shell reads back the same.
fn this_command() -> String {
    wuzi_arena::run_dir::this_command("wuzi-tune")
}

fn main() -> ExitCode {
    // Ctrl-C and SIGTERM stop a tune after dropping the games in flight (see
    // wuzi_arena::interrupt): the checkpoint stays, and `wuzi-tune resume` continues.
    if let Err(e) = wuzi_arena::interrupt::install() {
        eprintln!("warning: {e}");
    }
    let result = main_inner();
    wuzi_arena::external::wait_for_exits();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if matches!(e.downcast_ref::<TuneError>(), Some(TuneError::Interrupted)) => {
            ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS)
        }
        // What failed after a signal failed because of it.
        Err(e) if wuzi_arena::interrupt::requested() => {
            eprintln!("interrupted: {e:#}");
            ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
