//! Shared tunes: several `wuzi-tune tune --shared` processes on one folder complete the
//! budget's pairs, a worker killed with SIGKILL mid-batch costs only its batch, the tuned set
//! recovers from `detuned.toml`, one worker equals the one-machine tune, and bad input (other
//! spec, other engine, damaged state) is refused with status 2 naming the file.
//!
//! The heavy twin (`--ignored`) runs the example spec's budget and compares the tuned set
//! with the defaults.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wuzi_tuner::setting::Setting;
use wuzi_tuner::shared::{work, SharedState, WorkerOptions, SHARED_FILE};
use wuzi_tuner::spec::{TuneConfig, TuneSpec};
use wuzi_tuner::tune::{tune, TuneOptions};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tune");

fn params_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params")
}

fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wuzi-tune-shared-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The detuned proof tune with the example spec's gains (adam, `travel = 3`): defence and
/// w_open_three from detuned.toml,
/// `pairs` pairs at `nodes` nodes, verification on `verify_pairs` random openings.
fn proof_spec(pairs: u64, nodes: u64, verify_pairs: u64) -> String {
    proof_spec_seeded(pairs, nodes, verify_pairs, 1)
}

/// [`proof_spec`] with another seed (the tune's perturbations and the openings).
fn proof_spec_seeded(pairs: u64, nodes: u64, verify_pairs: u64, seed: u64) -> String {
    format!(
        "base = \"{}\"\npairs = {pairs}\npairs_per_iteration = 8\nseed = {seed}\n\
         openings = \"random:{pairs}\"\n[limits]\nnodes = {nodes}\n\
         [params.defence]\nmin = 20\nmax = 200\ntravel = 3\n\
         [params.w_open_three]\nmin = 5\nmax = 400\ntravel = 3\n\
         [verify]\npairs = {verify_pairs}\nopenings = \"random:{verify_pairs}\"\n",
        params_dir().join("detuned.toml").display()
    )
}

