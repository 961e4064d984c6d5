//! The run summary (`summary.json`): its data per matchup, player and sweep value, computed
//! from the tallies of the finished games, and written to the run directory.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use wuzi_stats::{sprt_status, Estimate, Penta, SprtParams, SprtStatus, SprtVerdict, Wdl};

use super::tally::{tally_all, GameMap, Tally};
use crate::atomic::write_atomic;
use crate::config::{RunConfig, RunKind};
use crate::error::Result;

/// Name of the summary file in a run directory.
pub const SUMMARY_FILE: &str = "summary.json";

/// SPRT state of a matchup in the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSummary {
    /// The test.
    pub params: SprtParams,
    /// LLR, bounds and verdict after the counted pairs.
    pub status: SprtStatus,
    /// Pairs counted when it decided (`None`: undecided).
    pub decided_after_pairs: Option<u64>,
    /// Undecided with every pair of the budget counted: the test ended without a decision.
    #[serde(default)]
    pub budget_spent: bool,
}

impl SprtSummary {
    /// The state in words: `H1 accepted after 52 pairs`, `undecided (budget spent)`, or
    /// `continue` while pairs remain.
    pub fn state(&self) -> String {
        match (self.status.verdict, self.decided_after_pairs) {
            (SprtVerdict::AcceptH1, Some(n)) => format!("H1 accepted after {n} pairs"),
            (SprtVerdict::AcceptH0, Some(n)) => format!("H0 accepted after {n} pairs"),
            _ if self.budget_spent => "undecided (budget spent)".to_string(),
            _ => "continue".to_string(),
        }
    }
}

/// How far a run got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Completion {
    /// Every matchup counted all its pairs or stopped where its SPRT decided.
    #[default]
    Finished,
    /// A signal (Ctrl-C, SIGTERM) stopped the session before the end; the summary covers
    /// the games finished until then.
    Interrupted,
    /// Games are missing and no session said why: the run was killed, failed, or is still
    /// running.
    Incomplete,
}

/// One opening's results in a matchup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningResult {
    /// Opening index.
    pub index: usize,
    /// Its id.
    pub id: String,
    /// Its moves.
    pub moves: String,
    /// Pair counts.
    pub penta: Penta,
    /// Game counts.
    pub wdl: Wdl,
    /// First player's mean score.
    pub score: Option<f64>,
}

/// One matchup's statistics, from the first player's point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchupSummary {
    /// First player's name.
    pub first: String,
    /// Second player's name.
    pub second: String,
    /// Pairs the configuration plans (all shards).
    pub pairs_planned: u64,
    /// Pairs counted.
    pub pairs: u64,
    /// Games counted.
    pub games: u64,
    /// W/D/L of the first player.
    pub wdl: Wdl,
    /// Pentanomial counts `[LL, LD, WL+DD, WD, WW]`.
    pub penta: Penta,
    /// Games won by black.
    pub black_wins: u64,
    /// Games won by white.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Score with 95% interval (pentanomial).
    pub score: Option<Estimate>,
    /// Logistic Elo with 95% interval (pentanomial).
    pub elo: Option<Estimate>,
    /// Normalized Elo with 95% interval (pentanomial).
    pub nelo: Option<Estimate>,
    /// Likelihood of superiority (pentanomial).
    pub los: Option<f64>,
    /// Fraction of drawn games.
    pub draw_ratio: Option<f64>,
    /// Games by end reason.
    pub reasons: BTreeMap<String, u64>,
    /// Mean nodes per move of the first and second player.
    pub nodes_per_move: [Option<f64>; 2],
    /// SPRT state, when the run has one.
    pub sprt: Option<SprtSummary>,
    /// Results per opening, in opening-index order.
    pub openings: Vec<OpeningResult>,
}

/// A player's results over all its matchups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// Name.
    pub name: String,
    /// Parameters that differ from the defaults.
    pub params: BTreeMap<String, i32>,
    /// Limits, as text.
    pub limits: String,
    /// Pair counts from this player's side, summed over its matchups.
    pub penta: Penta,
    /// W/D/L from this player's side.
    pub wdl: Wdl,
    /// Score with interval.
    pub score: Option<Estimate>,
    /// Elo against the field with interval.
    pub elo: Option<Estimate>,
}

