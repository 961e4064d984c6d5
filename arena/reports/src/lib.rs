//! Self-contained HTML reports of runs, gates and (through the tuner) tunes: one
//! `report.html` that opens from disk with no network access, with the configuration, the
//! summary table (W/D/L, pentanomial, Elo, nElo, LOS, SPRT), the charts as inline SVG, sortable
//! per-opening results, the games that did not end with a five, and a game viewer (every
//! embedded game's moves in the project's notation, a board stepped with buttons and arrow
//! keys, move numbers, the last move marked, renju black's forbidden points computed by the
//! engine for every position, the players' nodes and time per move).
//!
//! - [`page`]: a page under construction ([`Page`]) and its rendering into the template
//!   (`assets/page.html`, `assets/style.css`, `assets/report.js`, `assets/viewer.html`,
//!   included in the binary).
//! - [`html`]: escaping of everything embedded (names, reasons, engine output, SVG, JSON).
//! - [`games`]: the viewer's games, the sample of large runs, forbidden points per ply.
//! - [`run_report`]: the sections of a run directory.
//! - [`run_charts`]: the charts of a run (score, colours, SPRT path, sweep Elo), PNG + SVG.
//! - [`options`]: what a report embeds.
//! - [`analysis`]: the analyst's view (`wuzi-arena analyze`), when the run folder has one:
//!   mistakes per player, and per game an evaluation graph, the analyst's moves and the
//!   decisive mistake in the viewer.
//!
//! The page of a gate's output folder is the gate's own (`wuzi_arena::gate::report`), built
//! from these parts.
//!
//! Large runs: at most [`ReportOptions::max_games`] games are embedded in the viewer (default
//! [`games::DEFAULT_MAX_GAMES`]; the rest are one `wuzi-arena export` away); all statistics
//! and tables count every game.

#![warn(missing_docs)]

pub mod analysis;
pub mod games;
pub mod html;
pub mod options;
pub mod page;
pub mod run_charts;
pub mod run_report;

use std::path::{Path, PathBuf};

use wuzi_runs::error::Result;

pub use options::{ReportOptions, REPORT_FILE};
pub use page::{Chart, Page};
pub use run_report::RunReport;

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
