//! Helpers of the gate's integration tests (`gate.rs`, `gate_engine.rs`): temporary folders,
//! git in scratch repositories and the `wuzi-arena gate` command. Included with
//! `#[path = "support/gate_util.rs"] mod gate_util;`, since Cargo builds every file directly in
//! `tests/` as a test of its own.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The small games of the built-brain gates: freestyle, at most 100 pairs, two at once.
pub const SMALL_GATE: [&str; 6] = [
    "--rule",
    "freestyle",
    "--pairs",
    "100",
    "--concurrency",
    "2",
];

/// A gate of built brains on `repo` ([`SMALL_GATE`] games, builds in `build`, report in `out`)
/// with the test's own arguments `own` and then `extra`.
pub fn built_gate(repo: &Path, build: &Path, out: &Path, own: &[&str], extra: &[&str]) -> Output {
    let (repo, build, out) = (
        repo.display().to_string(),
        build.display().to_string(),
        out.display().to_string(),
    );
    let mut args = SMALL_GATE.to_vec();
    args.extend(["--repo", &repo, "--build-dir", &build, "--out", &out]);
    args.extend_from_slice(own);
    args.extend_from_slice(extra);
    arena(&args, &[])
}

/// A temporary directory removed on drop.
pub struct Tmp(pub PathBuf);

impl Tmp {
    pub fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("wuzi-gate-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        Tmp(p)
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// `wuzi-arena gate ARGS` from the workspace root, with `envs` set and no job summary.
pub fn arena(args: &[&str], envs: &[(&str, &Path)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"));
    c.current_dir(workspace()).arg("gate").args(args);
    c.env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().expect("runs")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs git with `args` in `dir` (as a test user); its standard output.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=gate test",
            "-c",
            "user.email=gate@test.invalid",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// Commits everything in `repo`; the new HEAD's hash.
pub fn commit_all(repo: &Path, message: &str) -> String {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
    git(repo, &["rev-parse", "HEAD"]).trim().to_string()
}
