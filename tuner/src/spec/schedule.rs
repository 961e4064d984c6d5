//! The spec's schedule keys: `schedule` and the gains each schedule takes (`r_end` for
//! fishtest's, `travel` for adam's), kept apart from the rest of the spec.

use super::{ParamEntry, TuneSpec};
use crate::config::num;
use crate::error::{Result, TuneError};
use crate::spsa::{travel_for_spread, Method, Schedule, DEFAULT_SPREAD, DEFAULT_TRAVEL};

/// A parameter's `travel` when the spec gives none: under adam the one whose noise would
/// scatter it by [`DEFAULT_SPREAD`] of its range over `iterations`; fishtest's schedule does
/// not use it and keeps the value tune folders written before adam load with, so an old spec
/// still resumes its old tune.
pub(super) fn default_travel(method: Method, iterations: u64) -> f64 {
    match method {
        Method::Adam => {
            travel_for_spread(&Schedule::with_method(iterations, method), DEFAULT_SPREAD)
        }
        Method::Fishtest => DEFAULT_TRAVEL,
    }
}

/// The entry's `travel` (or `default`), checked: finite and positive; `key` names it.
pub(super) fn travel(entry: &ParamEntry, default: f64, key: &str) -> Result<f64> {
    let travel = entry.travel.unwrap_or(default);
    if !travel.is_finite() || travel <= 0.0 {
        return Err(TuneError::spec(
            key,
            format!("{} must be positive", num(travel)),
        ));
    }
    Ok(travel)
}

impl TuneSpec {
    /// The schedule: `schedule` as given; without it fishtest's when a parameter sets
    /// `r_end` (a spec written for fishtest's gains keeps them), else adam. A gain that the
    /// chosen schedule does not use is an error naming it, never silently ignored.
    pub fn method(&self) -> Result<Method> {
        let sets = |f: fn(&ParamEntry) -> bool| self.params.iter().find(|(_, e)| f(e));
        let r_end = sets(|e| e.r_end.is_some());
        let method = self.schedule.unwrap_or(if r_end.is_some() {
            Method::Fishtest
        } else {
            Method::Adam
        });
        let unused = match method {
            Method::Adam => r_end.map(|(n, _)| (n, "r_end", Method::Fishtest)),
            Method::Fishtest => {
                sets(|e| e.travel.is_some()).map(|(n, _)| (n, "travel", Method::Adam))
            }
        };
        if let Some((name, key, other)) = unused {
            return Err(TuneError::spec(
                format!("params.{name}.{key}"),
                format!(
                    "{key} is a gain of the {other} schedule, and this spec's schedule is \
                     {method}: remove it, or set schedule = \"{other}\""
                ),
            ));
        }
        Ok(method)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn method(text: &str) -> Result<Method> {
        TuneSpec::parse(text, Path::new("t.toml")).and_then(|s| s.method())
    }

    #[test]
    fn schedule_is_adam_unless_asked_or_implied_by_r_end() {
        let with = |extra: &str| format!("pairs = 10\n{extra}[params.defence]\n");
        assert_eq!(method(&with("")).ok(), Some(Method::Adam));
        assert_eq!(
            method(&with("schedule = \"fishtest\"\n")).ok(),
            Some(Method::Fishtest)
        );
        // A spec written for fishtest's gains keeps fishtest's schedule.
        let old = "pairs = 10\n[params.defence]\nr_end = 0.02\n[params.tempo]\n";
        assert_eq!(method(old).ok(), Some(Method::Fishtest));
        assert_eq!(
            method("pairs = 10\n[params.defence]\ntravel = 2\n").ok(),
            Some(Method::Adam)
        );
    }

    #[test]
    fn a_gain_of_the_other_schedule_is_an_error_naming_it() {
        for (text, key) in [
            (
                "pairs = 10\nschedule = \"adam\"\n[params.defence]\nr_end = 0.02\n",
                "params.defence.r_end",
            ),
            (
                "pairs = 10\nschedule = \"fishtest\"\n[params.tempo]\ntravel = 2\n",
                "params.tempo.travel",
            ),
        ] {
            match method(text) {
                Err(TuneError::Spec { key: k, message }) => {
                    assert_eq!(k, key);
                    assert!(message.contains("schedule"), "{message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(method("pairs = 10\nschedule = \"sgd\"\n[params.defence]\n").is_err());
    }
}
