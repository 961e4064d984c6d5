//! What a fit writes: `fitted.toml` (a complete parameter file), `summary.json`,
//! `epochs.csv`, the loss curve (`loss.png`/`.svg`), the weights' paths in SPSA steps
//! (`paths.png`/`.svg`) and `report.html` (the arena's report page: result, kept epoch,
//! weights, both charts and the losses of every epoch).
//! Every file is written beside its final name and renamed into place once all are ready.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use wuzi_arena::chart::{lines_chart, output_paths, LineData};
use wuzi_arena::report::html::{key_values, table, Cell};
use wuzi_arena::report::{Chart, Page, REPORT_FILE};
use wuzi_engine::Params;

use super::error::FitError;
use super::optimize::{kept_reason, EpochRecord, FitSettings};
use super::sample::{SampleOptions, SampleStats, SourceInfo};
use super::FitOutcome;

/// The fitted parameter file in the output directory.
pub const FITTED_FILE: &str = "fitted.toml";
/// The summary in the output directory.
pub const SUMMARY_FILE: &str = "summary.json";
/// Per-epoch losses and weights.
pub const EPOCHS_FILE: &str = "epochs.csv";
/// Stem of the loss-curve chart.
pub const LOSS_CHART: &str = "loss";
/// Stem of the weights' paths chart.
pub const PATHS_CHART: &str = "paths";
/// Most weight paths drawn in the paths chart (those that moved most, in SPSA steps).
const MAX_PATHS: usize = 16;

/// One fitted weight in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct WeightChange {
    /// The parameter.
    pub name: String,
    /// Its starting value.
    pub start: i32,
    /// Its fitted value.
    pub fitted: i32,
    /// `fitted - start`.
    pub change: i32,
    /// Declared range.
    pub min: i32,
    /// Declared range.
    pub max: i32,
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct FitSummary {
    /// The records read.
    pub sources: Vec<SourceInfo>,
    /// Their rule.
    pub rule: String,
    /// Their board size.
    pub size: usize,
    /// The starting parameters' source.
    pub base: String,
    /// Position selection.
    pub sampling: SampleOptions,
    /// Positions kept and dropped.
    pub positions: SampleStats,
    /// Weight of the search score in the labels.
    pub score_weight: f64,
    /// The optimisation settings.
    pub settings: FitSettings,
    /// The sigmoid scale per evaluation unit.
    pub k: f64,
    /// Training loss of the start.
    pub train_loss_start: f64,
    /// Validation loss of the start.
    pub validation_loss_start: Option<f64>,
    /// Training loss of the fitted set.
    pub train_loss: f64,
    /// Validation loss of the fitted set.
    pub validation_loss: Option<f64>,
    /// The epoch kept.
    pub best_epoch: usize,
    /// Why that epoch was kept (lowest validation loss, or `--keep-last` with a warning when
    /// an earlier epoch was better).
    pub kept: String,
    /// Chosen weights left at their start: their feature is in fewer training positions
    /// than `settings.min_positions`.
    pub rare: Vec<String>,
    /// The fitted weights.
    pub weights: Vec<WeightChange>,
    /// Every epoch.
    pub epochs: Vec<EpochRecord>,
}

impl FitSummary {
    /// The summary of a fit.
    pub fn new(o: &FitOutcome) -> FitSummary {
        let r = &o.result;
        let best = &r.epochs[r.best_epoch];
        FitSummary {
            sources: o.sample.sources.clone(),
            rule: o.sample.rule.to_string(),
            size: o.sample.size,
            base: o.base_source.clone(),
            sampling: o.options.sample.clone(),
            positions: o.sample.stats.clone(),
            score_weight: o.options.score_weight,
            settings: o.options.fit.clone(),
            k: r.k,
            train_loss_start: r.epochs[0].train_loss,
            validation_loss_start: r.epochs[0].validation_loss,
            train_loss: best.train_loss,
            validation_loss: best.validation_loss,
            best_epoch: r.best_epoch,
            kept: kept_reason(&r.epochs, r.best_epoch, o.options.fit.keep_last),
            rare: r.rare.clone(),
            weights: o
                .options
                .fit
                .params
                .iter()
                .map(|n| {
                    let s = Params::spec(n).expect("checked");
                    let (start, fitted) = (
                        o.base.get(n).expect("declared"),
                        r.fitted.get(n).expect("declared"),
                    );
                    WeightChange {
                        name: n.clone(),
                        start,
                        fitted,
                        change: fitted - start,
                        min: s.min,
                        max: s.max,
                    }
                })
                .collect(),
            epochs: r.epochs.clone(),
        }
    }

