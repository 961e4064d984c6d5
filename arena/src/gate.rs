//! The strength-regression gate (`wuzi-arena gate`): a CI check that a change does not make the
//! engine weaker.
//!
//! # What it does
//!
//! 1. **Suites.** Runs the rule and tactics suites (`suites/rules`, `suites/tactics` by default)
//!    through the engine's own runner, [`wuzi_engine::suite::run`], with the candidate's
//!    parameters. Any failed case fails the gate; no games are played then.
//! 2. **SPRT.** Plays game pairs of the candidate against the baseline (colours swapped within
//!    each pair, one opening per pair) and stops at the first pair after which the SPRT decides,
//!    or when the pair budget is used up.
//! 3. **Report.** Writes `summary.md` (verdict, suite counts, games, W/D/L, Elo with its interval,
//!    LLR with its bounds, games to the decision), `gate.json` (the same as data), the charts
//!    `sprt.png`/`.svg` (LLR against games with both bounds) and `score.png`/`.svg` (the
//!    candidate's score overall, as black and as white), and the run directory `match/`
//!    (`run.json`, `games.jsonl`, `summary.json`) into the output folder.
//!
//! # Players
//!
//! By default ([`Reference`], `suites/reference.toml`) the baseline is the recorded reference
//! build, the last accepted engine commit: its own code, checked out and built in its own cargo
//! target folder ([`build_brains`]), and the candidate the working tree's
//! `pbrain-wuzi`, so both sides go through the same Gomocup protocol. Each must report its
//! commit (`pbrain-wuzi --version`) or the gate stops (exit 2). Both play at the candidate's
//! node limit (`--nodes`), sent as the Yixin-Board `INFO max_node`, under which `pbrain-wuzi`
//! searches on one thread and ignores the clock: the same seed replays the same games, and a
//! brain plays exactly what the in-process engine plays at that limit. `move_ms` plays at a
//! fixed time per move instead. [`Baseline::Player`] plays two players of this build in
//! process instead (parameter sets, or a registry brain); a candidate that is the same player
//! as its baseline (same binary and same parameters) is refused ([`GateError::IdenticalPlayers`]):
//! its games are mirror pairs, and the gate could not fail whatever the code does.
//!
//! # Defaults and why
//!
//! - **SPRT bounds `[-20, 0]` logistic Elo, alpha = beta = 0.05** ([`default_sprt`]). H1
//!   ("the candidate is as strong as the baseline", Elo 0) passes; H0 ("20 Elo weaker") fails.
//!   fishtest's non-regression bounds (`[-1.75, 0.25]`, or `[-5, 0]`) need tens of thousands of
//!   games, far beyond a CI budget; the width of the bounds sets the cost (expected pairs grow as
//!   `1 / (elo1 - elo0)^2`), and `[-20, 0]` decides within a few hundred to a couple of thousand
//!   pairs. Logistic rather than normalized Elo because a change that alters only a few games
//!   gives mostly mirrored (even) pairs with a tiny pair variance: logistic bounds then decide in
//!   a few dozen pairs (identical engines pass after 50 pairs), while normalized bounds scale with
//!   that variance and would need the whole budget to clear a change that does nothing.
//! - **Budget 1000 pairs** ([`DEFAULT_PAIRS`], 2000 games) **at 2000 nodes per move**
//!   ([`DEFAULT_NODES`]): about two minutes of games on two cores.
//! - **Openings: one random balanced opening per pair** (`random:<pairs>:4`, see
//!   [`DEFAULT_OPENING_STONES`]). The 184 positions of
//!   `renju26` are the 26 openings in 8 symmetries, and a deterministic engine plays symmetric
//!   positions alike, so those pairs are strongly correlated and the interval would claim more
//!   confidence than the games hold. Distinct openings keep the pairs independent, and one per
//!   pair keeps a deterministic pair from being replayed.
//! - **When the budget runs out undecided** ([`budget_verdict`]): the gate *fails only if the
//!   data both lean to H0 (LLR < 0) and show a significant regression (the upper end of the
//!   95 % Elo interval is below 0)*; otherwise it passes, marked inconclusive. A failing gate
//!   should point at evidence of a regression, not at a lack of evidence of strength; requiring
//!   LLR < 0 as well keeps the gate from failing a candidate that the SPRT, given more games,
//!   would accept (a small, precisely measured deficit closer to 0 than to `elo0`).
//!
//! Operating characteristics of these defaults, from simulated pentanomial results (see the unit
//! tests, 1000-pair budget): a candidate of equal strength fails in about 2-6 % of runs; one
//! 20 Elo weaker is caught in about 80-90 % of runs when up to half of the pairs are decisive
//! (not mirrored), about 60 % when nearly all are (the budget then binds); one 40 Elo weaker is
//! caught in over 97 %. The weakened parameter set of the tests (about 130 Elo weaker) fails
//! after 68 pairs at 1000 nodes per move.
//!
//! Identical deterministic engines play mirrored pairs (each pair 1-1), so a self-play gate
//! scores exactly 0.5 and passes as soon as the LLR reaches the upper bound (50 pairs): it shows
//! the gate raises no alarm on an unchanged engine, but it cannot show the error rate, as there
//! is no noise to be fooled by. The tests therefore also run a candidate that differs from the
//! baseline only in an irrelevant way (3 % fewer nodes per move: a few Elo at most, yet the
//! searches stop elsewhere and games diverge), and simulate the decision rule on random results.
//!
//! # Exit status (of the command)
//!
//! `0` pass, `1` regression found (a suite failure, H0 accepted, or the budget rule),
//! `2` could not run (bad input, unreadable suites, a failed build, unwritable output): every
//! [`GateError`].

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use wuzi_engine::build_info::{commit_from_version_output, BuildCommit};
use wuzi_engine::suite::{self, SuiteError};

use crate::chart::{self, ChartError, ScoreEntry, SprtPoint, SprtSpec};
use crate::config::{Matchup, OpeningOrder, RunConfig, RunKind, FORMAT_VERSION, RUN_FILE};
use crate::error::ArenaError;
use crate::opening::{Opening, RandomSpec, Source};
use crate::player::{PlayerKind, PlayerLimits, PlayerSpec};
use crate::record::GAMES_FILE;
use crate::referee::GameSettings;
use crate::run::{load_run_records, run, Progress, RunOptions, SUMMARY_FILE};
use crate::stats::{
    llr, sprt_status, EloModel, Estimate, Outcome, Penta, SprtParams, SprtVerdict, Wdl,
};
use crate::summary::{fmt_estimate, GameLite, GameMap, Tally};

