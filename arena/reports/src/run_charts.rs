//! The charts of a run, drawn from its configuration and finished games.
//!
//! [`write_charts`] draws every chart that applies to a run into its directory; the `wuzi-arena`
//! binary calls it at the end of every run that has an output directory, after `merge`, and in
//! `wuzi-arena chart DIR`, which redraws them from `run.json` + `games.jsonl` alone
//! ([`chart_run_dir`]). Each chart is written twice, as `<name>.png` and `<name>.svg`:
//!
//! | file (`.png` + `.svg`) | runs | shows |
//! | --- | --- | --- |
//! | `score` | all | score with its 95 % interval: per matchup (match, gauntlet: the first player against each opponent), per player against the field (round robin), per point against the baseline (sweep) |
//! | `score-matchups` | round robin | score of each matchup's first player, with its 95 % interval |
//! | `colours` | all | black wins / white wins / draws per matchup |
//! | `sprt` | one matchup with `--sprt` | the SPRT log-likelihood ratio against games, with both bounds and the verdict |
//! | `sprt-<k>-<first>-vs-<second>` | several matchups with `--sprt` | the same for matchup `k` (1-based) |
//! | `elo-<param>` | sweeps | Elo against the baseline with its 95 % interval against the value of `<param>`; for grids, one line per setting of the other parameters |
//! | `elo-<param>-<part>` | grids with more than [`MAX_LINES`] settings of the other parameters | the lines of part `<part>` (1-based) |
//!
//! All statistics are those of the summary (pentanomial, pairs counted in pair order, a matchup
//! stops counting at its SPRT decision). The SPRT path replays each matchup's complete pairs in
//! pair order and computes the pentanomial LLR after each (at most [`MAX_SPRT_POINTS`] points are
//! drawn, evenly spaced, always including the last pair).
//!
//! Names in file names are reduced to ASCII letters, digits, `-`, `_`, `.` and `=` (anything
//! else becomes `_`) and shortened to 40 characters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use wuzi_charts::{
    colour_split_chart, score_chart, sprt_chart, sweep_elo_chart, sweep_elo_lines_chart,
    ColourSplit, EloPoint, EloSeries, ScoreEntry, SprtPoint, SprtSpec, SprtVerdict as ChartVerdict,
};
use wuzi_runs::config::{RunConfig, RunKind, RUN_FILE};
use wuzi_runs::error::{ArenaError, Result};
use wuzi_runs::run_dir::RunDir;
use wuzi_runs::summary::{summarize, GameLite, GameMap, Summary, Tally};
use wuzi_stats::{sprt_status, Estimate, SprtParams, SprtVerdict};

/// Most lines in one sweep Elo chart; further settings of the other axes go to more charts.
pub const MAX_LINES: usize = 8;
/// Most points of an SPRT path (longer runs are sampled evenly).
pub const MAX_SPRT_POINTS: u64 = 2000;

/// One chart written: its path stem (`<stem>.png` and `<stem>.svg` exist) and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenChart {
    /// The path without extension.
    pub stem: PathBuf,
    /// A short description.
    pub shows: String,
}

/// Keeps ASCII letters, digits, `-`, `_`, `.` and `=`; anything else becomes `_`; at most 40
/// characters.
pub fn file_name_part(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=') {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "_".into()
    } else {
        s
    }
}

fn score_entry(label: String, score: Option<Estimate>, games: u64) -> ScoreEntry {
    let (score, low, high) = score.map_or((f64::NAN, f64::NAN, f64::NAN), |e| {
        (e.value, e.lower, e.upper)
    });
    ScoreEntry {
        label,
        score,
        low,
        high,
        games,
    }
}

fn elo_point(x: f64, elo: Option<Estimate>) -> EloPoint {
    EloPoint {
        x,
        elo: elo.map(|e| e.value),
        low: elo.map(|e| e.lower),
        high: elo.map(|e| e.upper),
    }
}

