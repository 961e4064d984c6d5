//! The `adam` schedule: SPSA's gradient estimate, fed to Adam (Kingma and Ba, 2015) with steps
//! measured in each parameter's range.
//!
//! fishtest's update moves `theta_i` by `a_k (W - L) delta_i / c_k`: the step grows with the
//! batch's result, so how far a tune carries a parameter depends on how decisive its games
//! are (draw rate, pairs per iteration, time control) and on `r_end`, which has to be fitted
//! to the budget by hand (fishtest's 0.002 is meant for tens of thousands of games; a tune of
//! a few hundred pairs stops a long way short of an optimum far from its start). Here the same
//! estimate `g_i = (W - L) delta_i / c_k` goes through Adam's moments,
//!
//! ```text
//! m_i <- beta1 m_i + (1 - beta1) g_i        v_i <- beta2 v_i + (1 - beta2) g_i^2
//! theta_i <- clip(theta_i + eta_k m_i' / sqrt(v_i'))   (m', v': bias-corrected)
//! ```
//!
//! so a step is `eta_k` times the share of the recent results that agree on a direction: about
//! `eta_k` when the games keep pointing one way (far from the optimum), near 0 when they
//! disagree (near it), whatever the size of a batch's result. `eta_k` decays as fishtest's
//! `a_k` does, `eta_k = eta / (A + k)^alpha`, with `eta` chosen so that the planned iterations'
//! steps add up to `travel` times the tuned range `max - min`: a tune of any budget can carry a
//! parameter across its range. How far a tune can reach and how precisely it ends pull
//! against each other on a small budget: steps in random directions (games that agree on
//! nothing, as near the optimum) scatter a parameter by `sqrt(sum eta_k^2)`. The default
//! `travel` keeps that scatter at a sixth of the range ([`travel_for_spread`]; 1.54 ranges
//! for 100 iterations), which is safe from a good start; a start known to be far from the
//! optimum asks for more (the example spec's `travel = 3`: results far from the optimum agree
//! only partly, the mean of `m' / sqrt(v')` being about 0.3 to 0.5 there, see the README).
//! The schedule is the fishtest-lab "adam" variant (Adam's own beta1 0.9, beta2 0.999) with an
//! explicit step schedule instead of a schedule-free one.

use serde::{Deserialize, Serialize};

use super::{Perturbation, Schedule, Spsa, SpsaError, SpsaParam};

/// Adam's first-moment decay (Kingma and Ba's default).
pub const BETA1: f64 = 0.9;
/// Adam's second-moment decay (Kingma and Ba's default).
pub const BETA2: f64 = 0.999;
/// `travel` of a parameter built without a budget ([`SpsaParam::new`], and tune folders
/// written before adam, whose fishtest schedule does not use it). A spec's default is
/// [`travel_for_spread`] of [`DEFAULT_SPREAD`].
pub const DEFAULT_TRAVEL: f64 = 3.0;
/// Default spread: a spec's `travel` is chosen so that steps in random directions (games that
/// agree on nothing) would scatter a parameter by a sixth of its range over the tune. (A third
/// made a 30-iteration tune from the defaults lose 66 Elo; a sixth did not, see the README.)
pub const DEFAULT_SPREAD: f64 = 1.0 / 6.0;

/// The serde default of [`SpsaParam::travel`] (tune folders written before it existed).
pub(crate) fn default_travel() -> f64 {
    DEFAULT_TRAVEL
}

/// How a step is computed from an iteration's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// fishtest / OpenBench: `theta += a_k (W - L) delta / c_k`, gains from `c_end`, `r_end`.
    Fishtest,
    /// Adam on the same gradient estimate, steps from `travel` (this module).
    Adam,
}

impl Method {
    /// The method of a tune folder written before there was a choice.
    pub(crate) fn legacy() -> Method {
        Method::Fishtest
    }

    /// The spec's name of the method.
    pub fn name(self) -> &'static str {
        match self {
            Method::Fishtest => "fishtest",
            Method::Adam => "adam",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Adam's moments, one per parameter, and the number of steps they have seen; part of the
/// tune's checkpoint. Empty for a fishtest tune (and in checkpoints written before Adam).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Steps applied so far (Adam's `t`, for the bias correction).
    pub steps: u64,
    /// First moments (running means of the gradient estimates).
    pub m: Vec<f64>,
    /// Second moments (running means of their squares).
    pub v: Vec<f64>,
}

impl Moments {
    /// No step seen yet.
    pub fn is_empty(&self) -> bool {
        self.steps == 0 && self.m.is_empty() && self.v.is_empty()
    }

