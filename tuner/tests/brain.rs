//! Issue 23: `wuzi-tune tune` for an external brain (`[engine]` in the spec), its parameters
//! sent through the brain's parameter channel.
//!
//! - A fake brain (a shell script) whose `focus` parameter decides how many of its moves
//!   build its line: the tune moves `focus` up, by each of the three channels.
//! - `pbrain-wuzi` as an external brain, given its parameters over `INFO`, plays the
//!   in-process tune's games: the same history and theta (cheap, always run); the `#[ignore]`
//!   twin runs the example tune on it and checks that it recovers the detuning.
//! - A brain that refuses a parameter stops the tune with status 2, naming it.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

use wuzi_tuner::spec::{TuneConfig, TuneSpec};
use wuzi_tuner::tune::{tune, TuneOptions, TuneOutcome, HISTORY_FILE};

#[path = "../../arena/tests/support/pbrain.rs"]
mod pbrain;
use pbrain::pbrain;

fn params_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params")
}

fn tmp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("wuzi-tune-brain-{name}-"))
        .tempdir()
        .expect("temp dir")
}

fn resolve(text: &str, dir: &Path) -> TuneConfig {
    TuneSpec::parse(text, &dir.join("spec.toml"))
        .and_then(|s| s.resolve(dir))
        .unwrap_or_else(|e| panic!("valid spec: {e}\n{text}"))
}

fn run(config: &TuneConfig, out: &Path) -> TuneOutcome {
    let opts = TuneOptions {
        concurrency: 2,
        out: Some(out.to_path_buf()),
        resume: false,
        max_iterations: None,
        no_verify: true,
    };
    tune(config, &opts, &mut |_| {}).expect("the tune runs")
}

/// A brain that builds a line of five on its own row (black row 1, white row 3), wasting a
/// move whenever `(7 n) mod 10 >= focus` for its n-th move (on every other point of rows
/// 11 and 13, or 12 and 14 for white: wasted stones never make a five): the higher its
/// `focus` (2..10), the sooner its five. `focus` comes from `--focus=N`, from `fake.ini`
/// (`focus = N`) in its working folder, or from `INFO p_focus N`.
const FAKE: &str = r#"focus=2
for a in "$@"; do case "$a" in --focus=*) focus="${a#--focus=}" ;; esac; done
if [ -f fake.ini ]; then focus=$(sed -n 's/^focus *= *//p' fake.ini); fi
n=0; w=0; row=1; waste=11; stones=0; inboard=0
answer() {
  if [ $(( (n * 7) % 10 )) -lt "$focus" ]; then
    echo "$(( n - w )),$row"
  else
    echo "$(( 2 * (w % 8) )),$(( waste + 2 * (w / 8) ))"; w=$((w+1))
  fi
  n=$((n+1))
}
while read -r cmd a b; do
  if [ "$inboard" = 1 ]; then
    if [ "$cmd" = DONE ]; then
      inboard=0
      if [ $((stones % 2)) = 1 ]; then row=3; waste=12; fi
      answer
    else stones=$((stones+1)); fi
    continue
  fi
  case "$cmd" in
    START|RESTART) n=0; w=0; row=1; waste=11; stones=0; echo OK ;;
    ABOUT) echo 'name="focus", version="1"' ;;
    INFO) if [ "$a" = p_focus ]; then focus=$b; fi ;;
    BOARD) inboard=1 ;;
    BEGIN|TURN) answer ;;
    END) exit 0 ;;
  esac
done
"#;

/// The spec of a tune of the fake's `focus` by `channel` (the `[engine]` keys after `cmd`).
fn fake_spec(dir: &Path, channel: &str) -> String {
    let script = dir.join("fake.sh");
    std::fs::write(&script, FAKE).expect("writes");
    std::fs::write(dir.join("fake.ini.in"), "[play]\nfocus = {{focus}}\n").expect("writes");
    format!(
        "pairs = 48\npairs_per_iteration = 8\nseed = 5\nrule = \"freestyle\"\n\
         openings = \"renju26\"\n\n[limits]\nmove_ms = 5000\n\n\
         [engine]\ncmd = \"/bin/sh\"\nargs = [\"{}\"]\nsettle_ms = 0\n{channel}\n\n\
         [params.focus]\nstart = 4\nmin = 2\nmax = 10\nc_end = 1\nr_end = 0.1\ninteger = true\n",
        script.display()
    )
}

