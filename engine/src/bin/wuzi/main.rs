//! `wuzi`: the engine's command line. This file only parses the arguments and dispatches;
//! each command lives in its own module beside this file.

mod analyze;
mod bench;
mod forbidden;
mod param_args;
mod params;
mod play;
mod position_args;
mod show;
mod suite;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "wuzi",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION,
    about = "Gomoku/Renju engine: rules, analysis, suites"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a position and black's forbidden points.
    Forbidden(forbidden::ForbiddenArgs),
    /// Print a diagram of a position, and the outcome if the game is over.
    Show(show::ShowArgs),
    /// Run rule and tactics suite files or folders.
    Suite(suite::SuiteArgs),
    /// Search a position and print depth-by-depth progress and the best move.
    Analyze(analyze::AnalyzeArgs),
    /// Search the fixed bench positions; prints total nodes (the behaviour signature).
    Bench(bench::BenchArgs),
    /// List the tunable parameters (or print them as a TOML file with --toml).
    Params(params::ParamsArgs),
    /// Play in the terminal against the engine (type `help` at the prompt for commands).
    Play(play::PlayArgs),
}

fn run() -> Result<ExitCode> {
    match Cli::parse().command {
        Command::Forbidden(a) => forbidden::run(a)?,
        Command::Show(a) => show::run(a)?,
        Command::Suite(a) => return suite::run(a),
        Command::Analyze(a) => analyze::run(a)?,
        Command::Bench(a) => return bench::run(a),
        Command::Params(a) => params::run(a)?,
        Command::Play(a) => play::run(a)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A closed standard output (`wuzi params | head -1`) ends the program quietly, as it ends
/// any Unix filter: Rust starts programs with SIGPIPE ignored, and `println!` then panics on
/// the broken pipe. Only this command does it; the arena and the tuner write to engines'
/// pipes and must see those errors instead.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: sets the disposition of one signal to its default, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    default_sigpipe();
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
