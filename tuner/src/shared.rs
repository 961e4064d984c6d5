//! Shared tunes: one SPSA tune run by several worker processes (on one machine or many, with
//! a shared filesystem) pointed at one tune folder, asynchronous as fishtest runs its SPSA.
//!
//! Every node runs `wuzi-tune tune --spec SPEC --out DIR --shared`: [`work`] runs the tune's
//! one SPSA loop ([`crate::tune::drive`]) on the folder's [`SharedStore`], whose
//! documentation describes the claims, leases and steps. The worker that applies the last
//! step draws the charts and plays the verification.

use std::time::Instant;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::store::shared::SharedStore;
use crate::tune::{drive, Ended, TuneProgress};

pub use crate::folder::{SHARED_FILE, WORKERS_DIR};
pub use crate::store::shared::{
    Abandoned, BinaryId, Claim, SharedState, WorkerOptions, WorkerOutcome, WorkerStats,
};

/// Runs one worker of the shared tune in `opts.dir` until every iteration is applied.
/// `observer` sees the shared progress after each step this worker applies.
pub fn work(
    config: &TuneConfig,
    opts: &WorkerOptions,
    observer: &mut dyn FnMut(&TuneProgress<'_>),
) -> Result<WorkerOutcome> {
    config.validate()?;
    wuzi_arena::interrupt::games_started();
    let mut store = SharedStore::open(config, opts)?;
    let started = Instant::now();
    let mut games_played = 0;
    match drive(
        config,
        &mut store,
        opts.concurrency,
        started,
        &mut games_played,
        observer,
    )? {
        Ended::Done => store.close(),
        // The claim stays until its lease runs out; another worker then plays it again.
        Ended::Interrupted => Err(TuneError::Interrupted),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::folder::HISTORY_FILE;
    use crate::spec::TuneSpec;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wuzi-shared-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn small() -> TuneConfig {
        TuneSpec::parse(
            "pairs = 8\npairs_per_iteration = 4\nseed = 1\n[limits]\nnodes = 100\nhash_mb = 2\n\
             [params.defence]\nmin = 20\nmax = 200\n",
            Path::new("t.toml"),
        )
        .and_then(|s| s.resolve(Path::new(".")))
        .expect("valid")
    }

    /// A full disk while the state is replaced: an error naming the file, the state and the
    /// history untouched, and the tune completes once there is room again.
    #[test]
    #[cfg(target_os = "linux")]
    fn full_disk_leaves_the_state_intact() {
        let dir = temp_dir("full");
        let config = small();
        let opts = WorkerOptions::new(&dir, 1);
        // Creates the tune.
        drop(SharedStore::open(&config, &opts).expect("creates"));
        let state_before = std::fs::read(dir.join(SHARED_FILE)).expect("state");
        let history_before = std::fs::read(dir.join(HISTORY_FILE)).expect("history");
        // Writes of the next shared.json land on /dev/full (ENOSPC), as on a full disk.
        let tmp = dir.join(format!("{SHARED_FILE}.tmp"));
        std::os::unix::fs::symlink("/dev/full", &tmp).expect("symlink");
        let e = work(&config, &opts, &mut |_| {}).unwrap_err().to_string();
        assert!(e.contains("shared.json"), "{e}");
        assert_eq!(
            std::fs::read(dir.join(SHARED_FILE)).expect("state"),
            state_before
        );
        assert_eq!(
            std::fs::read(dir.join(HISTORY_FILE)).expect("h"),
            history_before
        );
        std::fs::remove_file(&tmp).expect("room again");
        let o = work(&config, &opts, &mut |_| {}).expect("completes");
        assert_eq!(o.state.applied, 2);
        assert_eq!(o.history.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