#[test]
fn the_tuner_moves_a_fake_brains_parameter_up_by_each_channel() {
    for (name, channel) in [
        ("info", "params = \"info\"\nparam_prefix = \"p_\""),
        (
            "args",
            "params = \"args\"\nparam_args = [\"--{name}={value}\"]",
        ),
        (
            "config",
            "params = \"config\"\nparam_template = \"fake.ini.in\"\nparam_file = \"fake.ini\"",
        ),
    ] {
        let dir = tmp(name);
        let config = resolve(&fake_spec(dir.path(), channel), dir.path());
        let o = run(&config, &dir.path().join("tune"));
        assert!(o.completed);
        assert!(o.theta[0] > 5.0, "{name}: focus 4 -> {}", o.theta[0]);
        let tuned = o.tuned.get("focus").expect("a value");
        assert!(
            tuned.parse::<i32>().expect("an integer") >= 5,
            "{name}: {tuned}"
        );
        let history =
            std::fs::read_to_string(dir.path().join("tune").join(HISTORY_FILE)).expect("history");
        assert_eq!(history.lines().count(), 1 + 6, "{name}: {history}");
    }
}

/// The example-like proof tune (detuned start, `defence` and `w_open_three`) on the engine
/// in-process, and as `[engine]` text for `pbrain-wuzi` started with the same base.
fn proof_specs(pairs: u64, nodes: u64, verify: u64) -> (String, String) {
    let common = format!(
        "pairs = {pairs}\npairs_per_iteration = 8\nseed = 1\nrule = \"renju\"\n\
         openings = \"random:{pairs}\"\n\n[limits]\nnodes = {nodes}\n\n\
         [verify]\npairs = {verify}\nopenings = \"random:{verify}\"\n\n"
    );
    let params = |extra: &str| {
        format!(
            "[params.defence]\nmin = 20\nmax = 200\nr_end = 0.02\n{extra}\
             [params.w_open_three]\nmin = 5\nmax = 400\nr_end = 0.02\n{}",
            extra.replace("45", "40")
        )
    };
    let inproc = format!("base = \"detuned.toml\"\n{common}{}", params(""));
    let external = format!(
        "{common}[engine]\ncmd = \"{}\"\nargs = [\"--params={}\"]\nparams = \"info\"\nsettle_ms = 0\n\n{}",
        pbrain(),
        params_dir().join("detuned.toml").display(),
        params("start = 45\ninteger = true\n")
    );
    (inproc, external)
}

/// Issue 23: at node limits `pbrain-wuzi` with its parameters over `INFO` plays exactly the
/// in-process engine's games, so the external tune follows the in-process one step by step.
#[test]
fn an_external_pbrain_wuzi_tune_is_the_in_process_tune() {
    let dir = tmp("same");
    let (inproc, external) = proof_specs(24, 300, 8);
    let a = resolve(&inproc, &params_dir());
    let b = resolve(&external, &params_dir());
    assert_eq!(a.spsa.start_theta(), b.spsa.start_theta());
    let names = |c: &TuneConfig| {
        c.spsa
            .params
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), names(&b), "the same order");
    let x = run(&a, &dir.path().join("in-process"));
    let y = run(&b, &dir.path().join("external"));
    assert_eq!(x.theta, y.theta);
    assert_eq!(x.totals, y.totals);
    let rows = |o: &TuneOutcome| {
        o.history
            .iter()
            .map(|r| (r.wins, r.draws, r.losses))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&x), rows(&y));
    assert_eq!(
        x.tuned.get("defence"),
        y.tuned.get("defence"),
        "tuned values agree"
    );
}