/// Nodes per move of the gate's games (node-limited games are reproducible).
pub const DEFAULT_NODES: u64 = 2000;
/// Most game pairs the SPRT may use before the budget rule decides.
pub const DEFAULT_PAIRS: u64 = 1000;
/// H0 of the default SPRT: the candidate is this many logistic Elo weaker.
pub const DEFAULT_ELO0: f64 = -20.0;
/// H1 of the default SPRT: the candidate is as strong as the baseline.
pub const DEFAULT_ELO1: f64 = 0.0;
/// Cargo profile of the brains built for [`Baseline::GitRef`].
pub const DEFAULT_BUILD_PROFILE: &str = "release";
/// The suites run before the games.
pub const DEFAULT_SUITES: [&str; 2] = ["suites/rules", "suites/tactics"];
/// The candidate's default parameter file.
pub const DEFAULT_CANDIDATE_PARAMS: &str = "suites/params/default.toml";
/// The file naming the reference build that a gate without `--baseline`/`--baseline-ref`
/// measures the candidate against (see [`Reference`]).
pub const DEFAULT_REFERENCE: &str = "suites/reference.toml";
/// The default output folder.
pub const DEFAULT_OUT: &str = "gate-out";
/// The markdown summary in the output folder.
pub const SUMMARY_MD: &str = "summary.md";
/// The report as JSON in the output folder.
pub const REPORT_JSON: &str = "gate.json";
/// The run directory (records and run summary) in the output folder.
pub const MATCH_DIR: &str = "match";
/// Stem of the LLR chart in the output folder.
pub const SPRT_CHART: &str = "sprt";
/// Stem of the score chart in the output folder.
pub const SCORE_CHART: &str = "score";
/// The log of the engine builds in the output folder.
pub const BUILD_LOG: &str = "build.log";
/// The player names used in the gate's games and tables.
pub const CANDIDATE: &str = "candidate";
/// See [`CANDIDATE`].
pub const BASELINE: &str = "baseline";
/// The brain binary built for [`Baseline::GitRef`].
pub const BRAIN_BIN: &str = "pbrain-wuzi";

/// Most random openings generated by default (more pairs cycle through them again).
pub const MAX_DEFAULT_OPENINGS: u64 = 2000;

/// Stones of the gate's random openings. Four, not the generator's default three: the 7,038
/// distinct 3-stone openings within 3 of the centre hold only about a thousand balanced ones
/// (1,259 under the hand-weight evaluation, 962 under the shipped combination table), fewer
/// than [`MAX_DEFAULT_OPENINGS`] and at times fewer than the default budget.
pub const DEFAULT_OPENING_STONES: usize = 4;

/// The default openings for a budget of `pairs`: one random balanced opening per pair (at most
/// [`MAX_DEFAULT_OPENINGS`]), [`DEFAULT_OPENING_STONES`] stones within 3 of the centre (see
/// [`crate::opening::random`]).
pub fn default_openings(pairs: u64) -> Source {
    Source::Random(RandomSpec {
        count: pairs.clamp(1, MAX_DEFAULT_OPENINGS) as usize,
        stones: DEFAULT_OPENING_STONES,
        ..RandomSpec::default()
    })
}

/// The default SPRT: `[DEFAULT_ELO0, DEFAULT_ELO1]` logistic Elo, alpha = beta = 0.05.
pub fn default_sprt() -> SprtParams {
    SprtParams::new(DEFAULT_ELO0, DEFAULT_ELO1, EloModel::Logistic)
}

/// Why the gate could not run (exit status 2). Each names the input at fault.
#[derive(Debug, Error)]
pub enum GateError {
    /// A bad player, opening, SPRT or run setting, or a failed run.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// A suite folder or file that cannot be read or parsed.
    #[error("suite: {0}")]
    Suite(#[from] SuiteError),
    /// A suite path without a single case.
    #[error("suite {0}: no cases found")]
    EmptySuite(PathBuf),
    /// An inconsistent gate configuration.
    #[error("{0}")]
    Config(String),
    /// A git command failed (unknown reference, not a repository, worktree problems).
    #[error("git {command}: {message}")]
    Git {
        /// The git arguments.
        command: String,
        /// What git said.
        message: String,
    },
    /// A built brain does not report the commit it was built from (issue 14: a build that
    /// is not the code it claims to be must never be played).
    #[error(
        "{what}: {} reports {reported}, expected commit {expected}; refusing to play a build \
         that is not the code it claims to be",
        binary.display()
    )]
    WrongCommit {
        /// Which brain (`the candidate`, `baseline <ref>`).
        what: String,
        /// The binary asked.
        binary: PathBuf,
        /// The commit it should report.
        expected: String,
        /// What it reported.
        reported: String,
    },
    /// Building an engine failed.
    #[error("building {what} failed: {message} (full log: {})", log.display())]
    Build {
        /// What was built (`the candidate`, `baseline <ref>`).
        what: String,
        /// The end of the build output, or why the build could not start.
        message: String,
        /// The build log.
        log: PathBuf,
    },
    /// Candidate and baseline are the same player (same binary and same parameters): every
    /// game pair is a mirror, so the gate would pass whatever the engine's code does.
    #[error(
        "candidate and baseline are the same player ({0}): their games are mirror pairs that \
         prove nothing, so this gate could not fail; compare with another build \
         (--baseline-ref, or the recorded reference of {DEFAULT_REFERENCE}) or other \
         parameters, or pass --allow-identical to play them anyway"
    )]
    IdenticalPlayers(String),
    /// A signal (Ctrl-C, SIGTERM) stopped the gate before its verdict (see
    /// [`crate::interrupt`]); the games played are recorded in `dir`.
    #[error(
        "interrupted after {games} of {planned} games: no verdict{}",
        dir.as_ref().map_or_else(String::new, |d| format!(" (the games played are in {})", d.display()))
    )]
    Interrupted {
        /// Games finished.
        games: u64,
        /// Games the budget allows.
        planned: u64,
        /// The match folder, once games started.
        dir: Option<PathBuf>,
    },
    /// A file of the output folder could not be written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
}

impl GateError {
    fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        GateError::Io {
            path: path.into(),
            error,
        }
    }
}

/// The recorded reference build ([`DEFAULT_REFERENCE`]): the last accepted engine commit, the
/// one whose change has the latest accepted line in `suites/strength-log.md`. Updated with each
/// accepted strength-log line, so that CI's gate measures every later commit against it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The full commit hash.
    pub commit: String,
    /// What that commit changed, for people reading the file and the report.
    #[serde(default)]
    pub what: String,
}

impl Reference {
    /// Reads and checks a reference file (a full 40-digit hex commit).
    pub fn load(path: &Path) -> Result<Reference, GateError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            GateError::Config(format!(
                "reference file {}: {e} (the gate without --baseline or --baseline-ref \
                 measures the candidate against the build named there; run from the \
                 repository's root or pass --reference FILE)",
                path.display()
            ))
        })?;
        let reference: Reference = toml::from_str(&text)
            .map_err(|e| GateError::Config(format!("reference file {}: {e}", path.display())))?;
        if reference.commit.len() != 40 || !reference.commit.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(GateError::Config(format!(
                "reference file {}: commit must be a full 40-digit hash, got '{}'",
                path.display(),
                reference.commit
            )));
        }
        Ok(reference)
    }
}

