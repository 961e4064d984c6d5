//! How pairs become a verdict: the SPRT with a pair budget and, once the budget is spent,
//! the interval rule ([`decide_pairs`], [`budget_verdict`], [`Decision`], [`Verdict`]).

use serde::{Deserialize, Serialize};

use wuzi_stats::{llr, Outcome, Penta, SprtParams, SprtVerdict};

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

#[cfg(test)]
mod tests {
    use super::super::config::{default_sprt, DEFAULT_PAIRS};
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
        let q = 0.5 + (wuzi_stats::score_from_elo(elo) - 0.5) / decisive;
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
}
