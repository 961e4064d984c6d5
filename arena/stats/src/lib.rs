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

mod elo;
mod estimate;
mod normal;
mod outcome;
mod penta;
pub mod sprt;
mod wdl;

pub use elo::{elo, score_from_elo, EloModel, NELO_DIVIDED_BY_NT};
pub use estimate::Estimate;
pub use normal::{erf, Z_95};
pub use outcome::Outcome;
pub use penta::{Penta, PAIR_SCORES};
pub use sprt::params::{SprtParamError, SprtParams, SprtVerdict};
pub use sprt::{llr, llr_approx, sprt_status, SprtStatus, EMPTY_CELL_COUNT};
pub use wdl::Wdl;

#[cfg(test)]
mod tests {
    use super::*;

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
}
