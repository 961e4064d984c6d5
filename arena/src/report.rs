//! Self-contained HTML reports of runs, gates and (through the tuner) tunes: one
//! `report.html` that opens from disk with no network access, with the configuration, the
//! summary table (W/D/L, pentanomial, Elo, nElo, LOS, SPRT), the charts as inline SVG, sortable
//! per-opening results, the games that did not end with a five, and a game viewer (every
//! embedded game's moves in the project's notation, a board stepped with buttons and arrow
//! keys, move numbers, the last move marked, renju black's forbidden points computed by the
//! engine for every position, the players' nodes and time per move).
//!
//! - [`page`]: a page under construction ([`Page`]) and its rendering into the template
//!   (`report/page.html`, `report/style.css`, `report/report.js`, `report/viewer.html`,
//!   included in the binary).
//! - [`html`]: escaping of everything embedded (names, reasons, engine output, SVG, JSON).
//! - [`games`]: the viewer's games, the sample of large runs, forbidden points per ply.
//! - [`run_report`]: the sections of a run directory.
//! - [`gate_report`]: the page of a gate's output folder.
//!
//! Large runs: at most [`ReportOptions::max_games`] games are embedded in the viewer (default
//! [`games::DEFAULT_MAX_GAMES`]; the rest are one `wuzi-arena export` away); all statistics
//! and tables count every game.

pub mod games;
pub mod gate_report;
pub mod html;
pub mod page;
pub mod run_report;

use std::path::{Path, PathBuf};

use crate::config::RUN_FILE;
use crate::error::{ArenaError, Result};
pub use page::{Chart, Page};
pub use run_report::RunReport;

/// File name of a report in the folder it describes.
pub const REPORT_FILE: &str = "report.html";

/// What a report embeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// Most games in the viewer (0: all); larger runs get a sample.
    pub max_games: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            max_games: games::DEFAULT_MAX_GAMES,
        }
    }
}

/// The report of a run directory (a match, gauntlet, round robin, sweep, shard, merged run,
/// or a folder shared by a run's shards), written to `out` (default `DIR/report.html`). Returns the
/// path written.
pub fn write_run_report(dir: &Path, out: Option<&Path>, opts: &ReportOptions) -> Result<PathBuf> {
    let run = RunReport::load(dir)?;
    let mut page = Page::new(run.title());
    page.subtitle(run.subtitle());
    run.add_sections(&mut page, opts, true);
    let path = out.map_or_else(|| dir.join(REPORT_FILE), Path::to_path_buf);
    page.write(&path)?;
    Ok(path)
}

/// The report of any folder the arena writes: a gate's output folder (`gate.json`) or a run
/// directory. A tune folder is the tuner's (`wuzi-tune report`).
pub fn write_report(dir: &Path, out: Option<&Path>, opts: &ReportOptions) -> Result<PathBuf> {
    if dir.join(crate::gate::REPORT_JSON).exists() {
        return gate_report::write_gate_report(dir, out, opts);
    }
    if dir.join("tune.json").exists() {
        return Err(ArenaError::Config(format!(
            "{} is a tune folder: its report is written by `wuzi-tune report {}`",
            dir.display(),
            dir.display()
        )));
    }
    let shard_files = std::fs::read_dir(dir).is_ok_and(|mut l| {
        l.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("run-shard-")))
    });
    if dir.join(RUN_FILE).exists() || shard_files {
        // Errors name what is wrong with the run's files.
        return write_run_report(dir, out, opts);
    }
    Err(ArenaError::Config(format!(
        "{}: neither a run directory ({RUN_FILE} or run-shard-I-of-N.json) nor a gate folder ({})",
        dir.display(),
        crate::gate::REPORT_JSON
    )))
}
