//! SPSA (simultaneous perturbation stochastic approximation) as used by fishtest
//! (`server/fishtest/spsa_handler.py`) and OpenBench (`spsa_utils.py`), following the
//! project's `spec/harness.md`.
//!
//! One iteration: draw a random sign `delta_i = +-1` per parameter, play engine+ with
//! `theta + c_k delta` against engine- with `theta - c_k delta` (a game pair, colours swapped),
//! then move `theta` by `a_k (W - L) delta / c_k`, with W and L counted from engine+'s side.
//!
//! Everything here is deterministic: the perturbation of iteration `k` depends only on the
//! tuner's seed, `k` and the current `theta` (see [`perturbation_rng`]), so a resumed tune
//! recomputes exactly the perturbation it would have played.
//!
//! Two schedules ([`Method`]): fishtest's update above, and [`adam`], the same gradient
//! estimate through Adam's moments with steps measured in each parameter's range.

pub mod adam;

use std::collections::HashSet;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use adam::{travel_for_spread, Method, Moments, DEFAULT_SPREAD, DEFAULT_TRAVEL};

/// Default final learning rate `r_end` (fishtest's default).
pub const DEFAULT_R_END: f64 = 0.002;

/// Exponent of the learning-rate decay `a_k = a / (A + k)^alpha` (Spall's recommended 0.602).
pub const ALPHA: f64 = 0.602;

/// Exponent of the perturbation decay `c_k = c / k^gamma` (Spall's recommended 0.101).
pub const GAMMA: f64 = 0.101;

/// Stability constant as a fraction of the planned iterations: `A = 0.1 N`.
pub const A_RATIO: f64 = 0.1;

/// OpenBench keeps integer perturbations at least this large so that rounding cannot make the
/// two sides play the same value.
pub const MIN_INTEGER_C: f64 = 0.5;

/// Why a tuner set-up or step was rejected.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SpsaError {
    /// A parameter definition that cannot be tuned.
    #[error("SPSA parameter {name:?}: {reason}")]
    InvalidParam {
        /// The parameter's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two parameters share a name.
    #[error("duplicate SPSA parameter name {0:?}")]
    DuplicateName(String),
    /// A schedule of zero iterations.
    #[error("an SPSA schedule needs at least one iteration")]
    NoIterations,
    /// Iterations are numbered from 1.
    #[error("SPSA iterations are numbered from 1, got 0")]
    ZeroIteration,
    /// A vector whose length does not match the number of parameters.
    #[error("expected {expected} values (one per parameter), got {got}")]
    LengthMismatch {
        /// Number of parameters.
        expected: usize,
        /// Length given.
        got: usize,
    },
}

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// Name (as the engine knows it).
    pub name: String,
    /// Starting value of theta.
    pub start: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Perturbation size at the last iteration (`c_N`); commonly `(max - min) / 20`.
    pub c_end: f64,
    /// Learning rate `a_k / c_k^2` at the last iteration; default [`DEFAULT_R_END`]
    /// (fishtest's schedule).
    pub r_end: f64,
    /// What the planned steps add up to, in ranges `max - min`; default [`DEFAULT_TRAVEL`]
    /// (the adam schedule, see [`adam`]).
    #[serde(default = "adam::default_travel")]
    pub travel: f64,
    /// Whether the engine takes an integer: played values are rounded stochastically and
    /// `c_k >= 0.5`.
    pub integer: bool,
}

impl SpsaParam {
    /// A parameter with the common defaults `c_end = (max - min) / 20`,
    /// `r_end = 0.002` and `travel = 2`. Not validated; see [`SpsaParam::validate`].
    pub fn new(name: impl Into<String>, start: f64, min: f64, max: f64, integer: bool) -> Self {
        SpsaParam {
            name: name.into(),
            start,
            min,
            max,
            c_end: (max - min) / 20.0,
            r_end: DEFAULT_R_END,
            travel: DEFAULT_TRAVEL,
            integer,
        }
    }

