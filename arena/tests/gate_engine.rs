//! The gate on another engine's repository (issue 23, `gate --engine NAME`): a tiny C brain
//! (tests/data/tiny_brain.c) in a scratch git repository, built by its registry entry's `build`
//! recipe from each commit into a folder of its own. A commit that switches its blocking off
//! fails the gate (exit 1); a commit that changes only its README passes (exit 0); builds that
//! fail, or leave no brain, stop with exit 2 and keep the last report.
//!
//! The brain is deterministic and plays in well under a millisecond, so each gate is some
//! seconds: openings, the build (one `cc` per commit, cached) and at most 100 pairs, of which
//! the SPRT needs a few for the weakened commit and 50 for mirrored pairs.

#[path = "support/gate_util.rs"]
mod gate_util;

use std::path::{Path, PathBuf};
use std::process::Output;

use gate_util::{arena, built_gate, commit_all, git, text, Tmp};
use wuzi_arena::gate;

/// The brain as committed: `BLOCK` is what the weakened commit changes.
const TINY: &str = include_str!("data/tiny_brain.c");

/// The registry of the tests' brains (outside the repository, so it never makes it dirty).
const REGISTRY: &str = r#"
[brains.tiny]
build = 'cc -O2 -o "$WUZI_BUILD_OUT/pbrain-tiny" tiny.c'
binary = "pbrain-tiny"
settle-ms = 0

[brains.intree]
build = 'mkdir -p build && cc -O2 -o build/pbrain-tiny tiny.c && cp "$WUZI_REGISTRY_DIR/engines.toml" "$WUZI_BUILD_OUT/"'
binary = "build/pbrain-tiny"
settle-ms = 0

[brains.broken]
build = "echo compiling tiny.c; echo 'tiny.c:1: error: boom' >&2; exit 3"
binary = "pbrain-tiny"

[brains.nobin]
build = "echo nothing to do"
binary = "pbrain-none"

[brains.installed]
command = "/bin/true"
"#;

fn weakened() -> String {
    let weak = TINY.replace("#define BLOCK 1", "#define BLOCK 0");
    assert_ne!(weak, TINY, "the weakening applies");
    weak
}

/// The engine repository: the brain (`strong`), a README change (`docs`), the brain with its
/// blocking switched off (`weak`, HEAD).
struct EngineRepo {
    tmp: Tmp,
    repo: PathBuf,
    strong: String,
    docs: String,
    weak: String,
}

fn engine_repo(name: &str) -> EngineRepo {
    let tmp = Tmp::new(name);
    let repo = tmp.join("tiny");
    std::fs::create_dir_all(&repo).expect("dir");
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("tiny.c"), TINY).expect("writes");
    std::fs::write(repo.join("README"), "tiny, a Gomocup brain\n").expect("writes");
    std::fs::write(repo.join(".gitignore"), "/build/\n").expect("writes");
    let strong = commit_all(&repo, "tiny brain");
    std::fs::write(repo.join("README"), "tiny, a small Gomocup brain\n").expect("writes");
    let docs = commit_all(&repo, "README wording");
    std::fs::write(repo.join("tiny.c"), weakened()).expect("writes");
    let weak = commit_all(&repo, "stop blocking");
    std::fs::write(tmp.join("engines.toml"), REGISTRY).expect("writes");
    EngineRepo {
        tmp,
        repo,
        strong,
        docs,
        weak,
    }
}

impl EngineRepo {
    /// `wuzi-arena gate --engine ENGINE` on the repository ([`SMALL_GATE`] games), output in
    /// `out`, builds in the shared build folder.
    fn gate(&self, engine: &str, out: &Path, extra: &[&str]) -> Output {
        let registry = self.tmp.join("engines.toml").display().to_string();
        let own = ["--engines", &registry, "--engine", engine];
        built_gate(&self.repo, &self.tmp.join("build"), out, &own, extra)
    }
}

fn report(out: &Path) -> (serde_json::Value, String) {
    let json = std::fs::read_to_string(out.join(gate::REPORT_JSON)).expect("gate.json");
    let md = std::fs::read_to_string(out.join(gate::SUMMARY_MD)).expect("summary.md");
    (serde_json::from_str(&json).expect("parses"), md)
}

fn both(o: &Output) -> String {
    format!("{}{}", text(&o.stdout), text(&o.stderr))
}

