//! Results: per-matchup tallies built pair by pair in pair order, the SPRT stopping rule, and
//! the run summary (`summary.json`) with its terminal tables.
//!
//! The summary is a pure function of the configuration and the set of finished games
//! ([`summarize`]), which is what makes `--resume`, `--shard` + `merge` and any concurrency
//! reach the same statistics: each matchup's pairs are counted in local pair order, and when
//! the matchup has an SPRT, counting stops at the first pair after which the SPRT decides.
//! Games played beyond that point (in flight when the decision came) are ignored.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use wuzi_engine::Stone;

use std::path::Path;

use crate::atomic::write_atomic;
use crate::config::{RunConfig, RunKind};
use crate::error::Result;
use wuzi_games::record::GameRecord;
use wuzi_games::referee::Reason;
use wuzi_stats::{sprt_status, Estimate, Outcome, Penta, SprtParams, SprtStatus, SprtVerdict, Wdl};

/// Name of the summary file in a run directory.
pub const SUMMARY_FILE: &str = "summary.json";

/// What the statistics need of one game (a finished game's record, reduced).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLite {
    /// Opening index.
    pub opening: usize,
    /// Game index within the pair (0: the first player has black).
    pub game: u8,
    /// Winning colour.
    pub winner: Option<Stone>,
    /// Why it ended.
    pub reason: Reason,
    /// Moves, nodes and milliseconds per colour (black, white), moves after the opening.
    pub moves: [u64; 2],
    /// Nodes searched per colour.
    pub nodes: [u64; 2],
    /// Wall time per colour in ms.
    pub ms: [u64; 2],
}

impl GameLite {
    /// Reduces a record.
    pub fn from_record(r: &GameRecord) -> GameLite {
        let mut moves = [0u64; 2];
        let mut nodes = [0u64; 2];
        let mut ms = [0u64; 2];
        // The first move after the opening is made by the side to move after it.
        let first = r.opening.opening.moves.len() % 2;
        for (i, m) in r.moves.iter().enumerate() {
            let c = (first + i) % 2;
            moves[c] += 1;
            nodes[c] += m.nodes.unwrap_or(0);
            ms[c] += m.ms;
        }
        GameLite {
            opening: r.opening.index,
            game: r.game,
            winner: r.winner,
            reason: r.reason,
            moves,
            nodes,
            ms,
        }
    }

    /// The result for the matchup's first player.
    pub fn outcome_for_first(&self) -> Outcome {
        let first = if self.game == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        match self.winner {
            None => Outcome::Draw,
            Some(w) if w == first => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }

    /// Colour index (0 black, 1 white) of the matchup's first player in this game.
    fn first_colour(&self) -> usize {
        usize::from(self.game)
    }
}

/// Finished games keyed by `(global pair, game)`.
pub type GameMap = HashMap<(u64, u8), GameLite>;

/// Where an SPRT decided.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// H0 or H1.
    pub verdict: SprtVerdict,
    /// Number of pairs counted when it decided.
    pub pairs: u64,
}

/// Per-opening counts (first player's view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OpeningTally {
    /// Pair counts.
    pub penta: Penta,
    /// Game counts.
    pub wdl: Wdl,
}

/// One matchup's counts, from its first player's point of view, built pair by pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Pentanomial pair counts.
    pub penta: Penta,
    /// W/D/L game counts.
    pub wdl: Wdl,
    /// Games won by black.
    pub black_wins: u64,
    /// Games won by white.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games by end reason.
    pub reasons: BTreeMap<Reason, u64>,
    /// Per opening index.
    pub openings: BTreeMap<usize, OpeningTally>,
    /// Moves, nodes and ms of the first and second player.
    pub moves: [u64; 2],
    /// Nodes searched by the first and second player.
    pub nodes: [u64; 2],
    /// Wall time of the first and second player, ms.
    pub ms: [u64; 2],
    /// Set when the SPRT decided (no more pairs are counted).
    pub decision: Option<Decision>,
}

