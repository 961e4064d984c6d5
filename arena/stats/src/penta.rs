//! Pentanomial counts of game pairs and the statistics over pairs.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use crate::elo::elo;
use crate::estimate::{los, moments, nelo_estimate, score_estimate, Estimate};
use crate::outcome::Outcome;

/// The five possible pair scores of engine A, indexed like [`Penta::counts`]:
/// LL, LD, WL or DD, WD, WW.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::NELO_DIVIDED_BY_NT;
    use crate::normal::{erf, Z_95};
    use crate::wdl::Wdl;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
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
}
