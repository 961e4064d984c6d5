//! Match statistics: pentanomial (game-pair) and trinomial (W/D/L) counts, score, Elo and
//! normalized Elo with 95% intervals, LOS, and the generalized pentanomial SPRT.
//!
//! The methods are those of fishtest (Stockfish's testing framework:
//! `server/fishtest/stats/LLRcalc.py`, `sprt.py`, `stat_util.py`) and OpenBench, as written down
//! in the project's `spec/harness.md`. Every function documents its formula.
//!
//! Conventions for degenerate data, shared by every estimate here:
//! - no games or pairs at all: the estimate is `None` (there is nothing to estimate);
//! - a score of exactly 1 or 0 maps to an Elo of `+inf` / `-inf` (never NaN);
//! - zero variance (every pair or game scored the same): the score interval collapses to the
//!   point, normalized Elo is `None` (it divides by the standard deviation), LOS is 1, 0 or 1/2.
//!
//! Nothing in this module panics on any count values; counts saturate instead of overflowing.

#![warn(missing_docs)]

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The five possible pair scores of engine A, indexed like [`Penta::counts`]:
/// LL, LD, WL or DD, WD, WW.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The three possible game scores of engine A, indexed loss, draw, win.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Two-sided 95% quantile of the standard normal distribution (`Phi^-1(0.975)`), the `1.96` of
/// the spec with full precision as scipy's `norm.ppf(0.975)` gives it to fishtest.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// fishtest's `nelo_divided_by_nt = 800 / ln(10)` (~347.4356): normalized Elo per unit of
/// t-value `(s - 0.5) / sigma_per_game`.
pub const NELO_DIVIDED_BY_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Count given to empty cells before the SPRT normalises the counts (fishtest
/// `LLRcalc.regularize`): keeps every cell probability positive so the MLE exists.
pub const EMPTY_CELL_COUNT: f64 = 1e-3;

/// Smallest distance a hypothesis score keeps from 0 and 1 inside [`llr`]: a score outside
/// (0, 1) is impossible and would make the likelihood zero.
const SCORE_MARGIN: f64 = 1e-12;

// ---------------------------------------------------------------------------------------------
// Elementary conversions
// ---------------------------------------------------------------------------------------------

/// Logistic Elo of an expected score: `elo(s) = -400 * log10(1/s - 1)`.
///
/// `elo(0.5) = 0`, `elo(0.75) ~ 190.85`. Scores are clamped to `[0, 1]` first, so `elo(1) =
/// +inf` and `elo(0) = -inf`; only a NaN input gives NaN.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of a logistic Elo difference (fishtest `LLRcalc.L_`):
/// `s = 1 / (1 + 10^(-elo/400))`. The inverse of [`elo`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function `erf(x) = 2/sqrt(pi) * int_0^x exp(-t^2) dt`, to about 1e-15 absolute.
///
/// The standard library has none; LOS needs it. Taylor series for `|x| < 2.5`, the classic
/// continued fraction for `erfc` beyond (both converge fast in their range).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let ax = x.abs();
    let value = if ax < 2.5 {
        // sum_n (-1)^n x^(2n+1) / (n! (2n+1)); terms shrink fast after n ~ x^2.
        let x2 = ax * ax;
        let mut term = ax; // (-1)^n x^(2n+1) / n!
        let mut sum = ax;
        let mut n = 0.0;
        while n < 200.0 {
            n += 1.0;
            term *= -x2 / n;
            let contribution = term / (2.0 * n + 1.0);
            sum += contribution;
            if contribution.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else if ax > 6.0 {
        // erfc(6) ~ 2e-17: below f64 resolution next to 1.
        1.0
    } else {
        // erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))),
        // evaluated backwards from a fixed depth, ample for x >= 2.5.
        let mut tail = ax;
        for k in (1..=60).rev() {
            tail = ax + (k as f64 / 2.0) / tail;
        }
        let erfc = (-ax * ax).exp() / std::f64::consts::PI.sqrt() / tail;
        1.0 - erfc
    };
    value.copysign(x)
}

// ---------------------------------------------------------------------------------------------
// Shared estimators over a discrete score distribution
// ---------------------------------------------------------------------------------------------

/// Sample size, mean and (population) variance of a distribution on `scores` with `counts`.
/// `None` when the total count is zero.
fn moments(scores: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 || !n.is_finite() {
        return None;
    }
    let mean = scores.iter().zip(counts).map(|(a, c)| a * c).sum::<f64>() / n;
    let var = scores
        .iter()
        .zip(counts)
        .map(|(a, c)| c * (a - mean) * (a - mean))
        .sum::<f64>()
        / n;
    // Rounding can leave a tiny negative value for a one-point distribution.
    Some((n, mean, var.max(0.0)))
}

/// An estimate with its 95% confidence interval.
///
/// Serialized as `{ "value", "lower", "upper" }`. JSON has no infinity, so an infinite value
/// (the Elo of a perfect score) is written as the string `"inf"` or `"-inf"` and read back as
/// such; `null`, which files written before this change hold there, reads as NaN.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    #[serde(with = "json_f64")]
    pub value: f64,
    /// Lower end of the 95% interval.
    #[serde(with = "json_f64")]
    pub lower: f64,
    /// Upper end of the 95% interval.
    #[serde(with = "json_f64")]
    pub upper: f64,
}

/// An `f64` that survives JSON: finite values as numbers, infinities as `"inf"`/`"-inf"`, NaN
/// as `null` (and `null` back as NaN).
mod json_f64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else if v.is_nan() {
            s.serialize_none()
        } else if *v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Option::<Repr>::deserialize(d)? {
            Some(Repr::Number(v)) => Ok(v),
            Some(Repr::Text(t)) => match t.as_str() {
                "inf" | "+inf" | "infinity" => Ok(f64::INFINITY),
                "-inf" | "-infinity" => Ok(f64::NEG_INFINITY),
                "nan" => Ok(f64::NAN),
                _ => Err(serde::de::Error::custom(format!(
                    "expected a number, \"inf\" or \"-inf\", found \"{t}\""
                ))),
            },
            // `null`: what files written before infinities became strings hold.
            None => Ok(f64::NAN),
        }
    }
}

