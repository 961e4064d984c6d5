//! A deterministic share of a run's pairs, for running one run on several machines.

use serde::{Deserialize, Serialize};

use crate::error::{ArenaError, Result};

/// A deterministic share of the pairs: global pairs `g` with `g % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n`, or `auto/n` taking `i` from `SLURM_ARRAY_TASK_ID` or
    /// `JOB_COMPLETION_INDEX` (Kubernetes indexed jobs).
    pub fn parse(text: &str) -> Result<Shard> {
        Self::parse_with_env(text, |k| std::env::var(k).ok())
    }

    /// [`Shard::parse`] with an explicit environment lookup (for tests).
    pub fn parse_with_env(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard> {
        let bad =
            || ArenaError::Shard(format!("'{text}': expected i/n with 0 <= i < n, or auto/n"));
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        let index: u64 = if i.trim().eq_ignore_ascii_case("auto") {
            let v = env("SLURM_ARRAY_TASK_ID")
                .or_else(|| env("JOB_COMPLETION_INDEX"))
                .ok_or_else(|| {
                    ArenaError::Shard(format!(
                        "'{text}': neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set"
                    ))
                })?;
            v.trim().parse().map_err(|_| {
                ArenaError::Shard(format!(
                    "'{text}': bad shard index '{v}' in the environment"
                ))
            })?
        } else {
            i.trim().parse().map_err(|_| bad())?
        };
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Does this shard play global pair `g`?
    pub fn contains(&self, g: u64) -> bool {
        g % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        let none = |_: &str| None;
        assert_eq!(
            Shard::parse_with_env("1/4", none).expect("ok"),
            Shard { index: 1, count: 4 }
        );
        assert!(Shard::parse_with_env("4/4", none).is_err());
        assert!(Shard::parse_with_env("1", none).is_err());
        assert!(Shard::parse_with_env("auto/4", none).is_err());
        let slurm = |k: &str| (k == "SLURM_ARRAY_TASK_ID").then(|| "3".to_string());
        assert_eq!(
            Shard::parse_with_env("auto/4", slurm).expect("ok"),
            Shard { index: 3, count: 4 }
        );
        let k8s = |k: &str| (k == "JOB_COMPLETION_INDEX").then(|| "2".to_string());
        assert_eq!(Shard::parse_with_env("AUTO/3", k8s).expect("ok").index, 2);
    }
}
