//! Building the baseline (and candidate) brain from a git commit: a worktree, a separate
//! target folder, the commit stamp checked, the binary cached per commit.
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::config::{GateConfig, BASELINE, BRAIN_BIN, BUILD_LOG, CANDIDATE};
use super::error::GateError;
use super::results::GateEvent;
use wuzi_engine::build_info::{commit_from_version_output, BuildCommit};

/// Runs git with `args` in `dir`; its trimmed standard output, or [`GateError::Git`].
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, GateError> {
    let command = args.join(" ");
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| GateError::Git {
            command: command.clone(),
            message: format!("cannot run git: {e}"),
        })?;
    if !out.status.success() {
        return Err(GateError::Git {
            command,
            message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A detached `git worktree` in a temporary folder, removed when dropped.
#[derive(Debug)]
pub struct Worktree {
    repo: PathBuf,
    path: PathBuf,
    commit: String,
}

impl Worktree {
    /// Checks out `reference` of the repository containing `repo` into a new temporary folder
    /// (`git worktree add --detach`).
    pub fn add(repo: &Path, reference: &str) -> Result<Worktree, GateError> {
        checked_reference(reference)?;
        let top = PathBuf::from(git(repo, &["rev-parse", "--show-toplevel"])?);
        let commit = resolve_commit(&top, reference)?;
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "wuzi-gate-{}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            &commit[..commit.len().min(12)]
        ));
        let path_text = path.display().to_string();
        git(
            &top,
            &[
                "worktree", "add", "--detach", "--quiet", &path_text, &commit,
            ],
        )?;
        Ok(Worktree {
            repo: top,
            path,
            commit,
        })
    }

    /// The checked-out folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The full commit hash checked out.
    pub fn commit(&self) -> &str {
        &self.commit
    }

    /// Removes the worktree now (also done on drop).
    pub fn remove(self) -> Result<(), GateError> {
        let result = self.remove_now();
        std::mem::forget(self);
        result
    }

    fn remove_now(&self) -> Result<(), GateError> {
        let path_text = self.path.display().to_string();
        let result = git(&self.repo, &["worktree", "remove", "--force", &path_text]);
        if self.path.exists() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
        let _ = git(&self.repo, &["worktree", "prune"]);
        result.map(drop)
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = self.remove_now();
    }
}

/// One built brain of a [`Baseline::GitRef`] gate.
#[derive(Clone, Debug)]
pub struct BuiltBrain {
    /// The binary, copied into the output folder (`out/bin/<side>/pbrain-wuzi`).
    pub path: PathBuf,
    /// The commit the binary reports (`--version`), as checked.
    pub commit: BuildCommit,
    /// The binary came from the build folder's cache of this commit (no build at all).
    pub reused: bool,
    /// Seconds spent building (or checking the cached binary).
    pub build_s: f64,
}

/// The two brains of a [`Baseline::GitRef`] gate, each checked to report its commit.
#[derive(Clone, Debug)]
pub struct BuiltBrains {
    /// The working tree's `pbrain-wuzi`; reports the tree's HEAD (`-dirty` with local changes).
    pub candidate: BuiltBrain,
    /// The reference's `pbrain-wuzi`; reports the reference's commit, clean.
    pub baseline: BuiltBrain,
}

/// The gate's build folder (`None` in the config: `gate-build` under `CARGO_TARGET_DIR`, else
/// under the repository's `target`).
pub(crate) fn build_dir(config: &GateConfig, top: &Path) -> PathBuf {
    if let Some(d) = &config.build_dir {
        return d.clone();
    }
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => PathBuf::from(t).join("gate-build"),
        _ => top.join("target").join("gate-build"),
    }
}

/// The folder cargo puts a profile's binaries in (`dev` builds go to `debug`).
pub(crate) fn profile_dir(profile: &str) -> &str {
    match profile {
        "dev" | "test" => "debug",
        "release" | "bench" => "release",
        other => other,
    }
}

