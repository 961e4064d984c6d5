//! `pbrain-wuzi`: the wuzi engine as a Gomocup (piskvork) brain on stdin/stdout.
//!
//! The protocol itself lives in [`wuzi_engine::protocol`]; this binary reads the command
//! line (parameter set, threads, hash) and runs the brain until `END` or end of input.

use clap::Parser;
use std::io::{self, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi_engine::protocol::{self, Brain};
use wuzi_engine::Params;

/// Gomocup brain for the wuzi engine: speaks the piskvork protocol on stdin/stdout.
#[derive(Parser)]
#[command(
    name = "pbrain-wuzi",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION
)]
struct Cli {
    /// Parameter file (TOML, `name = value`), as `wuzi --params`.
    #[arg(long = "params")]
    params: Option<PathBuf>,
    /// Override one parameter (`name=value`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Search threads (the manager's `INFO thread_num` overrides it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB (default 64; capped by the manager's `INFO max_memory`).
    #[arg(long)]
    hash_mb: Option<usize>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let params = match Params::from_file_and_settings(cli.params.as_deref(), &cli.set) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pbrain-wuzi: error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut brain = Brain::new(params, cli.hash_mb, cli.threads);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(io::stdout().lock());
    match protocol::run(&mut brain, &mut input, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-wuzi: error: {e}");
            ExitCode::from(1)
        }
    }
}
