//! Building another engine's brain from commits of its own repository (`gate --engine NAME`):
//! the registry entry's `build` command run in a git worktree of each commit, its `binary`
//! kept in a folder per commit and reused by later gates.
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::build::{checked_reference, git, resolve_commit, BuiltBrain, BuiltBrains, Worktree};
use super::config::{EngineGate, GateConfig, BUILD_LOG};
use super::error::GateError;
use super::results::GateEvent;
use wuzi_engine::build_info::BuildCommit;
use wuzi_players::registry::BuildRecipe;

/// The file that marks a commit's folder as built: what was built, how, and where the brain is.
pub const BUILD_MARK: &str = "wuzi-build.json";
/// The build's own log in a commit's folder.
pub const COMMIT_LOG: &str = "build.log";
/// The folder (under the engine's) of working-tree builds, rebuilt by every gate.
pub const WORKING_TREE: &str = "working-tree";
/// The environment variable naming the output folder a build may install the brain into.
pub const OUT_VAR: &str = "WUZI_BUILD_OUT";
/// The environment variable giving the build the commit it builds (`<hash>[-dirty]`).
pub const COMMIT_VAR: &str = "WUZI_BUILD_COMMIT";
/// The environment variable naming the registry file's folder, for files kept beside it.
pub const REGISTRY_DIR_VAR: &str = "WUZI_REGISTRY_DIR";
/// Lines of the build's output shown when it fails.
const TAIL_LINES: usize = 20;

/// What a finished build left: written last, so a folder without it is rebuilt.
#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct BuildMark {
    commit: String,
    build: String,
    binary: PathBuf,
    build_s: f64,
}

/// The build folder of engine gates: `--build-dir`, else `$XDG_CACHE_HOME/wuzi/gate-build`
/// (`~/.cache/wuzi/gate-build`), outside the engine's repository so that its builds never make
/// the working tree look changed.
pub fn engine_build_dir(config: &GateConfig) -> PathBuf {
    if let Some(d) = &config.build_dir {
        return d.clone();
    }
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("wuzi")
        .join("gate-build")
}

/// Builds both sides of an engine gate: the baseline `reference` and the candidate
/// ([`EngineGate::candidate_ref`], or the working tree of [`GateConfig::repo`]).
///
/// Each commit is built once into `<build dir>/<engine>/<commit>/`: checked out into a
/// temporary worktree (removed afterwards, whatever happens), the entry's `build` run there by
/// `sh -c` with [`OUT_VAR`] naming that folder, [`COMMIT_VAR`] the commit and
/// [`REGISTRY_DIR_VAR`] the registry's folder, and its `binary`
/// taken from the folder (where the build may have installed it with its files) or else copied
/// there from the worktree. [`BUILD_MARK`] is written last; a later gate finding it, for the same
/// recipe, plays that brain without building. The working tree is built in place, into
/// `<build dir>/<engine>/working-tree/`, every time. A failed build is
/// [`GateError::Build`] with the end of its output; a missing brain [`GateError::NoBinary`].
pub fn build_engine_brains(
    config: &GateConfig,
    engine: &EngineGate,
    reference: &str,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<BuiltBrains, GateError> {
    let name = &engine.brain.name;
    let recipe = engine.brain.build.as_ref().ok_or_else(|| {
        GateError::Config(format!(
            "brain '{name}' has no build recipe: give it build = \"...\" and binary = \"...\" \
             in the registry to gate it from its repository"
        ))
    })?;
    if name.starts_with('.') || name.contains(['/', '\\']) {
        return Err(GateError::Config(format!(
            "brain '{name}': a gated engine's name is a folder name (no '/', no leading '.')"
        )));
    }
    let top = PathBuf::from(git(&config.repo, &["rev-parse", "--show-toplevel"])?);
    let root = engine_build_dir(config).join(name);
    std::fs::create_dir_all(&root).map_err(|e| GateError::io(&root, e))?;
    std::fs::create_dir_all(&config.out).map_err(|e| GateError::io(&config.out, e))?;
    let log = config.out.join(BUILD_LOG);
    let _ = std::fs::remove_file(&log);
    let builder = Builder {
        top: &top,
        recipe,
        root: &root,
        log: &log,
    };
    let baseline = builder.commit(&format!("baseline {reference}"), reference, observer)?;
    let candidate = match &engine.candidate_ref {
        Some(r) => builder.commit(&format!("candidate {r}"), r, observer)?,
        None => builder.working_tree(observer)?,
    };
    Ok(BuiltBrains {
        candidate,
        baseline,
    })
}

/// What every build of one engine gate shares: the repository, the recipe, the engine's
/// build folder and the gate's build log.
struct Builder<'a> {
    top: &'a Path,
    recipe: &'a BuildRecipe,
    root: &'a Path,
    log: &'a Path,
}

