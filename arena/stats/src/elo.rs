//! Elo scales: logistic Elo and its score, the normalized-Elo factor, and which scale SPRT
//! bounds are given in.

use std::fmt;

use serde::{Deserialize, Serialize};

/// fishtest's `nelo_divided_by_nt = 800 / ln(10)` (~347.4356): normalized Elo per unit of
/// t-value `(s - 0.5) / sigma_per_game`.
pub const NELO_DIVIDED_BY_NT: f64 = 800.0 / std::f64::consts::LN_10;

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

/// `logistic` or `normalized` (`normalised` too), any case: the `--sprt-model` option of the
/// arena and the tuner.
impl std::str::FromStr for EloModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" | "normalised" => Ok(EloModel::Normalized),
            _ => Err(format!("unknown Elo model '{s}' (logistic or normalized)")),
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_models_parse_by_name_and_refuse_others() {
        assert_eq!("Logistic".parse(), Ok(EloModel::Logistic));
        assert_eq!("normalised".parse(), Ok(EloModel::Normalized));
        let e = "nelo".parse::<EloModel>().expect_err("unknown");
        assert_eq!(e, "unknown Elo model 'nelo' (logistic or normalized)");
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
}