/// The example tune on `pbrain-wuzi` as an external brain
/// (`suites/params/tune-example-brain.toml`: 800 pairs at 500 nodes from detuned.toml's values)
/// recovers the detuning as the in-process tune does, and the tuned values
/// beat the start in the verification. Run with `cargo test --release -p wuzi-tuner --test
/// brain -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_example_tune_on_external_pbrain_wuzi_recovers_the_detuning() {
    let dir = tmp("example");
    // The spec's registry runs ../target/release/pbrain-wuzi: build it (a release test run
    // builds into that folder).
    let _ = pbrain();
    let c = TuneSpec::load(&params_dir().join("tune-example-brain.toml"))
        .and_then(|s| s.resolve(&params_dir()))
        .expect("the example spec resolves");
    let t = std::time::Instant::now();
    let o = run(&c, &dir.path().join("tune"));
    let tune_s = t.elapsed().as_secs_f64();
    let v = wuzi_tuner::verify::verify(&c, &o.tuned, &o.start, 2, None, &mut |_| {})
        .expect("verification runs");
    let elo = v.elo.expect("an Elo");
    eprintln!(
        "external pbrain-wuzi example tune: {} pairs in {tune_s:.0} s; theta {:?} -> {:?}; \
         tuned vs start {:?} penta {:?}: Elo {:+.1} [{:+.1}, {:+.1}]",
        c.pairs,
        c.spsa.start_theta(),
        o.theta,
        v.run.summary.matchups[0].wdl,
        v.run.summary.matchups[0].penta.counts,
        elo.value,
        elo.lower,
        elo.upper
    );
    let value = |n: &str| {
        o.theta[c
            .spsa
            .params
            .iter()
            .position(|p| p.name == n)
            .expect("tuned")]
    };
    let (defence, w_open_three) = (value("defence"), value("w_open_three"));
    assert!(defence > 60.0 && w_open_three > 60.0, "{:?}", o.theta);
    assert!(elo.lower > 0.0, "{elo:?}");
}

/// Issue 23: a brain that answers a parameter with `ERROR` stops the tune with status 2,
/// naming the parameter (pbrain-wuzi takes defence up to 200; the spec lets it go to 400).
#[test]
fn a_refused_parameter_stops_the_tune_with_status_2() {
    let dir = tmp("refused");
    let spec = dir.path().join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "pairs = 16\npairs_per_iteration = 8\nopenings = \"renju26\"\n\n[limits]\nnodes = 200\n\n\
             [engine]\ncmd = \"{}\"\nparams = \"info\"\nsettle_ms = 0\n\n\
             [params.defence]\nstart = 195\nmin = 20\nmax = 400\nc_end = 30\ninteger = true\n",
            pbrain()
        ),
    )
    .expect("writes");
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi-tune"))
        .args(["tune", "--quiet", "--no-verify", "--spec"])
        .arg(&spec)
        .arg("--out")
        .arg(dir.path().join("tune"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("parameter defence = ") && stderr.contains("refused"),
        "{stderr}"
    );
    assert!(stderr.contains("the tune stops"), "{stderr}");
}

/// The example spec of an external tune resolves: `[engine] brain` from the example registry
/// (whose `wuzi-release` is the release build's pbrain-wuzi, over INFO), its parameters in the
/// in-process example's order. The spec is resolved against a registry naming this test
/// build's pbrain-wuzi under the same name, since a fresh clone has no release build.
#[test]
fn the_example_external_spec_resolves() {
    let example =
        wuzi_arena::registry::Registry::load(&params_dir().join("../engines.example.toml"))
            .expect("the example registry loads");
    let release = example.get("wuzi-release").expect("there");
    assert!(
        release.command.ends_with("target/release/pbrain-wuzi"),
        "{}",
        release.command
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let registry = tmp.path().join("engines.toml");
    std::fs::write(
        &registry,
        format!(
            "[brains.wuzi-release]\ncommand = \"{}\"\nsettle-ms = 0\nparams = \"info\"\n",
            pbrain()
        ),
    )
    .expect("writes");
    // Random openings take a while to build in a debug build: the renju26 set instead.
    let load = |name: &str| {
        let mut spec = TuneSpec::load(&params_dir().join(name)).expect("parses");
        spec.openings = "renju26".into();
        spec.verify.openings = None;
        spec.verify.pairs = Some(26);
        if let Some(engine) = spec.engine.as_mut() {
            assert_eq!(engine.brain.as_deref(), Some("wuzi-release"));
            engine.engines = Some(registry.clone());
        }
        spec.resolve(&params_dir()).expect("resolves")
    };
    let (c, inproc) = (load("tune-example-brain.toml"), load("tune-example.toml"));
    assert_eq!(
        c.spsa, inproc.spsa,
        "the same parameters, schedule and seed"
    );
    assert_eq!(c.openings, inproc.openings);
    let brain = c.engine.as_ref().expect("an external brain");
    assert!(brain.to_string().contains(pbrain()), "{brain}");
    let e = TuneSpec::parse(
        &format!(
            "pairs = 8\n[engine]\nbrain = \"wuzi-release\"\nengines = \"{}\"\n\
             [params.defence]\nmin = 20\nmax = 200\n",
            registry.display()
        ),
        Path::new("x.toml"),
    )
    .and_then(|s| s.resolve(&params_dir()))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("params.defence.start") && e.contains("required"),
        "{e}"
    );
}
