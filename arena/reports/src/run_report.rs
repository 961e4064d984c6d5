//! The report of a run directory (match, gauntlet, round robin, sweep, merged shards):
//! configuration, summary, charts, per-opening results, non-five endings and the games.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::analysis::ReportAnalysis;
use crate::games::viewer_data;
use crate::html::{escape, key_values, table, Cell};
use crate::options::ReportOptions;
use crate::page::{Chart, Page};
use crate::run_charts::chart_run_dir;
use wuzi_charts::output_paths;
use wuzi_games::record::GameRecord;
use wuzi_games::referee::Reason;
use wuzi_runs::config::{RunConfig, RunKind};
use wuzi_runs::error::{ArenaError, Result};
use wuzi_runs::run_dir::RunDir;
use wuzi_runs::summary::{completion_note, fmt_estimate, Completion, MatchupSummary, Summary};
use wuzi_stats::{Estimate, SprtVerdict};

/// Most rows of the non-five endings table (the counts above it cover all).
const MAX_ENDING_ROWS: usize = 1000;

/// A run directory read for its report.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The directory.
    pub dir: PathBuf,
    /// Its configuration.
    pub config: RunConfig,
    /// Its summary, recomputed from the records (with the timing of `summary.json`, if any).
    pub summary: Summary,
    /// The records, in (pair, game) order.
    pub records: Vec<GameRecord>,
    /// The run's charts, drawn afresh.
    pub charts: Vec<Chart>,
    /// The command that continues the run (shown when it did not finish).
    pub resume_command: String,
    /// The folder's analysis (`wuzi-arena analyze`), if it has one.
    pub analysis: Option<ReportAnalysis>,
}

impl RunReport {
    /// Reads `dir` (its run file(s) and records, the summary for the timing, the analysis if
    /// any; a folder shared by a run's shards counts all their games, as `merge` does) and
    /// draws its charts (into the directory, as `wuzi-arena chart` does) to embed them.
    pub fn load(dir: &Path) -> Result<RunReport> {
        let run_dir = RunDir::open(dir)?;
        let (mut summary, written) = chart_run_dir(dir, None)?;
        let config = run_dir.config();
        let mut records = run_dir.records()?;
        records.sort_by_key(GameRecord::key);
        if summary.completion == Completion::Incomplete
            && run_dir.recorded_completion(summary.games_finished) == Some(Completion::Interrupted)
        {
            summary.completion = Completion::Interrupted;
        }
        if let [one] = run_dir.entries.as_slice() {
            if let Ok(text) = std::fs::read_to_string(&one.files.summary) {
                // Only the timing: everything else is recomputed from the records above.
                summary.timing = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| serde_json::from_value(v.get("timing")?.clone()).ok());
            }
        }
        let analysis = ReportAnalysis::load(dir, &records)?;
        let mut charts = Vec::new();
        for w in written {
            let (_, svg) = output_paths(&w.stem);
            let text = std::fs::read_to_string(&svg).map_err(|e| ArenaError::io(&svg, e))?;
            charts.push(Chart {
                caption: format!(
                    "{} ({})",
                    w.shows,
                    svg.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
                svg: text,
            });
        }
        Ok(RunReport {
            dir: dir.to_path_buf(),
            config,
            summary,
            records,
            charts,
            resume_command: run_dir.resume_command(),
            analysis,
        })
    }

    /// A title for the run: `match: A vs B`, `gauntlet of A`, ...
    pub fn title(&self) -> String {
        let names: Vec<&str> = self
            .config
            .players
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        match self.config.kind {
            RunKind::Match => format!("Match: {}", names.join(" vs ")),
            RunKind::Gauntlet => format!(
                "Gauntlet: {} against {}",
                names.first().copied().unwrap_or(""),
                names.get(1..).unwrap_or(&[]).join(", ")
            ),
            RunKind::RoundRobin => format!("Round robin: {}", names.join(", ")),
            RunKind::Sweep => {
                let axes: Vec<String> = self
                    .config
                    .sweep
                    .as_ref()
                    .map(|s| s.axes.iter().map(|a| a.name.clone()).collect())
                    .unwrap_or_default();
                format!("Sweep of {}", axes.join(" x "))
            }
        }
    }

