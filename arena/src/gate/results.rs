//! What a gate found: per suite, the match, the whole report ([`GateReport`], saved as
//! `gate.json`), and what it tells its caller while it works ([`GateEvent`]).
use std::path::PathBuf;

use super::verdict::{Decision, Verdict};
use serde::{Deserialize, Serialize};

use wuzi_runs::run::Progress;
use wuzi_stats::{Estimate, Penta, SprtParams, Wdl};

/// One suite path's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteResult {
    /// The file or folder.
    pub path: PathBuf,
    /// Cases passed.
    pub passed: usize,
    /// Failed cases, one line each (`FAIL file: case: message`).
    pub failures: Vec<String>,
}

/// The games' results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    /// The test.
    pub sprt: SprtParams,
    /// The budget in pairs.
    pub budget_pairs: u64,
    /// Pairs counted (up to the decision).
    pub pairs: u64,
    /// Games counted.
    pub games: u64,
    /// Games played (those in flight at the decision included).
    pub games_played: u64,
    /// The candidate's W/D/L.
    pub wdl: Wdl,
    /// The candidate's W/D/L with black.
    pub as_black: Wdl,
    /// The candidate's W/D/L with white.
    pub as_white: Wdl,
    /// Pentanomial counts from the candidate's side.
    pub penta: Penta,
    /// Score with its 95 % interval (pentanomial).
    pub score: Option<Estimate>,
    /// Logistic Elo with its 95 % interval.
    pub elo: Option<Estimate>,
    /// Normalized Elo with its 95 % interval.
    pub nelo: Option<Estimate>,
    /// Final LLR.
    pub llr: f64,
    /// Lower LLR bound (H0).
    pub lower: f64,
    /// Upper LLR bound (H1).
    pub upper: f64,
    /// LLR after each counted pair, as `(games, llr)`.
    pub llr_path: Vec<(u64, f64)>,
    /// Mean nodes per move of the candidate and the baseline, when known.
    pub nodes_per_move: [Option<f64>; 2],
    /// Wall time of the games, seconds.
    pub elapsed_s: f64,
}

/// What the gate found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateReport {
    /// Pass or fail.
    pub verdict: Verdict,
    /// How.
    pub decision: Decision,
    /// One sentence on how.
    pub reason: String,
    /// The candidate, as text.
    pub candidate: String,
    /// The baseline, as text.
    pub baseline: String,
    /// The commit the candidate's binary reports (`-dirty` with local changes), for built
    /// brains ([`Baseline::GitRef`]).
    #[serde(default)]
    pub candidate_commit: Option<String>,
    /// The commit the baseline's binary reports, for built brains.
    pub baseline_commit: Option<String>,
    /// Limits, rule and openings, as text.
    pub settings: String,
    /// Per suite path.
    pub suites: Vec<SuiteResult>,
    /// The games (absent when a suite failed).
    pub games: Option<MatchReport>,
    /// Chart files written (PNG and SVG).
    pub charts: Vec<PathBuf>,
    /// Things that went wrong without changing the verdict (a chart that failed).
    pub warnings: Vec<String>,
    /// What the reader should know about how the gate ran (suites skipped for another engine).
    #[serde(default)]
    pub notes: Vec<String>,
    /// Wall time of the whole gate, seconds.
    pub elapsed_s: f64,
}

impl GateReport {
    /// Games counted up to the decision (0 without games).
    pub fn games_to_decision(&self) -> u64 {
        self.games.as_ref().map_or(0, |g| g.games)
    }
}

/// What the gate tells its caller while it works.
pub enum GateEvent<'a> {
    /// A stage starts or ends (one line of text).
    Message(&'a str),
    /// A game finished (or the games start).
    Progress(&'a Progress<'a>),
    /// `done` of the `total` random openings are built (before the suites and games).
    Openings {
        /// Openings built so far.
        done: usize,
        /// Openings to build.
        total: usize,
    },
}
