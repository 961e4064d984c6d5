//! A parameter sweep: the varied parameters with their values, the grid of their
//! combinations, and the sweep's points in a run.

use serde::{Deserialize, Serialize};
use wuzi_engine::{ParamError, Params};

use crate::error::{ArenaError, Result};

/// One parameter varied by a sweep, with its values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepAxis {
    /// Parameter name.
    pub name: String,
    /// Values, in order.
    pub values: Vec<i32>,
}

impl SweepAxis {
    /// Parses `name=lo:hi:step` (inclusive range) or `name=v1,v2,...`, checking the name and
    /// that every value is within the parameter's range.
    pub fn parse(text: &str) -> Result<SweepAxis> {
        let (name, values) = text.split_once('=').ok_or_else(|| {
            ArenaError::Sweep(format!(
                "'{text}': expected name=lo:hi:step or name=v1,v2,..."
            ))
        })?;
        Self::new(name.trim(), values.trim())
    }

    /// An axis from a name and `lo:hi:step` or `v1,v2,...` values.
    pub fn new(name: &str, values: &str) -> Result<SweepAxis> {
        let spec = Params::spec(name)
            .ok_or_else(|| ArenaError::Sweep(ParamError::Unknown(name.to_string()).to_string()))?;
        let num = |t: &str| -> Result<i64> {
            t.trim()
                .parse::<i64>()
                .map_err(|_| ArenaError::Sweep(format!("{name}: '{t}' is not an integer")))
        };
        let list: Vec<i64> = if values.contains(':') {
            let parts: Vec<&str> = values.split(':').collect();
            if parts.len() != 3 {
                return Err(ArenaError::Sweep(format!(
                    "{name}: '{values}' is not lo:hi:step"
                )));
            }
            let (lo, hi, step) = (num(parts[0])?, num(parts[1])?, num(parts[2])?);
            if step <= 0 || hi < lo {
                return Err(ArenaError::Sweep(format!(
                    "{name}: need lo <= hi and step > 0 in '{values}'"
                )));
            }
            if (hi - lo) / step > 10_000 {
                return Err(ArenaError::Sweep(format!(
                    "{name}: too many points in '{values}'"
                )));
            }
            (0..)
                .map(|k| lo + k * step)
                .take_while(|v| *v <= hi)
                .collect()
        } else {
            values
                .split(',')
                .filter(|t| !t.trim().is_empty())
                .map(num)
                .collect::<Result<_>>()?
        };
        if list.is_empty() {
            return Err(ArenaError::Sweep(format!("{name}: no values")));
        }
        for &v in &list {
            if v < i64::from(spec.min) || v > i64::from(spec.max) {
                return Err(ArenaError::Sweep(format!(
                    "{name} = {v} is out of range {}..={}",
                    spec.min, spec.max
                )));
            }
        }
        Ok(SweepAxis {
            name: name.to_string(),
            values: list.into_iter().map(|v| v as i32).collect(),
        })
    }
}

/// A sweep's axes and points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepInfo {
    /// The varied parameters.
    pub axes: Vec<SweepAxis>,
    /// Index of the baseline player.
    pub baseline: usize,
    /// The points: one value per axis, the point's player and its matchup.
    pub points: Vec<SweepPoint>,
}

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// One value per axis.
    pub values: Vec<i32>,
    /// Index of the point's player.
    pub player: usize,
    /// Index of its matchup against the baseline.
    pub matchup: usize,
}

/// Every combination of the axes' values, first axis slowest.
pub fn grid(axes: &[SweepAxis]) -> Vec<Vec<i32>> {
    let mut points = vec![Vec::new()];
    for axis in axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                axis.values.iter().map(move |&v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    points
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_axes_and_grid() {
        let a = SweepAxis::parse("defence=60:100:20").expect("valid");
        assert_eq!(a.values, [60, 80, 100]);
        let b = SweepAxis::parse("tempo=0,40").expect("valid");
        assert_eq!(
            grid(&[a, b]),
            [
                vec![60, 0],
                vec![60, 40],
                vec![80, 0],
                vec![80, 40],
                vec![100, 0],
                vec![100, 40]
            ]
        );
        for bad in [
            "defense=1,2",
            "defence=10:5:1",
            "defence=60:100:0",
            "defence=x",
            "radius=1:9:1",
            "defence",
        ] {
            assert!(SweepAxis::parse(bad).is_err(), "{bad}");
        }
    }
}
