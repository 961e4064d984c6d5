//! The generalized pentanomial SPRT: the log-likelihood ratio of two Elo hypotheses over the
//! pair counts, exact (fishtest's MLE) and approximate, and the test's state after some pairs.

pub mod params;

use serde::{Deserialize, Serialize};

use crate::elo::{score_from_elo, EloModel, NELO_DIVIDED_BY_NT};
use crate::estimate::moments;
use crate::penta::{Penta, PAIR_SCORES};
use params::{SprtParams, SprtVerdict};

/// Count given to empty cells before the SPRT normalises the counts (fishtest
/// `LLRcalc.regularize`): keeps every cell probability positive so the MLE exists.
pub const EMPTY_CELL_COUNT: f64 = 1e-3;

/// Smallest distance a hypothesis score keeps from 0 and 1 inside [`llr`]: a score outside
/// (0, 1) is impossible and would make the likelihood zero.
const SCORE_MARGIN: f64 = 1e-12;

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
    use crate::outcome::Outcome;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
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
}
