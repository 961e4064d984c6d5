//! The `wuzi-tune` command line: bad specs exit with status 2 and name the key; a tune killed
//! mid-run and resumed ends exactly as an uninterrupted one; `--max-iterations`, `resume`,
//! `verify` and `check` work on real directories.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tune");

fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wuzi-tune-cli-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn tune_cmd(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn write_spec(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).expect("write spec");
    path
}

#[test]
fn bad_specs_exit_2_naming_the_key_and_range() {
    let dir = temp_dir("bad");
    for (text, words) in [
        (
            "pairs = 10\n[params.defense]\n",
            &[
                "params.defense",
                "unknown parameter",
                "did you mean 'defence'?",
            ][..],
        ),
        (
            "pairs = 10\n[params.defence]\nmin = 5\n",
            &["params.defence.min", "20..=200"][..],
        ),
        (
            "pairs = 10\n[params.radius]\nmax = 4\n",
            &["params.radius.max", "1..=3"][..],
        ),
        (
            "pairs = 10\n[params.defence]\nstart = 500\n",
            &["params.defence.start", "500", "20..=200"][..],
        ),
        (
            "pairs = 10\nconcurrancy = 2\n[params.defence]\n",
            &["spec.toml", "concurrancy"][..],
        ),
        ("pairs = 10\n[params.tempo]\nstep = 2\n", &["step"][..]),
        (
            "base = \"missing.toml\"\npairs = 10\n[params.tempo]\n",
            &[
                "spec.toml",
                "base: parameter file 'missing.toml'",
                "relative to the spec's own folder",
            ][..],
        ),
        ("pairs = 10 [", &["spec.toml"][..]),
    ] {
        let spec = write_spec(&dir, text);
        for sub in ["check", "tune"] {
            let o = tune_cmd(&[sub, "--spec", spec.to_str().expect("utf-8")]);
            assert_eq!(o.status.code(), Some(2), "{sub} {text}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.starts_with("error: "), "{e}");
            for w in words {
                assert!(e.contains(w), "{text}: '{w}' not in {e}");
            }
        }
    }
    // The example spec copied elsewhere (its base stays behind): the error names the spec,
    // the key and where the path was looked up, and prints the OS error once.
    let copy = dir.join("tune-example.toml");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/tune-example.toml"),
        &copy,
    )
    .expect("copies");
    let o = tune_cmd(&["check", "--spec", copy.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    for w in [
        "tune-example.toml: base: parameter file 'detuned.toml' read as ",
        "relative to the spec's own folder",
    ] {
        assert!(e.contains(w), "'{w}' not in {e}");
    }
    assert_eq!(e.matches("os error").count(), 1, "{e}");
    let o = tune_cmd(&["tune", "--spec", "/nonexistent/spec.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tune_cmd(&["resume", dir.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("tune.json"), "{}", stderr(&o));
    let o = tune_cmd(&["verify", dir.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

const SPEC: &str = r#"
pairs = 48
pairs_per_iteration = 2
seed = 3
[limits]
nodes = 300
hash_mb = 2
[params.defence]
r_end = 0.02
[params.w_four]
start = 200
r_end = 0.02
[verify]
pairs = 6
"#;

/// The iteration of the checkpoint in `dir`, if there is one.
fn checkpoint_iteration(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("state.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("iteration")?.as_u64()
}

#[test]
fn killed_and_stopped_tunes_resume_to_the_uninterrupted_result() {
    let t = Instant::now();
    let root = temp_dir("resume");
    let spec = write_spec(&root, SPEC);
    let spec = spec.to_str().expect("utf-8");
    let check = tune_cmd(&["check", "--spec", spec]);
    assert!(check.status.success(), "{}", stderr(&check));
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(text.contains("24 iterations of 2"), "{text}");

    // Uninterrupted, with its verification (records, summary and charts in whole/verify).
    let whole = root.join("whole");
    let o = tune_cmd(&[
        "tune",
        "--spec",
        spec,
        "--out",
        whole.to_str().expect("utf-8"),
        "--quiet",
        "--concurrency",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("24 of 24 iterations"), "{out}");
    assert!(out.contains("tuned vs start"), "{out}");
    for f in [
        "state.json",
        "tune.json",
        "history.csv",
        "tuned.toml",
        "start.toml",
        "paths.png",
        "paths.svg",
        "score.png",
        "score.svg",
        "verify/run.json",
        "verify/games.jsonl",
        "verify/summary.json",
        "verify/score.png",
        "verify/colours.svg",
        "verify/elo-running.svg",
    ] {
        assert!(whole.join(f).exists(), "{f} missing");
    }

    // Killed while running, then resumed (on another number of workers).
    let killed = root.join("killed");
    let mut child = Command::new(BIN)
        .args([
            "tune",
            "--spec",
            spec,
            "--out",
            killed.to_str().expect("utf-8"),
            "--quiet",
            "--no-verify",
            "--concurrency",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while checkpoint_iteration(&killed).unwrap_or(0) < 3 && Instant::now() < deadline {
        if child.try_wait().expect("waits").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    let at = checkpoint_iteration(&killed).expect("a checkpoint");
    eprintln!("killed at iteration {at}");
    // Resumed without repeating --no-verify: the checkpoint remembers it (resume used to
    // play the verification match anyway).
    let o = tune_cmd(&[
        "resume",
        killed.to_str().expect("utf-8"),
        "--quiet",
        "--concurrency",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !killed.join("verify").exists(),
        "verified despite --no-verify"
    );
    assert!(
        stderr(&o).contains("the tune was started with --no-verify"),
        "{}",
        stderr(&o)
    );

    // Stopped with --max-iterations, then continued with --resume and the spec.
    let stopped = root.join("stopped");
    let s = stopped.to_str().expect("utf-8");
    let o = tune_cmd(&[
        "tune",
        "--spec",
        spec,
        "--out",
        s,
        "--quiet",
        "--max-iterations",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("stopped after iteration 5 of 24"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stopped.join("verify").exists(),
        "no verification of an unfinished tune"
    );
    let o = tune_cmd(&["tune", "--spec", spec, "--out", s, "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "refuses to overwrite");
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    let o = tune_cmd(&[
        "tune",
        "--spec",
        spec,
        "--out",
        s,
        "--quiet",
        "--resume",
        "--no-verify",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    for dir in [&killed, &stopped] {
        for f in ["history.csv", "tuned.toml", "tune.json"] {
            assert_eq!(
                read(&dir.join(f)),
                read(&whole.join(f)),
                "{} {f}",
                dir.display()
            );
        }
        // The same checkpoint, but for the remembered --no-verify.
        let state = |d: &Path| {
            let mut v: serde_json::Value =
                serde_json::from_str(&read(&d.join("state.json"))).expect("json");
            let skip = v
                .as_object_mut()
                .expect("object")
                .remove("no_verify")
                .is_some_and(|b| b == serde_json::Value::Bool(true));
            (v, skip)
        };
        let (mine, skip) = state(dir);
        assert!(skip, "{}: --no-verify not kept", dir.display());
        assert_eq!(mine, state(&whole).0, "{} state.json", dir.display());
    }

    // A verification with other settings goes to its own directory.
    let o = tune_cmd(&[
        "verify",
        s,
        "--pairs",
        "3",
        "--sprt",
        "0,50",
        "--quiet",
        "--concurrency",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stopped.join("verify-3-3-sprt0_50/sprt.png").exists());
    eprintln!("cli resume test: {:.1} s", t.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&root);
}

/// `wuzi-tune --version` names the commit of HEAD as `wuzi` and `pbrain-wuzi` do (it showed
/// only `wuzi-tune 0.1.0`).
#[test]
fn version_names_the_build_commit() {
    use wuzi_engine::build_info::{commit_from_version_output, VERSION_WITH_COMMIT};
    let o = tune_cmd(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        shown.starts_with(&format!("wuzi-tune {VERSION_WITH_COMMIT}\n")),
        "{shown}"
    );
    let commit = commit_from_version_output(&shown).expect("a commit line");
    let head = Command::new("git")
        .arg("-C")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success());
    if let Some(h) = head {
        let head = String::from_utf8_lossy(&h.stdout).trim().to_string();
        assert_eq!(commit.hash.as_deref(), Some(head.as_str()), "{shown}");
    }
}