impl Builder<'_> {
    /// The brain of `reference`'s commit: reused from its folder when built before with this
    /// recipe, else built.
    fn commit(
        &self,
        what: &str,
        reference: &str,
        observer: &mut dyn FnMut(GateEvent<'_>),
    ) -> Result<BuiltBrain, GateError> {
        let started = Instant::now();
        checked_reference(reference)?;
        let commit = &resolve_commit(self.top, reference)?;
        let dir = self.root.join(commit);
        let stamp = BuildCommit {
            hash: Some(commit.to_string()),
            dirty: false,
        };
        if let Some(path) = cached(&dir, self.recipe, commit) {
            observer(GateEvent::Message(&format!(
                "{what} ({commit}): reusing {}",
                path.display()
            )));
            return Ok(BuiltBrain {
                path,
                commit: stamp,
                reused: true,
                build_s: started.elapsed().as_secs_f64(),
            });
        }
        fresh_dir(&dir)?;
        let worktree = Worktree::add(self.top, commit)?;
        observer(GateEvent::Message(&format!(
            "checked out {what} ({commit}) in {}",
            worktree.path().display()
        )));
        let path = self.run(what, worktree.path(), &dir, commit, observer)?;
        worktree.remove()?;
        let build_s = started.elapsed().as_secs_f64();
        write_mark(&dir, self.recipe, commit, build_s)?;
        Ok(BuiltBrain {
            path,
            commit: stamp,
            reused: false,
            build_s,
        })
    }

    /// The working tree's brain, built in place (never cached: the tree changes); its commit is
    /// HEAD, `-dirty` when `git status` shows any change or untracked file.
    fn working_tree(
        &self,
        observer: &mut dyn FnMut(GateEvent<'_>),
    ) -> Result<BuiltBrain, GateError> {
        let started = Instant::now();
        let head = resolve_commit(self.top, "HEAD")?;
        let dirty = !git(self.top, &["status", "--porcelain"])?.is_empty();
        let commit = BuildCommit {
            hash: Some(head),
            dirty,
        };
        let dir = self.root.join(WORKING_TREE);
        fresh_dir(&dir)?;
        let path = self.run(
            "the candidate (working tree)",
            self.top,
            &dir,
            &commit.stamp(),
            observer,
        )?;
        Ok(BuiltBrain {
            path,
            commit,
            reused: false,
            build_s: started.elapsed().as_secs_f64(),
        })
    }

    /// Runs the recipe's command in `source` (output to `out/build.log`, then appended to the
    /// gate's `log`) and finds the brain: `out/<binary>`, else `source/<binary>` copied there.
    fn run(
        &self,
        what: &str,
        source: &Path,
        out: &Path,
        commit: &str,
        observer: &mut dyn FnMut(GateEvent<'_>),
    ) -> Result<PathBuf, GateError> {
        let (recipe, log) = (self.recipe, self.log);
        let fail = |message: String| GateError::Build {
            what: what.to_string(),
            message,
            log: log.to_path_buf(),
        };
        observer(GateEvent::Message(&format!(
            "building {what}: `{}` in {} (output folder {})",
            recipe.command,
            source.display(),
            out.display()
        )));
        let own_log = out.join(COMMIT_LOG);
        let mut file = std::fs::File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(&own_log)
            .map_err(|e| GateError::io(&own_log, e))?;
        let stderr = file.try_clone().map_err(|e| GateError::io(&own_log, e))?;
        let started = Instant::now();
        let status = Command::new("sh")
            .arg("-c")
            .arg(&recipe.command)
            .current_dir(source)
            .env(OUT_VAR, out)
            .env(COMMIT_VAR, commit)
            .env(REGISTRY_DIR_VAR, &recipe.registry_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::from(
                file.try_clone().map_err(|e| GateError::io(&own_log, e))?,
            ))
            .stderr(Stdio::from(stderr))
            .status()
            .map_err(|e| fail(format!("cannot run sh: {e}")))?;
        let mut output = String::new();
        let _ = file.seek(SeekFrom::Start(0));
        let _ = file.read_to_string(&mut output);
        append_log(
            log,
            &format!(
            "==> building {what} in {} into {}: {}\n{output}==> {what}: {status} after {:.1} s\n",
            source.display(),
            out.display(),
            recipe.command,
            started.elapsed().as_secs_f64()
        ),
        );
        if !status.success() {
            let lines: Vec<&str> = output.lines().collect();
            let tail = lines[lines.len().saturating_sub(TAIL_LINES)..].join("\n");
            return Err(fail(format!(
                "`{}` exited with {status}:\n{tail}",
                recipe.command
            )));
        }
        let installed = out.join(&recipe.binary);
        let in_tree = source.join(&recipe.binary);
        if !is_executable(&installed) && is_executable(&in_tree) {
            if let Some(parent) = installed.parent() {
                std::fs::create_dir_all(parent).map_err(|e| GateError::io(parent, e))?;
            }
            std::fs::copy(&in_tree, &installed).map_err(|e| GateError::io(&installed, e))?;
        }
        if !is_executable(&installed) {
            return Err(GateError::NoBinary {
                what: what.to_string(),
                binary: recipe.binary.clone(),
                looked: vec![installed, in_tree],
                log: log.to_path_buf(),
            });
        }
        observer(GateEvent::Message(&format!(
            "built {what}: {} ({:.1} s)",
            installed.display(),
            started.elapsed().as_secs_f64()
        )));
        Ok(installed)
    }
}

/// The brain of a finished build of `commit` with this recipe in `dir`, if there is one.
fn cached(dir: &Path, recipe: &BuildRecipe, commit: &str) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dir.join(BUILD_MARK)).ok()?;
    let mark: BuildMark = serde_json::from_str(&text).ok()?;
    let path = dir.join(&recipe.binary);
    let same =
        mark.commit == commit && mark.build == recipe.command && mark.binary == recipe.binary;
    (same && is_executable(&path)).then_some(path)
}