/// The LLR of `matchup`'s SPRT after each counted pair (pairs in order, complete pairs only,
/// stopping at the decision as the summary does), with the verdict. At most
/// [`MAX_SPRT_POINTS`] points plus the start `(0, 0)`; the last pair is always included.
pub fn sprt_path(
    config: &RunConfig,
    games: &GameMap,
    matchup: usize,
    params: &SprtParams,
) -> (Vec<SprtPoint>, SprtVerdict) {
    let pairs: Vec<(&GameLite, &GameLite)> = (0..config.pairs)
        .filter_map(|local| {
            let g = config.global_pair(matchup, local);
            Some((games.get(&(g, 0))?, games.get(&(g, 1))?))
        })
        .collect();
    let step = (pairs.len() as u64).div_ceil(MAX_SPRT_POINTS).max(1);
    let mut tally = Tally::default();
    let mut points = vec![SprtPoint { games: 0, llr: 0.0 }];
    let mut verdict = SprtVerdict::Continue;
    for (i, (a, b)) in pairs.iter().enumerate() {
        let decided = tally.add_pair(a, b, Some(params));
        let n = i as u64 + 1;
        let last = decided || i + 1 == pairs.len();
        if n % step == 0 || last {
            let status = sprt_status(&tally.penta, params);
            points.push(SprtPoint {
                games: tally.wdl.games(),
                llr: status.llr,
            });
            verdict = status.verdict;
        }
        if decided {
            break;
        }
    }
    (points, verdict)
}