impl Estimate {
    /// Maps the three numbers through a monotone increasing function.
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Estimate {
            value: f(self.value),
            lower: f(self.lower),
            upper: f(self.upper),
        }
    }

    /// Half the interval width, `(upper - lower) / 2`: the "+-" usually printed.
    pub fn half_width(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Score with the 95% normal interval `s +- Z_95 * sqrt(var / n)`, clamped to `[0, 1]`.
fn score_estimate(n: f64, s: f64, var: f64) -> Estimate {
    let margin = Z_95 * (var / n).sqrt();
    Estimate {
        value: s,
        lower: (s - margin).clamp(0.0, 1.0),
        upper: (s + margin).clamp(0.0, 1.0),
    }
}

/// Normalized Elo `(s - 0.5) / sigma_pg * 800 / ln 10` with the score interval mapped through
/// the same (linear) function; `None` when `sigma_pg` is zero.
fn nelo_estimate(n: f64, s: f64, var: f64, sigma_pg: f64) -> Option<Estimate> {
    if sigma_pg <= 0.0 {
        return None;
    }
    let margin = Z_95 * (var / n).sqrt();
    let nelo = |score: f64| (score - 0.5) / sigma_pg * NELO_DIVIDED_BY_NT;
    Some(Estimate {
        value: nelo(s),
        lower: nelo(s - margin),
        upper: nelo(s + margin),
    })
}

/// LOS `0.5 * (1 + erf((s - 0.5) / sqrt(2 var / n)))`; 1, 0 or 1/2 when `var == 0`.
fn los(n: f64, s: f64, var: f64) -> f64 {
    if var <= 0.0 {
        return if s > 0.5 {
            1.0
        } else if s < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    0.5 * (1.0 + erf((s - 0.5) / (2.0 * var / n).sqrt()))
}

// ---------------------------------------------------------------------------------------------
// Game outcomes, pentanomial and trinomial counts
// ---------------------------------------------------------------------------------------------

/// Result of one game from engine A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Engine A won.
    Win,
    /// Draw.
    Draw,
    /// Engine A lost.
    Loss,
}

impl Outcome {
    /// Half-points for engine A: win 2, draw 1, loss 0.
    pub fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// The same game seen from the opponent's side.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Pentanomial counts of game pairs (each opening played twice, colours swapped), for engine A.
///
/// `counts[i]` is the number of pairs with score `PAIR_SCORES[i]`: `[LL, LD, WL+DD, WD, WW]`, the
/// order of fishtest's `pentanomial`. Statistics over pairs remove most opening bias (fishtest,
/// OpenBench and fastchess all report them). Serialized as the bare 5-element array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Penta {
    /// Pair counts `[LL, LD, WL+DD, WD, WW]`.
    pub counts: [u64; 5],
}

impl Penta {
    /// Counts given directly as `[LL, LD, WL+DD, WD, WW]`.
    pub const fn new(counts: [u64; 5]) -> Self {
        Penta { counts }
    }

    /// Records one game pair, both games from engine A's side (order does not matter).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let cell = usize::from(first.half_points() + second.half_points());
        self.counts[cell] = self.counts[cell].saturating_add(1);
    }

    /// The same counts seen from engine B's side (cells reversed).
    pub fn flipped(&self) -> Penta {
        let mut counts = self.counts;
        counts.reverse();
        Penta { counts }
    }

    /// Number of pairs `N`.
    pub fn pairs(&self) -> u64 {
        self.counts
            .iter()
            .fold(0u64, |acc, c| acc.saturating_add(*c))
    }

    /// Number of games, `2 N`.
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    fn counts_f64(&self) -> [f64; 5] {
        self.counts.map(|c| c as f64)
    }

    /// `(N, s, var)` over pairs.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        moments(&PAIR_SCORES, &self.counts_f64())
    }

    /// Mean pair score `s = sum p_i a_i` (equal to the mean game score); `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        self.moments().map(|(_, s, _)| s)
    }

    /// Pair-score variance `var = sum p_i (a_i - s)^2` over the five cells (population form, as
    /// fishtest's `LLRcalc.stats`); `None` without pairs.
    pub fn variance(&self) -> Option<f64> {
        self.moments().map(|(_, _, var)| var)
    }

    /// Score with its 95% interval `s +- 1.96 * sqrt(var / N)`, clamped to `[0, 1]`
    /// (fishtest `stat_util.get_elo`, pentanomial form). `None` without pairs.
    pub fn score_estimate(&self) -> Option<Estimate> {
        self.moments().map(|(n, s, var)| score_estimate(n, s, var))
    }

    /// Logistic Elo with the 95% score interval mapped through [`elo`] (fishtest
    /// `stat_util.get_elo`). A perfect or null score gives infinite ends; `None` without pairs.
    pub fn elo_estimate(&self) -> Option<Estimate> {
        self.score_estimate().map(|e| e.map(elo))
    }

    /// Normalized Elo (fishtest's default model, `LLRcalc.LLR_normalized`):
    /// `nElo = (s - 0.5) / sqrt(2 var) * 800 / ln 10`, where `sqrt(2 var)` is the per-game
    /// standard deviation implied by the pair variance. The interval is the score interval
    /// mapped through the same linear function, i.e. `nElo +- 1.96 * 800 / ln 10 / sqrt(2 N)`.
    /// `None` without pairs or with zero variance (nElo is undefined there).
    pub fn nelo_estimate(&self) -> Option<Estimate> {
        let (n, s, var) = self.moments()?;
        nelo_estimate(n, s, var, (2.0 * var).sqrt())
    }

    /// Likelihood of superiority, the probability that engine A is the stronger one under a
    /// normal approximation: `LOS = 0.5 * (1 + erf((s - 0.5) / sqrt(2 var / N)))`
    /// (OpenBench / fastchess). With zero variance it is 1, 0 or 0.5 by the sign of `s - 0.5`.
    /// `None` without pairs.
    pub fn los(&self) -> Option<f64> {
        self.moments().map(|(n, s, var)| los(n, s, var))
    }

    /// Fraction of pairs scoring exactly 1/2 (WL, LW or DD). Pairs cannot tell a drawn pair
    /// from a split one; use [`Wdl::draw_ratio`] for the game draw rate. `None` without pairs.
    pub fn even_pair_ratio(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| self.counts[2] as f64 / n as f64)
    }
}

impl AddAssign for Penta {
    fn add_assign(&mut self, rhs: Penta) {
        for (a, b) in self.counts.iter_mut().zip(rhs.counts) {
            *a = a.saturating_add(b);
        }
    }
}

impl Add for Penta {
    type Output = Penta;
    fn add(mut self, rhs: Penta) -> Penta {
        self += rhs;
        self
    }
}

impl Sum for Penta {
    fn sum<I: Iterator<Item = Penta>>(iter: I) -> Penta {
        iter.fold(Penta::default(), Add::add)
    }
}

