//! `wuzi-arena`: engine-vs-engine matches, gauntlets, round robins and parameter sweeps with
//! pentanomial statistics, SPRT, records, resume, shards and export.
//!
//! This file parses the command line and dispatches; the commands live in `cli/`.

mod cli;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use cli::args::{Cli, Command};
use cli::outcome::{Diverged, Interrupted, RegressionFound};
use cli::{analyze, bench, gate, inspect, replay, run};

fn main_inner() -> Result<()> {
    match Cli::parse().command {
        Command::Match { players, common } if players.is_empty() => run::default_match(&common),
        Command::Match { players, common } => run::match_players(&players, &common),
        Command::Gauntlet { players, common } => run::gauntlet(&players, &common),
        Command::RoundRobin { players, common } => run::round_robin(&players, &common),
        Command::Sweep {
            player,
            baseline,
            grid,
            param,
            values,
            common,
        } => run::sweep(
            &common,
            player.as_deref(),
            baseline.as_deref(),
            &grid,
            param.as_deref(),
            values.as_deref(),
        ),
        Command::Resume {
            dir,
            shard,
            concurrency,
            quiet,
        } => run::resume(dir, shard, concurrency, quiet),
        Command::Merge { out, shards } => run::merge_shards(&shards, &out),
        Command::Bench(args) => bench::bench(&args),
        Command::Chart { dir, out } => inspect::chart(&dir, out.as_deref()),
        Command::Summary {
            dir,
            json,
            per_opening,
        } => inspect::summary(&dir, json, per_opening),
        Command::Export {
            input,
            format,
            out,
            size,
            rule,
        } => inspect::export(&input, format, out.as_deref(), size, rule),
        Command::Report {
            dir,
            out,
            max_games,
        } => inspect::report(&dir, out.as_deref(), max_games),
        Command::Replay { dir, game, show } => replay::replay_command(&dir, game, show),
        Command::Analyze(args) => analyze::analyze_command(&args),
        Command::Gate(args) => gate::gate_command(*args),
    }
}

fn main() -> ExitCode {
    // First, while there is one thread: what brains start dies with them, and brains die with
    // us, even when we are killed (see wuzi_arena::external::contain_brains).
    if let Err(e) = wuzi_arena::external::contain_brains() {
        eprintln!("warning: cannot contain external brains' processes: {e}");
    }
    // Ctrl-C and SIGTERM stop runs cleanly (see wuzi_arena::interrupt); without the handler
    // they would still end the program, only without a summary.
    if let Err(e) = wuzi_arena::interrupt::install() {
        eprintln!("warning: {e}");
    }
    let result = main_inner();
    // Brains of dropped players get their END grace, then are killed: none outlives us.
    wuzi_arena::external::wait_for_exits();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Interrupted>() => ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS),
        // What failed after a signal failed because of it (a build or a brain it stopped).
        Err(e) if wuzi_arena::interrupt::requested() => {
            eprintln!("interrupted: {e:#}");
            ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS)
        }
        Err(e) if e.is::<RegressionFound>() || e.is::<Diverged>() => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