/// Empties (or creates) a commit's output folder before its build.
fn fresh_dir(dir: &Path) -> Result<(), GateError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| GateError::io(dir, e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| GateError::io(dir, e))
}

fn write_mark(
    dir: &Path,
    recipe: &BuildRecipe,
    commit: &str,
    build_s: f64,
) -> Result<(), GateError> {
    let mark = BuildMark {
        commit: commit.to_string(),
        build: recipe.command.clone(),
        binary: recipe.binary.clone(),
        build_s,
    };
    let path = dir.join(BUILD_MARK);
    let text = serde_json::to_string_pretty(&mark).expect("a build mark serializes");
    std::fs::write(&path, text + "\n").map_err(|e| GateError::io(&path, e))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

fn append_log(log: &Path, text: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = f.write_all(text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit's folder is reused only for a finished build (its mark written) of the same
    /// commit with the same recipe, whose brain is still there and executable.
    #[test]
    fn cached_builds_need_their_mark_their_recipe_and_their_brain() {
        let dir = std::env::temp_dir().join(format!("wuzi-engine-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let recipe = BuildRecipe {
            command: "make".into(),
            binary: "pbrain-x".into(),
            registry_dir: dir.clone(),
        };
        let commit = "a".repeat(40);
        let brain = dir.join("pbrain-x");
        std::fs::write(&brain, "#!/bin/sh\n").expect("writes");
        assert_eq!(
            cached(&dir, &recipe, &commit),
            None,
            "no mark: an unfinished build"
        );
        write_mark(&dir, &recipe, &commit, 1.0).expect("mark");
        #[cfg(unix)]
        {
            assert_eq!(cached(&dir, &recipe, &commit), None, "not executable");
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        assert_eq!(cached(&dir, &recipe, &commit), Some(brain.clone()));
        let changed = BuildRecipe {
            command: "make -j2".into(),
            ..recipe.clone()
        };
        assert_eq!(
            cached(&dir, &changed, &commit),
            None,
            "another recipe builds anew"
        );
        assert_eq!(cached(&dir, &recipe, &"b".repeat(40)), None);
        std::fs::remove_file(&brain).expect("removes");
        assert_eq!(cached(&dir, &recipe, &commit), None, "the brain is gone");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