/// One row of a sweep table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The point's values, one per axis.
    pub values: Vec<i32>,
    /// The point's player.
    pub player: String,
    /// Games counted against the baseline.
    pub games: u64,
    /// Score against the baseline.
    pub score: Option<Estimate>,
    /// Elo against the baseline.
    pub elo: Option<Estimate>,
    /// Normalized Elo against the baseline.
    pub nelo: Option<Estimate>,
    /// LOS against the baseline.
    pub los: Option<f64>,
}

/// A sweep's score-against-value table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepTable {
    /// Parameter names (the columns of `values`).
    pub axes: Vec<String>,
    /// The baseline's name.
    pub baseline: String,
    /// One row per point, in grid order.
    pub rows: Vec<SweepRow>,
}

/// Wall-clock facts of one session (not reproducible; left out of comparisons).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Seconds this session ran.
    pub elapsed_s: f64,
    /// Games played this session.
    pub games_played: u64,
    /// Games found in the records when the session started (`--resume`).
    pub games_resumed: u64,
    /// Games per second this session.
    pub games_per_s: f64,
    /// Worker threads.
    pub concurrency: usize,
    /// Mean ms per move per player name, over the counted games.
    pub ms_per_move: BTreeMap<String, f64>,
}

/// The run summary written to `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Kind of run.
    pub kind: RunKind,
    /// Rule name.
    pub rule: String,
    /// Board size.
    pub size: usize,
    /// Where the openings came from.
    pub openings_source: String,
    /// Number of openings.
    pub openings: usize,
    /// Run seed.
    pub seed: u64,
    /// Shard this summary covers, if any (`i/n`).
    pub shard: Option<String>,
    /// Games finished (counted or not).
    pub games_finished: u64,
    /// Games the run plans (every pair of the summary's shard, both games; an SPRT may stop
    /// it earlier).
    #[serde(default)]
    pub games_planned: u64,
    /// Whether the run got to its end; statistics of an unfinished run are no verdict.
    #[serde(default)]
    pub completion: Completion,
    /// Per matchup.
    pub matchups: Vec<MatchupSummary>,
    /// Per player, over all matchups.
    pub players: Vec<PlayerSummary>,
    /// Sweep table, for sweeps.
    pub sweep: Option<SweepTable>,
    /// Timing of the session that wrote the summary (`None` after `merge`).
    pub timing: Option<Timing>,
}

fn mean(total: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| total as f64 / n as f64)
}

/// The summary of a run from its configuration and finished games (timing left empty).
pub fn summarize(config: &RunConfig, games: &GameMap) -> Summary {
    let tallies = tally_all(config, games);
    summarize_tallies(config, &tallies, games.len() as u64)
}

/// Pairs of matchup `m` that `config` plays (all of them, or its shard's).
fn own_pairs(config: &RunConfig, m: usize) -> u64 {
    (0..config.pairs)
        .filter(|&local| config.plays(config.global_pair(m, local)))
        .count() as u64
}

