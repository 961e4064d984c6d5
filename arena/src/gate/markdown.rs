//! The gate's `gate.json` and Markdown summary (a CI job summary).
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::config::{REPORT_JSON, SUMMARY_MD};
use super::error::GateError;
use super::results::GateReport;
use super::verdict::{mirror_note, Decision, Verdict};

use wuzi_runs::summary::fmt_estimate;

/// Writes `summary.md` and `gate.json` into `out`.
pub(crate) fn write_gate_files(out: &Path, report: &GateReport) -> Result<(), GateError> {
    let md = out.join(SUMMARY_MD);
    std::fs::write(&md, render_markdown(report)).map_err(|e| GateError::io(&md, e))?;
    let json = out.join(REPORT_JSON);
    let text = serde_json::to_string_pretty(report).map_err(|e| {
        GateError::io(
            &json,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        )
    })?;
    std::fs::write(&json, text + "\n").map_err(|e| GateError::io(&json, e))
}

/// Appends the markdown summary to a file (`$GITHUB_STEP_SUMMARY`), creating it if needed.
pub fn append_markdown(path: &Path, report: &GateReport) -> Result<(), GateError> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| GateError::io(path, e))?;
    f.write_all(render_markdown(report).as_bytes())
        .map_err(|e| GateError::io(path, e))
}

/// Text for a markdown table cell (no `|`, no line breaks).
pub(crate) fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

pub(crate) fn fmt_num(v: f64) -> String {
    format!("{}", v + 0.0)
}