    /// Checks finiteness, `min < max`, `min <= start <= max`, `c_end`, `r_end`, `travel` > 0, and
    /// for integer parameters that `[min, max]` holds at least two integers.
    pub fn validate(&self) -> Result<(), SpsaError> {
        let bad = |reason: String| SpsaError::InvalidParam {
            name: self.name.clone(),
            reason,
        };
        for (what, v) in [
            ("start", self.start),
            ("min", self.min),
            ("max", self.max),
            ("c_end", self.c_end),
            ("r_end", self.r_end),
            ("travel", self.travel),
        ] {
            if !v.is_finite() {
                return Err(bad(format!("{what} must be finite, got {v}")));
            }
        }
        if self.min >= self.max {
            return Err(bad(format!(
                "min ({}) must be below max ({})",
                self.min, self.max
            )));
        }
        if self.start < self.min || self.start > self.max {
            return Err(bad(format!(
                "start ({}) must lie in [{}, {}]",
                self.start, self.min, self.max
            )));
        }
        if self.c_end <= 0.0 {
            return Err(bad(format!("c_end must be positive, got {}", self.c_end)));
        }
        if self.r_end <= 0.0 {
            return Err(bad(format!("r_end must be positive, got {}", self.r_end)));
        }
        if self.travel <= 0.0 {
            return Err(bad(format!("travel must be positive, got {}", self.travel)));
        }
        if self.integer && self.min.ceil() >= self.max.floor() {
            return Err(bad(format!(
                "an integer parameter needs at least two integers in [{}, {}]",
                self.min, self.max
            )));
        }
        Ok(())
    }

    /// `x` clamped to `[min, max]`.
    pub fn clip(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }

    /// Integer range `[ceil(min), floor(max)]` that integer values are played in.
    fn integer_range(&self) -> (f64, f64) {
        (self.min.ceil(), self.max.floor())
    }
}

/// Gain schedule of a tune of `N` planned iterations (fishtest / OpenBench):
/// `A = 0.1 N`, `c = c_end N^gamma`, `a = r_end c_end^2 (A + N)^alpha`,
/// `c_k = c / k^gamma`, `a_k = a / (A + k)^alpha`, so that at `k = N` the perturbation is
/// exactly `c_end` and `a_k / c_k^2 = r_end`. Under [`Method::Adam`] the perturbations are the
/// same and `a_k` is Adam's step size `eta_k` (see [`adam`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Planned iterations `N` (game pairs, or batches sharing one perturbation).
    pub iterations: u64,
    /// Stability constant `A`.
    pub big_a: f64,
    /// Learning-rate decay exponent.
    pub alpha: f64,
    /// Perturbation decay exponent.
    pub gamma: f64,
    /// How steps are computed; tune folders written before the choice existed are fishtest's.
    #[serde(default = "Method::legacy")]
    pub method: Method,
}

impl Schedule {
    /// fishtest's schedule for `iterations` planned iterations (0 is treated as 1).
    pub fn new(iterations: u64) -> Self {
        Self::with_method(iterations, Method::Fishtest)
    }

    /// The schedule of `method` for `iterations` planned iterations (0 is treated as 1).
    pub fn with_method(iterations: u64, method: Method) -> Self {
        let iterations = iterations.max(1);
        Schedule {
            iterations,
            big_a: A_RATIO * iterations as f64,
            alpha: ALPHA,
            gamma: GAMMA,
            method,
        }
    }

    fn n(&self) -> f64 {
        self.iterations.max(1) as f64
    }

    /// Initial perturbation scale `c = c_end * N^gamma`.
    pub fn c(&self, param: &SpsaParam) -> f64 {
        param.c_end * self.n().powf(self.gamma)
    }

    /// Initial learning-rate scale `a = r_end * c_end^2 * (A + N)^alpha`.
    pub fn a(&self, param: &SpsaParam) -> f64 {
        param.r_end * param.c_end * param.c_end * (self.big_a + self.n()).powf(self.alpha)
    }

    /// Perturbation of iteration `k` (1-based; 0 is treated as 1): `c_k = c / k^gamma`, raised
    /// to at least 0.5 for integer parameters (OpenBench).
    pub fn c_k(&self, param: &SpsaParam, k: u64) -> f64 {
        let c_k = self.c(param) / (k.max(1) as f64).powf(self.gamma);
        if param.integer {
            c_k.max(MIN_INTEGER_C)
        } else {
            c_k
        }
    }

    /// Learning rate of iteration `k` (1-based; 0 is treated as 1): `a_k = a / (A + k)^alpha`;
    /// under [`Method::Adam`], the step size `eta_k` (see [`adam`]).
    pub fn a_k(&self, param: &SpsaParam, k: u64) -> f64 {
        match self.method {
            Method::Fishtest => self.a(param) / (self.big_a + k.max(1) as f64).powf(self.alpha),
            Method::Adam => adam::eta_k(self, param, k),
        }
    }
}