/// Draws every chart that applies to the run into `dir` (see the module documentation) and
/// returns them in the order written.
pub fn write_charts(config: &RunConfig, games: &GameMap, dir: &Path) -> Result<Vec<WrittenChart>> {
    let summary = summarize(config, games);
    let mut written = Vec::new();
    let mut add = |stem: PathBuf, shows: String| {
        written.push(WrittenChart { stem, shows });
    };
    let chart_err = |e: wuzi_charts::ChartError| ArenaError::Chart(e.to_string());

    // Score.
    let matchup_entries = || -> Vec<ScoreEntry> {
        summary
            .matchups
            .iter()
            .map(|m| score_entry(format!("{} vs {}", m.first, m.second), m.score, m.games))
            .collect()
    };
    let stem = dir.join("score");
    match config.kind {
        RunKind::Match => {
            let title = match summary.matchups.as_slice() {
                [m] => format!("Score of {} against {} (95 % interval)", m.first, m.second),
                _ => "Score per matchup (95 % interval)".to_string(),
            };
            score_chart(&stem, &title, "matchup", &matchup_entries()).map_err(chart_err)?;
            add(stem, "score per matchup".into());
        }
        RunKind::Gauntlet => {
            let first = &config.players[config.matchups[0].first].name;
            let title = format!("Gauntlet: score of {first} against each opponent (95 % interval)");
            score_chart(&stem, &title, "matchup", &matchup_entries()).map_err(chart_err)?;
            add(stem, "score against each opponent".into());
        }
        RunKind::RoundRobin => {
            let mut players: Vec<_> = summary.players.iter().collect();
            players.sort_by(|a, b| {
                let s = |p: &&wuzi_runs::summary::PlayerSummary| p.score.map_or(-1.0, |e| e.value);
                s(b).total_cmp(&s(a))
            });
            let entries: Vec<ScoreEntry> = players
                .iter()
                .map(|p| score_entry(p.name.clone(), p.score, p.wdl.games()))
                .collect();
            score_chart(
                &stem,
                "Round robin: score of each player against the field (95 % interval)",
                "player",
                &entries,
            )
            .map_err(chart_err)?;
            add(stem, "score per player against the field".into());
            let stem = dir.join("score-matchups");
            score_chart(
                &stem,
                "Round robin: score of each matchup's first player (95 % interval)",
                "matchup",
                &matchup_entries(),
            )
            .map_err(chart_err)?;
            add(stem, "score per matchup".into());
        }
        RunKind::Sweep => {
            let baseline = summary
                .sweep
                .as_ref()
                .map_or("the baseline", |s| s.baseline.as_str());
            let entries: Vec<ScoreEntry> = match &summary.sweep {
                Some(sw) => sw
                    .rows
                    .iter()
                    .map(|r| score_entry(r.player.clone(), r.score, r.games))
                    .collect(),
                None => matchup_entries(),
            };
            score_chart(
                &stem,
                &format!("Sweep: score of each point against {baseline} (95 % interval)"),
                "point",
                &entries,
            )
            .map_err(chart_err)?;
            add(stem, "score of each sweep point".into());
        }
    }

    // Colours.
    let rows: Vec<ColourSplit> = summary
        .matchups
        .iter()
        .map(|m| ColourSplit {
            label: format!("{} vs {}", m.first, m.second),
            black_wins: m.black_wins,
            white_wins: m.white_wins,
            draws: m.draws,
        })
        .collect();
    let stem = dir.join("colours");
    colour_split_chart(
        &stem,
        "Results by colour: black wins, white wins and draws per matchup",
        "matchup",
        &rows,
    )
    .map_err(chart_err)?;
    add(stem, "black/white wins and draws per matchup".into());

    // SPRT.
    if let Some(params) = &config.sprt {
        let many = config.matchups.len() > 1;
        let width = config.matchups.len().to_string().len();
        for (k, m) in summary.matchups.iter().enumerate() {
            let (points, verdict) = sprt_path(config, games, k, params);
            let spec = SprtSpec {
                elo0: params.elo0,
                elo1: params.elo1,
                lower: params.lower_bound(),
                upper: params.upper_bound(),
                verdict: match verdict {
                    SprtVerdict::AcceptH0 => ChartVerdict::H0Accepted,
                    SprtVerdict::AcceptH1 => ChartVerdict::H1Accepted,
                    SprtVerdict::Continue => ChartVerdict::Undecided,
                },
            };
            let stem = if many {
                dir.join(format!(
                    "sprt-{:0width$}-{}-vs-{}",
                    k + 1,
                    file_name_part(&m.first),
                    file_name_part(&m.second)
                ))
            } else {
                dir.join("sprt")
            };
            let title = format!(
                "SPRT {} vs {} [{}, {}] ({} Elo)",
                m.first, m.second, params.elo0, params.elo1, params.model
            );
            sprt_chart(&stem, &title, &spec, &points).map_err(chart_err)?;
            add(stem, format!("SPRT of {} vs {}", m.first, m.second));
        }
    }

    // Sweep Elo against each axis.
    if let (Some(info), Some(table)) = (&config.sweep, &summary.sweep) {
        let baseline = &table.baseline;
        let baseline_params = config
            .players
            .get(info.baseline)
            .and_then(|p| p.params())
            .and_then(|p| p.ok());
        for (a, axis) in info.axes.iter().enumerate() {
            // The baseline's own value of this parameter: Elo 0 by definition.
            let baseline_x = baseline_params
                .as_ref()
                .and_then(|p| p.get(&axis.name))
                .map(f64::from);
            let x_label = format!("{} (parameter value)", axis.name);
            let name = file_name_part(&axis.name);
            if info.axes.len() == 1 {
                let points: Vec<EloPoint> = table
                    .rows
                    .iter()
                    .filter_map(|r| Some(elo_point(f64::from(*r.values.first()?), r.elo)))
                    .collect();
                let stem = dir.join(format!("elo-{name}"));
                let title = format!("Sweep of {}: Elo against {baseline}", axis.name);
                sweep_elo_chart(&stem, &title, &x_label, &points, baseline_x).map_err(chart_err)?;
                add(stem, format!("Elo against {}", axis.name));
                continue;
            }
            // One line per setting of the other axes, in grid order.
            let mut lines: BTreeMap<Vec<i32>, EloSeries> = BTreeMap::new();
            let mut order: Vec<Vec<i32>> = Vec::new();
            for r in &table.rows {
                let Some(&x) = r.values.get(a) else { continue };
                let others: Vec<i32> = r
                    .values
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != a)
                    .map(|(_, v)| *v)
                    .collect();
                let line = lines.entry(others.clone()).or_insert_with(|| {
                    order.push(others.clone());
                    let label = info
                        .axes
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| i != a)
                        .zip(&others)
                        .map(|((_, ax), v)| format!("{} = {v}", ax.name))
                        .collect::<Vec<_>>()
                        .join(", ");
                    EloSeries {
                        label,
                        points: Vec::new(),
                    }
                });
                line.points.push(elo_point(f64::from(x), r.elo));
            }
            let series: Vec<EloSeries> = order.iter().filter_map(|k| lines.remove(k)).collect();
            let parts: Vec<&[EloSeries]> = series.chunks(MAX_LINES).collect();
            for (p, chunk) in parts.iter().enumerate() {
                let (stem, title) = if parts.len() == 1 {
                    (
                        dir.join(format!("elo-{name}")),
                        format!(
                            "Sweep of {}: Elo against {baseline}, one line per setting of the others",
                            axis.name
                        ),
                    )
                } else {
                    (
                        dir.join(format!("elo-{name}-{}", p + 1)),
                        format!(
                            "Sweep of {}: Elo against {baseline} (part {} of {})",
                            axis.name,
                            p + 1,
                            parts.len()
                        ),
                    )
                };
                sweep_elo_lines_chart(&stem, &title, &x_label, chunk, baseline_x)
                    .map_err(chart_err)?;
                add(stem, format!("Elo against {}", axis.name));
            }
        }
    }
    Ok(written)
}

