//! `wuzi-tune`: SPSA tuning of engine parameters (fishtest / OpenBench style) with
//! checkpoints, resume, CSV history, charts and a verification match played by the arena.
//!
//! This file parses the command line and hands each command to [`wuzi_tuner::command`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use wuzi_tuner::command::{self, verify::VerifyArgs, Session};
use wuzi_tuner::fit::{FitOptions, FitSettings, SampleOptions};
use wuzi_tuner::TuneError;

#[derive(Parser)]
#[command(
    name = "wuzi-tune",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION,
    about = "SPSA tuning of wuzi engine parameters, with checkpoints, resume, charts and verification; fits of evaluation weights to recorded games",
    after_help = "A spec is a TOML file: base parameter file, [params.NAME] tables (start, min, max, \
c_end, travel; r_end under schedule = \"fishtest\"), schedule (adam or fishtest), pairs, pairs_per_iteration, [limits], openings, rule, size, seed, out, [verify]. \
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
    Verify(VerifyArgs),
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

impl RunArgs {
    fn session(&self) -> Session {
        Session {
            concurrency: self.concurrency,
            max_iterations: self.max_iterations,
            no_verify: self.no_verify,
            quiet: self.quiet,
        }
    }
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
        } => command::tune::tune(&spec, out, resume, shared, lease_s, &run.session())?,
        Command::Status { dir } => command::status(&dir)?,
        Command::Resume { dir, run } => command::tune::resume(&dir, &run.session())?,
        Command::Verify(args) => command::verify::verify(args)?,
        Command::Report {
            dir,
            out,
            max_games,
        } => command::report(&dir, out.as_deref(), max_games)?,
        Command::Check { spec } => command::check::check(&spec)?,
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
            command::fit::fit(&options, &dir, threads, quiet)?
        }
        Command::Params => command::check::params(),
    }
    Ok(())
}

fn main() -> ExitCode {
    // First, while there is one thread: what brains start dies with them, and brains die with
    // us, even when we are killed (see wuzi_arena::external::contain_brains).
    if let Err(e) = wuzi_arena::external::contain_brains() {
        eprintln!("warning: cannot contain external brains' processes: {e}");
    }
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