/// Builds `pbrain-wuzi` with cargo `profile` from the workspace in `source` into the cargo
/// target folder `target`, appending the output to `log`; returns the binary.
pub fn build_brain(
    what: &str,
    source: &Path,
    target: &Path,
    profile: &str,
    log: &Path,
) -> Result<PathBuf, GateError> {
    let fail = |message: String| GateError::Build {
        what: what.to_string(),
        message,
        log: log.to_path_buf(),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| GateError::io(log, e))?;
    let _ = writeln!(
        file,
        "==> building {what} in {} into {} (profile {profile})",
        source.display(),
        target.display()
    );
    let started = Instant::now();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .current_dir(source)
        .args([
            "build",
            "--profile",
            profile,
            "-p",
            "wuzi-engine",
            "--bin",
            BRAIN_BIN,
        ])
        .arg("--target-dir")
        .arg(target)
        // Only this build's own folder and stamp: nothing inherited may point cargo elsewhere
        // or stamp the binary with another commit.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("WUZI_BUILD_COMMIT")
        .output()
        .map_err(|e| fail(format!("cannot run {}: {e}", cargo.to_string_lossy())))?;
    let _ = file.write_all(&out.stdout);
    let _ = file.write_all(&out.stderr);
    let _ = writeln!(
        file,
        "==> {what}: cargo {} after {:.1} s",
        out.status,
        started.elapsed().as_secs_f64()
    );
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(12)..].join("\n");
        return Err(fail(format!("cargo exited with {}:\n{tail}", out.status)));
    }
    let bin = target
        .join(profile_dir(profile))
        .join(format!("{BRAIN_BIN}{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(fail(format!("{} was not produced", bin.display())));
    }
    Ok(bin)
}

/// The commit a brain binary reports on `pbrain-wuzi --version` (its `commit` line);
/// `None` for a brain that names none (built before commit stamping) or does not run.
pub fn brain_commit(bin: &Path) -> Option<BuildCommit> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    commit_from_version_output(&String::from_utf8_lossy(&out.stdout))
}

/// Checks that `bin` reports commit `expected` (clean unless `dirty_ok`); the reported
/// commit, or [`GateError::WrongCommit`].
pub(crate) fn check_commit(
    what: &str,
    bin: &Path,
    expected: &str,
    dirty_ok: bool,
) -> Result<BuildCommit, GateError> {
    let reported = brain_commit(bin);
    match &reported {
        Some(c) if c.hash.as_deref() == Some(expected) && (dirty_ok || !c.dirty) => Ok(c.clone()),
        _ => Err(GateError::WrongCommit {
            what: what.to_string(),
            binary: bin.to_path_buf(),
            expected: expected.to_string(),
            reported: reported.map_or_else(
                || "no commit (a build from before commit stamping, or not a wuzi brain)".into(),
                |c| c.stamp(),
            ),
        }),
    }
}

/// Copies a built binary to `dest` (creating its folder), keeping it executable. The copy goes
/// to a temporary name first, so a concurrent reader never sees half a binary.
pub(crate) fn keep_binary(bin: &Path, dest: &Path) -> Result<PathBuf, GateError> {
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| GateError::io(parent, e))?;
    }
    let tmp = dest.with_extension(format!("tmp{}", std::process::id()));
    std::fs::copy(bin, &tmp).map_err(|e| GateError::io(&tmp, e))?;
    std::fs::rename(&tmp, dest).map_err(|e| GateError::io(dest, e))?;
    Ok(dest.to_path_buf())
}