/// Redraws the charts of a run directory from its run file(s) and records into `out`
/// (default: the run directory itself). Works for finished, interrupted, sharded and merged
/// runs and for folders shared by a run's shards (all their games, as `merge` counts them);
/// an incomplete last record line is ignored. Charts are drawn into a temporary folder and
/// renamed into place, so shards finishing together never leave half a file. Returns the
/// summary and the charts.
pub fn chart_run_dir(dir: &Path, out: Option<&Path>) -> Result<(Summary, Vec<WrittenChart>)> {
    if !dir.is_dir() {
        return Err(ArenaError::Config(format!(
            "{}: no {RUN_FILE} here (not a run directory)",
            dir.display()
        )));
    }
    let run_dir = RunDir::open(dir)?;
    let config = run_dir.config();
    let games = run_dir.games()?;
    let out = out.unwrap_or(dir);
    std::fs::create_dir_all(out).map_err(|e| ArenaError::io(out, e))?;
    let tmp = out.join(format!(".charts-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| ArenaError::io(&tmp, e))?;
    let result = write_charts(&config, &games, &tmp).and_then(|drawn| {
        let mut written = Vec::new();
        for c in drawn {
            let name = c
                .stem
                .file_name()
                .expect("chart stems have names")
                .to_owned();
            for ext in ["png", "svg"] {
                let mut file = name.clone();
                file.push(format!(".{ext}"));
                let from = tmp.join(&file);
                if from.exists() {
                    let to = out.join(&file);
                    std::fs::rename(&from, &to).map_err(|e| ArenaError::io(&to, e))?;
                }
            }
            written.push(WrittenChart {
                stem: out.join(name),
                shows: c.shows,
            });
        }
        Ok(written)
    });
    let _ = std::fs::remove_dir_all(&tmp);
    Ok((summarize(&config, &games), result?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_engine::Stone;
    use wuzi_games::referee::Reason;
    use wuzi_runs::config::tests_support::tiny_config;

    fn lite(game: u8, winner: Option<Stone>) -> GameLite {
        GameLite {
            opening: 0,
            game,
            winner,
            reason: if winner.is_some() {
                Reason::Five
            } else {
                Reason::FullBoard
            },
            moves: [10, 10],
            nodes: [1000, 1000],
            ms: [5, 5],
        }
    }

    #[test]
    fn file_name_parts_are_safe() {
        assert_eq!(file_name_part("w_open_three=20"), "w_open_three=20");
        assert_eq!(file_name_part("a/b c,d"), "a_b_c_d");
        assert_eq!(file_name_part(""), "_");
        assert_eq!(file_name_part(".."), "_");
        assert_eq!(file_name_part(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn sprt_path_replays_pairs_and_stops_at_the_decision() {
        let mut config = tiny_config(3);
        config.pairs = 200;
        let params = SprtParams::new(0.0, 50.0, wuzi_stats::EloModel::Logistic);
        config.sprt = Some(params);
        let mut games = GameMap::new();
        for local in 0..200u64 {
            let g = config.global_pair(0, local);
            // The first player wins both games.
            games.insert((g, 0), lite(0, Some(Stone::Black)));
            games.insert((g, 1), lite(1, Some(Stone::White)));
        }
        let (points, verdict) = sprt_path(&config, &games, 0, &params);
        assert_eq!(verdict, SprtVerdict::AcceptH1);
        assert_eq!(points[0], SprtPoint { games: 0, llr: 0.0 });
        let summary = summarize(&config, &games);
        let decided = summary.matchups[0]
            .sprt
            .as_ref()
            .unwrap()
            .decided_after_pairs;
        assert_eq!(points.last().unwrap().games, 2 * decided.unwrap());
        assert!(points.windows(2).all(|w| w[0].games < w[1].games));
        assert!(points.last().unwrap().llr >= params.upper_bound());
    }
}
