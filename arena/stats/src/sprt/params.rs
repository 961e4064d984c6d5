//! What an SPRT tests: its bounds, error rates and Elo scale, parsed from the CLI form, and the
//! verdict an LLR gives against them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::elo::EloModel;

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
#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
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
}
