//! The analyst's view in a run's report, when `wuzi-arena analyze` has written
//! `analysis.jsonl` (and its summary) into the run folder: a section with the analyst and a
//! mistakes table per player, and per game the data of the viewer's evaluation graph, the
//! analyst's move at each position and the decisive mistake (drawn by `assets/analysis.js`,
//! which the page holds only then, so reports without analysis stay as they were).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use wuzi_engine::score::{score_text, MATE, MATE_BOUND};
use wuzi_games::record::GameRecord;
use wuzi_runs::analysis::summary::{summarise, summary_path, AnalysisSummary, DEFAULT_BLUNDER};
use wuzi_runs::analysis::{read_rows, AnalysisRow, ANALYSIS_FILE};
use wuzi_runs::error::{ArenaError, Result};

use crate::games::{GameAnalysis, ViewerData};
use crate::html::{escape, script_json, table, Cell};

/// The viewer's graph shows scores within ± this (black's view); beyond it, proven results
/// included, points sit at the edge. About two open fours: larger drops are lost games anyway.
pub const GRAPH_CLAMP: i32 = 2000;

/// Most rows of the decisive-mistakes table (the per-player counts cover all).
const MAX_DECISIVE_ROWS: usize = 1000;

/// A run folder's analysis, read for its report.
#[derive(Clone, Debug)]
pub struct ReportAnalysis {
    /// The summary (`analysis-summary.json`, or made from the rows when it is missing).
    pub summary: AnalysisSummary,
    /// The rows, per game (pair, game).
    pub games: BTreeMap<(u64, u8), GameAnalysis>,
}

impl ReportAnalysis {
    /// The analysis in `dir`, `None` when the folder has no `analysis.jsonl`. A summary file
    /// that is missing is made from the rows (with the default blunder threshold).
    ///
    /// Errors: an unreadable or damaged analysis or summary file.
    pub fn load(dir: &Path, records: &[GameRecord]) -> Result<Option<ReportAnalysis>> {
        let path = dir.join(ANALYSIS_FILE);
        if !path.is_file() {
            return Ok(None);
        }
        let (rows, _, _) = read_rows(&path)?;
        let spath = summary_path(&path);
        let summary = if spath.is_file() {
            let text = std::fs::read_to_string(&spath).map_err(|e| ArenaError::io(&spath, e))?;
            serde_json::from_str(&text).map_err(|error| ArenaError::Json {
                path: spath.clone(),
                error,
            })?
        } else {
            let analyst = rows.first().map_or("", |r| r.analyst.as_str());
            summarise(records, &rows, analyst, DEFAULT_BLUNDER)
        };
        Ok(Some(ReportAnalysis::new(summary, &rows)))
    }

    /// The per-game view of `rows`, with the decisive mistakes of `summary`.
    pub fn new(summary: AnalysisSummary, rows: &[AnalysisRow]) -> ReportAnalysis {
        let mut by_game: BTreeMap<(u64, u8), Vec<&AnalysisRow>> = BTreeMap::new();
        for r in rows {
            by_game.entry((r.pair, r.game)).or_default().push(r);
        }
        let mut games = BTreeMap::new();
        for (key, mut rows) in by_game {
            rows.sort_by_key(|r| r.ply);
            let f = rows[0].ply;
            let len = rows[rows.len() - 1].ply - f + 1;
            // Plies the file lacks (a filtered or damaged analysis) stay null: gaps in the graph.
            let mut g = GameAnalysis {
                f,
                b: vec![None; len],
                s: vec![None; len],
                a: vec![None; len],
                x: None,
            };
            for r in rows {
                let i = r.ply - f;
                g.b[i] = r.best.map(|p| p.to_string());
                g.s[i] = r.score;
                g.a[i] = r.after;
            }
            games.insert(key, g);
        }
        for d in &summary.decisive {
            if let Some(g) = games.get_mut(&(d.pair, d.game)) {
                g.x = Some(d.ply);
            }
        }
        ReportAnalysis { summary, games }
    }

    /// Gives each embedded game that has rows its [`GameAnalysis`].
    pub fn attach(&self, data: &mut ViewerData) {
        for g in &mut data.games {
            g.an = self.games.get(&(g.pair, g.g)).cloned();
        }
    }