impl Tally {
    /// Number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.pairs()
    }

    /// Counts one pair (both games) and, with an SPRT, checks whether it now decides.
    /// Returns `true` when this pair made the decision. Pairs after a decision are ignored.
    pub fn add_pair(&mut self, g0: &GameLite, g1: &GameLite, sprt: Option<&SprtParams>) -> bool {
        if self.decision.is_some() {
            return false;
        }
        let (o0, o1) = (g0.outcome_for_first(), g1.outcome_for_first());
        self.penta.add_pair(o0, o1);
        let entry = self.openings.entry(g0.opening).or_default();
        entry.penta.add_pair(o0, o1);
        for (g, o) in [(g0, o0), (g1, o1)] {
            self.wdl.add_game(o);
            entry.wdl.add_game(o);
            match g.winner {
                Some(Stone::Black) => self.black_wins += 1,
                Some(Stone::White) => self.white_wins += 1,
                None => self.draws += 1,
            }
            *self.reasons.entry(g.reason).or_default() += 1;
            let f = g.first_colour();
            for (who, c) in [(0, f), (1, 1 - f)] {
                self.moves[who] += g.moves[c];
                self.nodes[who] += g.nodes[c];
                self.ms[who] += g.ms[c];
            }
        }
        if let Some(params) = sprt {
            let status = sprt_status(&self.penta, params);
            if status.verdict != SprtVerdict::Continue {
                self.decision = Some(Decision {
                    verdict: status.verdict,
                    pairs: self.pairs(),
                });
                return true;
            }
        }
        false
    }
}

/// Counts every matchup from a set of finished games, pairs in local order, skipping pairs
/// that are not complete, stopping a matchup at its SPRT decision.
pub fn tally_all(config: &RunConfig, games: &GameMap) -> Vec<Tally> {
    (0..config.matchups.len())
        .map(|m| {
            let mut t = Tally::default();
            for local in 0..config.pairs {
                let g = config.global_pair(m, local);
                if let (Some(a), Some(b)) = (games.get(&(g, 0)), games.get(&(g, 1))) {
                    t.add_pair(a, b, config.sprt.as_ref());
                    if t.decision.is_some() {
                        break;
                    }
                }
            }
            t
        })
        .collect()
}

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

/// `+12.3 +- 20.1` (Elo with half the interval); `inf` for perfect scores; `-` when absent.
pub fn fmt_estimate(e: Option<Estimate>) -> String {
    match e {
        None => "-".into(),
        // Adding 0.0 turns -0.0 into 0.0.
        Some(e) if e.value.is_finite() && e.half_width().is_finite() => {
            format!("{:+.1} +- {:.1}", e.value + 0.0, e.half_width())
        }
        Some(e) if e.value.is_finite() => format!("{:+.1} (+-inf)", e.value),
        Some(e) => format!("{}inf", if e.value > 0.0 { "+" } else { "-" }),
    }
}

fn fmt_opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

/// Pads a table: every column as wide as its widest cell, the first left-aligned.
fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The SPRT line: `LLR 1.23 [-2.94, 2.94] continue` (see [`SprtSummary::state`]).
pub fn fmt_sprt(s: &SprtSummary) -> String {
    let verdict = s.state();
    format!(
        "SPRT [{}, {}] ({}) LLR {:.2} [{:.2}, {:.2}] {verdict}",
        s.params.elo0, s.params.elo1, s.params.model, s.status.llr, s.status.lower, s.status.upper
    )
}

/// How far an unfinished run got, in words (`None` when it finished): `interrupted after 22
/// of 120 games: no verdict`, or `incomplete: 22 of 120 games recorded; ...`.
pub fn completion_note(summary: &Summary) -> Option<String> {
    let (n, m) = (summary.games_finished, summary.games_planned);
    match summary.completion {
        Completion::Finished => None,
        Completion::Interrupted => Some(format!("interrupted after {n} of {m} games: no verdict")),
        Completion::Incomplete => Some(format!(
            "incomplete: {n} of {m} games recorded; the run did not finish (or is still \
             running): no verdict"
        )),
    }
}

/// Games finished but not counted because an SPRT had decided before them (they were in
/// flight when it stopped its matchup), in words; `None` when every finished game counts or
/// the run did not finish.
pub fn uncounted_note(summary: &Summary) -> Option<String> {
    let decided = summary.matchups.iter().any(|m| {
        m.sprt
            .as_ref()
            .is_some_and(|s| s.decided_after_pairs.is_some())
    });
    let counted: u64 = summary.matchups.iter().map(|m| m.games).sum();
    let extra = summary.games_finished.saturating_sub(counted);
    (decided && extra > 0 && summary.completion == Completion::Finished).then(|| {
        let (games, are) = if extra == 1 {
            ("game", "is")
        } else {
            ("games", "are")
        };
        if summary.matchups.len() == 1 {
            format!(
                "{} games played; the SPRT decided after {counted} ({extra} {games} in flight \
                 when it stopped {are} not counted)",
                summary.games_finished
            )
        } else {
            format!(
                "{} games played, {counted} counted ({extra} {games} in flight when an SPRT \
                 stopped their matchup {are} not counted)",
                summary.games_finished
            )
        }
    })
}