impl fmt::Display for Penta {
    /// `[LL, LD, WL+DD, WD, WW]`, as fishtest prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// Trinomial game counts for engine A: wins, draws and losses.
///
/// Game-level statistics ignore the pairing and over-state confidence when openings are
/// unbalanced; prefer [`Penta`] for decisions. Per-game formulas mirror the pentanomial ones
/// with games in place of pairs (fishtest handles both in `LLRcalc`/`stat_util`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wdl {
    /// Games engine A won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games engine A lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts given directly.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Records one game from engine A's side.
    pub fn add_game(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *slot = slot.saturating_add(1);
    }

    /// The same counts from engine B's side (wins and losses swapped).
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Number of games `n = W + D + L`.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// `(n, s, var)` over games, cells ordered loss, draw, win.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        moments(&GAME_SCORES, &counts)
    }

    /// Mean game score `s = (W + D/2) / n`; `None` without games.
    pub fn score(&self) -> Option<f64> {
        self.moments().map(|(_, s, _)| s)
    }

    /// Per-game score variance `var = sum p_i (a_i - s)^2` over loss/draw/win; `None` without
    /// games.
    pub fn variance(&self) -> Option<f64> {
        self.moments().map(|(_, _, var)| var)
    }

    /// Score with its 95% interval `s +- 1.96 * sqrt(var / n)`, clamped to `[0, 1]`
    /// (fishtest `stat_util.get_elo`, trinomial form). `None` without games.
    pub fn score_estimate(&self) -> Option<Estimate> {
        self.moments().map(|(n, s, var)| score_estimate(n, s, var))
    }

    /// Logistic Elo with the score interval mapped through [`elo`]; `None` without games.
    pub fn elo_estimate(&self) -> Option<Estimate> {
        self.score_estimate().map(|e| e.map(elo))
    }

    /// Normalized Elo over games, `(s - 0.5) / sqrt(var) * 800 / ln 10` (fishtest uses the
    /// per-game standard deviation `sqrt(var)` for trinomial results). `None` without games or
    /// with zero variance.
    pub fn nelo_estimate(&self) -> Option<Estimate> {
        let (n, s, var) = self.moments()?;
        nelo_estimate(n, s, var, var.sqrt())
    }

    /// LOS over games, `0.5 * (1 + erf((s - 0.5) / sqrt(2 var / n)))`, which for W/D/L equals
    /// the classic `0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))` up to the variance estimate.
    /// 1, 0 or 0.5 with zero variance; `None` without games.
    pub fn los(&self) -> Option<f64> {
        self.moments().map(|(n, s, var)| los(n, s, var))
    }

    /// Fraction of drawn games `D / n`; `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, rhs: Wdl) {
        self.wins = self.wins.saturating_add(rhs.wins);
        self.draws = self.draws.saturating_add(rhs.draws);
        self.losses = self.losses.saturating_add(rhs.losses);
    }
}

impl Add for Wdl {
    type Output = Wdl;
    fn add(mut self, rhs: Wdl) -> Wdl {
        self += rhs;
        self
    }
}

impl Sum for Wdl {
    fn sum<I: Iterator<Item = Wdl>>(iter: I) -> Wdl {
        iter.fold(Wdl::default(), Add::add)
    }
}

impl fmt::Display for Wdl {
    /// `W-D-L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

// ---------------------------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------------------------

/// Which Elo scale the SPRT bounds `elo0`, `elo1` are expressed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: `s = 1 / (1 + 10^(-elo/400))`.
    #[default]
    Logistic,
    /// Normalized Elo (fishtest's default): `s = 0.5 + nelo / (800 / ln 10) * sqrt(2 var)`,
    /// with `var` the observed pair variance.
    Normalized,
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// Outcome of an SPRT after the latest results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtVerdict {
    /// LLR strictly between the bounds: play on.
    Continue,
    /// LLR at or below the lower bound: H0 (`elo = elo0`) accepted, the test fails.
    AcceptH0,
    /// LLR at or above the upper bound: H1 (`elo = elo1`) accepted, the test passes.
    AcceptH1,
}

/// Why an SPRT parameter string or set of parameters was rejected; names the bad part.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtParamError {
    /// Not 2 or 4 comma-separated parts.
    #[error(
        "expected \"elo0,elo1[,alpha,beta]\" (2 or 4 comma-separated numbers), got {0} part(s)"
    )]
    PartCount(usize),
    /// A part that does not parse as a number.
    #[error("{name} is not a number: {text:?}")]
    NotANumber {
        /// Which part: `elo0`, `elo1`, `alpha` or `beta`.
        name: &'static str,
        /// The offending text.
        text: String,
    },
    /// A part that parsed to infinity or NaN.
    #[error("{name} must be finite, got {value}")]
    NotFinite {
        /// Which part.
        name: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha` or `beta` outside the open interval (0, 1).
    #[error("{name} must be strictly between 0 and 1, got {value}")]
    ProbabilityOutOfRange {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha + beta >= 1`: the bounds would not straddle zero.
    #[error("alpha + beta must be below 1, got alpha = {alpha}, beta = {beta}")]
    ErrorRatesTooLarge {
        /// False-positive rate.
        alpha: f64,
        /// False-negative rate.
        beta: f64,
    },
    /// `elo1 <= elo0`: the hypotheses must be ordered and distinct.
    #[error("elo1 must be greater than elo0, got elo0 = {elo0}, elo1 = {elo1}")]
    EloOrder {
        /// H0 Elo.
        elo0: f64,
        /// H1 Elo.
        elo1: f64,
    },
}

/// Parameters of a sequential probability ratio test (fishtest `sprt.py`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtParams {
    /// H0: the true Elo difference is `elo0`.
    pub elo0: f64,
    /// H1: the true Elo difference is `elo1` (> `elo0`).
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// Scale of `elo0` and `elo1`.
    pub model: EloModel,
}

impl SprtParams {
    /// The error rate used when the parameter string gives none (fishtest's default).
    pub const DEFAULT_ERROR_RATE: f64 = 0.05;

    /// Bounds `[elo0, elo1]` in `model` with alpha = beta = 0.05. Not validated; see
    /// [`SprtParams::validate`].
    pub fn new(elo0: f64, elo1: f64, model: EloModel) -> Self {
        SprtParams {
            elo0,
            elo1,
            alpha: Self::DEFAULT_ERROR_RATE,
            beta: Self::DEFAULT_ERROR_RATE,
            model,
        }
    }

