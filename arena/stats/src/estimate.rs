//! An estimate with its 95% interval, and the estimators every tally shares: moments of a
//! discrete score distribution, the score interval, normalized Elo and LOS.

use serde::{Deserialize, Serialize};

use crate::elo::NELO_DIVIDED_BY_NT;
use crate::normal::{erf, Z_95};

/// Sample size, mean and (population) variance of a distribution on `scores` with `counts`.
/// `None` when the total count is zero.
pub(crate) fn moments(scores: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
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
    pub(crate) fn map(self, f: impl Fn(f64) -> f64) -> Self {
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
pub(crate) fn score_estimate(n: f64, s: f64, var: f64) -> Estimate {
    let margin = Z_95 * (var / n).sqrt();
    Estimate {
        value: s,
        lower: (s - margin).clamp(0.0, 1.0),
        upper: (s + margin).clamp(0.0, 1.0),
    }
}

/// Normalized Elo `(s - 0.5) / sigma_pg * 800 / ln 10` with the score interval mapped through
/// the same (linear) function; `None` when `sigma_pg` is zero.
pub(crate) fn nelo_estimate(n: f64, s: f64, var: f64, sigma_pg: f64) -> Option<Estimate> {
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
pub(crate) fn los(n: f64, s: f64, var: f64) -> f64 {
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
#[cfg(test)]
mod tests {
    use super::*;

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
}