/// What the candidate is measured against.
#[derive(Clone, Debug, PartialEq)]
pub enum Baseline {
    /// A player of this build (another parameter set, or a registry brain).
    Player(PlayerSpec),
    /// Another build of the engine: a git reference (branch, tag, commit) of the repository,
    /// checked out into a temporary worktree, built ([`build_brains`]) and played as a Gomocup
    /// brain.
    GitRef(String),
}

/// Everything the gate needs. The player names are replaced by [`CANDIDATE`] and [`BASELINE`].
#[derive(Clone, Debug)]
pub struct GateConfig {
    /// The candidate: an engine player of this build (its parameters also run the suites).
    pub candidate: PlayerSpec,
    /// The baseline.
    pub baseline: Baseline,
    /// Suite files or folders; each is run and reported on its own. Empty: no suites.
    pub suites: Vec<PathBuf>,
    /// Board, rule and adjudication.
    pub game: GameSettings,
    /// Where the openings come from.
    pub openings: Source,
    /// Most game pairs (the budget).
    pub pairs: u64,
    /// Run seed (opening order, random openings).
    pub seed: u64,
    /// The SPRT.
    pub sprt: SprtParams,
    /// Games played at once.
    pub concurrency: usize,
    /// The output folder.
    pub out: PathBuf,
    /// The repository for [`Baseline::GitRef`] (any folder inside it).
    pub repo: PathBuf,
    /// The build folder of [`Baseline::GitRef`] (`None`: `gate-build` under
    /// `CARGO_TARGET_DIR`, else under the repository's `target`); see [`build_brains`].
    pub build_dir: Option<PathBuf>,
    /// Cargo profile of the brain builds ([`DEFAULT_BUILD_PROFILE`]; `dev` builds faster and
    /// plays slower, which suits checks of the gate itself).
    pub build_profile: String,
    /// Time per move of the built brains, in milliseconds, instead of the candidate's node and
    /// depth limits (`None`, the default: node-limited games, which are reproducible).
    pub move_ms: Option<u64>,
    /// For [`Baseline::GitRef`]: the candidate's `pbrain-wuzi`, already built from the working
    /// tree (CI reuses its test build), instead of building it; it must report HEAD's commit.
    pub candidate_bin: Option<PathBuf>,
    /// Play even when candidate and baseline are the same player (otherwise
    /// [`GateError::IdenticalPlayers`]); for checks of the gate itself.
    pub allow_identical: bool,
}

impl GateConfig {
    /// The defaults for `candidate` against `baseline`: renju 15x15, one random opening per pair,
    /// [`DEFAULT_PAIRS`], seed 1, [`default_sprt`], [`DEFAULT_SUITES`], output [`DEFAULT_OUT`].
    pub fn new(candidate: PlayerSpec, baseline: Baseline) -> GateConfig {
        GateConfig {
            candidate,
            baseline,
            suites: DEFAULT_SUITES.iter().map(PathBuf::from).collect(),
            game: GameSettings::default(),
            openings: default_openings(DEFAULT_PAIRS),
            pairs: DEFAULT_PAIRS,
            seed: 1,
            sprt: default_sprt(),
            concurrency: crate::run::default_concurrency(),
            out: PathBuf::from(DEFAULT_OUT),
            repo: PathBuf::from("."),
            build_dir: None,
            build_profile: DEFAULT_BUILD_PROFILE.to_string(),
            move_ms: None,
            candidate_bin: None,
            allow_identical: false,
        }
    }
}

/// The gate's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No regression found (exit status 0).
    Pass,
    /// A regression found (exit status 1).
    Fail,
}

impl Verdict {
    /// The command's exit status: 0 pass, 1 fail.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Fail => 1,
        }
    }
}

/// How the verdict was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// A suite case failed (no games played).
    SuitesFailed,
    /// The SPRT accepted H1 (not weaker than `elo1`).
    SprtH1,
    /// The SPRT accepted H0 (weaker by `elo0`).
    SprtH0,
    /// The budget ran out undecided and [`budget_verdict`] passed.
    BudgetPass,
    /// The budget ran out undecided and [`budget_verdict`] failed.
    BudgetFail,
}

impl Decision {
    /// The verdict it gives.
    pub fn verdict(self) -> Verdict {
        match self {
            Decision::SprtH1 | Decision::BudgetPass => Verdict::Pass,
            Decision::SuitesFailed | Decision::SprtH0 | Decision::BudgetFail => Verdict::Fail,
        }
    }
}

/// The verdict when the budget runs out before the SPRT decides: fail when the LLR is below 0
/// (the results are closer to H0 than to H1) *and* the upper end of the 95 % logistic Elo
/// interval is below 0 (a significant regression); pass otherwise.
pub fn budget_verdict(penta: &Penta, sprt: &SprtParams) -> Decision {
    let l = llr(penta, sprt);
    let upper = penta.elo_estimate().map_or(f64::INFINITY, |e| e.upper);
    if l < 0.0 && upper < 0.0 {
        Decision::BudgetFail
    } else {
        Decision::BudgetPass
    }
}

/// The gate's decision on a sequence of pair results (candidate's outcomes in the two games of
/// each pair), exactly as the gate decides on played games: the SPRT is checked after every
/// pair, and [`budget_verdict`] applies when `budget` pairs pass undecided. Returns the decision
/// and the counts it rests on. For simulations and tests.
pub fn decide_pairs(
    pairs: impl IntoIterator<Item = (Outcome, Outcome)>,
    sprt: &SprtParams,
    budget: u64,
) -> (Decision, Penta) {
    let mut penta = Penta::default();
    for (a, b) in pairs.into_iter().take(budget as usize) {
        penta.add_pair(a, b);
        match sprt.verdict(llr(&penta, sprt)) {
            SprtVerdict::AcceptH1 => return (Decision::SprtH1, penta),
            SprtVerdict::AcceptH0 => return (Decision::SprtH0, penta),
            SprtVerdict::Continue => {}
        }
    }
    (budget_verdict(&penta, sprt), penta)
}

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