    /// What the page's analysis script needs besides the games, as `<script>` JSON: the
    /// analyst, the graph's clamp and the engine's mate scores (to write `win5`, `loss3`).
    pub fn script_data(&self) -> String {
        let json = serde_json::json!({
            "analyst": self.summary.analyst,
            "clamp": GRAPH_CLAMP,
            "mate": MATE,
            "mateBound": MATE_BOUND,
        });
        format!(
            "<script type=\"application/json\" id=\"wuzi-analysis\">{}</script>",
            script_json(&json.to_string())
        )
    }

    /// The section: the analyst, the mistakes per player, the decisive mistakes (rows open
    /// the game in the viewer when `viewer_index` has it).
    pub fn section_html(&self, viewer_index: &HashMap<(u64, u8), usize>) -> String {
        let s = &self.summary;
        let mut html = String::new();
        let _ = writeln!(
            html,
            "<p>Analyst <code>{}</code>, {} game(s). A <b>mistake</b> crosses from not lost to \
             lost (a loss the analyst proved); a <b>blunder</b> loses at least {} by its \
             score; the <b>decisive mistake</b> of a lost game is the loser's last mistake \
             (undecided: none found). The viewer below draws each analysed game's evaluation \
             (black's view, within &plusmn;{GRAPH_CLAMP}).</p>",
            escape(&s.analyst),
            s.games,
            s.blunder
        );
        let rows: Vec<(Vec<Cell>, Option<String>)> = s
            .players
            .iter()
            .map(|p| {
                let mut cells = vec![Cell::text(&p.name)];
                cells.extend(p.table_counts().map(|v| Cell::num(v.to_string())));
                (cells, None)
            })
            .collect();
        html.push_str("<div class=\"wide\">");
        html.push_str(&table(
            Some("mistakes-table"),
            "sortable",
            &[
                "player",
                "moves",
                "analyst failed",
                "mistakes",
                "blunders",
                "lost games",
                "decisive mistakes",
                "lost undecided",
                "decisive as black",
                "as white",
                "in the opening",
                "middle game",
                "end game",
            ],
            &rows,
        ));
        html.push_str("</div>\n");
        if s.decisive.is_empty() {
            return html;
        }
        let rows: Vec<(Vec<Cell>, Option<String>)> = s
            .decisive
            .iter()
            .take(MAX_DECISIVE_ROWS)
            .map(|d| {
                let k = viewer_index.get(&(d.pair, d.game));
                (
                    vec![
                        Cell::num(k.map_or_else(|| "-".into(), |k| (k + 1).to_string())),
                        Cell::num(d.pair.to_string()),
                        Cell::num(d.game.to_string()),
                        Cell::text(&d.player),
                        Cell::text(d.colour.to_string()),
                        Cell::num((d.ply + 1).to_string()),
                        Cell::text(d.phase.name()),
                        Cell::text(&d.opening),
                        Cell::text(&d.played),
                        Cell::text(d.best.as_deref().unwrap_or("-")),
                        Cell::text(format!(
                            "{} -> {}",
                            score_text(d.score),
                            score_text(d.after)
                        )),
                    ],
                    k.map(|k| format!("data-open-game=\"{k}\"")),
                )
            })
            .collect();
        html.push_str("<h3>Decisive mistakes</h3>\n");
        if s.decisive.len() > MAX_DECISIVE_ROWS {
            let _ = writeln!(
                html,
                "<p class=\"note\">The first {MAX_DECISIVE_ROWS} of {} listed.</p>",
                s.decisive.len()
            );
        }
        html.push_str(
            "<p class=\"note\">Click a row to open the game in the viewer (# is its place in \
             the viewer's list).</p>\n<div class=\"scroll\">",
        );
        html.push_str(&table(
            Some("decisive-table"),
            "sortable",
            &[
                "#",
                "pair",
                "game",
                "player",
                "colour",
                "move",
                "phase",
                "opening",
                "played",
                "analyst",
                "score before -> after",
            ],
            &rows,
        ));
        html.push_str("</div>\n");
        html
    }
}
