//! Charts of a tune and of its verification match, drawn with the arena's chart module
//! ([`wuzi_arena::chart`]); each chart is a PNG and an SVG.
//!
//! In a tune directory: `paths.{png,svg}`, every tuned parameter's theta over the iterations,
//! normalised to its tuned range; `score.{png,svg}`, the running score of engine+ against
//! engine- with its 95% band. In a verification directory: the arena's charts of a run
//! (`score`, `colours`, `sprt` with an SPRT) and `elo-running`, the Elo of tuned against start
//! with its interval over the games.

use std::path::{Path, PathBuf};

use wuzi_arena::chart::{
    elo_chart, output_paths, param_paths_chart, running_score_chart, ChartError, EloPoint,
    ParamPath, RunningScore,
};
use wuzi_arena::config::{RunConfig, RUN_FILE};
use wuzi_arena::run::load_run_records;
use wuzi_arena::stats::Z_95;
use wuzi_arena::summary::{GameLite, Tally};

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::history::IterationRecord;

/// Stem of the parameter-path chart in a tune directory.
pub const PATHS_CHART: &str = "paths";
/// Stem of the running-score chart in a tune directory.
pub const SCORE_CHART: &str = "score";
/// Stem of the running-Elo chart in a verification directory.
pub const RUNNING_ELO_CHART: &str = "elo-running";
/// Most error bars in the verification's running-Elo chart.
const ELO_BARS: usize = 40;

fn chart_err(stem: &Path, e: ChartError) -> TuneError {
    TuneError::Chart {
        path: stem.to_path_buf(),
        message: e.to_string(),
    }
}

fn both(stem: &Path) -> [PathBuf; 2] {
    let (png, svg) = output_paths(stem);
    [png, svg]
}

/// The running score of engine+ after each iteration with a 95% interval from the game
/// results (trinomial: the tune's pairs do not share one engine+).
pub fn running_scores(history: &[IterationRecord]) -> Vec<RunningScore> {
    let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
    history
        .iter()
        .map(|r| {
            w += r.wins;
            d += r.draws;
            l += r.losses;
            let n = (w + d + l) as f64;
            let (score, interval) = if n > 0.0 {
                let s = (w as f64 + 0.5 * d as f64) / n;
                let var = (w as f64 * (1.0 - s).powi(2)
                    + d as f64 * (0.5 - s).powi(2)
                    + l as f64 * s * s)
                    / n;
                let m = Z_95 * (var / n).sqrt();
                (s, Some(((s - m).max(0.0), (s + m).min(1.0))))
            } else {
                (0.5, None)
            };
            RunningScore {
                iteration: r.iteration,
                score,
                interval,
            }
        })
        .collect()
}

/// Draws the tune's charts into `dir` (`paths` and `score`, PNG and SVG); returns the files
/// written. The paths start at iteration 0 with the starting values.
pub fn write_tune_charts(
    dir: &Path,
    config: &TuneConfig,
    history: &[IterationRecord],
) -> Result<Vec<PathBuf>> {
    let paths: Vec<ParamPath> = config
        .spsa
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| ParamPath {
            name: p.name.clone(),
            min: p.min,
            max: p.max,
            points: std::iter::once((0, p.start))
                .chain(history.iter().map(|r| (r.iteration, r.theta[i])))
                .collect(),
        })
        .collect();
    let mut out = Vec::new();
    let stem = dir.join(PATHS_CHART);
    param_paths_chart(
        &stem,
        &format!(
            "SPSA parameter paths ({} of {} iterations)",
            history.len(),
            config.iterations()
        ),
        &paths,
    )
    .map_err(|e| chart_err(&stem, e))?;
    out.extend(both(&stem));
    let stem = dir.join(SCORE_CHART);
    running_score_chart(
        &stem,
        "Running score of engine+ against engine-",
        &running_scores(history),
    )
    .map_err(|e| chart_err(&stem, e))?;
    out.extend(both(&stem));
    Ok(out)
}

/// Draws the charts of the verification match recorded in `dir` (an arena run directory):
/// the arena's charts of a run ([`wuzi_arena::run_charts`]: `score`, `colours` and, with an
/// SPRT, `sprt`) and `elo-running`, the Elo with its 95% interval after each pair. Returns
/// the files written.
pub fn write_verify_charts(dir: &Path) -> Result<Vec<PathBuf>> {
    let (_, written) = wuzi_arena::run_charts::chart_run_dir(dir, None)?;
    let mut out: Vec<PathBuf> = written.iter().flat_map(|w| both(&w.stem)).collect();

    let config = RunConfig::load(&dir.join(RUN_FILE))?;
    let records = load_run_records(&config, dir, false)?;
    let games: std::collections::HashMap<(u64, u8), GameLite> = records
        .iter()
        .map(|r| (r.key(), GameLite::from_record(r)))
        .collect();
    let (first, second) = config
        .matchups
        .first()
        .map(|m| {
            (
                config.players[m.first].name.clone(),
                config.players[m.second].name.clone(),
            )
        })
        .unwrap_or_default();

    // Pairs in order, as the arena counts them (stopping where an SPRT decided).
    let mut tally = Tally::default();
    let mut elo_points = Vec::new();
    for local in 0..config.pairs {
        let g = config.global_pair(0, local);
        let (Some(a), Some(b)) = (games.get(&(g, 0)), games.get(&(g, 1))) else {
            break;
        };
        let decided = tally.add_pair(a, b, config.sprt.as_ref());
        if let Some(e) = tally.penta.elo_estimate() {
            elo_points.push(EloPoint {
                x: tally.penta.games() as f64,
                elo: Some(e.value),
                low: Some(e.lower),
                high: Some(e.upper),
            });
        }
        if decided {
            break;
        }
    }
    // About 40 error bars: every pair's would overlap.
    let step = elo_points.len().div_ceil(ELO_BARS).max(1);
    let last = elo_points.len().saturating_sub(1);
    let elo_points: Vec<EloPoint> = elo_points
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (last - i) % step == 0)
        .map(|(_, p)| p)
        .collect();

    let stem = dir.join(RUNNING_ELO_CHART);
    elo_chart(
        &stem,
        &format!("Verification: Elo of {first} against {second} (95% interval)"),
        "games",
        &elo_points,
    )
    .map_err(|e| chart_err(&stem, e))?;
    out.extend(both(&stem));

    Ok(out)
}