/// Runs the gate: suites, then games, then the report files in `config.out`.
pub fn run_gate(
    config: &GateConfig,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<GateReport, GateError> {
    let start = Instant::now();
    let params = match config.candidate.params() {
        Some(p) => p?,
        None => {
            return Err(GateError::Config(format!(
                "the candidate must be the wuzi engine with parameters (params=FILE, set=...), \
                 not '{}'",
                config.candidate
            )))
        }
    };
    if config.pairs == 0 || config.pairs > crate::config::MAX_PAIRS {
        return Err(GateError::Config(format!(
            "--pairs must be 1..={}, got {}",
            crate::config::MAX_PAIRS,
            config.pairs
        )));
    }
    config.sprt.validate().map_err(ArenaError::from)?;
    if config.concurrency == 0 {
        return Err(GateError::Config("--concurrency must be at least 1".into()));
    }
    let mut candidate = config.candidate.clone();
    candidate.name = CANDIDATE.into();
    candidate.validate()?;
    // Openings and the run settings are checked before the suites and any build.
    let (openings, openings_source, _) = config.openings.load_with(
        config.game.size,
        config.game.rule,
        config.seed,
        Some(config.pairs),
        &mut |done, total| observer(GateEvent::Openings { done, total }),
    )?;
    let mut stand_in = match &config.baseline {
        Baseline::Player(b) => b.clone(),
        Baseline::GitRef(_) => candidate.clone(),
    };
    stand_in.name = BASELINE.into();
    if let Baseline::Player(b) = &config.baseline {
        if !config.allow_identical && candidate.same_player_as(b) {
            return Err(GateError::IdenticalPlayers(describe_player(&candidate)));
        }
    }
    run_config(
        config,
        [candidate.clone(), stand_in],
        openings.clone(),
        openings_source.clone(),
    )?;
    prepare_out(&config.out)?;

    let mut suites = Vec::new();
    for path in &config.suites {
        observer(GateEvent::Message(&format!("suite {}", path.display())));
        let report = suite::run(std::slice::from_ref(path), &params)?;
        if report.passed == 0 && report.failures.is_empty() {
            return Err(GateError::EmptySuite(path.clone()));
        }
        let result = SuiteResult {
            path: path.clone(),
            passed: report.passed,
            failures: report.failures.iter().map(ToString::to_string).collect(),
        };
        observer(GateEvent::Message(&format!(
            "suite {}: {} passed, {} failed",
            path.display(),
            result.passed,
            result.failures.len()
        )));
        suites.push(result);
    }
    let suite_failures: usize = suites.iter().map(|s| s.failures.len()).sum();

    let mut report = GateReport {
        verdict: Verdict::Pass,
        decision: Decision::SuitesFailed,
        reason: String::new(),
        candidate: describe_player(&candidate),
        baseline: match &config.baseline {
            Baseline::Player(p) => describe_player(p),
            Baseline::GitRef(r) => format!("{BRAIN_BIN} built from {r}"),
        },
        candidate_commit: None,
        baseline_commit: None,
        settings: String::new(),
        suites,
        games: None,
        charts: Vec::new(),
        warnings: Vec::new(),
        elapsed_s: 0.0,
    };

    if suite_failures > 0 {
        report.decision = Decision::SuitesFailed;
        report.verdict = Verdict::Fail;
        report.reason = format!("{suite_failures} suite case(s) failed; no games were played");
    } else {
        let identical_params = candidate.params_diff().is_empty();
        let (players, built) = gate_players(config, candidate, observer)?;
        if let Some(built) = &built {
            // The same clean commit with the brain's own parameters: one binary against itself.
            let (c, b) = (&built.candidate.commit, &built.baseline.commit);
            if !config.allow_identical && identical_params && !c.dirty && c.hash == b.hash {
                return Err(GateError::IdenticalPlayers(format!(
                    "{BRAIN_BIN} of commit {} on both sides, with its built-in parameters",
                    c.stamp()
                )));
            }
            report.candidate = format!(
                "{BRAIN_BIN} built from the working tree (commit {}); {}",
                built.candidate.commit.stamp(),
                describe_player(&players[0])
            );
            report.baseline = format!(
                "{} (commit {}{}); {}",
                report.baseline,
                built.baseline.commit.stamp(),
                if built.baseline.reused {
                    ", cached build"
                } else {
                    ""
                },
                describe_player(&players[1])
            );
            report.candidate_commit = Some(built.candidate.commit.stamp());
            report.baseline_commit = Some(built.baseline.commit.stamp());
        }
        let run_config = run_config(config, players, openings, openings_source)?;
        if crate::interrupt::requested() {
            // Stopped during the suites or the builds: no game was played.
            return Err(GateError::Interrupted {
                games: 0,
                planned: 2 * config.pairs,
                dir: None,
            });
        }
        report.settings = describe_settings(&run_config);
        observer(GateEvent::Message(&format!(
            "games: {}; budget {} pairs; SPRT [{}, {}] {} Elo",
            report.settings, config.pairs, config.sprt.elo0, config.sprt.elo1, config.sprt.model
        )));
        let games = play(config, &run_config, observer)?;
        let (decision, reason) = match games.decided {
            Some((SprtVerdict::AcceptH1, pairs)) => (
                Decision::SprtH1,
                format!(
                    "SPRT accepted H1 (Elo {}: no regression) after {pairs} pairs ({} games)",
                    fmt_num(config.sprt.elo1),
                    2 * pairs
                ),
            ),
            Some((_, pairs)) => (
                Decision::SprtH0,
                format!(
                    "SPRT accepted H0 (Elo {}: a regression) after {pairs} pairs ({} games)",
                    fmt_num(config.sprt.elo0),
                    2 * pairs
                ),
            ),
            None => {
                let d = budget_verdict(&games.report.penta, &config.sprt);
                let how = if d == Decision::BudgetFail {
                    "the LLR leans to H0 and the Elo interval lies below 0"
                } else {
                    "no significant regression (pass unless LLR < 0 and the Elo interval lies \
                     below 0)"
                };
                (
                    d,
                    format!(
                        "budget of {} pairs used up without an SPRT decision: {how}",
                        config.pairs
                    ),
                )
            }
        };
        report.decision = decision;
        report.verdict = decision.verdict();
        report.reason = reason;
        write_charts(config, &games.report, &mut report);
        report.games = Some(games.report);
    }
    report.elapsed_s = start.elapsed().as_secs_f64();
    write_report(&config.out, &report)?;
    Ok(report)
}

/// Removes the files an earlier gate left in `out` (only those the gate writes).
fn prepare_out(out: &Path) -> Result<(), GateError> {
    std::fs::create_dir_all(out).map_err(|e| GateError::io(out, e))?;
    let mut stale = vec![out.join(SUMMARY_MD), out.join(REPORT_JSON)];
    for stem in [SPRT_CHART, SCORE_CHART] {
        let (png, svg) = chart::output_paths(&out.join(stem));
        stale.extend([png, svg]);
    }
    let dir = out.join(MATCH_DIR);
    stale.extend([RUN_FILE, GAMES_FILE, SUMMARY_FILE].map(|f| dir.join(f)));
    for path in stale {
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(GateError::io(path, e))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The two players of the games, and the built brains for a built baseline.
fn gate_players(
    config: &GateConfig,
    candidate: PlayerSpec,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<([PlayerSpec; 2], Option<BuiltBrains>), GateError> {
    match &config.baseline {
        Baseline::Player(b) => {
            let mut baseline = b.clone();
            baseline.name = BASELINE.into();
            Ok(([candidate, baseline], None))
        }
        Baseline::GitRef(reference) => {
            let built = build_brains(config, reference, observer)?;
            let limits = |p: &PlayerSpec| brain_limits(config, &p.limits);
            let sets: Vec<String> = candidate
                .params_diff()
                .iter()
                .map(|(k, v)| format!("--set={k}={v}"))
                .collect();
            let cand = PlayerSpec {
                name: CANDIDATE.into(),
                kind: PlayerKind::External {
                    command: built.candidate.path.display().to_string(),
                    args: sets,
                    workdir: None,
                    // Our own brain reads every command whole: no settle gap needed.
                    options: own_brain_options(),
                },
                limits: limits(&candidate),
            };
            let base = PlayerSpec {
                name: BASELINE.into(),
                kind: PlayerKind::External {
                    command: built.baseline.path.display().to_string(),
                    args: Vec::new(),
                    workdir: None,
                    options: own_brain_options(),
                },
                limits: limits(&candidate),
            };
            cand.validate()?;
            base.validate()?;
            Ok(([cand, base], Some(built)))
        }
    }
}

/// Protocol options for `pbrain-wuzi` builds: it reads every command whole, so no settle
/// gap slows node-limited games.
fn own_brain_options() -> Box<crate::external::BrainOptions> {
    Box::new(crate::external::BrainOptions {
        settle_ms: Some(0),
        ..Default::default()
    })
}

/// The limits of both built brains: the candidate's node and depth limits (sent to the brains
/// as `INFO max_node`/`INFO max_depth`, under which `pbrain-wuzi` searches on one thread and
/// ignores the clock, so the games are reproducible), or `move_ms` per move when set.
fn brain_limits(config: &GateConfig, candidate: &PlayerLimits) -> PlayerLimits {
    match config.move_ms {
        Some(ms) => PlayerLimits {
            move_ms: Some(ms),
            threads: candidate.threads,
            hash_mb: candidate.hash_mb,
            ..PlayerLimits::default()
        },
        None => PlayerLimits {
            nodes: candidate.nodes,
            depth: candidate.depth,
            threads: 1,
            hash_mb: candidate.hash_mb,
            ..PlayerLimits::default()
        },
    }
}

/// The match configuration of the gate, validated.
fn run_config(
    config: &GateConfig,
    players: [PlayerSpec; 2],
    openings: Vec<Opening>,
    openings_source: String,
) -> Result<RunConfig, GateError> {
    let run = RunConfig {
        format: FORMAT_VERSION,
        kind: RunKind::Match,
        game: config.game.clone(),
        players: players.into(),
        matchups: vec![Matchup {
            first: 0,
            second: 1,
        }],
        openings_source,
        openings,
        order: OpeningOrder::Random,
        pairs: config.pairs,
        seed: config.seed,
        sprt: Some(config.sprt),
        shard: None,
        sweep: None,
    };
    run.validate()?;
    Ok(run)
}

/// A player for the report: its parameters (file, and the values that differ from the
/// built-in defaults) or program, and its limits.
pub fn describe_player(p: &PlayerSpec) -> String {
    let what = match &p.kind {
        PlayerKind::Engine { params, file } => {
            let mut text = file
                .as_ref()
                .map_or("built-in parameters".to_string(), |f| {
                    f.display().to_string()
                });
            if !params.is_empty() {
                let diff: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = write!(
                    text,
                    " (differs from the built-in defaults: {})",
                    diff.join(" ")
                );
            }
            text
        }
        PlayerKind::External { command, args, .. } => {
            let mut text = command.clone();
            for a in args {
                text.push(' ');
                text.push_str(a);
            }
            text
        }
        _ => p.to_string(),
    };
    format!("{what}; {}", p.limits.describe())
}

/// `renju 15x15; candidate nodes 2000, baseline nodes 2000; openings: ...; seed 1`.
fn describe_settings(run: &RunConfig) -> String {
    let limits: Vec<String> = run
        .players
        .iter()
        .map(|p| format!("{} {}", p.name, p.limits.describe()))
        .collect();
    format!(
        "{} {}x{}; {}; openings: {} ({}); seed {}",
        run.game.rule,
        run.game.size,
        run.game.size,
        limits.join(", "),
        run.openings_source,
        run.openings.len(),
        run.seed
    )
}

/// The played games and where the SPRT decided.
struct Played {
    report: MatchReport,
    decided: Option<(SprtVerdict, u64)>,
}

/// Plays the games into `out/match` and gathers the statistics.
fn play(
    config: &GateConfig,
    run_config: &RunConfig,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<Played, GateError> {
    let dir = config.out.join(MATCH_DIR);
    let opts = RunOptions {
        concurrency: config.concurrency,
        out: Some(dir.clone()),
        resume: false,
    };
    let started = Instant::now();
    let outcome = run(run_config, &opts, &mut |p| observer(GateEvent::Progress(p)))?;
    if outcome.interrupted {
        return Err(GateError::Interrupted {
            games: outcome.summary.games_finished,
            planned: outcome.summary.games_planned,
            dir: Some(dir),
        });
    }
    let elapsed_s = started.elapsed().as_secs_f64();

    // Replay the counted pairs in order for the LLR path and the per-colour results.
    let games: GameMap = load_run_records(run_config, &dir, false)?
        .iter()
        .map(|r| (r.key(), GameLite::from_record(r)))
        .collect();
    let mut tally = Tally::default();
    let mut llr_path = Vec::new();
    let (mut as_black, mut as_white) = (Wdl::default(), Wdl::default());
    for local in 0..run_config.pairs {
        let g = run_config.global_pair(0, local);
        let (Some(a), Some(b)) = (games.get(&(g, 0)), games.get(&(g, 1))) else {
            break;
        };
        tally.add_pair(a, b, run_config.sprt.as_ref());
        as_black.add_game(a.outcome_for_first());
        as_white.add_game(b.outcome_for_first());
        llr_path.push((tally.wdl.games(), llr(&tally.penta, &config.sprt)));
        if tally.decision.is_some() {
            break;
        }
    }
    let status = sprt_status(&tally.penta, &config.sprt);
    let m = outcome.summary.matchups.first();
    let report = MatchReport {
        sprt: config.sprt,
        budget_pairs: config.pairs,
        pairs: tally.pairs(),
        games: tally.wdl.games(),
        games_played: outcome.games_played,
        wdl: tally.wdl,
        as_black,
        as_white,
        penta: tally.penta,
        score: tally.penta.score_estimate(),
        elo: tally.penta.elo_estimate(),
        nelo: tally.penta.nelo_estimate(),
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
        llr_path,
        nodes_per_move: m.map_or([None, None], |m| m.nodes_per_move),
        elapsed_s,
    };
    Ok(Played {
        report,
        decided: tally.decision.map(|d| (d.verdict, d.pairs)),
    })
}

/// Draws the LLR and score charts; a chart that fails becomes a warning.
fn write_charts(config: &GateConfig, games: &MatchReport, report: &mut GateReport) {
    let verdict = match report.decision {
        Decision::SprtH1 => chart::SprtVerdict::H1Accepted,
        Decision::SprtH0 => chart::SprtVerdict::H0Accepted,
        _ => chart::SprtVerdict::Undecided,
    };
    let spec = SprtSpec {
        elo0: config.sprt.elo0,
        elo1: config.sprt.elo1,
        lower: games.lower,
        upper: games.upper,
        verdict,
    };
    let mut points = vec![SprtPoint { games: 0, llr: 0.0 }];
    points.extend(
        games
            .llr_path
            .iter()
            .map(|&(games, llr)| SprtPoint { games, llr }),
    );
    let stem = config.out.join(SPRT_CHART);
    let title = format!(
        "Gate SPRT [{}, {}] {} Elo: candidate vs baseline",
        config.sprt.elo0, config.sprt.elo1, config.sprt.model
    );
    record_chart(
        report,
        &stem,
        chart::sprt_chart(&stem, &title, &spec, &points),
    );

    let entry = |label: &str, e: Option<Estimate>, games: u64| {
        e.map(|e| ScoreEntry {
            label: label.to_string(),
            score: e.value,
            low: e.lower,
            high: e.upper,
            games,
        })
    };
    let entries: Vec<ScoreEntry> = [
        entry("candidate (pairs)", games.score, games.games),
        entry(
            "candidate as black",
            games.as_black.score_estimate(),
            games.as_black.games(),
        ),
        entry(
            "candidate as white",
            games.as_white.score_estimate(),
            games.as_white.games(),
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    let stem = config.out.join(SCORE_CHART);
    record_chart(
        report,
        &stem,
        chart::score_chart(
            &stem,
            "Gate: candidate's score against the baseline",
            "",
            &entries,
        ),
    );
}

fn record_chart(report: &mut GateReport, stem: &Path, result: Result<(), ChartError>) {
    match result {
        Ok(()) => {
            let (png, svg) = chart::output_paths(stem);
            report.charts.extend([png, svg]);
        }
        Err(e) => report
            .warnings
            .push(format!("chart {}: {e}", stem.display())),
    }
}

/// Writes `summary.md` and `gate.json` into `out`.
fn write_report(out: &Path, report: &GateReport) -> Result<(), GateError> {
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
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn fmt_num(v: f64) -> String {
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

/// Why an all-even sample reads `+- 0.0`, or `None` when some pair was decisive. Every pair
/// split 1-1 (or drawn twice) means the two sides played the same games with colours swapped:
/// the sample has no spread, so the interval has no width. That is what two builds that play
/// alike at these limits give (a change that does not alter play here); it is no measurement
/// of a difference in strength.
pub fn mirror_note(penta: &Penta) -> Option<String> {
    let pairs = penta.pairs();
    (pairs > 0 && penta.counts[2] == pairs).then(|| {
        format!(
            "All {pairs} pairs were even (each split 1-1 or drawn twice): candidate and baseline \
             played the same games with colours swapped, so the sample has no spread and the \
             Elo interval reads +- 0.0. The two play alike at these limits; the gate shows the \
             change does not alter play here, not that it is as strong in general."
        )
    })
}

/// Runs git with `args` in `dir`; its trimmed standard output, or [`GateError::Git`].
fn git(dir: &Path, args: &[&str]) -> Result<String, GateError> {
    let command = args.join(" ");
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| GateError::Git {
            command: command.clone(),
            message: format!("cannot run git: {e}"),
        })?;
    if !out.status.success() {
        return Err(GateError::Git {
            command,
            message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A detached `git worktree` in a temporary folder, removed when dropped.
#[derive(Debug)]
pub struct Worktree {
    repo: PathBuf,
    path: PathBuf,
    commit: String,
}

impl Worktree {
    /// Checks out `reference` of the repository containing `repo` into a new temporary folder
    /// (`git worktree add --detach`).
    pub fn add(repo: &Path, reference: &str) -> Result<Worktree, GateError> {
        if reference.trim().is_empty() || reference.starts_with('-') {
            return Err(GateError::Config(format!(
                "bad git reference '{reference}'"
            )));
        }
        let top = PathBuf::from(git(repo, &["rev-parse", "--show-toplevel"])?);
        let commit = resolve_commit(&top, reference)?;
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "wuzi-gate-{}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            &commit[..commit.len().min(12)]
        ));
        let path_text = path.display().to_string();
        git(
            &top,
            &[
                "worktree", "add", "--detach", "--quiet", &path_text, &commit,
            ],
        )?;
        Ok(Worktree {
            repo: top,
            path,
            commit,
        })
    }

    /// The checked-out folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The full commit hash checked out.
    pub fn commit(&self) -> &str {
        &self.commit
    }

    /// Removes the worktree now (also done on drop).
    pub fn remove(self) -> Result<(), GateError> {
        let result = self.remove_now();
        std::mem::forget(self);
        result
    }

    fn remove_now(&self) -> Result<(), GateError> {
        let path_text = self.path.display().to_string();
        let result = git(&self.repo, &["worktree", "remove", "--force", &path_text]);
        if self.path.exists() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
        let _ = git(&self.repo, &["worktree", "prune"]);
        result.map(drop)
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = self.remove_now();
    }
}

/// One built brain of a [`Baseline::GitRef`] gate.
#[derive(Clone, Debug)]
pub struct BuiltBrain {
    /// The binary, copied into the output folder (`out/bin/<side>/pbrain-wuzi`).
    pub path: PathBuf,
    /// The commit the binary reports (`--version`), as checked.
    pub commit: BuildCommit,
    /// The binary came from the build folder's cache of this commit (no build at all).
    pub reused: bool,
    /// Seconds spent building (or checking the cached binary).
    pub build_s: f64,
}

/// The two brains of a [`Baseline::GitRef`] gate, each checked to report its commit.
#[derive(Clone, Debug)]
pub struct BuiltBrains {
    /// The working tree's `pbrain-wuzi`; reports the tree's HEAD (`-dirty` with local changes).
    pub candidate: BuiltBrain,
    /// The reference's `pbrain-wuzi`; reports the reference's commit, clean.
    pub baseline: BuiltBrain,
}

/// The gate's build folder (`None` in the config: `gate-build` under `CARGO_TARGET_DIR`, else
/// under the repository's `target`).
fn build_dir(config: &GateConfig, top: &Path) -> PathBuf {
    if let Some(d) = &config.build_dir {
        return d.clone();
    }
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => PathBuf::from(t).join("gate-build"),
        _ => top.join("target").join("gate-build"),
    }
}

/// The folder cargo puts a profile's binaries in (`dev` builds go to `debug`).
fn profile_dir(profile: &str) -> &str {
    match profile {
        "dev" | "test" => "debug",
        "release" | "bench" => "release",
        other => other,
    }
}

/// Builds `pbrain-wuzi` with cargo `profile` from the workspace in `source` into the cargo
/// target folder `target`, appending the output to `log`; returns the binary.
pub fn build_brain(
    what: &str,
    source: &Path,
    target: &Path,
    profile: &str,
    log: &Path,
) -> Result<PathBuf, GateError> {
    let fail = |message: String| GateError::Build {
        what: what.to_string(),
        message,
        log: log.to_path_buf(),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| GateError::io(log, e))?;
    let _ = writeln!(
        file,
        "==> building {what} in {} into {} (profile {profile})",
        source.display(),
        target.display()
    );
    let started = Instant::now();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .current_dir(source)
        .args([
            "build",
            "--profile",
            profile,
            "-p",
            "wuzi-engine",
            "--bin",
            BRAIN_BIN,
        ])
        .arg("--target-dir")
        .arg(target)
        // Only this build's own folder and stamp: nothing inherited may point cargo elsewhere
        // or stamp the binary with another commit.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("WUZI_BUILD_COMMIT")
        .output()
        .map_err(|e| fail(format!("cannot run {}: {e}", cargo.to_string_lossy())))?;
    let _ = file.write_all(&out.stdout);
    let _ = file.write_all(&out.stderr);
    let _ = writeln!(
        file,
        "==> {what}: cargo {} after {:.1} s",
        out.status,
        started.elapsed().as_secs_f64()
    );
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(12)..].join("\n");
        return Err(fail(format!("cargo exited with {}:\n{tail}", out.status)));
    }
    let bin = target
        .join(profile_dir(profile))
        .join(format!("{BRAIN_BIN}{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(fail(format!("{} was not produced", bin.display())));
    }
    Ok(bin)
}

/// The commit a brain binary reports on `pbrain-wuzi --version` (its `commit` line);
/// `None` for a brain that names none (built before commit stamping) or does not run.
pub fn brain_commit(bin: &Path) -> Option<BuildCommit> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    commit_from_version_output(&String::from_utf8_lossy(&out.stdout))
}

/// Checks that `bin` reports commit `expected` (clean unless `dirty_ok`); the reported
/// commit, or [`GateError::WrongCommit`].
fn check_commit(
    what: &str,
    bin: &Path,
    expected: &str,
    dirty_ok: bool,
) -> Result<BuildCommit, GateError> {
    let reported = brain_commit(bin);
    match &reported {
        Some(c) if c.hash.as_deref() == Some(expected) && (dirty_ok || !c.dirty) => Ok(c.clone()),
        _ => Err(GateError::WrongCommit {
            what: what.to_string(),
            binary: bin.to_path_buf(),
            expected: expected.to_string(),
            reported: reported.map_or_else(
                || "no commit (a build from before commit stamping, or not a wuzi brain)".into(),
                |c| c.stamp(),
            ),
        }),
    }
}

/// Copies a built binary to `dest` (creating its folder), keeping it executable. The copy goes
/// to a temporary name first, so a concurrent reader never sees half a binary.
fn keep_binary(bin: &Path, dest: &Path) -> Result<PathBuf, GateError> {
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| GateError::io(parent, e))?;
    }
    let tmp = dest.with_extension(format!("tmp{}", std::process::id()));
    std::fs::copy(bin, &tmp).map_err(|e| GateError::io(&tmp, e))?;
    std::fs::rename(&tmp, dest).map_err(|e| GateError::io(dest, e))?;
    Ok(dest.to_path_buf())
}

/// Builds the two brains of a [`Baseline::GitRef`] gate and copies them into `out/bin/`.
///
/// The build folder holds one folder per cargo profile and, in it, `candidate/` (the cargo
/// target folder of the working tree) and one folder per baseline commit: its own cargo target
/// folder while it builds (removed afterwards) and the finished, checked `pbrain-wuzi`, which
/// later runs reuse without building.
/// Separate target folders are what keeps cargo from handing back the candidate's binary for
/// the reference (issue 14): in a shared one the reference's freshly checked-out sources look
/// older than the candidate's artefacts and cargo calls those fresh. The reference is checked
/// out into a temporary worktree, removed before this returns, whatever happens.
///
/// Each binary must report its commit on `--version`: the baseline the reference's commit
/// (clean), the candidate the working tree's HEAD (with `-dirty` for local changes);
/// anything else is [`GateError::WrongCommit`].
pub fn build_brains(
    config: &GateConfig,
    reference: &str,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<BuiltBrains, GateError> {
    if reference.trim().is_empty() || reference.starts_with('-') {
        return Err(GateError::Config(format!(
            "bad git reference '{reference}'"
        )));
    }
    let top = PathBuf::from(git(&config.repo, &["rev-parse", "--show-toplevel"])?);
    let commit = resolve_commit(&top, reference)?;
    let head = resolve_commit(&top, "HEAD")?;
    let profile = config.build_profile.as_str();
    if profile.is_empty() || profile.contains(['/', '\\']) || profile.starts_with('-') {
        return Err(GateError::Config(format!("bad build profile '{profile}'")));
    }
    let root = build_dir(config, &top).join(profile);
    std::fs::create_dir_all(&root).map_err(|e| GateError::io(&root, e))?;
    std::fs::create_dir_all(&config.out).map_err(|e| GateError::io(&config.out, e))?;
    let log = config.out.join(BUILD_LOG);
    let _ = std::fs::remove_file(&log);
    let bin_dir = config.out.join("bin");
    let exe = format!("{BRAIN_BIN}{}", std::env::consts::EXE_SUFFIX);

    // The baseline first: its worktree lives only as long as its build.
    let started = Instant::now();
    let what = format!("baseline {reference}");
    let commit_dir = root.join(&commit);
    let cached = commit_dir.join(&exe);
    let reused = cached.is_file() && check_commit(&what, &cached, &commit, false).is_ok();
    if reused {
        observer(GateEvent::Message(&format!(
            "baseline {reference} ({commit}): reusing {}",
            cached.display()
        )));
    } else {
        let worktree = Worktree::add(&top, &commit)?;
        observer(GateEvent::Message(&format!(
            "checked out {reference} ({commit}) in {}",
            worktree.path().display()
        )));
        observer(GateEvent::Message(&format!(
            "building the baseline {reference} into {}",
            commit_dir.join("target").display()
        )));
        let built = build_brain(
            &what,
            worktree.path(),
            &commit_dir.join("target"),
            profile,
            &log,
        )?;
        check_commit(&what, &built, &commit, false)?;
        keep_binary(&built, &cached)?;
        worktree.remove()?;
        // Only the checked binary is used again (a commit's code never changes): its cargo
        // target folder, some hundreds of MB, would only fill the cache.
        let _ = std::fs::remove_dir_all(commit_dir.join("target"));
    }
    let baseline = BuiltBrain {
        path: keep_binary(&cached, &bin_dir.join(BASELINE).join(&exe))?,
        commit: check_commit(&what, &cached, &commit, false)?,
        reused,
        build_s: started.elapsed().as_secs_f64(),
    };
    observer(GateEvent::Message(&format!(
        "baseline {reference} reports commit {} ({:.1} s{})",
        baseline.commit.stamp(),
        baseline.build_s,
        if reused { ", cached" } else { "" }
    )));

    let started = Instant::now();
    let built = match &config.candidate_bin {
        Some(bin) => {
            observer(GateEvent::Message(&format!(
                "candidate: {} (already built; checked to report HEAD {head})",
                bin.display()
            )));
            if !bin.is_file() {
                return Err(GateError::Config(format!(
                    "--candidate-bin {}: no such file",
                    bin.display()
                )));
            }
            bin.clone()
        }
        None => {
            let target = root.join(CANDIDATE);
            observer(GateEvent::Message(&format!(
                "building the candidate ({}) into {}",
                top.display(),
                target.display()
            )));
            build_brain("the candidate", &top, &target, profile, &log)?
        }
    };
    let candidate = BuiltBrain {
        commit: check_commit("the candidate", &built, &head, true)?,
        path: keep_binary(&built, &bin_dir.join(CANDIDATE).join(&exe))?,
        reused: false,
        build_s: started.elapsed().as_secs_f64(),
    };
    observer(GateEvent::Message(&format!(
        "candidate reports commit {} ({:.1} s)",
        candidate.commit.stamp(),
        candidate.build_s
    )));
    Ok(BuiltBrains {
        candidate,
        baseline,
    })
}

/// The full hash of the commit `reference` names in the repository at `top`.
fn resolve_commit(top: &Path, reference: &str) -> Result<String, GateError> {
    git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{reference}^{{commit}}"),
        ],
    )
    .map_err(|_| GateError::Git {
        command: format!("rev-parse {reference}"),
        message: format!("'{reference}' is not a commit of {}", top.display()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, for simulated results.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Pairs between deterministic engines: with probability `1 - decisive` the pair is
    /// mirrored (one win each), otherwise both games go to one side, chosen so that the mean
    /// score is that of `elo`.
    fn pairs(elo: f64, decisive: f64, seed: u64) -> impl Iterator<Item = (Outcome, Outcome)> {
        let q = 0.5 + (crate::stats::score_from_elo(elo) - 0.5) / decisive;
        assert!(
            (0.0..=1.0).contains(&q),
            "elo {elo} needs more decisive pairs"
        );
        let mut rng = Rng(seed);
        std::iter::repeat_with(move || {
            if rng.unit() < decisive {
                if rng.unit() < q {
                    (Outcome::Win, Outcome::Win)
                } else {
                    (Outcome::Loss, Outcome::Loss)
                }
            } else {
                (Outcome::Win, Outcome::Loss)
            }
        })
    }

    /// Share of `runs` simulated gates that fail, and the mean pairs used.
    fn fail_rate(elo: f64, decisive: f64, budget: u64, runs: u64) -> (f64, f64) {
        let sprt = default_sprt();
        let mut fails = 0;
        let mut used = 0;
        for run in 0..runs {
            let seed = run * 0x1_0000 + (decisive * 100.0) as u64 + elo.to_bits();
            let (d, p) = decide_pairs(pairs(elo, decisive, seed), &sprt, budget);
            fails += u64::from(d.verdict() == Verdict::Fail);
            used += p.pairs();
        }
        (fails as f64 / runs as f64, used as f64 / runs as f64)
    }

    #[test]
    fn identical_engines_pass_after_50_mirrored_pairs() {
        let mirrored = std::iter::repeat((Outcome::Win, Outcome::Loss));
        let (d, p) = decide_pairs(mirrored, &default_sprt(), DEFAULT_PAIRS);
        assert_eq!(d, Decision::SprtH1);
        assert_eq!(p.pairs(), 50);
    }

    #[test]
    fn default_gate_operating_characteristics() {
        // Equal strength: few false alarms, whether few or most pairs are decisive.
        for decisive in [0.2, 0.5] {
            let (rate, used) = fail_rate(0.0, decisive, DEFAULT_PAIRS, 150);
            assert!(rate <= 0.08, "decisive {decisive}: false alarms {rate}");
            assert!(used < DEFAULT_PAIRS as f64, "{used}");
        }
        // A clear regression is caught, a gross one always and quickly.
        let (rate, _) = fail_rate(-20.0, 0.2, DEFAULT_PAIRS, 150);
        assert!(rate >= 0.8, "-20 Elo caught in {rate}");
        let (rate, used) = fail_rate(-40.0, 0.5, DEFAULT_PAIRS, 150);
        assert!(rate >= 0.97, "-40 Elo caught in {rate}");
        assert!(used < 400.0, "{used}");
    }

    #[test]
    fn budget_rule_needs_both_llr_and_significance() {
        let sprt = default_sprt();
        // Clearly worse: LLR < 0 and interval below 0.
        let worse = Penta::new([30, 0, 100, 0, 10]);
        assert!(llr(&worse, &sprt) < 0.0);
        assert_eq!(budget_verdict(&worse, &sprt), Decision::BudgetFail);
        // Slightly worse but precisely measured, closer to 0 than to -20: passes.
        let slight = Penta::new([60, 0, 5000, 0, 40]);
        let e = slight.elo_estimate().expect("pairs");
        assert!(e.upper < 0.0, "{e:?}");
        assert!(llr(&slight, &sprt) > 0.0);
        assert_eq!(budget_verdict(&slight, &sprt), Decision::BudgetPass);
        // Noisy and leaning to H0 without significance: passes.
        let noisy = Penta::new([12, 0, 20, 0, 10]);
        assert!(llr(&noisy, &sprt) < 0.0);
        assert_eq!(budget_verdict(&noisy, &sprt), Decision::BudgetPass);
        // No games at all: passes (nothing shows a regression).
        assert_eq!(
            budget_verdict(&Penta::default(), &sprt),
            Decision::BudgetPass
        );
    }

    #[test]
    fn decisions_map_to_verdicts_and_exit_codes() {
        assert_eq!(Decision::SprtH1.verdict().exit_code(), 0);
        assert_eq!(Decision::BudgetPass.verdict().exit_code(), 0);
        for d in [
            Decision::SprtH0,
            Decision::BudgetFail,
            Decision::SuitesFailed,
        ] {
            assert_eq!(d.verdict().exit_code(), 1);
        }
    }

    /// Built brains play at the candidate's node limit on one thread (reproducible), or at
    /// `move_ms` when it is set.
    #[test]
    fn built_brains_get_node_limits_unless_timed() {
        let candidate = PlayerLimits {
            nodes: Some(1500),
            threads: 4,
            hash_mb: 8,
            ..PlayerLimits::default()
        };
        let spec = PlayerSpec::engine("c", &wuzi_engine::Params::default(), candidate.clone());
        let mut config = GateConfig::new(spec, Baseline::GitRef("HEAD".into()));
        let l = brain_limits(&config, &candidate);
        assert_eq!(
            (l.nodes, l.move_ms, l.threads, l.hash_mb),
            (Some(1500), None, 1, 8)
        );
        assert!(l.is_deterministic());
        config.move_ms = Some(40);
        let l = brain_limits(&config, &candidate);
        assert_eq!((l.nodes, l.move_ms, l.threads), (None, Some(40), 4));
    }

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