/// The summary from already computed tallies.
pub fn summarize_tallies(config: &RunConfig, tallies: &[Tally], finished: u64) -> Summary {
    let own: Vec<u64> = (0..config.matchups.len())
        .map(|m| own_pairs(config, m))
        .collect();
    let complete = tallies
        .iter()
        .zip(&own)
        .all(|(t, &n)| t.decision.is_some() || t.pairs() >= n);
    let matchups: Vec<MatchupSummary> = config
        .matchups
        .iter()
        .zip(tallies)
        .zip(&own)
        .map(|((m, t), &own)| MatchupSummary {
            first: config.players[m.first].name.clone(),
            second: config.players[m.second].name.clone(),
            pairs_planned: config.pairs,
            pairs: t.pairs(),
            games: t.wdl.games(),
            wdl: t.wdl,
            penta: t.penta,
            black_wins: t.black_wins,
            white_wins: t.white_wins,
            draws: t.draws,
            score: t.penta.score_estimate(),
            elo: t.penta.elo_estimate(),
            nelo: t.penta.nelo_estimate(),
            los: t.penta.los(),
            draw_ratio: t.wdl.draw_ratio(),
            reasons: t
                .reasons
                .iter()
                .map(|(r, n)| (r.as_str().to_string(), *n))
                .collect(),
            nodes_per_move: [mean(t.nodes[0], t.moves[0]), mean(t.nodes[1], t.moves[1])],
            sprt: config.sprt.map(|params| SprtSummary {
                params,
                status: sprt_status(&t.penta, &params),
                decided_after_pairs: t.decision.map(|d| d.pairs),
                budget_spent: t.decision.is_none() && t.pairs() >= own,
            }),
            openings: t
                .openings
                .iter()
                .map(|(&index, o)| OpeningResult {
                    index,
                    id: config.openings[index].id.clone(),
                    moves: config.openings[index].notation(),
                    penta: o.penta,
                    wdl: o.wdl,
                    score: o.wdl.score(),
                })
                .collect(),
        })
        .collect();

    let players = config
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut penta = Penta::default();
            let mut wdl = Wdl::default();
            for (m, t) in config.matchups.iter().zip(tallies) {
                if m.first == i {
                    penta += t.penta;
                    wdl += t.wdl;
                } else if m.second == i {
                    penta += t.penta.flipped();
                    wdl += t.wdl.flipped();
                }
            }
            PlayerSummary {
                name: p.name.clone(),
                params: p.params_diff(),
                limits: p.limits.describe(),
                penta,
                wdl,
                score: penta.score_estimate(),
                elo: penta.elo_estimate(),
            }
        })
        .collect();

    let sweep = config.sweep.as_ref().map(|s| SweepTable {
        axes: s.axes.iter().map(|a| a.name.clone()).collect(),
        baseline: config.players[s.baseline].name.clone(),
        rows: s
            .points
            .iter()
            .map(|pt| {
                let t = &tallies[pt.matchup];
                SweepRow {
                    values: pt.values.clone(),
                    player: config.players[pt.player].name.clone(),
                    games: t.wdl.games(),
                    score: t.penta.score_estimate(),
                    elo: t.penta.elo_estimate(),
                    nelo: t.penta.nelo_estimate(),
                    los: t.penta.los(),
                }
            })
            .collect(),
    });

    Summary {
        kind: config.kind,
        rule: config.game.rule.to_string(),
        size: config.game.size,
        openings_source: config.openings_source.clone(),
        openings: config.openings.len(),
        seed: config.seed,
        shard: config.shard.map(|s| s.to_string()),
        games_finished: finished,
        games_planned: own.iter().sum::<u64>() * 2,
        completion: if complete {
            Completion::Finished
        } else {
            Completion::Incomplete
        },
        matchups,
        players,
        sweep,
        timing: None,
    }
}

/// Mean ms per move of each player over the counted games.
pub fn ms_per_move(config: &RunConfig, tallies: &[Tally]) -> BTreeMap<String, f64> {
    let mut ms = vec![0u64; config.players.len()];
    let mut moves = vec![0u64; config.players.len()];
    for (m, t) in config.matchups.iter().zip(tallies) {
        for (who, p) in [(0, m.first), (1, m.second)] {
            ms[p] += t.ms[who];
            moves[p] += t.moves[who];
        }
    }
    config
        .players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| mean(ms[i], moves[i]).map(|v| (p.name.clone(), v)))
        .collect()
}

/// Writes a summary to `path` (atomically).
pub fn write_summary_to(summary: &Summary, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(summary).expect("summaries serialize");
    write_atomic(path, (text + "\n").as_bytes())
}

/// Writes `summary.json` into `dir`.
pub fn write_summary(summary: &Summary, dir: &Path) -> Result<()> {
    write_summary_to(summary, &dir.join(SUMMARY_FILE))
}