fn worker(spec: &Path, out: &Path, lease_s: &str) -> Child {
    Command::new(BIN)
        .args(["tune", "--spec"])
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args([
            "--shared",
            "--concurrency",
            "1",
            "--quiet",
            "--lease-s",
            lease_s,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

fn state(dir: &Path, spec: &str) -> SharedState {
    let config = TuneSpec::parse(spec, Path::new("spec.toml"))
        .and_then(|s| s.resolve(&params_dir()))
        .expect("valid spec");
    SharedState::load(&dir.join(SHARED_FILE), &config).expect("state loads")
}

fn elo(summary: &Path) -> (f64, f64, f64) {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(summary).expect("reads")).expect("json");
    let e = &v["matchups"][0]["elo"];
    let f = |k: &str| e[k].as_f64().unwrap_or_else(|| panic!("{k} in {e}"));
    (f("value"), f("lower"), f("upper"))
}

/// Starts `n` workers, kills the first with SIGKILL while it plays its first batch, waits for
/// the others; returns their outputs and the killed worker's process id.
fn run_workers_killing_one(spec: &Path, out: &Path, n: usize) -> (Vec<Output>, u32) {
    let mut children: Vec<Child> = (0..n).map(|_| worker(spec, out, "4")).collect();
    let victim = children[0].id();
    let tag = format!("-{victim}-");
    let t = Instant::now();
    // Kill the victim while it holds a claim (so its batch is outstanding and must be given
    // up and played again) but not the lock: a worker killed inside the lock leaves it for
    // the stale-lock limit, which tests something else (the store's unit tests cover it).
    loop {
        let claimed = std::fs::read_to_string(out.join(SHARED_FILE))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| {
                v["claims"].as_array().map(|cs| {
                    cs.iter()
                        .any(|c| c["worker"].as_str().is_some_and(|w| w.contains(&tag)))
                })
            })
            .unwrap_or(false);
        let locked_by_victim = std::fs::read_to_string(out.join("lock"))
            .map(|t| t.contains(&tag))
            .unwrap_or(false);
        if claimed && !locked_by_victim {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the worker never claimed a batch"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    children[0].kill().expect("SIGKILL");
    let _ = children[0].wait();
    let outs = children
        .into_iter()
        .skip(1)
        .map(|c| c.wait_with_output().expect("waits"))
        .collect();
    (outs, victim)
}

fn check_completed(dir: &Path, spec: &str, pairs: u64, outs: &[Output], victim: u32) {
    for o in outs {
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    }
    let s = state(dir, spec);
    let iterations = pairs.div_ceil(8);
    assert_eq!(s.applied, iterations);
    // Every pair of the budget counted exactly once: the killed batch was played again.
    assert_eq!(s.totals.games(), 2 * pairs);
    assert!(s.claims.is_empty() && s.requeued.is_empty());
    assert!(
        s.abandoned
            .iter()
            .any(|a| a.worker.contains(&format!("-{victim}-"))),
        "{:?}",
        s.abandoned
    );
    let history = std::fs::read_to_string(dir.join("history.csv")).expect("history");
    assert_eq!(history.lines().count() as u64, iterations + 1);
    let finishers = outs
        .iter()
        .filter(|o| text(&o.stdout).contains("verification: tuned vs start"))
        .count();
    assert_eq!(finishers, 1, "exactly one worker verifies");
    for f in [
        "tuned.toml",
        "paths.png",
        "score.png",
        "verify/summary.json",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let status = Command::new(BIN)
        .arg("status")
        .arg(dir)
        .output()
        .expect("runs");
    let st = text(&status.stdout);
    assert!(
        st.contains(&format!("{iterations} of {iterations} iterations applied")),
        "{st}"
    );
    assert!(st.contains("given up"), "{st}");
}

/// Four workers on the detuned proof tune (240 pairs at 400 nodes, as the one-process proof
/// test), one killed mid-batch: the budget is played, the tuned set beats the start.
#[test]
fn four_workers_one_killed_complete_the_tune_and_recover() {
    // Where four racing workers leave the two values varies from run to run (which theta an
    // iteration reads depends on which results are in): on f181150's engine three runs ended
    // at (293, 200), (5, 200) and (218, 200), and even (5, 200) beats the start, +56 ± 40 at
    // 400 nodes; but on 54f17d3 one CI run ended at (12.7, 53.9), level with the start
    // (-0.0 ± 46.7). So the strength claim gets a second tune on a fresh seed when the first
    // does not win: a broken tuner fails both, a good one failing both by the race's luck is
    // about the square of that one-in-tens chance. The mechanics (budget, the killed batch
    // played again, one verifier) are checked on every attempt.
    let mut results = Vec::new();
    for seed in [1, 2] {
        let (theta, elo) = four_workers_one_killed(seed);
        let (w_open_three, defence) = (theta[0], theta[1]);
        eprintln!(
            "seed {seed}: tuned {theta:?}: tuned vs start Elo {:+.1} [{:+.1}, {:+.1}]",
            elo.0, elo.1, elo.2
        );
        let moved = (w_open_three - 40.0).abs() + (defence - 45.0).abs() > 20.0;
        if moved && elo.1 > 0.0 {
            return;
        }
        results.push((seed, theta, elo));
    }
    panic!(
        "on two seeds the tune did not move (start w_open_three 40, defence 45) or the tuned \
         set did not beat the start (seed, theta, (Elo, lower, upper)): {results:?}"
    );
}

/// One attempt of the test above on `seed`: returns the tuned theta and the verification's
/// (Elo, lower, upper) once the shared mechanics are checked.
fn four_workers_one_killed(seed: u64) -> (Vec<f64>, (f64, f64, f64)) {
    let dir = temp_dir(&format!("four-{seed}"));
    let spec_text = proof_spec_seeded(240, 400, 100, seed);
    let spec = dir.join("spec.toml");
    std::fs::write(&spec, &spec_text).expect("spec");
    let out = dir.join("tune");
    let (outs, victim) = run_workers_killing_one(&spec, &out, 4);
    check_completed(&out, &spec_text, 240, &outs, victim);
    let s = state(&out, &spec_text);
    let elo = elo(&out.join("verify/summary.json"));
    let _ = std::fs::remove_dir_all(&dir);
    (s.theta, elo)
}

/// The example spec's budget (800 pairs at 500 nodes, 400 verification pairs) with 4
/// workers, one killed; then the tuned set against the defaults.
#[test]
#[ignore = "a few minutes in release: the example spec's budget (cargo test --release -p wuzi-tuner --test shared -- --ignored)"]
fn four_workers_on_the_example_budget() {
    let dir = temp_dir("example");
    let spec_text = proof_spec(800, 500, 400);
    let spec = dir.join("spec.toml");
    std::fs::write(&spec, &spec_text).expect("spec");
    let out = dir.join("tune");
    let (outs, victim) = run_workers_killing_one(&spec, &out, 4);
    check_completed(&out, &spec_text, 800, &outs, victim);
    let (value, lower, upper) = elo(&out.join("verify/summary.json"));
    eprintln!("tuned vs start Elo {value:+.1} [{lower:+.1}, {upper:+.1}]");
    assert!(lower > 0.0);
    // The tuned set against the defaults (the tune's verification settings, 200 pairs).
    let mut config = wuzi_tuner::tune::load_config(&out).expect("config");
    config.verify.pairs = 200;
    let tuned = wuzi_engine::Params::load(&out.join("tuned.toml")).expect("tuned.toml");
    let v = wuzi_tuner::verify::verify(
        &config,
        &Setting::Engine(tuned),
        &Setting::Engine(wuzi_engine::Params::default()),
        2,
        None,
        &mut |_| {},
    )
    .expect("plays");
    let e = v.elo.expect("an estimate");
    eprintln!(
        "tuned vs defaults Elo {:+.1} [{:+.1}, {:+.1}]",
        e.value, e.lower, e.upper
    );
    assert!(e.value > -40.0, "tuned vs defaults {e:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One worker with --shared claims the iterations in order and applies each step to the theta
/// it was drawn around: exactly the one-machine tune.
#[test]
fn one_shared_worker_equals_the_one_machine_tune() {
    let text = "base = \"detuned.toml\"\npairs = 20\npairs_per_iteration = 4\nseed = 3\n\
                [limits]\nnodes = 200\nhash_mb = 2\n[params.defence]\nmin = 20\nmax = 200\n\
                r_end = 0.02\n[params.w_open_three]\nmin = 5\nmax = 400\nr_end = 0.02\n";
    let config: TuneConfig = TuneSpec::parse(text, Path::new("t.toml"))
        .and_then(|s| s.resolve(&params_dir()))
        .expect("valid");
    let single = tune(
        &config,
        &TuneOptions {
            concurrency: 2,
            out: None,
            resume: false,
            max_iterations: None,
            no_verify: false,
        },
        &mut |_| {},
    )
    .expect("tunes");
    let dir = temp_dir("one");
    let o = work(&config, &WorkerOptions::new(&dir, 2), &mut |_| {}).expect("works");
    assert!(o.finisher);
    assert_eq!(o.state.theta, single.theta);
    assert_eq!(o.history, single.history);
    assert_eq!(o.state.totals, single.totals);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Workers with another spec or another engine, a damaged shared state, a one-machine tune
/// run on a shared folder: status 2, the file named, nothing changed.
#[test]
fn bad_workers_and_damaged_state_are_refused() {
    let dir = temp_dir("bad");
    let small = "pairs = 8\npairs_per_iteration = 4\nseed = 1\n[limits]\nnodes = 100\n\
                 hash_mb = 2\n[params.defence]\nmin = 20\nmax = 200\n";
    let spec = dir.join("spec.toml");
    std::fs::write(&spec, small).expect("spec");
    let out = dir.join("tune");
    let run = |spec: &Path, extra: &[&str]| {
        Command::new(BIN)
            .args(["tune", "--spec"])
            .arg(spec)
            .arg("--out")
            .arg(&out)
            .args(["--quiet", "--no-verify", "--concurrency", "1"])
            .args(extra)
            .output()
            .expect("runs")
    };
    let ok = run(&spec, &["--shared"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let shared = out.join(SHARED_FILE);
    let before = std::fs::read(&shared).expect("state");

    let other = dir.join("other.toml");
    std::fs::write(&other, small.replace("seed = 1", "seed = 2")).expect("spec");
    let o = run(&other, &["--shared"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tune.json") && err.contains("same spec"),
        "{err}"
    );

    // Another engine: the fingerprint recorded by the tune differs.
    let v: String = String::from_utf8(before.clone()).expect("utf8");
    let fp = v
        .split("\"fingerprint\": \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a fingerprint")
        .to_string();
    std::fs::write(&shared, v.replace(&fp, "0123456789abcdef")).expect("writes");
    let o = run(&spec, &["--shared"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("shared.json") && err.contains("same build"),
        "{err}"
    );

    for damaged in [&b"{\"format\": 1, \"next\": "[..], &b"{}"[..]] {
        std::fs::write(&shared, damaged).expect("writes");
        for args in [&["--shared"][..], &[][..]] {
            let o = run(&spec, args);
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(err.contains("shared.json"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
            assert_eq!(std::fs::read(&shared).expect("reads"), damaged, "unchanged");
        }
        let o = Command::new(BIN)
            .arg("status")
            .arg(&out)
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(2));
        assert!(text(&o.stderr).contains("shared.json"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
