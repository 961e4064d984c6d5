//! The report of a gate's output folder: the verdict and how it was reached, the suites, the
//! SPRT, the gate's charts, then the match's own sections and games.

use super::config::{MATCH_DIR, REPORT_JSON};
use super::results::GateReport;
use super::verdict::Verdict;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use wuzi_reports::html::{escape, key_values, table, Cell};
use wuzi_reports::page::{Chart, Page};
use wuzi_reports::run_report::RunReport;
use wuzi_reports::{ReportOptions, REPORT_FILE};
use wuzi_runs::config::RUN_FILE;
use wuzi_runs::error::{ArenaError, Result};

use wuzi_runs::summary::fmt_estimate;

/// Reads `dir/gate.json` (and the match in `dir/match`) and writes the gate's report to `out`
/// (default `dir/report.html`). Returns the path written.
pub fn write_gate_report(dir: &Path, out: Option<&Path>, opts: &ReportOptions) -> Result<PathBuf> {
    let json = dir.join(REPORT_JSON);
    let text = std::fs::read_to_string(&json).map_err(|e| ArenaError::io(&json, e))?;
    let report: GateReport = serde_json::from_str(&text).map_err(|e| ArenaError::Json {
        path: json.clone(),
        error: e,
    })?;
    let page = gate_page(dir, &report, opts)?;
    let path = out.map_or_else(|| dir.join(REPORT_FILE), Path::to_path_buf);
    page.write(&path)?;
    Ok(path)
}

/// The page of a gate run whose files are in `dir`.
pub fn gate_page(dir: &Path, report: &GateReport, opts: &ReportOptions) -> Result<Page> {
    let pass = report.verdict == Verdict::Pass;
    let mut page = Page::new(format!(
        "Strength gate: {}",
        if pass {
            "PASS"
        } else {
            "FAIL (regression found)"
        }
    ));
    page.subtitle(format!(
        "{} | {:.0} s | {}",
        report.settings,
        report.elapsed_s,
        dir.display()
    ));
    let mut html = format!(
        "<div class=\"verdict {}\">{}</div>\n<p>{}.</p>\n",
        if pass { "pass" } else { "fail" },
        if pass {
            "PASS"
        } else {
            "FAIL: regression found"
        },
        escape(&report.reason)
    );
    let mut rows = vec![
        ("candidate", report.candidate.clone()),
        ("baseline", report.baseline.clone()),
        ("games", report.settings.clone()),
        ("time", format!("{:.0} s", report.elapsed_s)),
    ];
    if let Some(g) = &report.games {
        rows.extend([
            (
                "SPRT",
                format!(
                    "H0 {} vs H1 {} Elo ({}), alpha {}, beta {}; budget {} pairs",
                    g.sprt.elo0,
                    g.sprt.elo1,
                    g.sprt.model,
                    g.sprt.alpha,
                    g.sprt.beta,
                    g.budget_pairs
                ),
            ),
            (
                "result",
                format!(
                    "{} games, W-D-L {}, pentanomial {}, Elo {}, nElo {}, LLR {:.2} [{:.2}, {:.2}]",
                    g.games,
                    g.wdl,
                    g.penta,
                    fmt_estimate(g.elo),
                    fmt_estimate(g.nelo),
                    g.llr,
                    g.lower,
                    g.upper
                ),
            ),
            (
                "by colour",
                format!("candidate as black {}, as white {}", g.as_black, g.as_white),
            ),
        ]);
    }
    html.push_str(&key_values(&rows));
    for w in &report.warnings {
        let _ = writeln!(html, "<p class=\"note\">warning: {}</p>", escape(w));
    }
    for n in &report.notes {
        let _ = writeln!(html, "<p class=\"note\">{}</p>", escape(n));
    }
    page.section("verdict", "Verdict", html);

    if !report.suites.is_empty() {
        let rows: Vec<(Vec<Cell>, Option<String>)> = report
            .suites
            .iter()
            .map(|s| {
                (
                    vec![
                        Cell::text(s.path.display().to_string()),
                        Cell::num(s.passed.to_string()),
                        Cell::num(s.failures.len().to_string()),
                    ],
                    None,
                )
            })
            .collect();
        let mut html = table(Some("suites"), "", &["suite", "passed", "failed"], &rows);
        let failures: Vec<&String> = report.suites.iter().flat_map(|s| &s.failures).collect();
        if !failures.is_empty() {
            html.push_str("<pre class=\"mono\">");
            for f in failures.iter().take(200) {
                let _ = writeln!(html, "{}", escape(f));
            }
            if failures.len() > 200 {
                let _ = writeln!(html, "... and {} more", failures.len() - 200);
            }
            html.push_str("</pre>\n");
        }
        page.section("suites", "Suites", html);
    }

    let charts: Vec<Chart> = report
        .charts
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .filter_map(|p| {
            // Paths are as the gate wrote them; look beside gate.json when they do not resolve.
            let path = if p.exists() {
                p.clone()
            } else {
                dir.join(p.file_name()?)
            };
            let svg = std::fs::read_to_string(&path).ok()?;
            Some(Chart {
                caption: path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                svg,
            })
        })
        .collect();
    page.charts("charts", "Charts", &charts);

    let games = dir.join(MATCH_DIR);
    if games.join(RUN_FILE).exists() {
        let run = RunReport::load(&games)?;
        run.add_sections(&mut page, opts, false);
    }
    Ok(page)
}
/// The report of any folder the arena writes: a gate's output folder (`gate.json`) or a run
/// directory. A tune folder is the tuner's (`wuzi-tune report`).
pub fn write_report(dir: &Path, out: Option<&Path>, opts: &ReportOptions) -> Result<PathBuf> {
    if dir.join(REPORT_JSON).exists() {
        return write_gate_report(dir, out, opts);
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
        return wuzi_reports::write_run_report(dir, out, opts);
    }
    Err(ArenaError::Config(format!(
        "{}: neither a run directory ({RUN_FILE} or run-shard-I-of-N.json) nor a gate folder ({})",
        dir.display(),
        REPORT_JSON
    )))
}