    /// Parses the CLI form `"elo0,elo1[,alpha,beta]"` (whitespace around parts allowed), e.g.
    /// `"0,5"` or `"-1.75,0.25,0.05,0.1"`, and validates the result.
    pub fn parse(text: &str, model: EloModel) -> Result<Self, SprtParamError> {
        const NAMES: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 2 && parts.len() != 4 {
            return Err(SprtParamError::PartCount(parts.len()));
        }
        let mut values = [0.0; 4];
        for ((value, part), name) in values.iter_mut().zip(&parts).zip(NAMES) {
            *value = part
                .parse::<f64>()
                .map_err(|_| SprtParamError::NotANumber {
                    name,
                    text: (*part).to_string(),
                })?;
        }
        let mut params = SprtParams::new(values[0], values[1], model);
        if parts.len() == 4 {
            params.alpha = values[2];
            params.beta = values[3];
        }
        params.validate()?;
        Ok(params)
    }

    /// Checks finiteness, `0 < alpha, beta < 1`, `alpha + beta < 1` and `elo0 < elo1`.
    pub fn validate(&self) -> Result<(), SprtParamError> {
        for (name, value) in [
            ("elo0", self.elo0),
            ("elo1", self.elo1),
            ("alpha", self.alpha),
            ("beta", self.beta),
        ] {
            if !value.is_finite() {
                return Err(SprtParamError::NotFinite { name, value });
            }
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtParamError::ProbabilityOutOfRange { name, value });
            }
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtParamError::ErrorRatesTooLarge {
                alpha: self.alpha,
                beta: self.beta,
            });
        }
        if self.elo1 <= self.elo0 {
            return Err(SprtParamError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        Ok(())
    }

    /// Lower (H0) bound of the LLR, `ln(beta / (1 - alpha))`: -2.944 at 0.05/0.05.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper (H1) bound of the LLR, `ln((1 - beta) / alpha)`: +2.944 at 0.05/0.05.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Verdict for an LLR: H1 when `llr >= upper`, H0 when `llr <= lower`, else continue
    /// (a NaN LLR also continues).
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        if llr >= self.upper_bound() {
            SprtVerdict::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

impl FromStr for SprtParams {
    type Err = SprtParamError;

    /// [`SprtParams::parse`] with logistic Elo.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SprtParams::parse(s, EloModel::Logistic)
    }
}

impl fmt::Display for SprtParams {
    /// `elo0,elo1,alpha,beta`, the form [`SprtParams::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The SPRT state after some results: LLR, bounds and verdict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// Log-likelihood ratio from [`llr`].
    pub llr: f64,
    /// [`SprtParams::lower_bound`].
    pub lower: f64,
    /// [`SprtParams::upper_bound`].
    pub upper: f64,
    /// [`SprtParams::verdict`] of `llr`.
    pub verdict: SprtVerdict,
}

/// Regularized pentanomial for the SPRT: empty cells get [`EMPTY_CELL_COUNT`] (fishtest
/// `LLRcalc.regularize`). Returns `(N, p)` with `N` the regularized total, as fishtest's
/// `results_to_pdf` does.
fn regularized_pdf(penta: &Penta) -> (f64, [f64; 5]) {
    let counts = penta
        .counts
        .map(|c| if c == 0 { EMPTY_CELL_COUNT } else { c as f64 });
    let n: f64 = counts.iter().sum();
    (n, counts.map(|c| c / n))
}

/// Scores `(s0, s1)` of the two hypotheses for an (already regularized) pair distribution, as
/// fishtest's `sprt.elo_to_score`: logistic `s = 1/(1 + 10^(-elo/400))`; normalized
/// `s = 0.5 + elo / (800 / ln 10) * sqrt(2 var)` with `var` the regularized pair variance.
/// Clamped to stay strictly inside (0, 1), where the MLE exists.
fn hypothesis_scores(p: &[f64; 5], params: &SprtParams) -> (f64, f64) {
    let to_score = |e: f64| match params.model {
        EloModel::Logistic => score_from_elo(e),
        EloModel::Normalized => {
            let var = moments(&PAIR_SCORES, p).map_or(0.0, |(_, _, var)| var);
            0.5 + e / NELO_DIVIDED_BY_NT * (2.0 * var).sqrt()
        }
    };
    let clamp = |s: f64| s.clamp(SCORE_MARGIN, 1.0 - SCORE_MARGIN);
    (clamp(to_score(params.elo0)), clamp(to_score(params.elo1)))
}

/// Solves fishtest's secular equation `sum_i p_i u_i / (1 + theta u_i) = 0` for
/// `u_i = a_i - s`, `0 < s < 1`, on the interval where every `1 + theta u_i > 0`, i.e.
/// `-1 / (1 - s) < theta < 1 / s` (the cells 0 and 1 are always present after
/// regularization). The left side decreases strictly in theta from `+inf` to `-inf`, so plain
/// bisection to adjacent floats is robust; it never evaluates an end of the interval.
fn secular_theta(p: &[f64; 5], s: f64) -> f64 {
    let f = |theta: f64| -> f64 {
        PAIR_SCORES
            .iter()
            .zip(p)
            .map(|(a, pi)| {
                let u = a - s;
                pi * u / (1.0 + theta * u)
            })
            .sum()
    };
    let (lo0, hi0) = (-1.0 / (1.0 - s), 1.0 / s);
    let (mut lo, mut hi) = (lo0, hi0);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let value = f(mid);
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
    // Return an end strictly inside the interval (an untouched end is a pole).
    if lo > lo0 {
        lo
    } else {
        hi
    }
}

/// Generalized log-likelihood ratio of H1 (`elo = elo1`) against H0 (`elo = elo0`) for
/// pentanomial results: fishtest `LLRcalc.LLR_logistic` / `MLE_expected` (theory: M. Van den
/// Bergh, "support_MLE_multinomial.pdf", Proposition 1.1).
///
/// 1. Regularize: empty cells count [`EMPTY_CELL_COUNT`]; `p^_i` = cell frequency, `N` = total.
/// 2. `s_j` = score of `elo_j` (see [`EloModel`]; for normalized Elo the observed regularized
///    pair variance converts nElo to a score, exactly as fishtest's `sprt.elo_to_score`).
/// 3. For each `s_j`, the distribution nearest to the data with mean `s_j` is
///    `p_i(s_j) = p^_i / (1 + theta_j (a_i - s_j))`, `theta_j` the root of the secular
///    equation (bisection, see `secular_theta`).
/// 4. `LLR = N * sum_i p^_i ln(p_i(s1) / p_i(s0))
///         = N * sum_i p^_i (ln(1 + theta_0 u0_i) - ln(1 + theta_1 u1_i))`
///    with `uj_i = a_i - s_j`.
///
/// fishtest's live page uses a Brownian approximation of this quantity (`LLR_drift_variance_alt2`,
/// see [`llr_approx`]); the exact MLE form here agrees with it closely for small Elo bounds.
///
/// Degenerate inputs: no pairs gives `0.0` (no evidence); hypothesis scores are clamped into
/// (0, 1) so extreme Elo bounds give a large finite LLR; a NaN bound gives `0.0`. Never NaN.
pub fn llr(penta: &Penta, params: &SprtParams) -> f64 {
    if penta.pairs() == 0 || params.elo0.is_nan() || params.elo1.is_nan() {
        return 0.0;
    }
    let (n, p) = regularized_pdf(penta);
    let (s0, s1) = hypothesis_scores(&p, params);
    let theta0 = secular_theta(&p, s0);
    let theta1 = secular_theta(&p, s1);
    let per_pair: f64 = PAIR_SCORES
        .iter()
        .zip(&p)
        .map(|(a, pi)| pi * ((theta0 * (a - s0)).ln_1p() - (theta1 * (a - s1)).ln_1p()))
        .sum();
    let value = n * per_pair;
    if value.is_nan() {
        0.0
    } else {
        value
    }
}

/// Quick approximation of the LLR (fishtest `LLRcalc.LLR_alt2`, M. Van den Bergh,
/// "GSPRT_approximation.pdf"): `LLR ~ N (s1 - s0) (2 s^ - s0 - s1) / (2 var)` over the
/// regularized pentanomial. Used by fishtest's live SPRT and as a sanity check of [`llr`].
/// Returns `0.0` without pairs.
pub fn llr_approx(penta: &Penta, params: &SprtParams) -> f64 {
    if penta.pairs() == 0 || params.elo0.is_nan() || params.elo1.is_nan() {
        return 0.0;
    }
    let (n, p) = regularized_pdf(penta);
    let Some((_, s, var)) = moments(&PAIR_SCORES, &p) else {
        return 0.0;
    };
    let (s0, s1) = hypothesis_scores(&p, params);
    // var > 0: both end cells carry at least the regularization count.
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// LLR, bounds and verdict in one call.
pub fn sprt_status(penta: &Penta, params: &SprtParams) -> SprtStatus {
    let llr = llr(penta, params);
    SprtStatus {
        llr,
        lower: params.lower_bound(),
        upper: params.upper_bound(),
        verdict: params.verdict(llr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Regression: a shut-out's infinite Elo was written as `null` and the gate report could
    /// not read its own gate.json back.
    #[test]
    fn infinite_estimates_survive_json() {
        let e = Estimate {
            value: f64::INFINITY,
            lower: 312.5,
            upper: f64::INFINITY,
        };
        let text = serde_json::to_string(&e).expect("serializes");
        assert_eq!(text, r#"{"value":"inf","lower":312.5,"upper":"inf"}"#);
        assert_eq!(serde_json::from_str::<Estimate>(&text).expect("reads"), e);
        let low = Estimate {
            value: f64::NEG_INFINITY,
            lower: f64::NEG_INFINITY,
            upper: -300.0,
        };
        let back: Estimate =
            serde_json::from_str(&serde_json::to_string(&low).expect("ser")).expect("reads");
        assert_eq!(back, low);
        // Files written before: null reads as NaN, not an error.
        let old: Estimate =
            serde_json::from_str(r#"{"value":100.0,"lower":50.0,"upper":null}"#).expect("reads");
        assert!(old.upper.is_nan() && old.value == 100.0);
        assert!(
            serde_json::from_str::<Estimate>(r#"{"value":"big","lower":1,"upper":2}"#).is_err()
        );
    }

    /// SplitMix64: a tiny deterministic generator for simulated matches (no dependency).
    struct SplitMix(u64);

    impl SplitMix {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn uniform(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// One game with win and draw probabilities for engine A.
    fn game(rng: &mut SplitMix, win: f64, draw: f64) -> Outcome {
        let u = rng.uniform();
        if u < win {
            Outcome::Win
        } else if u < win + draw {
            Outcome::Draw
        } else {
            Outcome::Loss
        }
    }

    #[test]
    fn elo_known_values() {
        assert_eq!(elo(0.5), 0.0);
        assert!(close(elo(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo(0.25), -190.848_501_887_865, 1e-9));
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(elo(1.5), f64::INFINITY, "clamped into [0, 1]");
        for e in [-600.0, -35.5, 0.0, 5.0, 190.0, 800.0] {
            assert!(close(elo(score_from_elo(e)), e, 1e-9), "round trip {e}");
        }
        assert!(close(NELO_DIVIDED_BY_NT, 347.435_585_522_601_46, 1e-9));
    }

    #[test]
    fn erf_known_values() {
        let cases = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.4999, 0.999_592_830_099_666_5),
            (5.9, 1.0),
            (2.5, 0.999_593_047_982_555),
            (3.0, 0.999_977_909_503_001_4),
            (4.0, 0.999_999_984_582_742_1),
            (7.0, 1.0),
        ];
        for (x, want) in cases {
            assert!(close(erf(x), want, 1e-12), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -want, 1e-12), "erf(-{x})");
        }
        assert!(erf(f64::NAN).is_nan());
        assert_eq!(erf(f64::INFINITY), 1.0);
    }

    #[test]
    fn penta_add_pair_and_merge() {
        let mut p = Penta::default();
        p.add_pair(Outcome::Loss, Outcome::Loss);
        p.add_pair(Outcome::Draw, Outcome::Loss);
        p.add_pair(Outcome::Win, Outcome::Loss);
        p.add_pair(Outcome::Loss, Outcome::Win);
        p.add_pair(Outcome::Draw, Outcome::Draw);
        p.add_pair(Outcome::Win, Outcome::Draw);
        p.add_pair(Outcome::Win, Outcome::Win);
        assert_eq!(p.counts, [1, 1, 3, 1, 1]);
        assert_eq!(p.pairs(), 7);
        assert_eq!(p.games(), 14);
        let q = Penta::new([0, 2, 0, 0, 5]);
        assert_eq!((p + q).counts, [1, 3, 3, 1, 6]);
        let mut r = p;
        r += q;
        assert_eq!(r, p + q);
        assert_eq!([p, q].into_iter().sum::<Penta>(), p + q);
        assert_eq!(q.flipped().counts, [5, 0, 0, 2, 0]);
        assert_eq!(p.to_string(), "[1, 1, 3, 1, 1]");
        // Saturating instead of overflowing.
        let mut big = Penta::new([u64::MAX, 0, 0, 0, 0]);
        big += Penta::new([1, 0, 0, 0, 0]);
        assert_eq!(big.counts[0], u64::MAX);
        assert_eq!(big.pairs(), u64::MAX);
    }

    #[test]
    fn serde_forms() {
        let p = Penta::new([1, 2, 3, 4, 5]);
        let json = serde_json::to_string(&p).expect("serialize penta");
        assert_eq!(json, "[1,2,3,4,5]", "same shape as fishtest's pentanomial");
        assert_eq!(serde_json::from_str::<Penta>(&json).ok(), Some(p));
        let w = Wdl::new(3, 2, 1);
        let json = serde_json::to_string(&w).expect("serialize wdl");
        assert_eq!(serde_json::from_str::<Wdl>(&json).ok(), Some(w));
        let params = SprtParams::new(0.0, 2.0, EloModel::Normalized);
        let json = serde_json::to_string(&params).expect("serialize params");
        assert!(json.contains("\"normalized\""), "{json}");
        assert_eq!(serde_json::from_str::<SprtParams>(&json).ok(), Some(params));
    }

    #[test]
    fn penta_known_moments_and_intervals() {
        let p = Penta::new([100, 400, 1000, 420, 110]);
        let n = 2030.0;
        let s = 1025.0 / n;
        let var = 0.051_084_107_840_520_275;
        assert!(close(p.score().unwrap_or(f64::NAN), s, 1e-15));
        assert!(close(p.variance().unwrap_or(f64::NAN), var, 1e-15));

        let se = (var / n).sqrt();
        let score = p.score_estimate().expect("has pairs");
        assert!(close(score.value, s, 1e-15));
        assert!(close(score.lower, s - Z_95 * se, 1e-12));
        assert!(close(score.upper, s + Z_95 * se, 1e-12));
        assert!(close(score.half_width(), Z_95 * se, 1e-12));

        let e = p.elo_estimate().expect("has pairs");
        assert!(close(e.value, elo(s), 1e-9));
        assert!(close(e.lower, elo(s - Z_95 * se), 1e-9));
        assert!(close(e.upper, elo(s + Z_95 * se), 1e-9));
        assert!(e.lower < e.value && e.value < e.upper);
        // About +3.4 Elo +- 8.6.
        assert!(close(e.value, 3.4225, 1e-3), "{}", e.value);

        let ne = p.nelo_estimate().expect("has variance");
        let want = (s - 0.5) / (2.0 * var).sqrt() * NELO_DIVIDED_BY_NT;
        assert!(close(ne.value, want, 1e-9));
        assert!(close(
            ne.half_width(),
            Z_95 * NELO_DIVIDED_BY_NT / (2.0 * n).sqrt(),
            1e-9
        ));

        let los = p.los().expect("has pairs");
        let want = 0.5 * (1.0 + erf((s - 0.5) / (2.0 * var / n).sqrt()));
        assert!(close(los, want, 1e-15));
        assert!(los > 0.5 && los < 1.0);
        assert!(close(
            p.even_pair_ratio().unwrap_or(f64::NAN),
            1000.0 / n,
            1e-15
        ));
    }

    #[test]
    fn los_is_half_for_symmetric_results_and_complements_when_flipped() {
        assert_eq!(Penta::new([10, 20, 40, 20, 10]).los(), Some(0.5));
        assert_eq!(Wdl::new(25, 50, 25).los(), Some(0.5));
        for p in [Penta::new([3, 9, 30, 12, 5]), Penta::new([7, 1, 0, 2, 9])] {
            let a = p.los().unwrap_or(f64::NAN);
            let b = p.flipped().los().unwrap_or(f64::NAN);
            assert!(close(a + b, 1.0, 1e-12), "{a} + {b}");
            let ea = p.elo_estimate().expect("pairs");
            let eb = p.flipped().elo_estimate().expect("pairs");
            assert!(close(ea.value, -eb.value, 1e-9));
            assert!(close(ea.lower, -eb.upper, 1e-9));
        }
        assert!(Penta::new([1, 10, 100, 300, 500]).los().unwrap_or(0.0) > 0.999_999);
    }

    #[test]
    fn degenerate_inputs_give_documented_values() {
        let empty = Penta::default();
        assert_eq!(empty.pairs(), 0);
        assert_eq!(empty.score(), None);
        assert_eq!(empty.variance(), None);
        assert_eq!(empty.score_estimate(), None);
        assert_eq!(empty.elo_estimate(), None);
        assert_eq!(empty.nelo_estimate(), None);
        assert_eq!(empty.los(), None);
        assert_eq!(empty.even_pair_ratio(), None);
        let w = Wdl::default();
        assert_eq!(w.score(), None);
        assert_eq!(w.elo_estimate(), None);
        assert_eq!(w.nelo_estimate(), None);
        assert_eq!(w.los(), None);
        assert_eq!(w.draw_ratio(), None);

        let all_wins = Penta::new([0, 0, 0, 0, 12]);
        assert_eq!(all_wins.score(), Some(1.0));
        assert_eq!(all_wins.variance(), Some(0.0));
        let e = all_wins.elo_estimate().expect("pairs");
        assert_eq!(
            (e.lower, e.value, e.upper),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        assert_eq!(all_wins.nelo_estimate(), None);
        assert_eq!(all_wins.los(), Some(1.0));

        let all_losses = all_wins.flipped();
        let e = all_losses.elo_estimate().expect("pairs");
        assert_eq!(e.value, f64::NEG_INFINITY);
        assert_eq!(all_losses.los(), Some(0.0));
        assert_eq!(Wdl::new(0, 0, 4).los(), Some(0.0));
        assert_eq!(
            Wdl::new(4, 0, 0).elo_estimate().map(|e| e.value),
            Some(f64::INFINITY)
        );

        let all_even = Penta::new([0, 0, 9, 0, 0]);
        let e = all_even.elo_estimate().expect("pairs");
        assert_eq!((e.lower, e.value, e.upper), (0.0, 0.0, 0.0));
        assert_eq!(all_even.nelo_estimate(), None);
        assert_eq!(all_even.los(), Some(0.5));

        // One single pair, near-perfect: the interval is clamped into [0, 1] before elo().
        let few = Penta::new([0, 0, 0, 1, 1]);
        let s = few.score_estimate().expect("pairs");
        assert_eq!(s.upper, 1.0);
        assert_eq!(few.elo_estimate().map(|e| e.upper), Some(f64::INFINITY));

        for p in [empty, all_wins, all_losses, all_even, few] {
            for params in [
                SprtParams::new(0.0, 5.0, EloModel::Logistic),
                SprtParams::new(0.0, 2.0, EloModel::Normalized),
                SprtParams::new(-3000.0, 3000.0, EloModel::Logistic),
                SprtParams::new(-1e6, 1e6, EloModel::Normalized),
            ] {
                let l = llr(&p, &params);
                assert!(l.is_finite(), "{p} {params:?}: {l}");
                assert!(llr_approx(&p, &params).is_finite());
                assert!(!sprt_status(&p, &params).llr.is_nan());
            }
            for e in [p.score_estimate(), p.elo_estimate(), p.nelo_estimate()]
                .into_iter()
                .flatten()
            {
                assert!(!e.value.is_nan() && !e.lower.is_nan() && !e.upper.is_nan());
            }
        }
        assert_eq!(
            llr(&empty, &SprtParams::new(0.0, 5.0, EloModel::Logistic)),
            0.0
        );
        let nan = SprtParams::new(f64::NAN, 5.0, EloModel::Logistic);
        assert_eq!(llr(&all_wins, &nan), 0.0);
    }

    #[test]
    fn wdl_known_values() {
        let mut w = Wdl::default();
        for _ in 0..30 {
            w.add_game(Outcome::Win);
            w.add_game(Outcome::Loss);
        }
        for _ in 0..40 {
            w.add_game(Outcome::Draw);
        }
        assert_eq!(w, Wdl::new(30, 40, 30));
        assert_eq!(w.games(), 100);
        assert_eq!(w.score(), Some(0.5));
        assert!(close(w.variance().unwrap_or(f64::NAN), 0.15, 1e-15));
        assert_eq!(w.draw_ratio(), Some(0.4));
        assert_eq!(w.to_string(), "30-40-30");
        assert_eq!(w + Wdl::new(1, 0, 0), Wdl::new(31, 40, 30));
        assert_eq!([w, w].into_iter().sum::<Wdl>(), Wdl::new(60, 80, 60));
        assert_eq!(w.flipped(), w);

        // Trinomial nElo uses the per-game sigma sqrt(var).
        let w = Wdl::new(40, 35, 25);
        let (s, var) = (0.575, 0.4 * 0.25 + 0.35 * 0.0 + 0.25 * 0.25 - 0.075 * 0.075);
        assert!(close(w.variance().unwrap_or(f64::NAN), var, 1e-12));
        let ne = w.nelo_estimate().expect("variance");
        assert!(close(
            ne.value,
            (s - 0.5) / var.sqrt() * NELO_DIVIDED_BY_NT,
            1e-9
        ));
        // LOS close to the classic (W - L) / sqrt(2 (W + L)) form.
        let classic = 0.5 * (1.0 + erf(15.0 / (2.0f64 * 65.0).sqrt()));
        assert!(close(w.los().unwrap_or(f64::NAN), classic, 0.01));
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        let p = SprtParams::new(0.0, 5.0, EloModel::Logistic);
        assert!(close(p.upper_bound(), 2.944_438_979_166_440_4, 1e-12));
        assert!(close(p.lower_bound(), -2.944_438_979_166_440_4, 1e-12));
        assert_eq!(p.verdict(0.0), SprtVerdict::Continue);
        assert_eq!(p.verdict(p.upper_bound()), SprtVerdict::AcceptH1);
        assert_eq!(p.verdict(p.lower_bound()), SprtVerdict::AcceptH0);
        assert_eq!(p.verdict(10.0), SprtVerdict::AcceptH1);
        assert_eq!(p.verdict(-10.0), SprtVerdict::AcceptH0);
        assert_eq!(p.verdict(f64::NAN), SprtVerdict::Continue);
        let q = SprtParams {
            alpha: 0.05,
            beta: 0.1,
            ..p
        };
        assert!(close(q.lower_bound(), (0.1f64 / 0.95).ln(), 1e-15));
        assert!(close(q.upper_bound(), (0.9f64 / 0.05).ln(), 1e-15));
    }

    /// Reference LLRs computed independently with mpmath (40 digits, Anderson root finder) from
    /// the fishtest formulas.
    #[test]
    fn llr_matches_independent_reference() {
        use EloModel::{Logistic, Normalized};
        let cases: [([u64; 5], f64, f64, EloModel, f64); 6] = [
            (
                [100, 400, 1000, 420, 110],
                0.0,
                5.0,
                Logistic,
                0.379_756_916_865_218_6,
            ),
            (
                [100, 400, 1000, 420, 110],
                0.0,
                2.0,
                Normalized,
                0.292_821_049_275_910_5,
            ),
            (
                [20, 150, 400, 250, 80],
                0.0,
                5.0,
                Logistic,
                6.839_650_843_536_347,
            ),
            (
                [0, 0, 0, 0, 10],
                0.0,
                5.0,
                Logistic,
                0.142_904_432_544_158_05,
            ),
            (
                [3, 0, 7, 0, 0],
                -3.0,
                1.0,
                Logistic,
                -0.114_754_473_343_038_72,
            ),
            (
                [1, 60, 500, 1200, 600],
                0.0,
                2.0,
                Normalized,
                7.241_191_383_015_619,
            ),
        ];
        for (counts, elo0, elo1, model, want) in cases {
            let got = llr(&Penta::new(counts), &SprtParams::new(elo0, elo1, model));
            assert!(
                close(got, want, 1e-9),
                "{counts:?} [{elo0},{elo1}] {model}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn llr_agrees_with_quick_approximation_on_moderate_samples() {
        for (counts, model, e0, e1) in [
            ([100, 400, 1000, 420, 110], EloModel::Logistic, 0.0, 5.0),
            ([100, 400, 1000, 420, 110], EloModel::Normalized, 0.0, 2.0),
            ([310, 1200, 3000, 1180, 300], EloModel::Logistic, -5.0, 0.0),
            ([900, 4000, 10000, 4100, 950], EloModel::Logistic, 0.0, 2.0),
            ([40, 160, 390, 180, 45], EloModel::Logistic, -2.0, 3.0),
        ] {
            let p = Penta::new(counts);
            let params = SprtParams::new(e0, e1, model);
            let exact = llr(&p, &params);
            let approx = llr_approx(&p, &params);
            assert!(
                close(exact, approx, 0.02 * approx.abs().max(0.1)),
                "{counts:?}: exact {exact} approx {approx}"
            );
        }
    }

    #[test]
    fn llr_is_antisymmetric_in_the_hypotheses_and_zero_when_equal() {
        let p = Penta::new([12, 80, 200, 90, 15]);
        let a = SprtParams::new(-2.0, 4.0, EloModel::Logistic);
        let b = SprtParams {
            elo0: 4.0,
            elo1: -2.0,
            ..a
        };
        assert!(close(llr(&p, &a), -llr(&p, &b), 1e-10));
        let same = SprtParams { elo1: -2.0, ..a };
        assert!(close(llr(&p, &same), 0.0, 1e-12));
    }

    #[test]
    fn mle_distribution_has_the_requested_mean() {
        let (_, p) = regularized_pdf(&Penta::new([5, 0, 30, 11, 2]));
        for s in [1e-9, 0.01, 0.3, 0.5, 0.61, 0.99, 1.0 - 1e-9] {
            let theta = secular_theta(&p, s);
            let q: Vec<f64> = PAIR_SCORES
                .iter()
                .zip(&p)
                .map(|(a, pi)| pi / (1.0 + theta * (a - s)))
                .collect();
            assert!(
                q.iter().all(|x| *x > 0.0 && x.is_finite()),
                "s = {s}: {q:?}"
            );
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().zip(PAIR_SCORES).map(|(x, a)| x * a).sum();
            assert!(close(total, 1.0, 1e-9), "s = {s}: total {total}");
            assert!(close(mean, s, 1e-9), "s = {s}: mean {mean}");
        }
    }

    #[test]
    fn strong_results_cross_the_bounds() {
        let winning = Penta::new([20, 150, 400, 250, 80]);
        let losing = winning.flipped();
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let params = SprtParams::new(0.0, 5.0, model);
            let up = sprt_status(&winning, &params);
            assert!(up.llr > up.upper, "{model}: {up:?}");
            assert_eq!(up.verdict, SprtVerdict::AcceptH1);
            let down = sprt_status(&losing, &params);
            assert!(down.llr < down.lower, "{model}: {down:?}");
            assert_eq!(down.verdict, SprtVerdict::AcceptH0);
        }
        // Even results sit between the bounds for a small sample.
        let even = Penta::new([5, 20, 50, 20, 5]);
        assert_eq!(
            sprt_status(&even, &SprtParams::new(0.0, 5.0, EloModel::Logistic)).verdict,
            SprtVerdict::Continue
        );
    }

    /// Runs simulated SPRTs [0, 5] with ~40% draws; returns how many passed out of `runs`.
    fn simulated_passes(true_elo: f64, runs: u64) -> u64 {
        let params = SprtParams::new(0.0, 5.0, EloModel::Logistic);
        let draw = 0.4;
        let win = score_from_elo(true_elo) - draw / 2.0;
        let mut passes = 0;
        for run in 0..runs {
            let mut rng = SplitMix(0xC0FFEE ^ (run << 20) ^ true_elo.to_bits());
            let mut penta = Penta::default();
            let verdict = loop {
                for _ in 0..20 {
                    let a = game(&mut rng, win, draw);
                    let b = game(&mut rng, win, draw);
                    penta.add_pair(a, b);
                }
                let v = params.verdict(llr(&penta, &params));
                if v != SprtVerdict::Continue || penta.pairs() > 400_000 {
                    break v;
                }
            };
            passes += u64::from(verdict == SprtVerdict::AcceptH1);
        }
        passes
    }

    #[test]
    fn simulated_sprt_makes_the_right_call() {
        // Beyond the bounds, the error rates are below alpha = beta = 5%.
        assert!(simulated_passes(15.0, 20) >= 18);
        assert!(simulated_passes(-10.0, 20) <= 2);
    }

    #[test]
    fn parse_sprt_strings() {
        let p: SprtParams = "0,5".parse().expect("valid");
        assert_eq!(p, SprtParams::new(0.0, 5.0, EloModel::Logistic));
        let p =
            SprtParams::parse(" -1.75 , 0.25 , 0.05, 0.1 ", EloModel::Normalized).expect("valid");
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (-1.75, 0.25, 0.05, 0.1));
        assert_eq!(p.model, EloModel::Normalized);
        assert_eq!(SprtParams::parse(&p.to_string(), p.model), Ok(p));

        let err = |s: &str| SprtParams::parse(s, EloModel::Logistic).err();
        assert_eq!(err(""), Some(SprtParamError::PartCount(1)));
        assert_eq!(err("0"), Some(SprtParamError::PartCount(1)));
        assert_eq!(err("0,5,0.05"), Some(SprtParamError::PartCount(3)));
        assert_eq!(err("0,5,0.05,0.05,1"), Some(SprtParamError::PartCount(5)));
        assert_eq!(
            err("0,x"),
            Some(SprtParamError::NotANumber {
                name: "elo1",
                text: "x".into()
            })
        );
        assert_eq!(
            err("0,5,,0.05"),
            Some(SprtParamError::NotANumber {
                name: "alpha",
                text: String::new()
            })
        );
        assert!(matches!(
            err("nan,5"),
            Some(SprtParamError::NotFinite { name: "elo0", .. })
        ));
        assert!(matches!(
            err("0,inf"),
            Some(SprtParamError::NotFinite { name: "elo1", .. })
        ));
        assert!(matches!(
            err("0,5,0,0.05"),
            Some(SprtParamError::ProbabilityOutOfRange { name: "alpha", .. })
        ));
        assert!(matches!(
            err("0,5,0.05,1"),
            Some(SprtParamError::ProbabilityOutOfRange { name: "beta", .. })
        ));
        assert!(matches!(
            err("0,5,0.6,0.5"),
            Some(SprtParamError::ErrorRatesTooLarge { .. })
        ));
        assert!(matches!(err("5,0"), Some(SprtParamError::EloOrder { .. })));
        assert!(matches!(err("2,2"), Some(SprtParamError::EloOrder { .. })));
        // Messages name the bad part.
        let msg = err("0,abc").map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("elo1") && msg.contains("abc"), "{msg}");
        let msg = err("0,5,0.05,2").map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("beta"), "{msg}");
    }

    #[test]
    fn outcome_helpers() {
        assert_eq!(Outcome::Win.half_points(), 2);
        assert_eq!(Outcome::Draw.half_points(), 1);
        assert_eq!(Outcome::Loss.half_points(), 0);
        assert_eq!(Outcome::Win.flipped(), Outcome::Loss);
        assert_eq!(Outcome::Draw.flipped(), Outcome::Draw);
    }
}
