//! `wuzi suite`: runs rule and tactics suite files or folders.

use super::param_args::ParamArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi_engine::suite;

// Options of `wuzi suite`.
#[derive(Args)]
pub struct SuiteArgs {
    /// Files or folders of `.toml` suites.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    params: ParamArgs,
}

/// Prints each failure and the report; fails (exit 1) when a case failed.
pub fn run(a: SuiteArgs) -> Result<ExitCode> {
    let report = suite::run(&a.paths, &a.params.load()?)?;
    for f in &report.failures {
        println!("{f}");
    }
    println!("{report}");
    if !report.ok() {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