    /// One line under the title: rule, board, games, directory.
    pub fn subtitle(&self) -> String {
        format!(
            "{} {}x{} | {} games finished | {}",
            self.config.game.rule,
            self.config.game.size,
            self.config.game.size,
            self.records.len(),
            self.dir.display()
        )
    }

    /// Adds the run's sections to `page` (its charts too when `charts`).
    pub fn add_sections(&self, page: &mut Page, opts: &ReportOptions, charts: bool) {
        page.section("summary", "Summary", self.summary_html());
        page.section("config", "Configuration", self.config_html());
        if charts {
            page.charts("charts", "Charts", &self.charts);
        }
        page.section("openings", "Results per opening", self.openings_html());
        let mut data = viewer_data(
            &self.config,
            &self.records,
            opts.max_games,
            &format!(
                "`wuzi-arena export {}` or `wuzi-arena report {} --max-games 0`",
                self.dir.display(),
                self.dir.display()
            ),
        );
        crate::games::link_io_logs(&mut data, &self.dir);
        let index: HashMap<(u64, u8), usize> =
            data.games.iter().map(|g| ((g.pair, g.g), g.k)).collect();
        page.section(
            "endings",
            "Games not ended by a five",
            self.endings_html(&index),
        );
        if let Some(analysis) = &self.analysis {
            analysis.attach(&mut data);
            page.section("analysis", "Analysis", analysis.section_html(&index));
            page.analysis(analysis.script_data());
        }
        page.games("Games", data);
    }