/// The two engines' parameter values for one iteration, and the gains to update with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    /// Iteration number `k` (1-based).
    pub iteration: u64,
    /// Sign `+1` / `-1` per parameter.
    pub delta: Vec<i8>,
    /// Values for engine+: `clip(theta + c_k delta)`, rounded for integer parameters.
    pub plus: Vec<f64>,
    /// Values for engine-: `clip(theta - c_k delta)`, rounded for integer parameters.
    pub minus: Vec<f64>,
    /// Perturbation sizes `c_k` per parameter.
    pub c_k: Vec<f64>,
    /// Learning rates `a_k` per parameter.
    pub a_k: Vec<f64>,
}

/// The random generator of iteration `k`: ChaCha8 seeded with `seed` (via `seed_from_u64`),
/// on stream `k`. Each iteration has its own independent stream, so any iteration's
/// perturbation can be recomputed without replaying the ones before it (resume).
pub fn perturbation_rng(seed: u64, k: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(k);
    rng
}

/// Uniform number in `[0, 1)` from the top 53 bits of one output. Done by hand rather than
/// through `rand`'s distributions so the values stay stable across `rand` versions.
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Rounds both sides of an integer parameter with one shared uniform `u`:
/// `floor(x + u)` is an unbiased stochastic rounding of `x`, and with the same `u` two values
/// at least 1 apart never round to the same integer. Clipping at the range ends can bring the
/// sides closer than 1; then the side that should be higher (by `delta`) is pushed one step
/// apart, inside `[ceil(min), floor(max)]`.
fn round_pair(param: &SpsaParam, plus: f64, minus: f64, u: f64, delta: i8) -> (f64, f64) {
    let (lo, hi) = param.integer_range();
    let mut p = (plus + u).floor().clamp(lo, hi);
    let mut m = (minus + u).floor().clamp(lo, hi);
    if p == m && lo < hi {
        let (high, low) = if delta > 0 {
            (&mut p, &mut m)
        } else {
            (&mut m, &mut p)
        };
        if *high < hi {
            *high += 1.0;
        } else {
            *low -= 1.0;
        }
    }
    (p, m)
}

/// An SPSA tuner: parameters, schedule and seed. Holds no theta; the caller keeps theta (and
/// saves it for resume) and passes it to [`Spsa::perturb`] and [`Spsa::update`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// The tuned parameters, in a fixed order shared by every vector here.
    pub params: Vec<SpsaParam>,
    /// The gain schedule.
    pub schedule: Schedule,
    /// Seed of every iteration's random stream.
    pub seed: u64,
}

impl Spsa {
    /// A tuner of `params` over `iterations` planned iterations with fishtest's schedule.
    /// Validates every parameter, the names' uniqueness and `iterations >= 1`.
    pub fn new(params: Vec<SpsaParam>, iterations: u64, seed: u64) -> Result<Self, SpsaError> {
        Self::with_method(params, iterations, seed, Method::Fishtest)
    }

    /// [`Spsa::new`] with the schedule of `method`.
    pub fn with_method(
        params: Vec<SpsaParam>,
        iterations: u64,
        seed: u64,
        method: Method,
    ) -> Result<Self, SpsaError> {
        if iterations == 0 {
            return Err(SpsaError::NoIterations);
        }
        let mut names = HashSet::new();
        for p in &params {
            p.validate()?;
            if !names.insert(p.name.as_str()) {
                return Err(SpsaError::DuplicateName(p.name.clone()));
            }
        }
        Ok(Spsa {
            params,
            schedule: Schedule::with_method(iterations, method),
            seed,
        })
    }