    /// Whether these are the moments of a tune of `method` over `params` parameters after
    /// `steps` steps (a checkpoint's consistency check): none for fishtest's or before the
    /// first step, else one finite pair per parameter, `v >= 0`, seen by every step.
    pub fn fit(&self, method: Method, steps: u64, params: usize) -> bool {
        match method {
            Method::Fishtest => self.is_empty(),
            Method::Adam if steps == 0 => self.is_empty(),
            Method::Adam => {
                self.steps == steps
                    && self.m.len() == params
                    && self.v.len() == params
                    && self.m.iter().all(|x| x.is_finite())
                    && self.v.iter().all(|x| x.is_finite() && *x >= 0.0)
            }
        }
    }
}

/// Sum of the planned step weights `(A + k)^-alpha`, `k = 1..=N`, raised to `power`.
fn weight_sum_pow(s: &Schedule, power: f64) -> f64 {
    (1..=s.iterations.max(1))
        .map(|k| (s.big_a + k as f64).powf(-s.alpha * power))
        .sum()
}

fn weight_sum(s: &Schedule) -> f64 {
    weight_sum_pow(s, 1.0)
}

/// The `travel` whose steps, taken in independent random directions, would scatter a
/// parameter by `spread` ranges (`sqrt(sum eta_k^2) = spread (max - min)`): consistent
/// results then carry it `travel` ranges, noise alone about `spread`. Both cannot be had at
/// once on a small budget; this keeps the noise's share fixed and lets the distance a tune
/// can cover grow with the square root of its iterations (for a spread of a third: 1.7
/// ranges for 30, 3.08 for 100, 9.7 for 1000; the default spread is half that).
pub fn travel_for_spread(s: &Schedule, spread: f64) -> f64 {
    spread * weight_sum(s) / weight_sum_pow(s, 2.0).sqrt()
}

/// Step size of iteration `k`, in the parameter's units: `travel (max - min)` shared out over
/// the planned iterations in proportion to `(A + k)^-alpha`.
pub(crate) fn eta_k(s: &Schedule, param: &SpsaParam, k: u64) -> f64 {
    let weight = (s.big_a + k.max(1) as f64).powf(-s.alpha);
    param.travel * (param.max - param.min) * weight / weight_sum(s)
}

/// The Adam step after engine+ scored `wins` and `losses` with `pert`: updates `moments` and
/// returns the new theta. `pert.a_k` holds each parameter's `eta_k`.
pub(crate) fn step(
    params: &[SpsaParam],
    theta: &[f64],
    moments: &mut Moments,
    pert: &Perturbation,
    wins: u64,
    losses: u64,
) -> Result<Vec<f64>, SpsaError> {
    let n = params.len();
    if moments.is_empty() {
        moments.m = vec![0.0; n];
        moments.v = vec![0.0; n];
    }
    for got in [moments.m.len(), moments.v.len()] {
        if got != n {
            return Err(SpsaError::LengthMismatch { expected: n, got });
        }
    }
    let result = wins as f64 - losses as f64;
    moments.steps += 1;
    // powi takes an i32; past 2^31 steps both corrections are 1 to double precision anyway.
    let t = i32::try_from(moments.steps).unwrap_or(i32::MAX);
    let (bias1, bias2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
    Ok(params
        .iter()
        .enumerate()
        .map(|(i, param)| {
            let g = result * f64::from(pert.delta[i]) / pert.c_k[i];
            moments.m[i] = BETA1 * moments.m[i] + (1.0 - BETA1) * g;
            moments.v[i] = BETA2 * moments.v[i] + (1.0 - BETA2) * g * g;
            let (m, v) = (moments.m[i] / bias1, moments.v[i] / bias2);
            // Before the first decisive batch v is 0 (and so is m): no step.
            let step = if v > 0.0 {
                pert.a_k[i] * m / v.sqrt()
            } else {
                0.0
            };
            param.clip(theta[i] + step)
        })
        .collect())
}

impl Schedule {
    /// The gain the schedule takes besides `c_end`, by name: fishtest's `r_end`, adam's
    /// `travel`.
    pub fn gain(&self, param: &SpsaParam) -> (&'static str, f64) {
        match self.method {
            Method::Fishtest => ("r_end", param.r_end),
            Method::Adam => ("travel", param.travel),
        }
    }

    /// The largest move of the first iteration, with `pairs` pairs an iteration: fishtest's
    /// `a_1 * 2 pairs / c_1` (every game won), adam's `eta_1` (its first step is exactly that).
    pub fn first_step(&self, param: &SpsaParam, pairs: u64) -> f64 {
        match self.method {
            Method::Fishtest => self.a_k(param, 1) * 2.0 * pairs as f64 / self.c_k(param, 1),
            Method::Adam => self.a_k(param, 1),
        }
    }
}

impl Spsa {
    /// The step of the tune's schedule: [`Spsa::update`] under fishtest's, this module's
    /// under [`Method::Adam`] (which also advances `moments`, the checkpoint's Adam state).
    pub fn step(
        &self,
        theta: &[f64],
        moments: &mut Moments,
        perturbation: &Perturbation,
        wins_plus: u64,
        losses_plus: u64,
    ) -> Result<Vec<f64>, SpsaError> {
        match self.schedule.method {
            Method::Fishtest => self.update(theta, perturbation, wins_plus, losses_plus),
            Method::Adam => {
                self.check_update_lengths(theta, perturbation)?;
                step(
                    &self.params,
                    theta,
                    moments,
                    perturbation,
                    wins_plus,
                    losses_plus,
                )
            }
        }
    }

    pub(super) fn check_update_lengths(
        &self,
        theta: &[f64],
        p: &Perturbation,
    ) -> Result<(), SpsaError> {
        self.check_len(theta.len())?;
        for len in [p.delta.len(), p.c_k.len(), p.a_k.len()] {
            self.check_len(len)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{fake_games, perturbation_rng, Spsa, DEFAULT_R_END};
    use super::*;

    fn param(name: &str, start: f64) -> SpsaParam {
        SpsaParam::new(name, start, 0.0, 100.0, true)
    }

    #[test]
    fn steps_add_up_to_travel_times_the_range() {
        for n in [1, 7, 100, 5000] {
            let s = Schedule::with_method(n, Method::Adam);
            let p = param("x", 50.0);
            let total: f64 = (1..=n).map(|k| eta_k(&s, &p, k)).sum();
            assert!(
                (total - DEFAULT_TRAVEL * 100.0).abs() < 1e-9,
                "{n}: {total}"
            );
            if n > 1 {
                assert!(eta_k(&s, &p, 1) > eta_k(&s, &p, n));
            }
        }
        // The perturbation's a_k is eta_k under adam.
        let spsa = Spsa::with_method(vec![param("x", 50.0)], 100, 1, Method::Adam).expect("ok");
        let pert = spsa.perturb(&[50.0], 3).expect("ok");
        assert_eq!(pert.a_k[0], eta_k(&spsa.schedule, &spsa.params[0], 3));
    }

    #[test]
    fn default_travel_keeps_the_noise_spread() {
        for (n, travel) in [(30, 1.698), (100, 3.080), (1000, 9.716)] {
            let s = Schedule::with_method(n, Method::Adam);
            let t = travel_for_spread(&s, 1.0 / 3.0);
            let default = travel_for_spread(&s, DEFAULT_SPREAD);
            assert!((default - t * 3.0 * DEFAULT_SPREAD).abs() < 1e-12);
            assert!((t - travel).abs() < 0.001, "{n}: {t}");
            let p = SpsaParam {
                travel: t,
                ..param("x", 50.0)
            };
            let spread = (1..=n)
                .map(|k| eta_k(&s, &p, k).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((spread - 100.0 / 3.0).abs() < 1e-9, "{n}: {spread}");
        }
    }

    #[test]
    fn first_step_is_eta_and_agreeing_results_keep_it() {
        let spsa = Spsa::with_method(vec![param("x", 50.0)], 100, 1, Method::Adam).expect("ok");
        let mut moments = Moments::default();
        let theta = [50.0];
        let pert = spsa.perturb(&theta, 1).expect("ok");
        // Nothing decided: no step, but the step is counted.
        let same = spsa.step(&theta, &mut moments, &pert, 3, 3).expect("ok");
        assert_eq!(same, theta);
        assert_eq!(moments.steps, 1);
        let mut moments = Moments::default();
        let moved = spsa.step(&theta, &mut moments, &pert, 5, 2).expect("ok");
        let want = 50.0 + pert.a_k[0] * f64::from(pert.delta[0]);
        assert!((moved[0] - want).abs() < 1e-9, "{moved:?} {want}");
        // Whatever the size of the result: a step is eta times the agreement.
        let mut big = Moments::default();
        let moved_big = spsa.step(&theta, &mut big, &pert, 500, 200).expect("ok");
        assert!((moved_big[0] - moved[0]).abs() < 1e-9);
        // Results that flip sign every iteration hardly move it past its first step (while 40
        // agreeing ones would carry it a third of the way across the range).
        let mut flip = Moments::default();
        let mut x = vec![50.0];
        for k in 1..=40u64 {
            let p = spsa.perturb(&x, k).expect("ok");
            let (w, l) = if (k % 2 == 0) == (p.delta[0] > 0) {
                (3, 1)
            } else {
                (1, 3)
            };
            x = spsa.step(&x, &mut flip, &p, w, l).expect("ok");
        }
        let eta_1 = eta_k(&spsa.schedule, &spsa.params[0], 1);
        assert!((x[0] - 50.0).abs() < 2.0 * eta_1, "{x:?}, eta_1 {eta_1}");
        // A wrong-length state is an error, not a panic.
        let mut bad = Moments {
            steps: 1,
            m: vec![0.0; 2],
            v: vec![0.0; 2],
        };
        assert!(spsa.step(&theta, &mut bad, &pert, 1, 0).is_err());
    }

    /// A parameter far from its optimum, under a noisy match (the model of
    /// `spsa_converges_on_a_noisy_synthetic_match`, 16 games an iteration, 20% draws): the
    /// example tune's w_open_three (start 40, range 5..=400, optimum 268 here), 100 iterations.
    fn synthetic(method: Method, r_end: f64, seed: u64) -> f64 {
        let p = SpsaParam {
            r_end,
            ..SpsaParam::new("w", 40.0, 5.0, 400.0, true)
        };
        let spsa = Spsa::with_method(vec![p], 100, seed, method).expect("ok");
        // Strength peaking at 268, in units of a logistic's argument, as flat as the real
        // example's: at the start a batch's W - L averages about 2.5 of 16 games.
        let f = |x: f64| -((x - 268.0) / 300.0).powi(2);
        let mut games = perturbation_rng(seed ^ 0x5EED, 0);
        let mut theta = spsa.start_theta();
        let mut moments = Moments::default();
        for k in 1..=100 {
            let pert = spsa.perturb(&theta, k).expect("ok");
            let win = 1.0 / (1.0 + (-(f(pert.plus[0]) - f(pert.minus[0]))).exp());
            let (w, l) = fake_games(&mut games, 16, win);
            theta = spsa.step(&theta, &mut moments, &pert, w, l).expect("ok");
        }
        theta[0]
    }

    /// fishtest's default gains hardly move it, the example's old r_end = 0.02 falls short,
    /// adam's defaults get near the optimum; all deterministic.
    #[test]
    fn adam_covers_a_distance_fishtest_gains_do_not() {
        for seed in [1, 2, 3] {
            let default = synthetic(Method::Fishtest, DEFAULT_R_END, seed);
            let old = synthetic(Method::Fishtest, 0.02, seed);
            let new = synthetic(Method::Adam, DEFAULT_R_END, seed);
            eprintln!("seed {seed}: fishtest 0.002 {default}, 0.02 {old}, adam {new}");
            assert_eq!(new, synthetic(Method::Adam, DEFAULT_R_END, seed));
            assert!(default < 80.0, "seed {seed}: fishtest {default}");
            assert!(old < 160.0, "seed {seed}: fishtest r_end 0.02 {old}");
            assert!((new - 268.0).abs() < 80.0, "seed {seed}: adam {new}");
        }
    }
}