    /// The printed report: positions, K, losses, weight changes.
    pub fn table(&self) -> String {
        let p = &self.positions;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "records: {} run(s), {} {}x{}, {} games ({} not used: crash, time-out or illegal move)",
            self.sources.len(),
            self.rule,
            self.size,
            self.size,
            p.games,
            p.games_skipped
        );
        let _ = writeln!(
            s,
            "positions: {} after the opening, -{} win at once, -{} must block a four, -{} repeats, \
             -{} colour balance, -{} cap => {} ({} black / {} white to move), {} train / {} validation",
            p.candidates,
            p.win_now,
            p.must_block,
            p.duplicates,
            p.balance_dropped,
            p.cap_dropped,
            p.train + p.validation,
            p.black_to_move,
            p.white_to_move,
            p.train,
            p.validation
        );
        let loss = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.5}"));
        let _ = writeln!(
            s,
            "K = {:.6} per eval unit ({} loss) | train {:.5} -> {:.5} | validation {} -> {}",
            self.k,
            self.settings.loss,
            self.train_loss_start,
            self.train_loss,
            loss(self.validation_loss_start),
            loss(self.validation_loss),
        );
        let _ = writeln!(
            s,
            "kept epoch {} of {}: {}",
            self.best_epoch,
            self.epochs.len() - 1,
            self.kept
        );
        if let Some(e) = self.epochs.get(self.best_epoch) {
            if e.offsets != [0.0; 2] {
                let _ = writeln!(
                    s,
                    "colour offsets (logit, not part of the evaluation): black to move {:+.3}, white to move {:+.3}",
                    e.offsets[0], e.offsets[1]
                );
            }
        }
        if !self.rare.is_empty() {
            let _ = writeln!(
                s,
                "left at their start (in fewer than {} training positions): {}",
                self.settings.min_positions,
                self.rare.len()
            );
        }
        let _ = writeln!(
            s,
            "{:<26} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "parameter", "start", "fitted", "change", "min", "max"
        );
        // A whole table (thousands of entries, most of them rare) would bury the result: past
        // TABLE_ROWS fitted weights only the moved ones are listed (summary.json has all).
        let list_all = self.weights.len() <= TABLE_ROWS;
        for w in self.weights.iter().filter(|w| list_all || w.change != 0) {
            let _ = writeln!(
                s,
                "{:<26} {:>8} {:>8} {:>+8} {:>8} {:>8}",
                w.name, w.start, w.fitted, w.change, w.min, w.max
            );
        }
        if !list_all {
            let unmoved = self.weights.iter().filter(|w| w.change == 0).count();
            let _ = writeln!(
                s,
                "({unmoved} of {} fitted weights unmoved, not listed; summary.json has every one)",
                self.weights.len()
            );
        }
        s
    }
}

/// Most fitted weights the text report lists one by one.
const TABLE_ROWS: usize = 200;

fn temp_name(path: &Path) -> PathBuf {
    let mut t = path.as_os_str().to_owned();
    t.push(".tmp");
    PathBuf::from(t)
}

