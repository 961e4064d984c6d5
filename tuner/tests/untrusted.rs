//! Tune folders edited by hand (issue 22): a `shared.json`, `state.json` or `history.csv` that
//! parses but holds a tune that cannot have happened (a value outside its range, results that
//! do not add up, iterations neither applied nor claimed, a garbled row) is refused by every
//! command that reads it, with status 2 and the file named, and left as it was: never
//! half-trusted (the engine would clamp a theta out of range; the report would count results
//! that were never played).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tune");

/// One parameter, two iterations of four pairs at 100 nodes.
const SPEC: &str = "pairs = 8\npairs_per_iteration = 4\nseed = 1\n[limits]\nnodes = 100\n\
                    hash_mb = 2\n[params.defence]\nmin = 20\nmax = 200\n";

fn tune(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

/// A temporary folder with [`SPEC`] (`spec.toml`) and its tune played into `tune/` (`--shared`
/// or not).
fn played(shared: bool) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let spec = tmp.path().join("spec.toml");
    std::fs::write(&spec, SPEC).expect("spec");
    let out = tmp.path().join("tune");
    play(&spec, &out, shared);
    (tmp, spec, out)
}

/// Plays the tune into `out` (`--shared` or not).
fn play(spec: &Path, out: &Path, shared: bool) {
    let mut args = vec![
        "tune",
        "--spec",
        spec.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
        "--quiet",
        "--no-verify",
        "--concurrency",
        "1",
    ];
    if shared {
        args.push("--shared");
    }
    let o = tune(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Every command in `commands` must exit 2 naming `file` and leave it unchanged.
fn refused(what: &str, commands: &[Vec<&str>], path: &Path, file: &str) {
    let before = std::fs::read(path).expect("reads");
    for args in commands {
        let o = tune(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {args:?}: {err}");
        assert!(err.contains(file), "{what}: {args:?}: {err}");
        assert!(!err.contains("panicked"), "{what}: {args:?}: {err}");
        assert_eq!(
            std::fs::read(path).expect("reads"),
            before,
            "{what}: unchanged"
        );
    }
}

/// `text` with its JSON edited by `f`.
fn edited(text: &str, f: &dyn Fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).expect("json");
    f(&mut v);
    serde_json::to_string_pretty(&v).expect("json")
}

/// The edits that parse but cannot be a state of this tune (two iterations, both applied).
fn nonsense(text: &str, progress: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "theta out of range",
            edited(text, &|v| v["theta"][0] = 1e9.into()),
        ),
        (
            "theta below range",
            edited(text, &|v| v["theta"][0] = (-5.0).into()),
        ),
        (
            "wins never played",
            edited(text, &|v| {
                v["totals"]["wins"] = (v["totals"]["wins"].as_u64().unwrap_or(0) + 1000).into()
            }),
        ),
        (
            "pairs never played",
            edited(text, &|v| v["totals"]["penta"][2] = 1000.into()),
        ),
        (
            "points against the pairs",
            edited(text, &|v| {
                let t = &mut v["totals"];
                let (w, l) = (t["wins"].clone(), t["losses"].clone());
                t["wins"] = l;
                t["losses"] = w;
                if t["wins"] == t["losses"] {
                    t["wins"] = (t["wins"].as_u64().unwrap_or(0) + 1).into();
                    t["losses"] = (t["losses"].as_u64().unwrap_or(1).saturating_sub(1)).into();
                }
            }),
        ),
        (
            "one step fewer",
            edited(text, &|v| {
                v[progress] = (v[progress].as_u64().unwrap_or(1) - 1).into()
            }),
        ),
        (
            "negative wins",
            edited(text, &|v| v["totals"]["wins"] = (-1).into()),
        ),
        (
            "theta a word",
            edited(text, &|v| v["theta"] = "best".into()),
        ),
        ("format 7", edited(text, &|v| v["format"] = 7.into())),
    ]
}

#[test]
fn hand_edited_shared_state_is_refused_by_every_reader() {
    let (_tmp, spec, out) = played(true);
    let (spec_s, out_s) = (spec.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    let shared = out.join("shared.json");
    let good = std::fs::read_to_string(&shared).expect("state");
    let join = vec![
        "tune",
        "--spec",
        spec_s,
        "--out",
        out_s,
        "--shared",
        "--quiet",
        "--no-verify",
    ];
    let commands = [join, vec!["status", out_s]];
    let mut cases = nonsense(&good, "applied");
    cases.push((
        "an iteration neither applied nor claimed",
        edited(&good, &|v| v["next"] = 2.into()),
    ));
    cases.push((
        "a claim twice",
        edited(&good, &|v| {
            v["claims"] = serde_json::json!([
                {"iteration": 2, "worker": "x", "token": 1, "claimed_ms": 0, "lease_until_ms": 1},
                {"iteration": 2, "worker": "y", "token": 2, "claimed_ms": 0, "lease_until_ms": 1}
            ]);
            v["applied"] = 0.into();
        }),
    ));
    for (what, text) in &cases {
        std::fs::write(&shared, text).expect("edit");
        refused(what, &commands, &shared, "shared.json");
    }
    // The untouched file still reads: the checks refuse only what cannot be.
    std::fs::write(&shared, &good).expect("restore");
    let o = tune(&["status", out_s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn hand_edited_checkpoint_and_history_are_refused_on_resume() {
    let (_tmp, _spec, out) = played(false);
    let out_s = out.to_str().expect("utf-8");
    let state = out.join("state.json");
    let good = std::fs::read_to_string(&state).expect("state");
    let resume = vec!["resume", out_s, "--no-verify", "--quiet"];
    let commands = [resume.clone(), vec!["status", out_s]];
    for (what, text) in nonsense(&good, "iteration") {
        std::fs::write(&state, &text).expect("edit");
        refused(what, &commands, &state, "state.json");
    }
    std::fs::write(&state, &good).expect("restore");

    let history = out.join("history.csv");
    let rows = std::fs::read_to_string(&history).expect("history");
    let lines: Vec<&str> = rows.lines().collect();
    let garbled = [
        format!("{}\n1,abc\n", lines[0]),
        format!("{}\n{}\n", lines[0], lines[1]),
        format!("{}\n{}\n{}\n", lines[0], lines[2], lines[1]),
        format!("iteration\n{}\n", lines[1..].join("\n")),
    ];
    for text in &garbled {
        std::fs::write(&history, text).expect("edit");
        refused(text, std::slice::from_ref(&resume), &history, "history.csv");
    }
}