/// The terminal report: per-matchup table, SPRT lines, standings and the sweep table.
pub fn render(summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} | {} {}x{} | openings: {} ({}) | seed {}{}",
        summary.kind,
        summary.rule,
        summary.size,
        summary.size,
        summary.openings_source,
        summary.openings,
        summary.seed,
        summary
            .shard
            .as_ref()
            .map(|s| format!(" | shard {s}"))
            .unwrap_or_default()
    );
    if let Some(note) = completion_note(summary) {
        let _ = writeln!(out, "{note}");
    }
    let mut rows = vec![[
        "matchup",
        "games",
        "W-D-L",
        "B/W/D wins",
        "penta [LL LD even WD WW]",
        "score",
        "Elo",
        "nElo",
        "LOS",
        "draws",
    ]
    .map(String::from)
    .to_vec()];
    for m in &summary.matchups {
        rows.push(vec![
            format!("{} vs {}", m.first, m.second),
            m.games.to_string(),
            m.wdl.to_string(),
            format!("{}/{}/{}", m.black_wins, m.white_wins, m.draws),
            m.penta.to_string(),
            fmt_opt(m.score.map(|s| s.value), 3),
            fmt_estimate(m.elo),
            fmt_estimate(m.nelo),
            m.los
                .map_or_else(|| "-".into(), |l| format!("{:.1}%", l * 100.0)),
            m.draw_ratio
                .map_or_else(|| "-".into(), |d| format!("{:.1}%", d * 100.0)),
        ]);
    }
    out.push_str(&table(&rows));
    for m in &summary.matchups {
        if let Some(s) = &m.sprt {
            let _ = writeln!(out, "{} vs {}: {}", m.first, m.second, fmt_sprt(s));
        }
        let reasons: Vec<String> = m.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        if m.games > 0 && m.reasons.keys().any(|r| r != "five") {
            let _ = writeln!(
                out,
                "{} vs {}: endings: {}",
                m.first,
                m.second,
                reasons.join(", ")
            );
        }
    }
    if summary.matchups.len() > 1 && summary.sweep.is_none() {
        let mut ranked: Vec<&PlayerSummary> = summary.players.iter().collect();
        ranked.sort_by(|a, b| {
            let s = |p: &PlayerSummary| p.score.map_or(0.0, |e| e.value);
            s(b).total_cmp(&s(a))
        });
        let mut rows = vec![["player", "games", "W-D-L", "score", "Elo vs field"]
            .map(String::from)
            .to_vec()];
        for p in ranked {
            rows.push(vec![
                p.name.clone(),
                p.wdl.games().to_string(),
                p.wdl.to_string(),
                fmt_opt(p.score.map(|s| s.value), 3),
                fmt_estimate(p.elo),
            ]);
        }
        out.push('\n');
        out.push_str(&table(&rows));
    }
    if let Some(sw) = &summary.sweep {
        let mut header: Vec<String> = sw.axes.clone();
        header.extend(["games", "score", "Elo", "nElo", "LOS"].map(String::from));
        let mut rows = vec![header];
        for r in &sw.rows {
            let mut row: Vec<String> = r.values.iter().map(|v| v.to_string()).collect();
            row.extend([
                r.games.to_string(),
                fmt_opt(r.score.map(|s| s.value), 3),
                fmt_estimate(r.elo),
                fmt_estimate(r.nelo),
                r.los
                    .map_or_else(|| "-".into(), |l| format!("{:.1}%", l * 100.0)),
            ]);
            rows.push(row);
        }
        let _ = writeln!(
            out,
            "\nsweep against {} (score of each point):",
            sw.baseline
        );
        out.push_str(&table(&rows));
    }
    if let Some(t) = &summary.timing {
        let _ = writeln!(
            out,
            "\n{} games in {:.1} s ({:.2} games/s, {} workers){}",
            t.games_played,
            t.elapsed_s,
            t.games_per_s,
            t.concurrency,
            if t.games_resumed > 0 {
                format!("; {} games resumed from the records", t.games_resumed)
            } else {
                String::new()
            }
        );
    }
    if let Some(note) = uncounted_note(summary) {
        let _ = writeln!(out, "{note}");
    }
    out
}