/// Writes the fit's files into `dir`; returns the paths written. All files are first written
/// under temporary names and renamed at the end, so a failure leaves no half-written output.
pub fn write_outputs(dir: &Path, o: &FitOutcome) -> Result<Vec<PathBuf>, FitError> {
    std::fs::create_dir_all(dir).map_err(|e| FitError::io(dir, e))?;
    let summary = FitSummary::new(o);
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut text_file = |name: &str, text: String| -> Result<(), FitError> {
        let path = dir.join(name);
        let tmp = temp_name(&path);
        std::fs::write(&tmp, text).map_err(|e| FitError::io(&tmp, e))?;
        staged.push((tmp, path));
        Ok(())
    };
    let header = format!(
        "# Fitted by `wuzi-tune fit` from {} game(s) ({} positions, K = {:.6}): {}.\n\
         # Start: {}. Validation loss {} -> {}.\n\n",
        summary.positions.games,
        summary.positions.train + summary.positions.validation,
        summary.k,
        summary
            .weights
            .iter()
            .map(|w| format!("{} {} -> {}", w.name, w.start, w.fitted))
            .collect::<Vec<_>>()
            .join(", "),
        summary.base,
        summary
            .validation_loss_start
            .map_or("-".into(), |v| format!("{v:.5}")),
        summary
            .validation_loss
            .map_or("-".into(), |v| format!("{v:.5}")),
    );
    text_file(FITTED_FILE, header + &o.result.fitted.to_toml())?;
    text_file(
        SUMMARY_FILE,
        serde_json::to_string_pretty(&summary).expect("summary serializes") + "\n",
    )?;
    let mut csv = String::from("epoch,train_loss,validation_loss");
    for n in &o.options.fit.params {
        let _ = write!(csv, ",{n}");
    }
    csv.push('\n');
    for e in &o.result.epochs {
        let _ = write!(
            csv,
            "{},{},{}",
            e.epoch,
            e.train_loss,
            e.validation_loss.map_or(String::new(), |v| v.to_string())
        );
        for v in &e.values {
            let _ = write!(csv, ",{v}");
        }
        csv.push('\n');
    }
    text_file(EPOCHS_FILE, csv)?;
    // Charts: drawn under temporary stems, renamed with the rest.
    let chart_err = |stem: &Path, e: wuzi_arena::chart::ChartError| FitError::Chart {
        path: stem.to_path_buf(),
        message: e.to_string(),
    };
    let epochs = &o.result.epochs;
    let mut series = vec![LineData {
        label: "training loss (rounded weights)".into(),
        points: epochs
            .iter()
            .map(|e| (e.epoch as f64, e.train_loss))
            .collect(),
    }];
    if epochs[0].validation_loss.is_some() {
        series.push(LineData {
            label: "validation loss".into(),
            points: epochs
                .iter()
                .filter_map(|e| e.validation_loss.map(|v| (e.epoch as f64, v)))
                .collect(),
        });
    }
    let best_label = format!("kept: epoch {}", o.result.best_epoch);
    let loss_stem = dir.join(format!("{LOSS_CHART}.tmp"));
    lines_chart(
        &loss_stem,
        &format!(
            "Fit of {} weight(s): mean {} (K = {:.5})",
            o.options.fit.params.len(),
            o.options.fit.loss,
            o.result.k
        ),
        "epoch",
        &format!("mean {}", o.options.fit.loss),
        &series,
        Some((o.result.best_epoch as f64, &best_label)),
    )
    .map_err(|e| chart_err(&loss_stem, e))?;
    // With many weights (the combination table) the chart shows those that moved most.
    let names = &o.options.fit.params;
    let moved = |n: &String| {
        let spec = Params::spec(n).expect("checked");
        f64::from(
            (o.result.fitted.get(n).expect("declared") - o.base.get(n).expect("declared")).abs(),
        ) / spec.step
    };
    let mut shown: Vec<usize> = (0..names.len()).collect();
    if shown.len() > MAX_PATHS {
        shown.sort_by(|&a, &b| {
            moved(&names[b])
                .total_cmp(&moved(&names[a]))
                .then(a.cmp(&b))
        });
        shown.truncate(MAX_PATHS);
        shown.sort_unstable();
    }
    let paths: Vec<LineData> = shown
        .into_iter()
        .map(|k| (k, &names[k]))
        .map(|(k, n)| {
            let spec = Params::spec(n).expect("checked");
            let start = f64::from(o.base.get(n).expect("declared"));
            LineData {
                label: format!(
                    "{n} ({} -> {}, step {})",
                    start,
                    o.result.fitted.get(n).expect("declared"),
                    spec.step
                ),
                points: epochs
                    .iter()
                    .map(|e| (e.epoch as f64, (e.values[k] - start) / spec.step))
                    .collect(),
            }
        })
        .collect();
    let paths_stem = dir.join(format!("{PATHS_CHART}.tmp"));
    lines_chart(
        &paths_stem,
        "Fitted weights over the epochs",
        "epoch",
        "change from the start, in SPSA steps (c_end)",
        &paths,
        Some((o.result.best_epoch as f64, &best_label)),
    )
    .map_err(|e| chart_err(&paths_stem, e))?;
    // The page, with the charts just drawn inlined.
    let charts: Vec<Chart> = [
        (
            &loss_stem,
            "mean loss per epoch; the line marks the epoch kept",
        ),
        (
            &paths_stem,
            "each fitted weight's change from its start, in SPSA steps",
        ),
    ]
    .into_iter()
    .filter_map(|(stem, caption)| {
        Some(Chart {
            caption: caption.to_string(),
            svg: std::fs::read_to_string(output_paths(stem).1).ok()?,
        })
    })
    .collect();
    let page = fit_page(dir, &summary, &charts);
    let report = dir.join(REPORT_FILE);
    let report_tmp = temp_name(&report);
    std::fs::write(&report_tmp, page.render()).map_err(|e| FitError::io(&report_tmp, e))?;
    staged.push((report_tmp, report));
    for (tmp_stem, stem) in [(loss_stem, LOSS_CHART), (paths_stem, PATHS_CHART)] {
        let (tp, ts) = output_paths(&tmp_stem);
        let (fp, fs) = output_paths(&dir.join(stem));
        staged.push((tp, fp));
        staged.push((ts, fs));
    }
    let mut written = Vec::new();
    for (tmp, path) in staged {
        std::fs::rename(&tmp, &path).map_err(|e| FitError::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// The fit's `report.html` page: the result (records, positions, K, losses, the epoch kept
/// and why), the weights, the charts and every epoch's losses.
fn fit_page(dir: &Path, summary: &FitSummary, charts: &[Chart]) -> Page {
    let loss = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.5}"));
    let p = &summary.positions;
    let last = summary.epochs.len() - 1;
    let mut page = Page::new(format!("Fit: {} weight(s)", summary.weights.len()));
    page.subtitle(format!(
        "kept epoch {} of {} | {}",
        summary.best_epoch,
        last,
        dir.display()
    ));
    let mut html = key_values(&[
        (
            "kept",
            format!("epoch {} of {}: {}", summary.best_epoch, last, summary.kept),
        ),
        (
            "training loss",
            format!(
                "{:.5} -> {:.5} ({})",
                summary.train_loss_start, summary.train_loss, summary.settings.loss
            ),
        ),
        (
            "validation loss",
            format!(
                "{} -> {}",
                loss(summary.validation_loss_start),
                loss(summary.validation_loss)
            ),
        ),
        ("K", format!("{:.6} per evaluation unit", summary.k)),
        (
            "records",
            format!(
                "{} ({} {}x{}, {} games)",
                summary
                    .sources
                    .iter()
                    .map(|s| s.path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                summary.rule,
                summary.size,
                summary.size,
                p.games
            ),
        ),
        (
            "positions",
            format!(
                "{} ({} train / {} validation)",
                p.train + p.validation,
                p.train,
                p.validation
            ),
        ),
        ("start", summary.base.clone()),
    ]);
    let rows: Vec<(Vec<Cell>, Option<String>)> = summary
        .weights
        .iter()
        .map(|w| {
            (
                vec![
                    Cell::text(&w.name),
                    Cell::num(w.start.to_string()),
                    Cell::num(w.fitted.to_string()),
                    Cell::num(format!("{:+}", w.change)),
                    Cell::num(w.min.to_string()),
                    Cell::num(w.max.to_string()),
                ],
                None,
            )
        })
        .collect();
    html.push_str(&table(
        Some("weights-table"),
        "sortable",
        &["parameter", "start", "fitted", "change", "min", "max"],
        &rows,
    ));
    page.section("fit", "Result", html);
    page.charts("fit-charts", "Charts", charts);
    let rows: Vec<(Vec<Cell>, Option<String>)> = summary
        .epochs
        .iter()
        .map(|e| {
            (
                vec![
                    Cell::num(e.epoch.to_string()),
                    Cell::num(format!("{:.5}", e.train_loss)),
                    Cell::num(loss(e.validation_loss)),
                    Cell::text(if e.epoch == summary.best_epoch {
                        "kept"
                    } else {
                        ""
                    }),
                ],
                None,
            )
        })
        .collect();
    let mut html = String::from("<div class=\"scroll\">");
    html.push_str(&table(
        Some("epochs-table"),
        "sortable",
        &["epoch", "training loss", "validation loss", ""],
        &rows,
    ));
    html.push_str("</div>\n");
    page.section("epochs", "Loss per epoch", html);
    page
}