    fn config_html(&self) -> String {
        let c = &self.config;
        let mut rows = vec![
            ("kind", c.kind.to_string()),
            ("rule", c.game.rule.to_string()),
            ("board", format!("{0}x{0}", c.game.size)),
            (
                "openings",
                format!(
                    "{} ({} positions, {} order)",
                    c.openings_source,
                    c.openings.len(),
                    match c.order {
                        wuzi_runs::config::OpeningOrder::Random => "seeded random",
                        wuzi_runs::config::OpeningOrder::Sequential => "file",
                    }
                ),
            ),
            (
                "pairs",
                format!(
                    "{} per matchup, {} matchup(s), colours swapped in each pair",
                    c.pairs,
                    c.matchups.len()
                ),
            ),
            ("seed", c.seed.to_string()),
            (
                "SPRT",
                c.sprt.map_or_else(
                    || "none".to_string(),
                    |s| {
                        format!(
                            "H0 {} / H1 {} Elo ({}), alpha {}, beta {}; LLR bounds [{:.3}, {:.3}]",
                            s.elo0,
                            s.elo1,
                            s.model,
                            s.alpha,
                            s.beta,
                            s.lower_bound(),
                            s.upper_bound()
                        )
                    },
                ),
            ),
            (
                "move cap",
                c.game
                    .max_moves
                    .map_or_else(|| "none (full board is a draw)".into(), |m| m.to_string()),
            ),
            ("time margin", format!("{} ms", c.game.time_margin_ms)),
            ("shard", c.shard.map_or_else(String::new, |s| s.to_string())),
        ];
        if let Some(sw) = &c.sweep {
            let axes: Vec<String> = sw
                .axes
                .iter()
                .map(|a| {
                    format!(
                        "{} = {}",
                        a.name,
                        a.values
                            .iter()
                            .map(i32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            rows.push(("sweep", axes.join("; ")));
        }
        if let Some(t) = &self.summary.timing {
            rows.push((
                "timing",
                format!(
                    "{:.1} s, {} games played ({} resumed), {:.2} games/s, {} worker(s)",
                    t.elapsed_s, t.games_played, t.games_resumed, t.games_per_s, t.concurrency
                ),
            ));
        }
        let mut html = key_values(&rows);
        html.push_str("<h3>Players</h3>\n");
        let players: Vec<(Vec<Cell>, Option<String>)> = c
            .players
            .iter()
            .map(|p| {
                let ms = self
                    .summary
                    .timing
                    .as_ref()
                    .and_then(|t| t.ms_per_move.get(&p.name))
                    .map_or_else(String::new, |v| format!("{v:.1}"));
                (
                    vec![
                        Cell::text(&p.name),
                        Cell::text(p.to_string()),
                        Cell::text(p.limits.describe()),
                        Cell::num(ms),
                    ],
                    None,
                )
            })
            .collect();
        html.push_str(&table(
            Some("players"),
            "",
            &["name", "player", "limits", "ms/move"],
            &players,
        ));
        html
    }

    fn summary_html(&self) -> String {
        let s = &self.summary;
        let mut html = String::new();
        match completion_note(s) {
            // An unfinished run's numbers are no decision, whatever they look like.
            Some(note) => html.push_str(&unfinished_banner(&note, &self.resume_command)),
            None => {
                if let [m] = s.matchups.as_slice() {
                    html.push_str(&verdict_banner(m));
                }
            }
        }
        let rows: Vec<(Vec<Cell>, Option<String>)> =
            s.matchups.iter().map(|m| (matchup_row(m), None)).collect();
        html.push_str("<div class=\"wide\">");
        html.push_str(&table(
            Some("summary-table"),
            "sortable",
            &[
                "matchup",
                "games",
                "W-D-L",
                "black / white / draw",
                "pentanomial [LL LD even WD WW]",
                "score",
                "Elo ± 95%",
                "nElo ± 95%",
                "LOS",
                "draws",
                "nodes/move (first, second)",
            ],
            &rows,
        ));
        html.push_str("</div>\n");
        let sprt_rows: Vec<(Vec<Cell>, Option<String>)> = s
            .matchups
            .iter()
            .filter_map(|m| Some((sprt_row(m)?, None)))
            .collect();
        if !sprt_rows.is_empty() {
            html.push_str("<h3>SPRT</h3>\n");
            html.push_str(&table(
                Some("sprt-table"),
                "",
                &[
                    "matchup",
                    "H0 / H1 Elo",
                    "alpha / beta",
                    "LLR",
                    "bounds",
                    "state",
                ],
                &sprt_rows,
            ));
        }
        html.push_str(
            "<p class=\"note\">Statistics from the first player's side, over complete pairs in \
             pair order (stopping where an SPRT decided); intervals are 95% pentanomial.</p>\n",
        );
        if s.kind == RunKind::RoundRobin || s.kind == RunKind::Gauntlet {
            html.push_str("<h3>Players against the field</h3>\n");
            let rows: Vec<(Vec<Cell>, Option<String>)> = s
                .players
                .iter()
                .map(|p| {
                    (
                        vec![
                            Cell::text(&p.name),
                            Cell::num(p.wdl.games().to_string()),
                            Cell::text(p.wdl.to_string()),
                            Cell::text(p.penta.to_string()),
                            score_cell(p.score),
                            Cell::sorted(fmt_estimate(p.elo), p.elo.map(|e| e.value)),
                        ],
                        None,
                    )
                })
                .collect();
            html.push_str(&table(
                Some("standings"),
                "sortable",
                &[
                    "player",
                    "games",
                    "W-D-L",
                    "pentanomial",
                    "score",
                    "Elo ± 95%",
                ],
                &rows,
            ));
        }
        if let Some(sw) = &s.sweep {
            let _ = writeln!(html, "<h3>Sweep against {}</h3>", escape(&sw.baseline));
            let mut header: Vec<&str> = sw.axes.iter().map(String::as_str).collect();
            header.extend(["games", "score", "Elo ± 95%", "nElo ± 95%", "LOS"]);
            let rows: Vec<(Vec<Cell>, Option<String>)> = sw
                .rows
                .iter()
                .map(|r| {
                    let mut cells: Vec<Cell> =
                        r.values.iter().map(|v| Cell::num(v.to_string())).collect();
                    cells.extend([
                        Cell::num(r.games.to_string()),
                        score_cell(r.score),
                        Cell::sorted(fmt_estimate(r.elo), r.elo.map(|e| e.value)),
                        Cell::sorted(fmt_estimate(r.nelo), r.nelo.map(|e| e.value)),
                        Cell::sorted(pct(r.los), r.los),
                    ]);
                    (cells, None)
                })
                .collect();
            html.push_str(&table(Some("sweep-table"), "sortable", &header, &rows));
        }
        html
    }

    fn openings_html(&self) -> String {
        let many = self.summary.matchups.len() > 1;
        let mut header = vec![];
        if many {
            header.push("matchup");
        }
        header.extend([
            "#", "opening", "moves", "pairs", "LL", "LD", "even", "WD", "WW", "W-D-L", "score",
        ]);
        let mut rows = Vec::new();
        for m in &self.summary.matchups {
            for o in &m.openings {
                let mut cells = Vec::new();
                if many {
                    cells.push(Cell::text(format!("{} vs {}", m.first, m.second)));
                }
                cells.push(Cell::num(o.index.to_string()));
                cells.push(Cell::text(&o.id));
                cells.push(Cell::text(&o.moves));
                cells.push(Cell::num(o.penta.pairs().to_string()));
                for c in o.penta.counts {
                    cells.push(Cell::num(c.to_string()));
                }
                cells.push(Cell::text(o.wdl.to_string()));
                cells.push(Cell::sorted(pct(o.score), o.score));
                rows.push((cells, None));
            }
        }
        if rows.is_empty() {
            return "<p class=\"note\">No complete pairs yet.</p>\n".into();
        }
        let mut html = String::from(
            "<p class=\"note\">From the first player's side. Click a heading to sort; an \
             opening whose pairs all end WW or LL decides games by itself.</p>\n\
             <div class=\"scroll\">",
        );
        html.push_str(&table(Some("openings-table"), "sortable", &header, &rows));
        html.push_str("</div>\n");
        html
    }

    fn endings_html(&self, viewer_index: &HashMap<(u64, u8), usize>) -> String {
        let mut counts: std::collections::BTreeMap<Reason, u64> = Default::default();
        for r in &self.records {
            *counts.entry(r.reason).or_default() += 1;
        }
        let mut html = String::new();
        let summary: Vec<String> = counts.iter().map(|(r, n)| format!("{r}: {n}")).collect();
        let _ = writeln!(
            html,
            "<p>End reasons over all {} finished games: {}.</p>",
            self.records.len(),
            escape(&summary.join(", "))
        );
        let odd: Vec<&GameRecord> = self
            .records
            .iter()
            .filter(|r| r.reason != Reason::Five)
            .collect();
        if odd.is_empty() {
            html.push_str("<p class=\"note\">Every game ended with a five.</p>\n");
            return html;
        }
        let rows: Vec<(Vec<Cell>, Option<String>)> = odd
            .iter()
            .take(MAX_ENDING_ROWS)
            .map(|r| {
                let k = viewer_index.get(&r.key());
                (
                    vec![
                        Cell::num(k.map_or_else(|| "-".into(), |k| (k + 1).to_string())),
                        Cell::num(r.pair.to_string()),
                        Cell::num(r.game.to_string()),
                        Cell::text(&r.black.name),
                        Cell::text(&r.white.name),
                        Cell::text(&r.result),
                        Cell::text(r.reason.to_string()),
                        Cell::text(r.detail.clone().unwrap_or_default()),
                        Cell::num((r.opening.opening.moves.len() + r.moves.len()).to_string()),
                    ],
                    k.map(|k| format!("data-open-game=\"{k}\"")),
                )
            })
            .collect();
        if odd.len() > MAX_ENDING_ROWS {
            let _ = writeln!(
                html,
                "<p class=\"note\">The first {MAX_ENDING_ROWS} of {} listed.</p>",
                odd.len()
            );
        }
        html.push_str(
            "<p class=\"note\">Click a row to open the game in the viewer (# is its place in \
             the viewer's list; - when the viewer holds a sample without it).</p>\n\
             <div class=\"scroll\">",
        );
        html.push_str(&table(
            Some("endings-table"),
            "sortable",
            &[
                "#", "pair", "game", "black", "white", "result", "reason", "detail", "moves",
            ],
            &rows,
        ));
        html.push_str("</div>\n");
        html
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{:.1}%", v * 100.0))
}

fn score_cell(e: Option<Estimate>) -> Cell {
    Cell::sorted(
        e.map_or_else(
            || "-".into(),
            |e| format!("{:.1}% ± {:.1}", e.value * 100.0, e.half_width() * 100.0),
        ),
        e.map(|e| e.value),
    )
}

/// The SPRT of a matchup: bounds, LLR and state.
fn sprt_row(m: &MatchupSummary) -> Option<Vec<Cell>> {
    let s = m.sprt.as_ref()?;
    // Pairs remain: undecided so far (a page is read after the run, not while it continues).
    let state = if s.decided_after_pairs.is_none() && !s.budget_spent {
        "undecided".to_string()
    } else {
        s.state()
    };
    Some(vec![
        Cell::text(format!("{} vs {}", m.first, m.second)),
        Cell::text(format!(
            "{} / {} ({})",
            s.params.elo0, s.params.elo1, s.params.model
        )),
        Cell::text(format!("{} / {}", s.params.alpha, s.params.beta)),
        Cell::num(format!("{:.3}", s.status.llr)),
        Cell::text(format!("[{:.3}, {:.3}]", s.status.lower, s.status.upper)),
        Cell::text(state),
    ])
}

fn matchup_row(m: &MatchupSummary) -> Vec<Cell> {
    let npm = |v: Option<f64>| v.map_or_else(|| "-".into(), |v| format!("{v:.0}"));
    vec![
        Cell::text(format!("{} vs {}", m.first, m.second)),
        Cell::num(m.games.to_string()),
        Cell::text(m.wdl.to_string()),
        Cell::text(format!("{}/{}/{}", m.black_wins, m.white_wins, m.draws)),
        Cell::text(m.penta.to_string()),
        score_cell(m.score),
        Cell::sorted(fmt_estimate(m.elo), m.elo.map(|e| e.value)),
        Cell::sorted(fmt_estimate(m.nelo), m.nelo.map(|e| e.value)),
        Cell::sorted(pct(m.los), m.los),
        Cell::sorted(pct(m.draw_ratio), m.draw_ratio),
        Cell::text(format!(
            "{}, {}",
            npm(m.nodes_per_move[0]),
            npm(m.nodes_per_move[1])
        )),
    ]
}

/// The neutral banner of a run that did not finish: how far it got and how to continue.
fn unfinished_banner(note: &str, resume_command: &str) -> String {
    format!(
        "<div class=\"verdict open\">{}</div>\n",
        escape(&format!("{note}; resume with `{resume_command}`"))
    )
}

/// The verdict of a finished single matchup: SPRT state or the Elo interval's sign (a
/// player is called stronger or weaker only when the 95% interval excludes 0).
pub fn verdict_banner(m: &MatchupSummary) -> String {
    let elo = fmt_estimate(m.elo);
    let (class, text) = match &m.sprt {
        Some(s) => match s.status.verdict {
            SprtVerdict::AcceptH1 => (
                "pass",
                format!(
                    "SPRT accepted H1 (Elo {} rather than {}); Elo {elo}",
                    s.params.elo1, s.params.elo0
                ),
            ),
            SprtVerdict::AcceptH0 => (
                "fail",
                format!(
                    "SPRT accepted H0 (Elo {} rather than {}); Elo {elo}",
                    s.params.elo0, s.params.elo1
                ),
            ),
            SprtVerdict::Continue => (
                "open",
                format!(
                    "SPRT undecided{}: LLR {:.2} within [{:.2}, {:.2}]; Elo {elo}",
                    if s.budget_spent {
                        " (budget spent)"
                    } else {
                        ""
                    },
                    s.status.llr,
                    s.status.lower,
                    s.status.upper
                ),
            ),
        },
        None => match m.elo {
            Some(e) if e.lower > 0.0 => ("pass", format!("{} stronger: Elo {elo}", m.first)),
            Some(e) if e.upper < 0.0 => ("fail", format!("{} weaker: Elo {elo}", m.first)),
            _ => ("open", format!("no significant difference: Elo {elo}")),
        },
    };
    format!(
        "<div class=\"verdict {class}\">{}</div>\n",
        escape(&format!(
            "{} vs {}, {} games: {text}",
            m.first, m.second, m.games
        ))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_engine::Stone;
    use wuzi_runs::config::tests_support::tiny_config;
    use wuzi_runs::summary::{summarize, GameLite, GameMap};
    use wuzi_stats::{EloModel, SprtParams};

    /// Pair `g`: the first player wins both games (WW) or the pair is split (WL).
    fn insert_pair(games: &mut GameMap, g: u64, first_wins_both: bool) {
        let lite = |game: u8, winner: Stone| GameLite {
            opening: 0,
            game,
            winner: Some(winner),
            reason: Reason::Five,
            moves: [10, 10],
            nodes: [1000, 1000],
            ms: [5, 5],
        };
        games.insert((g, 0), lite(0, Stone::Black));
        let second = if first_wins_both {
            Stone::White
        } else {
            Stone::Black
        };
        games.insert((g, 1), lite(1, second));
    }

    fn report(config: RunConfig, summary: Summary) -> RunReport {
        RunReport {
            dir: PathBuf::from("/runs/x"),
            config,
            summary,
            records: Vec::new(),
            charts: Vec::new(),
            resume_command: "wuzi-arena resume /runs/x".into(),
            analysis: None,
        }
    }

    #[test]
    fn a_partial_run_gets_a_neutral_banner_never_a_decision() {
        // 11 of 60 pairs won outright: an "a stronger" banner if it were a finished run.
        let config = tiny_config(60);
        let mut games = GameMap::new();
        for g in 0..11 {
            insert_pair(&mut games, g, true);
        }
        let mut summary = summarize(&config, &games);
        assert_eq!(summary.completion, Completion::Incomplete);
        let html = report(config.clone(), summary.clone()).summary_html();
        assert!(html.contains("verdict open"), "{html}");
        assert!(
            html.contains("incomplete: 22 of 120 games recorded"),
            "{html}"
        );
        assert!(
            html.contains("resume with `wuzi-arena resume /runs/x`"),
            "{html}"
        );
        assert!(
            !html.contains("stronger") && !html.contains("verdict pass"),
            "{html}"
        );

        summary.completion = Completion::Interrupted;
        let html = report(config, summary).summary_html();
        assert!(
            html.contains("interrupted after 22 of 120 games: no verdict"),
            "{html}"
        );
        assert!(
            !html.contains("stronger") && !html.contains("verdict pass"),
            "{html}"
        );
    }

    #[test]
    fn a_finished_run_without_sprt_calls_a_player_stronger_only_when_the_interval_excludes_0() {
        let config = tiny_config(8);
        let mut games = GameMap::new();
        for g in 0..8 {
            insert_pair(&mut games, g, g < 2);
        }
        let summary = summarize(&config, &games);
        let elo = summary.matchups[0].elo.expect("an estimate");
        assert!(elo.lower < 0.0 && elo.upper > 0.0, "{elo:?}");
        let html = report(config.clone(), summary).summary_html();
        assert!(html.contains("no significant difference"), "{html}");
        assert!(!html.contains("stronger"), "{html}");

        let mut games = GameMap::new();
        for g in 0..8 {
            insert_pair(&mut games, g, g < 6);
        }
        let summary = summarize(&config, &games);
        assert!(summary.matchups[0].elo.expect("an estimate").lower > 0.0);
        let html = report(config, summary).summary_html();
        assert!(html.contains("a stronger"), "{html}");
    }

    #[test]
    fn an_sprt_out_of_budget_reads_undecided_budget_spent() {
        let mut config = tiny_config(3);
        config.sprt = Some(SprtParams::new(0.0, 5.0, EloModel::Logistic));
        let mut games = GameMap::new();
        for g in 0..3 {
            insert_pair(&mut games, g, false);
        }
        let html = report(config.clone(), summarize(&config, &games)).summary_html();
        assert!(html.contains("SPRT undecided (budget spent)"), "{html}");
        assert!(html.contains("<td>undecided (budget spent)</td>"), "{html}");
    }
}