/// Issue 23's done-when: the gate fails a weakened commit of a small engine repository that is
/// not wuzi (exit 1) and passes an unchanged one (exit 0); each commit is built once (the
/// baseline's build is reused by the second gate); the reports name the built commits of both
/// sides and say why no suite ran; the working tree is the candidate by default, `-dirty` with
/// local changes; one commit against itself is refused.
#[test]
fn engine_gate_fails_a_weakened_commit_and_passes_an_unchanged_one() {
    let e = engine_repo("engine-verdicts");
    let out = e.tmp.join("weakened");
    let o = e.gate(
        "tiny",
        &out,
        &["--baseline-ref", &e.strong, "--candidate-ref", &e.weak],
    );
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let (r, md) = report(&out);
    assert_eq!(r["decision"], "sprt-h0");
    assert_eq!(r["baseline_commit"], e.strong.as_str());
    assert_eq!(r["candidate_commit"], e.weak.as_str());
    assert!(md.contains(&e.strong) && md.contains(&e.weak), "{md}");
    assert!(
        md.contains("no suites: wuzi's rule and tactics suites"),
        "{md}"
    );
    assert_eq!(r["suites"].as_array().map(Vec::len), Some(0));
    let g = &r["games"]["wdl"];
    assert!(g["losses"].as_u64() > g["wins"].as_u64(), "{g}");
    let cached = e.tmp.join("build/tiny").join(&e.strong);
    assert!(cached.join("pbrain-tiny").is_file());
    assert!(cached.join(gate::BUILD_MARK).is_file());
    assert!(std::fs::read_to_string(out.join(gate::BUILD_LOG))
        .expect("build log")
        .contains("cc -O2"));

    // The README commit: another commit, the same brain; mirrored pairs pass. The baseline's
    // folder is reused, not rebuilt.
    let out = e.tmp.join("unchanged");
    let o = e.gate(
        "tiny",
        &out,
        &["--baseline-ref", &e.strong, "--candidate-ref", &e.docs],
    );
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    let err = text(&o.stderr);
    assert!(err.contains("reusing"), "{err}");
    let (r, md) = report(&out);
    assert_eq!(r["decision"], "sprt-h1");
    assert_eq!(r["candidate_commit"], e.docs.as_str());
    assert!(md.contains("cached build"), "{md}");
    let log = std::fs::read_to_string(out.join(gate::BUILD_LOG)).expect("build log");
    assert!(!log.contains(&format!("baseline {}", e.strong)), "{log}");

    // The working tree (HEAD, the weakened commit) by default; local changes are marked.
    let out = e.tmp.join("tree");
    let o = e.gate("tiny", &out, &["--baseline-ref", "HEAD~2", "--quiet"]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    assert_eq!(report(&out).0["candidate_commit"], e.weak.as_str());
    std::fs::write(e.repo.join("tiny.c"), TINY).expect("writes");
    let o = e.gate("tiny", &out, &["--baseline-ref", "HEAD~2", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    let (r, md) = report(&out);
    assert_eq!(r["candidate_commit"], format!("{}-dirty", e.weak).as_str());
    assert!(md.contains("built from the working tree"), "{md}");

    // One commit on both sides: mirror pairs that prove nothing.
    let o = e.gate(
        "tiny",
        &e.tmp.join("same"),
        &["--baseline-ref", &e.strong, "--candidate-ref", &e.strong],
    );
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    assert!(text(&o.stderr).contains("the same player"), "{}", both(&o));
}

/// Issue 23 point 6: a build that fails exits 2 with the end of its output; a build that
/// leaves no brain exits 2 naming where it looked; neither touches the last gate's report and
/// games in the output folder, nor leaves a worktree behind. A brain built inside the
/// checkout (`binary` not installed into `$WUZI_BUILD_OUT`) is copied into its commit's folder.
#[test]
fn engine_gate_bad_builds_exit_2_and_keep_the_last_report() {
    let e = engine_repo("engine-bad");
    let out = e.tmp.join("out");
    let refs = ["--baseline-ref", &e.strong, "--candidate-ref", &e.weak];
    let o = e.gate("intree", &out, &[&refs[..], &["--quiet"]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let copied = e.tmp.join("build/intree").join(&e.strong);
    assert!(copied.join("build/pbrain-tiny").is_file());
    assert!(copied.join("engines.toml").is_file(), "WUZI_REGISTRY_DIR");
    let kept = std::fs::read(out.join(gate::REPORT_JSON)).expect("gate.json");
    let games = std::fs::read(out.join("match/games.jsonl")).expect("games");

    let o = e.gate("broken", &out, &refs);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("building baseline {} failed", e.strong)),
        "{err}"
    );
    assert!(
        err.contains("exited with") && err.contains("tiny.c:1: error: boom"),
        "{err}"
    );
    assert!(err.contains("compiling tiny.c"), "the log's tail: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        std::fs::read(out.join(gate::REPORT_JSON)).ok(),
        Some(kept.clone())
    );
    assert_eq!(
        std::fs::read(out.join("match/games.jsonl")).ok(),
        Some(games.clone())
    );
    let list = git(&e.repo, &["worktree", "list", "--porcelain"]);
    assert_eq!(list.matches("worktree ").count(), 1, "{list}");

    let o = e.gate("nobin", &out, &refs);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("left no executable brain 'pbrain-none'"),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join(gate::REPORT_JSON)).ok(), Some(kept));
    assert_eq!(
        std::fs::read(out.join("match/games.jsonl")).ok(),
        Some(games)
    );
    // The failed build's folder has no build mark: the next gate builds again.
    assert!(!e
        .tmp
        .join("build/nobin")
        .join(&e.strong)
        .join(gate::BUILD_MARK)
        .exists());

    for (engine, extra, needle) in [
        ("installed", &refs[..], "has no build recipe"),
        ("tinny", &refs[..], "unknown brain 'tinny'"),
        (
            "tiny",
            &["--baseline-ref", "no-such-ref"][..],
            "'no-such-ref' is not a commit",
        ),
        ("tiny", &[][..], "--baseline-ref"),
    ] {
        let o = e.gate(engine, &out, extra);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{engine} {extra:?}: {err}");
        assert!(err.contains(needle), "{engine} {extra:?}: {err}");
    }
}

/// deploy/engine-gate.sh, as another engine's CI runs it in its checkout: a branch that
/// weakens the brain fails against its merge base with `main` (exit 1), a branch that changes
/// only the README passes (exit 0), each leaving report.html; and every flag of the GitHub
/// Actions version's gate step is one `wuzi-arena gate` knows.
#[test]
fn deploy_engine_gate_script_gates_a_branch_against_its_merge_base() {
    let e = engine_repo("engine-ci");
    let script = gate_util::workspace().join("deploy/engine-gate.sh");
    git(&e.repo, &["branch", "-f", "main", &e.strong]);
    let run = |branch: &str, out: &Path| {
        git(&e.repo, &["checkout", "-q", branch]);
        let o = std::process::Command::new("bash")
            .arg(&script)
            .arg("--concurrency")
            .arg("2")
            .arg("--quiet")
            .current_dir(&e.repo)
            .env("WUZI_ARENA", env!("CARGO_BIN_EXE_wuzi-arena"))
            .env("WUZI_ENGINES", e.tmp.join("engines.toml"))
            .env("ENGINE", "tiny")
            .env("BASE", "main")
            .env("PAIRS", "100")
            .env("OUT", out)
            .env("BUILD_DIR", e.tmp.join("build"))
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .expect("bash runs");
        assert!(out.join("report.html").is_file(), "{}", both(&o));
        o
    };
    git(&e.repo, &["checkout", "-q", "-b", "weaken", &e.weak]);
    let o = run("weaken", &e.tmp.join("ci-weak"));
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    assert!(
        text(&o.stdout).contains("engine-gate: FAIL"),
        "{}",
        both(&o)
    );
    git(&e.repo, &["checkout", "-q", "-b", "docs", &e.docs]);
    let o = run("docs", &e.tmp.join("ci-docs"));
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    assert_eq!(
        report(&e.tmp.join("ci-docs")).0["baseline_commit"],
        e.strong.as_str()
    );

    let workflow = std::fs::read_to_string(gate_util::workspace().join("deploy/engine-gate.yml"))
        .expect("workflow");
    let help = text(&arena(&["--help"], &[]).stdout);
    let step = workflow
        .split("- name: Strength gate")
        .nth(1)
        .and_then(|t| t.split("- name:").next())
        .expect("the gate step");
    let flags: Vec<&str> = step
        .split_whitespace()
        .filter(|w| w.starts_with("--"))
        .collect();
    assert!(flags.contains(&"--engine") && flags.contains(&"--baseline-ref"));
    for f in flags {
        assert!(
            help.contains(f),
            "{f} of deploy/engine-gate.yml is not a gate flag"
        );
    }
}