/// Builds the two brains of a [`Baseline::GitRef`] gate and copies them into `out/bin/`.
///
/// The build folder holds one folder per cargo profile and, in it, `candidate/` (the cargo
/// target folder of the working tree) and one folder per baseline commit: its own cargo target
/// folder while it builds (removed afterwards) and the finished, checked `pbrain-wuzi`, which
/// later runs reuse without building.
/// Separate target folders are what keeps cargo from handing back the candidate's binary for
/// the reference (issue 14): in a shared one the reference's freshly checked-out sources look
/// older than the candidate's artefacts and cargo calls those fresh. The reference is checked
/// out into a temporary worktree, removed before this returns, whatever happens.
///
/// Each binary must report its commit on `--version`: the baseline the reference's commit
/// (clean), the candidate the working tree's HEAD (with `-dirty` for local changes);
/// anything else is [`GateError::WrongCommit`].
pub fn build_brains(
    config: &GateConfig,
    reference: &str,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<BuiltBrains, GateError> {
    checked_reference(reference)?;
    let top = PathBuf::from(git(&config.repo, &["rev-parse", "--show-toplevel"])?);
    let commit = resolve_commit(&top, reference)?;
    let head = resolve_commit(&top, "HEAD")?;
    let profile = config.build_profile.as_str();
    if profile.is_empty() || profile.contains(['/', '\\']) || profile.starts_with('-') {
        return Err(GateError::Config(format!("bad build profile '{profile}'")));
    }
    let root = build_dir(config, &top).join(profile);
    std::fs::create_dir_all(&root).map_err(|e| GateError::io(&root, e))?;
    std::fs::create_dir_all(&config.out).map_err(|e| GateError::io(&config.out, e))?;
    let log = config.out.join(BUILD_LOG);
    let _ = std::fs::remove_file(&log);
    let bin_dir = config.out.join("bin");
    let exe = format!("{BRAIN_BIN}{}", std::env::consts::EXE_SUFFIX);

    // The baseline first: its worktree lives only as long as its build.
    let started = Instant::now();
    let what = format!("baseline {reference}");
    let commit_dir = root.join(&commit);
    let cached = commit_dir.join(&exe);
    let reused = cached.is_file() && check_commit(&what, &cached, &commit, false).is_ok();
    if reused {
        observer(GateEvent::Message(&format!(
            "baseline {reference} ({commit}): reusing {}",
            cached.display()
        )));
    } else {
        let worktree = Worktree::add(&top, &commit)?;
        observer(GateEvent::Message(&format!(
            "checked out {reference} ({commit}) in {}",
            worktree.path().display()
        )));
        observer(GateEvent::Message(&format!(
            "building the baseline {reference} into {}",
            commit_dir.join("target").display()
        )));
        let built = build_brain(
            &what,
            worktree.path(),
            &commit_dir.join("target"),
            profile,
            &log,
        )?;
        check_commit(&what, &built, &commit, false)?;
        keep_binary(&built, &cached)?;
        worktree.remove()?;
        // Only the checked binary is used again (a commit's code never changes): its cargo
        // target folder, some hundreds of MB, would only fill the cache.
        let _ = std::fs::remove_dir_all(commit_dir.join("target"));
    }
    let baseline = BuiltBrain {
        path: keep_binary(&cached, &bin_dir.join(BASELINE).join(&exe))?,
        commit: check_commit(&what, &cached, &commit, false)?,
        reused,
        build_s: started.elapsed().as_secs_f64(),
    };
    observer(GateEvent::Message(&format!(
        "baseline {reference} reports commit {} ({:.1} s{})",
        baseline.commit.stamp(),
        baseline.build_s,
        if reused { ", cached" } else { "" }
    )));

    let started = Instant::now();
    let built = match &config.candidate_bin {
        Some(bin) => {
            observer(GateEvent::Message(&format!(
                "candidate: {} (already built; checked to report HEAD {head})",
                bin.display()
            )));
            if !bin.is_file() {
                return Err(GateError::Config(format!(
                    "--candidate-bin {}: no such file",
                    bin.display()
                )));
            }
            bin.clone()
        }
        None => {
            let target = root.join(CANDIDATE);
            observer(GateEvent::Message(&format!(
                "building the candidate ({}) into {}",
                top.display(),
                target.display()
            )));
            build_brain("the candidate", &top, &target, profile, &log)?
        }
    };
    let candidate = BuiltBrain {
        commit: check_commit("the candidate", &built, &head, true)?,
        path: keep_binary(&built, &bin_dir.join(CANDIDATE).join(&exe))?,
        reused: false,
        build_s: started.elapsed().as_secs_f64(),
    };
    observer(GateEvent::Message(&format!(
        "candidate reports commit {} ({:.1} s)",
        candidate.commit.stamp(),
        candidate.build_s
    )));
    Ok(BuiltBrains {
        candidate,
        baseline,
    })
}

/// Refuses a git reference that is empty or that git would read as an option.
pub(crate) fn checked_reference(reference: &str) -> Result<(), GateError> {
    if reference.trim().is_empty() || reference.starts_with('-') {
        return Err(GateError::Config(format!(
            "bad git reference '{reference}'"
        )));
    }
    Ok(())
}

/// The full hash of the commit `reference` names in the repository at `top`.
pub(crate) fn resolve_commit(top: &Path, reference: &str) -> Result<String, GateError> {
    git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{reference}^{{commit}}"),
        ],
    )
    .map_err(|_| GateError::Git {
        command: format!("rev-parse {reference}"),
        message: format!("'{reference}' is not a commit of {}", top.display()),
    })
}
