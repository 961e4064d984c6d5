//! Helpers of the cross-crate journeys in `tests/tests/`: the README's commands as written
//! ([`readme`]), the workspace's built binaries ([`bin`]), temporary folders, and headless
//! Chromium ([`browser`]).
//!
//! The journeys run the real `wuzi-arena` and `wuzi-tune` binaries that `cargo test
//! --workspace` builds (the arena's and tuner's own integration tests need them) from the
//! target folder, with the README's commands parsed from its code blocks and only budgets
//! (pairs, nodes, output folders) changed, so a README command that stops working fails a test.

#![warn(missing_docs)]

pub mod browser;
pub mod readme;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::SystemTime;

/// The repository root (the workspace folder).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// Newest modification time of the files under `dir` (recursively).
fn newest(dir: &Path) -> Option<SystemTime> {
    let mut best = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let t = if path.is_dir() {
            newest(&path)
        } else {
            entry.metadata().ok().and_then(|m| m.modified().ok())
        };
        best = best.max(t);
    }
    best
}

/// The built binary `name` (`wuzi-arena`, `wuzi-tune`) beside this test's target folder, or
/// in `$WUZI_BIN_DIR`. Panics with what to run when it is missing or older than the sources
/// (`cargo test -p wuzi-tests` alone does not build other packages' binaries).
pub fn bin(name: &str) -> PathBuf {
    let dir = match std::env::var_os("WUZI_BIN_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            // target/<profile>/deps/<test exe>
            let exe = std::env::current_exe().expect("test executable");
            exe.parent()
                .and_then(Path::parent)
                .expect("target/<profile>/deps")
                .to_path_buf()
        }
    };
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let hint = "build the binaries first: `cargo build -p wuzi-arena -p wuzi-tuner` (`cargo test \
                --workspace` builds them), or set WUZI_BIN_DIR";
    let built = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|_| panic!("{} is missing: {hint}", path.display()));
    let root = repo_root();
    for src in [
        "engine/src",
        "arena/src",
        "arena/stats/src",
        "arena/charts/src",
        "arena/players/src",
        "arena/games/src",
        "arena/runs/src",
        "arena/reports/src",
        "tuner/src",
    ] {
        if let Some(t) = newest(&root.join(src)) {
            assert!(t <= built, "{} is older than {src}: {hint}", path.display());
        }
    }
    path
}

/// A temporary folder removed on drop (kept when `WUZI_KEEP_JOURNEYS` is set).
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh empty folder named after the journey.
    pub fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("wuzi-journey-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("WUZI_KEEP_JOURNEYS").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs `program args` in the repository root; its output.
pub fn run(program: &Path, args: &[String]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(repo_root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()))
}

/// Standard output and error of a finished command, for failure messages.
pub fn describe(args: &[String], out: &Output) -> String {
    format!(
        "`{}` exited with {:?}\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `program args` in the repository root with its standard output already closed by the
/// reader, as `| head` leaves it; its exit status and standard error.
pub fn run_with_closed_stdout(program: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("stderr reads");
    (child.wait().expect("ends").code(), err)
}