    /// The starting theta: each parameter's `start`.
    pub fn start_theta(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    fn check_len(&self, got: usize) -> Result<(), SpsaError> {
        if got == self.params.len() {
            Ok(())
        } else {
            Err(SpsaError::LengthMismatch {
                expected: self.params.len(),
                got,
            })
        }
    }

    /// The perturbation of iteration `k` (1-based) around `theta`, drawn from
    /// [`perturbation_rng`]`(seed, k)`.
    ///
    /// Per parameter, in order, two outputs of the generator: the sign `delta` (top bit) and
    /// the shared rounding uniform `u` (drawn for every parameter so the stream layout does not
    /// depend on which ones are integers). Values are `clip(theta +- c_k delta)`; integer
    /// parameters are then rounded as `floor(x + u)` with the same `u` on both sides, so the
    /// two sides always differ by at least one (see `round_pair`).
    pub fn perturb(&self, theta: &[f64], k: u64) -> Result<Perturbation, SpsaError> {
        self.check_len(theta.len())?;
        if k == 0 {
            return Err(SpsaError::ZeroIteration);
        }
        let mut rng = perturbation_rng(self.seed, k);
        let n = self.params.len();
        let mut out = Perturbation {
            iteration: k,
            delta: Vec::with_capacity(n),
            plus: Vec::with_capacity(n),
            minus: Vec::with_capacity(n),
            c_k: Vec::with_capacity(n),
            a_k: Vec::with_capacity(n),
        };
        for (param, &t) in self.params.iter().zip(theta) {
            let delta: i8 = if rng.next_u64() >> 63 == 1 { 1 } else { -1 };
            let u = uniform(&mut rng);
            let c_k = self.schedule.c_k(param, k);
            let centre = param.clip(t);
            let step = c_k * f64::from(delta);
            let mut plus = param.clip(centre + step);
            let mut minus = param.clip(centre - step);
            if param.integer {
                (plus, minus) = round_pair(param, plus, minus, u, delta);
            }
            out.delta.push(delta);
            out.plus.push(plus);
            out.minus.push(minus);
            out.c_k.push(c_k);
            out.a_k.push(self.schedule.a_k(param, k));
        }
        Ok(out)
    }

    /// The SPSA update after engine+ scored `wins_plus` wins and `losses_plus` losses against
    /// engine- with `perturbation` (draws count for neither):
    /// `theta_i <- clip(theta_i + a_k (W - L) delta_i / c_k)`, fishtest's
    /// `theta + R c (W - L) delta` with `R = a_k / c_k^2`.
    pub fn update(
        &self,
        theta: &[f64],
        perturbation: &Perturbation,
        wins_plus: u64,
        losses_plus: u64,
    ) -> Result<Vec<f64>, SpsaError> {
        self.check_update_lengths(theta, perturbation)?;
        // Exact for any realistic count; avoids overflow of an integer difference.
        let result = wins_plus as f64 - losses_plus as f64;
        Ok(self
            .params
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let step = perturbation.a_k[i] * result * f64::from(perturbation.delta[i])
                    / perturbation.c_k[i];
                param.clip(theta[i] + step)
            })
            .collect())
    }
}

