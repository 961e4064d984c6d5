//! The tune's `report.html`, built with the arena's report pages
//! ([`wuzi_arena::report`]): the parameters (start, theta, tuned value, range), the charts of
//! their paths and of engine+'s running score, the iteration history, and the verification
//! match with its summary, charts and games.

use std::path::{Path, PathBuf};

use wuzi_arena::config::RUN_FILE;
use wuzi_arena::report::html::{escape, key_values, table, Cell};
use wuzi_arena::report::run_report::verdict_banner;
use wuzi_arena::report::{Chart, Page, ReportOptions, RunReport, REPORT_FILE};

use crate::chart::{PATHS_CHART, SCORE_CHART};
use crate::error::{Result, TuneError};
use crate::folder::{load_config, HISTORY_FILE, SHARED_FILE, STATE_FILE};
use crate::history::{parse_row, IterationRecord};
use crate::state::TuneState;
use crate::store::shared::SharedState;
use crate::verify::VERIFY_DIR;

/// Most history rows shown (the last ones; `history.csv` has them all).
const MAX_HISTORY_ROWS: usize = 500;

/// The history rows of `dir`, read without changing the file; rows that do not parse end it.
fn read_history(dir: &Path, n: usize) -> Vec<IterationRecord> {
    std::fs::read_to_string(dir.join(HISTORY_FILE))
        .map(|text| {
            text.lines()
                .skip(1)
                .map_while(|l| parse_row(l, n).ok())
                .collect()
        })
        .unwrap_or_default()
}

fn svg_chart(path: &Path, caption: &str) -> Option<Chart> {
    Some(Chart {
        caption: caption.to_string(),
        svg: std::fs::read_to_string(path).ok()?,
    })
}