/// Per-opening results of every matchup: opening, moves, pairs, pentanomial counts, W-D-L
/// and the first player's score, in opening-index order.
pub fn render_openings(summary: &Summary) -> String {
    let mut out = String::new();
    for m in &summary.matchups {
        let _ = writeln!(out, "{} vs {}, per opening:", m.first, m.second);
        let mut rows = vec![["opening", "moves", "pairs", "penta", "W-D-L", "score"]
            .map(String::from)
            .to_vec()];
        for o in &m.openings {
            rows.push(vec![
                o.id.clone(),
                o.moves.clone(),
                o.penta.pairs().to_string(),
                o.penta.to_string(),
                o.wdl.to_string(),
                fmt_opt(o.score, 3),
            ]);
        }
        out.push_str(&table(&rows));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tests_support::tiny_config;

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
            nodes: [1000, 2000],
            ms: [5, 5],
        }
    }

    #[test]
    fn tally_counts_from_the_first_players_side() {
        let mut t = Tally::default();
        // Game 0: first player black wins; game 1: first player white, black wins -> WL.
        t.add_pair(
            &lite(0, Some(Stone::Black)),
            &lite(1, Some(Stone::Black)),
            None,
        );
        // WW: first player wins both.
        t.add_pair(
            &lite(0, Some(Stone::Black)),
            &lite(1, Some(Stone::White)),
            None,
        );
        // DL.
        t.add_pair(&lite(0, None), &lite(1, Some(Stone::Black)), None);
        assert_eq!(t.penta, Penta::new([0, 1, 1, 0, 1]));
        assert_eq!(t.wdl, Wdl::new(3, 1, 2));
        assert_eq!((t.black_wins, t.white_wins, t.draws), (4, 1, 1));
        assert_eq!(t.reasons.get(&Reason::FullBoard), Some(&1));
        // First player: black in games 0 (1000 nodes) and white in games 1 (2000 nodes).
        assert_eq!(t.nodes, [3 * 3000, 3 * 3000]);
        assert_eq!(t.openings.get(&0).map(|o| o.penta.pairs()), Some(3));
    }

    #[test]
    fn sprt_stops_counting_at_the_decision() {
        let params = SprtParams::new(0.0, 50.0, wuzi_stats::EloModel::Logistic);
        let mut t = Tally::default();
        let mut decided_at = None;
        for k in 0..100 {
            if t.add_pair(
                &lite(0, Some(Stone::Black)),
                &lite(1, Some(Stone::White)),
                Some(&params),
            ) {
                decided_at = Some(k + 1);
            }
        }
        let n = decided_at.expect("decides");
        assert_eq!(t.pairs(), n);
        assert_eq!(t.decision.map(|d| d.verdict), Some(SprtVerdict::AcceptH1));
    }

    #[test]
    fn summary_and_render() {
        let config = tiny_config(3);
        let mut games = GameMap::new();
        for g in 0..3u64 {
            games.insert((g, 0), lite(0, Some(Stone::Black)));
            games.insert(
                (g, 1),
                lite(1, if g == 2 { None } else { Some(Stone::Black) }),
            );
        }
        let s = summarize(&config, &games);
        let m = &s.matchups[0];
        assert_eq!((m.pairs, m.games), (3, 6));
        assert_eq!(m.wdl, Wdl::new(3, 1, 2));
        assert_eq!(m.penta, Penta::new([0, 0, 2, 1, 0]));
        assert_eq!(s.players[1].wdl, Wdl::new(2, 1, 3));
        assert_eq!(m.nodes_per_move, [Some(150.0), Some(150.0)]);
        let text = render(&s);
        assert!(text.contains("a vs b"), "{text}");
        assert!(text.contains("3-1-2"), "{text}");
        let per_opening = render_openings(&s);
        assert!(
            per_opening.contains(&config.openings[0].id),
            "{per_opening}"
        );
        // An incomplete pair is skipped.
        games.remove(&(1, 1));
        assert_eq!(summarize(&config, &games).matchups[0].pairs, 2);
        let json = serde_json::to_string(&s).expect("serializes");
        let back: Summary = serde_json::from_str(&json).expect("parses");
        assert_eq!(back.matchups[0].penta, s.matchups[0].penta);
    }

    /// Pair `g` of a one-matchup run: both games won by the first player (WW) or split (WL).
    fn insert_pair(games: &mut GameMap, g: u64, first_wins_both: bool) {
        games.insert((g, 0), lite(0, Some(Stone::Black)));
        let second = if first_wins_both {
            Stone::White
        } else {
            Stone::Black
        };
        games.insert((g, 1), lite(1, Some(second)));
    }

    #[test]
    fn an_sprt_out_of_budget_is_undecided_budget_spent_not_continue() {
        let mut config = tiny_config(3);
        // Three even pairs cannot decide 0 against 5 Elo.
        config.sprt = Some(SprtParams::new(0.0, 5.0, wuzi_stats::EloModel::Logistic));
        let mut games = GameMap::new();
        for g in 0..2 {
            insert_pair(&mut games, g, false);
        }
        // Pairs remain: the test goes on, and the run is not finished.
        let s = summarize(&config, &games);
        let sprt = s.matchups[0].sprt.as_ref().expect("an SPRT");
        assert!(!sprt.budget_spent);
        assert!(fmt_sprt(sprt).ends_with(" continue"), "{}", fmt_sprt(sprt));
        assert_eq!(s.completion, Completion::Incomplete);
        assert_eq!((s.games_finished, s.games_planned), (4, 6));
        let text = render(&s);
        assert!(
            text.contains("incomplete: 4 of 6 games recorded; the run did not finish"),
            "{text}"
        );
        // Every pair counted without a decision: the budget is spent.
        insert_pair(&mut games, 2, false);
        let s = summarize(&config, &games);
        let sprt = s.matchups[0].sprt.as_ref().expect("an SPRT");
        assert!(sprt.budget_spent);
        assert_eq!(sprt.state(), "undecided (budget spent)");
        assert_eq!(s.completion, Completion::Finished);
        let text = render(&s);
        assert!(text.contains("undecided (budget spent)"), "{text}");
        assert!(
            !text.contains("continue") && !text.contains("incomplete"),
            "{text}"
        );
    }

    #[test]
    fn games_in_flight_after_the_sprt_stop_are_said_to_be_uncounted() {
        let mut config = tiny_config(100);
        config.sprt = Some(SprtParams::new(0.0, 50.0, wuzi_stats::EloModel::Logistic));
        let mut games = GameMap::new();
        let mut g = 0;
        while summarize(&config, &games).matchups[0]
            .sprt
            .as_ref()
            .and_then(|s| s.decided_after_pairs)
            .is_none()
        {
            insert_pair(&mut games, g, true);
            g += 1;
        }
        let counted = 2 * g;
        // Exactly the decision's games: nothing to explain.
        assert_eq!(uncounted_note(&summarize(&config, &games)), None);
        // Three games were still running when the SPRT stopped the matchup.
        insert_pair(&mut games, g, true);
        games.insert((g + 1, 0), lite(0, Some(Stone::Black)));
        let s = summarize(&config, &games);
        assert_eq!(s.completion, Completion::Finished);
        assert_eq!(s.matchups[0].games, counted);
        let expected = format!(
            "{} games played; the SPRT decided after {counted} (3 games in flight when it \
             stopped are not counted)",
            counted + 3
        );
        assert_eq!(uncounted_note(&s).as_deref(), Some(expected.as_str()));
        assert!(render(&s).contains(&expected), "{}", render(&s));
    }

    #[test]
    fn an_unfinished_run_is_no_verdict() {
        let config = tiny_config(3);
        let mut games = GameMap::new();
        insert_pair(&mut games, 0, true);
        let mut s = summarize(&config, &games);
        assert_eq!(s.completion, Completion::Incomplete);
        s.completion = Completion::Interrupted;
        assert_eq!(
            completion_note(&s).as_deref(),
            Some("interrupted after 2 of 6 games: no verdict")
        );
        for g in 1..3 {
            insert_pair(&mut games, g, true);
        }
        assert_eq!(completion_note(&summarize(&config, &games)), None);
    }

    #[test]
    fn estimates_format() {
        assert_eq!(fmt_estimate(None), "-");
        let e = Estimate {
            value: 12.34,
            lower: 2.0,
            upper: 22.0,
        };
        assert_eq!(fmt_estimate(Some(e)), "+12.3 +- 10.0");
        let inf = Estimate {
            value: f64::INFINITY,
            lower: f64::INFINITY,
            upper: f64::INFINITY,
        };
        assert_eq!(fmt_estimate(Some(inf)), "+inf");
        let zero = Estimate {
            value: -0.0,
            lower: 0.0,
            upper: 0.0,
        };
        assert_eq!(fmt_estimate(Some(zero)), "+0.0 +- 0.0");
    }
}