/// The markdown summary: verdict, players, suites, games and SPRT, charts, warnings.
pub fn render_markdown(report: &GateReport) -> String {
    let mut s = String::new();
    let verdict = match report.verdict {
        Verdict::Pass => "✅ PASS",
        Verdict::Fail => "❌ FAIL: regression found",
    };
    let _ = writeln!(s, "## Strength gate: {verdict}\n");
    let _ = writeln!(s, "{}.\n", report.reason);
    let _ = writeln!(s, "| | |\n|---|---|");
    let _ = writeln!(s, "| candidate | {} |", cell(&report.candidate));
    let _ = writeln!(s, "| baseline | {} |", cell(&report.baseline));
    for (side, commit) in [
        ("candidate", &report.candidate_commit),
        ("baseline", &report.baseline_commit),
    ] {
        if let Some(c) = commit {
            let _ = writeln!(s, "| {side} commit | `{}` |", cell(c));
        }
    }
    if !report.settings.is_empty() {
        let _ = writeln!(s, "| games | {} |", cell(&report.settings));
    }
    let _ = writeln!(s, "| time | {:.0} s |", report.elapsed_s);

    for n in &report.notes {
        let _ = writeln!(s, "\n> note: {n}");
    }
    if !report.suites.is_empty() {
        let _ = writeln!(s, "\n### Suites\n");
        let _ = writeln!(s, "| suite | passed | failed |\n|---|---:|---:|");
        for r in &report.suites {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} |",
                r.path.display(),
                r.passed,
                r.failures.len()
            );
        }
        let failures: Vec<&String> = report.suites.iter().flat_map(|r| &r.failures).collect();
        if !failures.is_empty() {
            let _ = writeln!(s, "\n```text");
            for f in failures.iter().take(50) {
                let _ = writeln!(s, "{f}");
            }
            if failures.len() > 50 {
                let _ = writeln!(s, "... and {} more", failures.len() - 50);
            }
            let _ = writeln!(s, "```");
        }
    }

    if let Some(g) = &report.games {
        let decided = match report.decision {
            Decision::SprtH1 => "H1 accepted",
            Decision::SprtH0 => "H0 accepted",
            _ => "undecided (budget spent)",
        };
        let _ = writeln!(s, "\n### SPRT\n");
        let _ = writeln!(
            s,
            "| games | W-D-L | pairs [LL LD even WD WW] | score | Elo | nElo | LLR [bounds] | decision | games to decision |"
        );
        let _ = writeln!(s, "|---:|---|---|---:|---|---|---|---|---:|");
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.2} [{:.2}, {:.2}] | {decided} | {} |",
            g.games,
            g.wdl,
            g.penta,
            g.score.map_or("-".into(), |e| format!("{:.3}", e.value)),
            fmt_estimate(g.elo),
            fmt_estimate(g.nelo),
            g.llr,
            g.lower,
            g.upper,
            g.games
        );
        let _ = writeln!(
            s,
            "\nSPRT H0 {} vs H1 {} ({} Elo), alpha {}, beta {}; budget {} pairs ({} games); \
             candidate as black {}, as white {}; {} games played in {:.0} s.",
            fmt_num(g.sprt.elo0),
            fmt_num(g.sprt.elo1),
            g.sprt.model,
            g.sprt.alpha,
            g.sprt.beta,
            g.budget_pairs,
            2 * g.budget_pairs,
            g.as_black,
            g.as_white,
            g.games_played,
            g.elapsed_s
        );
        if g.games_played > g.games {
            let _ = writeln!(
                s,
                "\n{} game(s) in flight when the SPRT decided were finished and recorded but are \
                 not counted: the decision rests on the {} games before it.",
                g.games_played - g.games,
                g.games
            );
        }
        if let Some(note) = mirror_note(&g.penta) {
            let _ = writeln!(s, "\n> {note}");
        }
    }
    if !report.charts.is_empty() {
        let names: Vec<String> = report
            .charts
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| format!("`{}`", n.to_string_lossy()))
            .collect();
        let _ = writeln!(s, "\nCharts: {}.", names.join(", "));
    }
    for w in &report.warnings {
        let _ = writeln!(s, "\n> warning: {w}");
    }
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------------------
// Built baselines: git worktree and cargo
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::super::config::default_sprt;
    use super::super::results::{MatchReport, SuiteResult};
    use super::*;
    use wuzi_stats::{Penta, Wdl};

    #[test]
    fn markdown_names_the_verdict_counts_and_sprt() {
        let sprt = default_sprt();
        let penta = Penta::new([10, 2, 30, 1, 3]);
        let report = GateReport {
            verdict: Verdict::Fail,
            decision: Decision::SprtH0,
            reason: "SPRT accepted H0".into(),
            candidate: "candidate [w_open_three=20]".into(),
            baseline: "baseline".into(),
            candidate_commit: None,
            baseline_commit: None,
            notes: vec![],
            settings: "renju 15x15".into(),
            suites: vec![SuiteResult {
                path: "suites/rules".into(),
                passed: 206,
                failures: vec![],
            }],
            games: Some(MatchReport {
                sprt,
                budget_pairs: 100,
                pairs: 46,
                games: 92,
                games_played: 94,
                wdl: Wdl::new(30, 2, 60),
                as_black: Wdl::new(20, 1, 25),
                as_white: Wdl::new(10, 1, 35),
                penta,
                score: penta.score_estimate(),
                elo: penta.elo_estimate(),
                nelo: penta.nelo_estimate(),
                llr: -3.0,
                lower: sprt.lower_bound(),
                upper: sprt.upper_bound(),
                llr_path: vec![(2, -0.1), (92, -3.0)],
                nodes_per_move: [Some(2000.0), Some(2000.0)],
                elapsed_s: 12.0,
            }),
            charts: vec!["gate-out/sprt.png".into()],
            warnings: vec![],
            elapsed_s: 15.0,
        };
        let md = render_markdown(&report);
        for needle in [
            "FAIL",
            "| `suites/rules` | 206 | 0 |",
            "30-2-60",
            "[10, 2, 30, 1, 3]",
            "-3.00 [-2.94, 2.94]",
            "H0 accepted",
            "H0 -20 vs H1 0",
            "`sprt.png`",
        ] {
            assert!(md.contains(needle), "'{needle}' missing in:\n{md}");
        }
        assert_eq!(report.games_to_decision(), 92);
    }
}