/// Writes `dir/report.html` (or `out`) for the tune in `dir`, with the verification match in
/// `dir/verify` when it was played. Returns the path written.
pub fn write_tune_report(dir: &Path, out: Option<&Path>, opts: &ReportOptions) -> Result<PathBuf> {
    let config = load_config(dir)?;
    // A one-machine tune's checkpoint, or a shared tune's state.
    let shared = dir.join(SHARED_FILE);
    let cp = if !dir.join(STATE_FILE).exists() && shared.exists() {
        SharedState::load(&shared, &config)?.tune_state()
    } else {
        TuneState::load(&dir.join(STATE_FILE), &config)?
    };
    let names: Vec<String> = config.spsa.params.iter().map(|p| p.name.clone()).collect();
    let history = read_history(dir, names.len());
    let tuned = config.setting_at(&cp.theta)?;

    let mut page = Page::new(format!("Tune: {}", names.join(", ")));
    page.subtitle(format!(
        "iteration {} of {} | {}",
        cp.iteration,
        config.iterations(),
        dir.display()
    ));

    // The verdict first: the verification of tuned against start, when played.
    let verify = dir.join(VERIFY_DIR);
    let verification = if verify.join(RUN_FILE).exists() {
        Some(RunReport::load(&verify)?)
    } else {
        None
    };
    let moved: Vec<String> = config
        .spsa
        .params
        .iter()
        .map(|p| {
            let v = tuned.get(&p.name).unwrap_or_else(|| "-".into());
            format!("{} {} → {v}", p.name, p.start)
        })
        .collect();
    let mut verdict = match verification.as_ref().map(|r| r.summary.matchups.as_slice()) {
        Some([m]) => verdict_banner(m),
        _ => "<div class=\"verdict open\">Not verified yet: run `wuzi-tune verify DIR` to \
              play tuned against start.</div>\n"
            .to_string(),
    };
    verdict.push_str(&format!(
        "<p>Start → tuned: {}.</p>\n",
        escape(&moved.join(", "))
    ));
    page.section("verdict", "Verdict: tuned against start", verdict);

    let t = &cp.totals;
    let mut html = key_values(&[
        (
            "progress",
            format!(
                "{} of {} iterations{}",
                cp.iteration,
                config.iterations(),
                if cp.iteration < config.iterations() {
                    " (resume with `wuzi-tune resume DIR`)"
                } else {
                    " (complete)"
                }
            ),
        ),
        (
            "engine+ against engine-",
            format!(
                "{} games, W-D-L {}-{}-{}, pentanomial {}, score {}",
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                t.penta,
                t.score()
                    .map_or_else(|| "-".into(), |s| format!("{:.1}%", s * 100.0))
            ),
        ),
        ("set-up", config.describe()),
        ("base", config.base_source.clone()),
        (
            "openings",
            format!("{} ({})", config.openings_source, config.openings.len()),
        ),
        ("limits", config.limits.describe()),
        ("schedule", config.spsa.schedule.method.to_string()),
    ]);
    let schedule = &config.spsa.schedule;
    let gain_name = config
        .spsa
        .params
        .first()
        .map_or("r_end", |p| schedule.gain(p).0);
    let rows: Vec<(Vec<Cell>, Option<String>)> = config
        .spsa
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                vec![
                    Cell::text(&p.name),
                    Cell::num(format!("{}", p.start)),
                    Cell::num(format!("{:.3}", cp.theta[i])),
                    Cell::num(tuned.get(&p.name).unwrap_or_else(|| "-".into())),
                    Cell::num(format!("{:+.3}", cp.theta[i] - p.start)),
                    Cell::num(format!("{}", p.min)),
                    Cell::num(format!("{}", p.max)),
                    Cell::num(format!("{:.3}", p.c_end)),
                    Cell::num(format!("{}", schedule.gain(p).1)),
                ],
                None,
            )
        })
        .collect();
    html.push_str(&table(
        Some("params-table"),
        "sortable",
        &[
            "parameter",
            "start",
            "theta",
            "tuned",
            "moved",
            "min",
            "max",
            "c_end",
            gain_name,
        ],
        &rows,
    ));
    page.section("tune", "Parameters", html);

    let charts: Vec<Chart> = [
        (
            PATHS_CHART,
            "each parameter's path, normalised to its range",
        ),
        (
            SCORE_CHART,
            "running score of engine+ against engine- (95% band)",
        ),
    ]
    .iter()
    .filter_map(|(stem, caption)| svg_chart(&dir.join(format!("{stem}.svg")), caption))
    .collect();
    page.charts("tune-charts", "Tuning charts", &charts);

    if !history.is_empty() {
        let mut header: Vec<String> = vec!["iteration".into()];
        header.extend(names.iter().cloned());
        for n in &names {
            header.push(format!("{n} c_k"));
            header.push(format!("{n} +/-"));
        }
        header.push("W-D-L".into());
        let skip = history.len().saturating_sub(MAX_HISTORY_ROWS);
        let rows: Vec<(Vec<Cell>, Option<String>)> = history
            .iter()
            .skip(skip)
            .map(|r| {
                let mut cells = vec![Cell::num(r.iteration.to_string())];
                cells.extend(r.theta.iter().map(|v| Cell::num(format!("{v:.3}"))));
                for i in 0..names.len() {
                    cells.push(Cell::num(format!("{:.3}", r.c_k[i])));
                    cells.push(Cell::text(format!("{} / {}", r.plus[i], r.minus[i])));
                }
                cells.push(Cell::text(format!("{}-{}-{}", r.wins, r.draws, r.losses)));
                (cells, None)
            })
            .collect();
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut html = String::new();
        if skip > 0 {
            html.push_str(&format!(
                "<p class=\"note\">The last {MAX_HISTORY_ROWS} of {} iterations ({} has all).</p>\n",
                history.len(),
                escape(HISTORY_FILE)
            ));
        }
        html.push_str("<div class=\"scroll wide\">");
        html.push_str(&table(Some("history-table"), "sortable", &header, &rows));
        html.push_str("</div>\n");
        page.section("history", "History", html);
    }

    if let Some(run) = verification {
        let mut charts = run.charts.clone();
        charts.extend(svg_chart(
            &verify.join(format!("{}.svg", crate::chart::RUNNING_ELO_CHART)),
            "verification: Elo of tuned against start over the games",
        ));
        page.section(
            "verification",
            "Verification: tuned against start",
            format!(
                "<p>The tuned set against the starting set, played by the arena in {}.</p>\n",
                escape(&verify.display().to_string())
            ),
        );
        page.charts("verify-charts", "Verification charts", &charts);
        run.add_sections(&mut page, opts, false);
    } else {
        page.section(
            "verification",
            "Verification",
            "<p class=\"note\">Not played yet: `wuzi-tune verify DIR`.</p>\n",
        );
    }
    let path = out.map_or_else(|| dir.join(REPORT_FILE), Path::to_path_buf);
    page.write(&path).map_err(TuneError::from)?;
    Ok(path)
}
