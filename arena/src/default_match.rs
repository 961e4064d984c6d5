//! The built-in default match: what `wuzi-arena match` plays when no `--player` is given.
//!
//! The shipped default parameters (`default`) play a deliberately weakened set (`weak`,
//! [`WEAK_PARAMS_FILE`], compiled into the binary so the match runs from any directory) under
//! renju on the 26 renju openings in all their distinct symmetries (184 positions), one game pair
//! per opening with colours swapped (368 games), at [`NODES`] nodes per move, with an SPRT
//! ([`SPRT`], logistic Elo) that stops the match as soon as it decides. Options given on the
//! command line (limits, `--openings`, `--pairs`, `--sprt`, `--out`, ...) replace these
//! defaults.
//!
//! Without `--out` the run goes to a new directory `arena-out/match-<UTC date>-<UTC time>`
//! ([`timestamped_dir`]), so repeated runs never overwrite each other; `wuzi-arena resume DIR`
//! continues an interrupted one.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use wuzi_engine::Params;

use wuzi_players::{PlayerKind, PlayerLimits, PlayerSpec};
use wuzi_runs::error::{ArenaError, Result};

/// Where the weakened set is shipped (relative to the repository root).
pub const WEAK_PARAMS_FILE: &str = "suites/params/weak.toml";
/// The weakened set's text, compiled in.
pub const WEAK_PARAMS: &str = include_str!("../../suites/params/weak.toml");
/// Nodes per move when no limit is given.
pub const NODES: u64 = 2000;
/// The SPRT (`elo0,elo1`, logistic) when `--sprt` is not given.
pub const SPRT: &str = "0,10";
/// Parent of the default output directories.
pub const OUT_ROOT: &str = "arena-out";

/// The weakened parameter set.
pub fn weak_params() -> Result<Params> {
    Params::from_toml(WEAK_PARAMS).map_err(|error| {
        ArenaError::from(wuzi_players::SpecError::Params {
            player: "weak".into(),
            error,
        })
    })
}

/// The two players, `default` then `weak`, with `limits`; when `limits` stops no search
/// (no nodes, depth, move time or game time), [`NODES`] nodes per move.
pub fn players(limits: &PlayerLimits) -> Result<Vec<PlayerSpec>> {
    let mut limits = limits.clone();
    if !limits.is_bounded() {
        limits.nodes = Some(NODES);
    }
    let default = PlayerSpec::engine("default", &Params::default(), limits.clone());
    let mut weak = PlayerSpec::engine("weak", &weak_params()?, limits);
    if let PlayerKind::Engine { file, .. } = &mut weak.kind {
        *file = Some(PathBuf::from(WEAK_PARAMS_FILE));
    }
    for p in [&default, &weak] {
        p.validate()?;
    }
    Ok(vec![default, weak])
}

/// `YYYYMMDD-HHMMSS` of a time, in UTC (times before 1970 give the epoch).
pub fn utc_stamp(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A directory under `root` named `<kind>-<UTC stamp>` that does not exist yet (`-2`, `-3`...
/// appended when several runs start within the same second).
pub fn timestamped_dir(root: &Path, kind: &str, now: SystemTime) -> PathBuf {
    let base = format!("{kind}-{}", utc_stamp(now));
    let mut dir = root.join(&base);
    let mut k = 2;
    while dir.exists() {
        dir = root.join(format!("{base}-{k}"));
        k += 1;
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn weak_set_differs_in_two_weights() {
        let diff = weak_params().expect("valid").diff_from_default();
        assert_eq!(
            diff,
            [
                ("w_open_four".to_string(), 100),
                ("w_open_three".to_string(), 20)
            ]
        );
    }

    #[test]
    fn players_get_the_default_node_limit() {
        let p = players(&PlayerLimits::default()).expect("valid");
        assert_eq!(p[0].name, "default");
        assert_eq!(p[1].name, "weak");
        assert!(p.iter().all(|p| p.limits.nodes == Some(NODES)));
        let given = PlayerLimits {
            move_ms: Some(50),
            ..PlayerLimits::default()
        };
        let p = players(&given).expect("valid");
        assert!(p.iter().all(|p| p.limits.nodes.is_none()));
    }

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "19700101-000000");
        // 2024-02-29 23:59:59 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_709_251_199);
        assert_eq!(utc_stamp(t), "20240229-235959");
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_800); // 2100-01-01
        assert_eq!(utc_stamp(t), "21000101-000000");
    }

    #[test]
    fn timestamped_dirs_do_not_collide() {
        let root = std::env::temp_dir().join(format!("wuzi-default-match-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let now = UNIX_EPOCH + Duration::from_secs(1_709_251_199);
        let a = timestamped_dir(&root, "match", now);
        assert_eq!(a, root.join("match-20240229-235959"));
        std::fs::create_dir_all(&a).unwrap();
        let b = timestamped_dir(&root, "match", now);
        assert_eq!(b, root.join("match-20240229-235959-2"));
        let _ = std::fs::remove_dir_all(&root);
    }
}