/// Wins and losses of engine+ in `games` fake games (for the tests of both schedules): 20%
/// draws, the others won with probability `win`.
#[cfg(test)]
fn fake_games(rng: &mut ChaCha8Rng, games: u32, win: f64) -> (u64, u64) {
    let (mut w, mut l) = (0, 0);
    for _ in 0..games {
        if uniform(rng) < 0.2 {
            continue;
        }
        if uniform(rng) < win {
            w += 1;
        } else {
            l += 1;
        }
    }
    (w, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn float_param() -> SpsaParam {
        SpsaParam {
            name: "x".into(),
            start: 0.0,
            min: -10.0,
            max: 10.0,
            c_end: 1.0,
            r_end: 0.002,
            travel: DEFAULT_TRAVEL,
            integer: false,
        }
    }

    fn int_param() -> SpsaParam {
        SpsaParam {
            name: "y".into(),
            start: 20.0,
            min: -50.0,
            max: 50.0,
            c_end: 5.0,
            r_end: 0.002,
            travel: DEFAULT_TRAVEL,
            integer: true,
        }
    }

    #[test]
    fn schedule_matches_hand_computed_values() {
        let s = Schedule::new(1000);
        assert_eq!(s.iterations, 1000);
        assert_eq!(s.big_a, 100.0);
        let p = SpsaParam {
            c_end: 2.0,
            ..float_param()
        };
        // c = 2 * 1000^0.101 ; a = 0.002 * 4 * 1100^0.602 (computed with Python).
        assert!(close(s.c(&p), 4.018_185_625_217_456, 1e-9), "{}", s.c(&p));
        assert!(close(s.a(&p), 0.542_011_353_083_767_6, 1e-9), "{}", s.a(&p));
        assert!(close(s.c_k(&p, 1), s.c(&p), 1e-12));
        assert!(close(
            s.a_k(&p, 1),
            0.542_011_353_083_767_6 / 101f64.powf(0.602),
            1e-12
        ));
        assert!(
            close(s.c_k(&p, 10), 3.184_417_454_102_340_5, 1e-9),
            "{}",
            s.c_k(&p, 10)
        );
        assert!(
            close(s.a_k(&p, 10), 0.031_995_579_980_887_8, 1e-9),
            "{}",
            s.a_k(&p, 10)
        );
        // At k = N the perturbation is c_end and a_k / c_k^2 is r_end, by construction.
        assert!(close(s.c_k(&p, 1000), 2.0, 1e-12));
        let r = s.a_k(&p, 1000) / s.c_k(&p, 1000).powi(2);
        assert!(close(r, 0.002, 1e-15));
        // Both gains decrease.
        assert!(s.c_k(&p, 500) < s.c_k(&p, 499));
        assert!(s.a_k(&p, 500) < s.a_k(&p, 499));
        // k = 0 is treated as 1.
        assert_eq!(s.c_k(&p, 0), s.c_k(&p, 1));
        assert_eq!(Schedule::new(0).iterations, 1);

        // Integer parameters keep c_k >= 0.5 (OpenBench).
        let q = SpsaParam {
            c_end: 0.3,
            ..int_param()
        };
        assert_eq!(s.c_k(&q, 1000), 0.5);
        assert!(s.c_k(&q, 1) > 0.5);
    }

    #[test]
    fn default_param_values() {
        let p = SpsaParam::new("w", 10.0, 0.0, 100.0, true);
        assert_eq!(p.c_end, 5.0);
        assert_eq!(p.r_end, DEFAULT_R_END);
        assert_eq!(p.validate(), Ok(()));
    }

    #[test]
    fn invalid_setups_are_rejected() {
        let bad = |p: SpsaParam| matches!(p.validate(), Err(SpsaError::InvalidParam { .. }));
        assert!(bad(SpsaParam {
            min: 10.0,
            ..float_param()
        }));
        assert!(bad(SpsaParam {
            start: 11.0,
            ..float_param()
        }));
        assert!(bad(SpsaParam {
            c_end: 0.0,
            ..float_param()
        }));
        assert!(bad(SpsaParam {
            r_end: -1.0,
            ..float_param()
        }));
        assert!(bad(SpsaParam {
            max: f64::NAN,
            ..float_param()
        }));
        assert!(bad(SpsaParam {
            min: 0.2,
            max: 1.5,
            start: 1.0,
            ..int_param()
        }));
        assert_eq!(
            Spsa::new(vec![float_param()], 0, 1),
            Err(SpsaError::NoIterations)
        );
        assert_eq!(
            Spsa::new(vec![float_param(), float_param()], 10, 1),
            Err(SpsaError::DuplicateName("x".into()))
        );
        let spsa = Spsa::new(vec![float_param(), int_param()], 10, 1).expect("valid");
        assert_eq!(
            spsa.perturb(&[0.0], 1),
            Err(SpsaError::LengthMismatch {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(spsa.perturb(&[0.0, 0.0], 0), Err(SpsaError::ZeroIteration));
        let pert = spsa.perturb(&[0.0, 0.0], 1).expect("valid");
        assert!(matches!(
            spsa.update(&[0.0], &pert, 1, 0),
            Err(SpsaError::LengthMismatch { .. })
        ));
        let mut short = pert.clone();
        short.a_k.pop();
        assert!(spsa.update(&[0.0, 0.0], &short, 1, 0).is_err());
        let msg = SpsaError::InvalidParam {
            name: "x".into(),
            reason: "r".into(),
        }
        .to_string();
        assert!(msg.contains("\"x\""), "{msg}");
    }

    #[test]
    fn perturbation_is_deterministic_and_resumable() {
        let spsa = Spsa::new(vec![float_param(), int_param()], 1000, 42).expect("valid");
        let theta = [1.25, 7.4];
        let a = spsa.perturb(&theta, 17).expect("valid");
        let b = spsa.perturb(&theta, 17).expect("valid");
        assert_eq!(a, b);
        // Order of computation does not matter: iteration 17 alone, or after others.
        let other = Spsa::new(vec![float_param(), int_param()], 1000, 42).expect("valid");
        for k in 1..17 {
            let _ = other.perturb(&theta, k);
        }
        assert_eq!(other.perturb(&theta, 17).expect("valid"), a);
        // The deltas vary with k and with the seed.
        let deltas = |s: &Spsa| -> Vec<Vec<i8>> {
            (1..=64)
                .map(|k| s.perturb(&theta, k).map(|p| p.delta).unwrap_or_default())
                .collect()
        };
        let d42 = deltas(&spsa);
        assert!(d42.iter().any(|d| d != &d42[0]));
        let mut seeded = spsa.clone();
        seeded.seed = 43;
        assert_ne!(deltas(&seeded), d42);
        // Both signs appear about equally often.
        let plus = d42.iter().flatten().filter(|d| **d == 1).count();
        assert!((40..=88).contains(&plus), "{plus} of 128");
        // The gains are the schedule's.
        assert_eq!(a.iteration, 17);
        assert_eq!(a.c_k[0], spsa.schedule.c_k(&spsa.params[0], 17));
        assert_eq!(a.a_k[1], spsa.schedule.a_k(&spsa.params[1], 17));
        // Float sides are exactly theta +- c_k delta away from the edges.
        let d = f64::from(a.delta[0]);
        assert!(close(a.plus[0], 1.25 + a.c_k[0] * d, 1e-12));
        assert!(close(a.minus[0], 1.25 - a.c_k[0] * d, 1e-12));
    }

    #[test]
    fn sides_stay_in_range_and_integer_sides_differ() {
        let narrow = SpsaParam {
            name: "n".into(),
            start: 1.0,
            min: 0.0,
            max: 2.0,
            c_end: 0.1,
            r_end: 0.002,
            travel: DEFAULT_TRAVEL,
            integer: true,
        };
        let odd = SpsaParam {
            name: "o".into(),
            start: 1.0,
            min: 0.5,
            max: 3.7,
            c_end: 0.4,
            r_end: 0.002,
            travel: DEFAULT_TRAVEL,
            integer: true,
        };
        let spsa = Spsa::new(vec![float_param(), int_param(), narrow, odd], 500, 7).expect("valid");
        let thetas = [
            vec![0.0, 20.0, 1.0, 2.0],
            vec![10.0, 50.0, 2.0, 3.7],
            vec![-10.0, -50.0, 0.0, 0.5],
            vec![9.9, 49.6, 1.9, 3.6],
            vec![-9.95, -49.3, 0.1, 0.6],
            vec![3.3, 0.49, 0.5, 1.5],
        ];
        for theta in &thetas {
            for k in 1..=500 {
                let p = spsa.perturb(theta, k).expect("valid");
                for (i, param) in spsa.params.iter().enumerate() {
                    for v in [p.plus[i], p.minus[i]] {
                        assert!(
                            v >= param.min && v <= param.max,
                            "{} k={k} theta={theta:?}: {v}",
                            param.name
                        );
                    }
                    if param.integer {
                        assert_eq!(p.plus[i].fract(), 0.0);
                        assert_eq!(p.minus[i].fract(), 0.0);
                        assert_ne!(p.plus[i], p.minus[i], "{} k={k} {theta:?}", param.name);
                        // The side that should be higher is higher.
                        let sign = (p.plus[i] - p.minus[i]).signum();
                        assert_eq!(sign, f64::from(p.delta[i]), "{} k={k}", param.name);
                    } else if theta[i].abs() < 5.0 {
                        assert!(p.plus[i] != p.minus[i]);
                    }
                }
            }
        }
    }

    #[test]
    fn integer_rounding_is_unbiased() {
        // Mean of the rounded engine+ value over many iterations equals the unrounded mean.
        let p = SpsaParam {
            name: "z".into(),
            start: 0.0,
            min: -100.0,
            max: 100.0,
            c_end: 2.0,
            r_end: 0.002,
            travel: DEFAULT_TRAVEL,
            integer: true,
        };
        let spsa = Spsa::new(vec![p], 4000, 99).expect("valid");
        let theta = [10.3];
        let (mut rounded, mut exact) = (0.0, 0.0);
        for k in 1..=4000 {
            let pert = spsa.perturb(&theta, k).expect("valid");
            rounded += pert.plus[0] + pert.minus[0];
            exact += 2.0 * theta[0];
            let _ = pert;
        }
        assert!(
            close(rounded / 8000.0, exact / 8000.0, 0.02),
            "{}",
            rounded / 8000.0
        );
    }

    #[test]
    fn update_moves_toward_the_winning_side() {
        let spsa = Spsa::new(vec![float_param(), int_param()], 1000, 5).expect("valid");
        let theta = spsa.start_theta();
        assert_eq!(theta, vec![0.0, 20.0]);
        for k in [1, 2, 3, 50, 999] {
            let p = spsa.perturb(&theta, k).expect("valid");
            let won = spsa.update(&theta, &p, 2, 0).expect("valid");
            let lost = spsa.update(&theta, &p, 0, 2).expect("valid");
            let even = spsa.update(&theta, &p, 1, 1).expect("valid");
            assert_eq!(even, theta);
            for i in 0..2 {
                let toward_plus = (p.plus[i] - theta[i]).signum();
                assert_eq!((won[i] - theta[i]).signum(), toward_plus, "k={k} i={i}");
                assert_eq!((lost[i] - theta[i]).signum(), -toward_plus, "k={k} i={i}");
                let want = theta[i] + p.a_k[i] * 2.0 * f64::from(p.delta[i]) / p.c_k[i];
                assert!(close(won[i], want, 1e-12));
            }
        }
        // Updates are clipped to the range.
        let p = spsa.perturb(&theta, 1).expect("valid");
        let huge = spsa.update(&theta, &p, 1_000_000, 0).expect("valid");
        for (v, param) in huge.iter().zip(&spsa.params) {
            assert!(*v == param.min || *v == param.max, "{v}");
        }
    }

    /// A fake match: engine+ and engine- play one pair (two games, 20% draws); the non-drawn
    /// games go to engine+ with probability `logistic(0.5 (f(plus) - f(minus)))`, where
    /// `f(x, y) = -(x - 3)^2 - ((y + 10) / 5)^2` peaks at x = 3, y = -10.
    fn tune(seed: u64, iterations: u64) -> Vec<f64> {
        let spsa = Spsa::new(vec![float_param(), int_param()], iterations, seed).expect("valid");
        let f = |v: &[f64]| -(v[0] - 3.0).powi(2) - ((v[1] + 10.0) / 5.0).powi(2);
        let mut games = perturbation_rng(seed ^ 0x5EED, 0);
        let mut theta = spsa.start_theta();
        for k in 1..=iterations {
            let p = spsa.perturb(&theta, k).expect("valid");
            let win = 1.0 / (1.0 + (-0.5 * (f(&p.plus) - f(&p.minus))).exp());
            let (w, l) = fake_games(&mut games, 2, win);
            theta = spsa.update(&theta, &p, w, l).expect("valid");
        }
        theta
    }

    #[test]
    fn spsa_converges_on_a_noisy_synthetic_match() {
        for seed in [1, 2, 3] {
            let theta = tune(seed, 4000);
            assert!(close(theta[0], 3.0, 0.3), "seed {seed}: {theta:?}");
            assert!(close(theta[1], -10.0, 1.5), "seed {seed}: {theta:?}");
        }
    }

    #[test]
    fn serde_round_trip() {
        // The tune's resume state is saved as JSON.
        let spsa = Spsa::new(vec![float_param(), int_param()], 100, 11).expect("valid");
        let json = serde_json::to_string(&spsa).expect("serialize");
        assert_eq!(serde_json::from_str::<Spsa>(&json).ok(), Some(spsa.clone()));
        let p = spsa.perturb(&spsa.start_theta(), 3).expect("valid");
        let json = serde_json::to_string(&p).expect("serialize");
        let back: Perturbation = serde_json::from_str(&json).expect("deserialize");
        assert_eq!((back.iteration, &back.delta), (p.iteration, &p.delta));
        // serde_json's default float parser may be off by one ulp.
        for (x, y) in [
            (&back.plus, &p.plus),
            (&back.minus, &p.minus),
            (&back.c_k, &p.c_k),
        ]
        .into_iter()
        .chain([(&back.a_k, &p.a_k)])
        {
            assert!(x.iter().zip(y).all(|(a, b)| close(*a, *b, 1e-15 * b.abs())));
        }
    }
}
