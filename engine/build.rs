//! Stamps the engine with the git commit it is built from, so every binary can say which code
//! it is (`pbrain-wuzi --version`, its `ABOUT` line, `wuzi --version`): the strength gate
//! checks that a brain built from a reference really is that reference's code.
//!
//! `WUZI_BUILD_COMMIT` (read by `src/build_info.rs`) becomes the full commit hash, with
//! `-dirty` appended when the engine's sources (`engine/` with its untracked files, the
//! workspace's `Cargo.toml` and `Cargo.lock`) differ from that commit, or `unknown` outside a git checkout of the workspace
//! (a source tarball, a packaged crate, no git installed). Setting `WUZI_BUILD_COMMIT` in the
//! build's environment overrides all that (packagers building from a tarball).
//!
//! The script reruns when the checked-out commit moves (HEAD and the branch it names) or an
//! engine source changes, not on every index update, so commits elsewhere in the repository do
//! not rebuild the engine.

use std::path::{Path, PathBuf};
use std::process::Command;

const VAR: &str = "WUZI_BUILD_COMMIT";

fn main() {
    println!("cargo:rerun-if-env-changed={VAR}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let given = std::env::var(VAR).ok().filter(|v| !v.trim().is_empty());
    let stamp = match given {
        Some(v) if short(v.trim()).is_some() => v.trim().to_ascii_lowercase(),
        Some(v) => {
            println!(
                "cargo:warning={VAR}='{v}' is not a commit hash (optionally -dirty); using unknown"
            );
            "unknown".to_string()
        }
        None => from_git().unwrap_or_else(|| "unknown".to_string()),
    };
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let short = short(&stamp).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env={VAR}={stamp}");
    // The version as binaries print it (`0.1.0 (abc1234)`): a literal for clap's attributes.
    println!("cargo:rustc-env=WUZI_VERSION={version} ({short})");
}

/// `abc1234` or `abc1234-dirty` for a stamp `<hex hash>[-dirty]`; `None` for anything else.
fn short(stamp: &str) -> Option<String> {
    let (hash, dirty) = match stamp.strip_suffix("-dirty") {
        Some(h) => (h, "-dirty"),
        None => (stamp, ""),
    };
    let ok = (7..=64).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| format!("{}{dirty}", hash[..7].to_ascii_lowercase()))
}

/// Runs git in `dir`; its trimmed output when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit (and dirty flag) of the git checkout this workspace is the top of, if any.
fn from_git() -> Option<String> {
    let engine = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let workspace = engine.parent()?.to_path_buf();
    // A tarball unpacked inside some other repository must not take that repository's commit.
    let top = PathBuf::from(git(&engine, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != workspace.canonicalize().ok()? {
        return None;
    }
    watch_head(&engine);
    let commit = git(&engine, &["rev-parse", "--verify", "HEAD^{commit}"])?;
    for f in ["Cargo.toml", "Cargo.lock"] {
        let p = workspace.join(f);
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    // `git diff HEAD` compares the files with the commit whatever is staged, so the index
    // (rewritten by many git commands) need not be watched.
    let clean = Command::new("git")
        .arg("-C")
        .arg(&workspace)
        .args([
            "diff",
            "--quiet",
            "HEAD",
            "--",
            "engine",
            "Cargo.toml",
            "Cargo.lock",
        ])
        .status()
        .ok()?;
    let untracked = git(
        &workspace,
        &["ls-files", "--others", "--exclude-standard", "--", "engine"],
    )?;
    match clean.code() {
        Some(0) if untracked.is_empty() => Some(commit),
        Some(0 | 1) => Some(format!("{commit}-dirty")),
        _ => None,
    }
}

/// Reruns the script when HEAD moves: the worktree's `HEAD` file and, on a branch, that
/// branch's ref (loose, else `packed-refs`). Only existing files are named: cargo reruns a
/// script on every build while a named file is missing.
fn watch_head(engine: &Path) {
    let path = |args: &[&str]| git(engine, args).map(|p| absolute(engine, &p));
    let Some(git_dir) = path(&["rev-parse", "--git-dir"]) else {
        return;
    };
    let common = path(&["rev-parse", "--git-common-dir"]).unwrap_or_else(|| git_dir.clone());
    let mut watch = vec![git_dir.join("HEAD")];
    if let Some(branch) = git(engine, &["symbolic-ref", "-q", "HEAD"]) {
        let loose = common.join(&branch);
        watch.push(if loose.exists() {
            loose
        } else {
            common.join("packed-refs")
        });
    }
    for p in watch.into_iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

/// `p` made absolute against `base` (git prints some paths relative to the folder it ran in).
fn absolute(base: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}
