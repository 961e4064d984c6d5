//! A lock on a tune folder that works across machines on a shared filesystem (NFS included).
//!
//! The lock is a file, `lock`, created with `O_CREAT | O_EXCL` (atomic on NFSv3 and later,
//! and on local filesystems), holding the owner's identity, a random token and the time it
//! was taken. The holder keeps it only while it reads and replaces the small state files (a
//! few milliseconds), so a lock older than the stale limit belongs to a process that died
//! inside that window: it is taken over by renaming it to a unique name (a rename is atomic)
//! and checking that the renamed file is the stale lock that was read, not a fresh one taken
//! meanwhile (which is then put back with a hard link, itself exclusive).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::{Result, TuneError};

/// The lock file's name in a tune folder.
pub const LOCK_FILE: &str = "lock";

/// What the lock file holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Owner {
    worker: String,
    token: u64,
    /// Unix time in ms when it was taken.
    taken_ms: u64,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A fresh random token (time, process id and a counter, mixed).
pub fn token() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    wuzi_arena::config::mix64(nanos ^ (u64::from(std::process::id()) << 32) ^ n.rotate_left(17))
}

/// A held lock; released on drop.
#[derive(Debug)]
pub struct DirLock {
    path: PathBuf,
    owner: Owner,
    /// Time spent waiting for the lock.
    pub waited: Duration,
    taken: Instant,
}

impl DirLock {
    /// Takes the lock of `dir`, waiting as long as needed; a lock older than `stale` is taken
    /// over (see the module documentation).
    pub fn acquire(dir: &Path, worker: &str, stale: Duration) -> Result<DirLock> {
        let path = dir.join(LOCK_FILE);
        let start = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            let owner = Owner {
                worker: worker.to_string(),
                token: token(),
                taken_ms: now_ms(),
            };
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let text = serde_json::to_string(&owner).expect("owners serialize");
                    f.write_all(text.as_bytes())
                        .and_then(|()| f.sync_all())
                        .map_err(|e| {
                            let _ = std::fs::remove_file(&path);
                            TuneError::io(&path, e)
                        })?;
                    return Ok(DirLock {
                        path,
                        owner,
                        waited: start.elapsed(),
                        taken: Instant::now(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    Self::take_over_if_stale(&path, stale)?;
                }
                Err(e) => return Err(TuneError::io(&path, e)),
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    /// Removes the lock at `path` if it is older than `stale`. A lock being written (empty or
    /// partial) is judged by its file time.
    fn take_over_if_stale(path: &Path, stale: Duration) -> Result<()> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(()); // released meanwhile
        };
        let age_ms = match serde_json::from_str::<Owner>(&text) {
            Ok(o) => now_ms().saturating_sub(o.taken_ms),
            Err(_) => std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .map_or(0, |d| d.as_millis() as u64),
        };
        if u128::from(age_ms) < stale.as_millis() {
            return Ok(());
        }
        let aside = path.with_file_name(format!("{LOCK_FILE}.stale-{:016x}", token()));
        if std::fs::rename(path, &aside).is_err() {
            return Ok(()); // someone else took it over first
        }
        let moved = std::fs::read_to_string(&aside).unwrap_or_default();
        if moved == text {
            eprintln!(
                "warning: {}: took over a lock held for {:.1} s by a process that stopped ({})",
                path.display(),
                age_ms as f64 / 1000.0,
                text.trim()
            );
            let _ = std::fs::remove_file(&aside);
        } else {
            // A fresh lock was taken between reading and renaming: give it back.
            let _ = std::fs::hard_link(&aside, path);
            let _ = std::fs::remove_file(&aside);
        }
        Ok(())
    }

    /// Is the lock file still this holder's (not taken over)?
    pub fn still_held(&self) -> bool {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<Owner>(&t).ok())
            .is_some_and(|o| o == self.owner)
    }

    /// Time the lock has been held.
    pub fn held(&self) -> Duration {
        self.taken.elapsed()
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        if self.still_held() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wuzi-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn lock_excludes_other_holders_and_stale_locks_are_taken_over() {
        let dir = temp_dir("excl");
        let counter = std::sync::Arc::new(std::sync::Mutex::new((0u32, 0u32)));
        let threads: Vec<_> = (0..4)
            .map(|i| {
                let (dir, counter) = (dir.clone(), counter.clone());
                std::thread::spawn(move || {
                    for _ in 0..25 {
                        let l = DirLock::acquire(&dir, &format!("t{i}"), Duration::from_secs(60))
                            .expect("locks");
                        {
                            let mut c = counter.lock().unwrap();
                            c.0 += 1;
                            assert_eq!(c.0, 1, "two holders at once");
                            c.1 += 1;
                        }
                        std::thread::sleep(Duration::from_micros(200));
                        counter.lock().unwrap().0 -= 1;
                        drop(l);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("no panic");
        }
        assert_eq!(counter.lock().unwrap().1, 100);
        assert!(!dir.join(LOCK_FILE).exists());

        // A lock left by a dead process: taken over once stale, not before.
        let dead = Owner {
            worker: "dead".into(),
            token: 1,
            taken_ms: now_ms() - 10_000,
        };
        std::fs::write(dir.join(LOCK_FILE), serde_json::to_string(&dead).unwrap()).unwrap();
        let t = Instant::now();
        let l = DirLock::acquire(&dir, "me", Duration::from_secs(5)).expect("takes over");
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(l.still_held());
        drop(l);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
