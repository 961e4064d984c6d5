//! The bodies of `wuzi-tune`'s commands: what they print, their progress bars, and the files
//! and matches they ask the library for. The binary parses the command line and calls one.
//!
//! - [`tune`]: the commands `tune` (one machine or a shared worker) and `resume`.
//! - [`verify`]: the command `verify`, and the verification at the end of a tune.
//! - [`check`]: the commands `check` and `params`, which play nothing.
//! - [`fit`]: the command `fit`.
//! - here: `status` and `report`, and what the others share.

pub mod check;
pub mod fit;
pub mod tune;
pub mod verify;

use std::path::{Path, PathBuf};

use wuzi_arena::opening::{progress_bar, show_progress};
// The arena's bar (one look for every long job); the command bodies use it as `super::bar`.
use wuzi_arena::progress::bar;
use wuzi_arena::report::ReportOptions;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::spec::TuneSpec;

/// Options of a tuning session (they do not change the results).
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// Game pairs played at once (default: the spec's, else all cores).
    pub concurrency: Option<usize>,
    /// Stop after this iteration of the tune (a checkpoint stays; resume later).
    pub max_iterations: Option<u64>,
    /// Do not play the verification match at the end.
    pub no_verify: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// `wuzi-tune status DIR`: prints the progress of the tune in `dir`.
pub fn status(dir: &Path) -> Result<()> {
    wuzi_arena::out!("{}", crate::status::status(dir)?);
    Ok(())
}

/// `wuzi-tune report DIR`: writes the tune's `report.html` (or `out`).
pub fn report(dir: &Path, out: Option<&Path>, max_games: usize) -> Result<()> {
    let path = crate::report::write_tune_report(dir, out, &ReportOptions { max_games })?;
    eprintln!("report: {}", path.display());
    Ok(())
}

/// Writes the tune's `report.html`; a failure is reported, not fatal (`wuzi-tune report DIR`
/// retries).
fn tune_report(dir: &Path) {
    match crate::report::write_tune_report(dir, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: report not written: {e:#} (retry with `wuzi-tune report`)"),
    }
}

/// The tune folder of a spec: its `out`, else `tunes/<spec name>`.
fn default_out(spec: &TuneSpec, path: &Path) -> PathBuf {
    spec.out.clone().unwrap_or_else(|| {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tune".into());
        Path::new("tunes").join(stem)
    })
}

/// The folder a spec's relative paths start from.
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
    config.map_err(|error| TuneError::InSpec {
        path: spec.to_path_buf(),
        error: Box::new(error),
    })
}

/// This program's command line, as one line a shell reads back the same.
fn this_command() -> String {
    wuzi_arena::run_dir::this_command("wuzi-tune")
}
