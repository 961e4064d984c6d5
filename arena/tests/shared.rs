//! Shards sharing one run folder: three `wuzi-arena` processes read each other's records and
//! stop when the combined SPRT decides, with the decision `merge` (and a single process)
//! reaches; a shard of another run in the folder is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p =
            std::env::temp_dir().join(format!("wuzi-arena-shared-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        Tmp(p)
    }

    fn join(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("reads")).expect("json")
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

const BUDGET: u64 = 600;

/// A clearly weaker candidate (suites/params/weak.toml) against the defaults at 300 nodes per
/// move, SPRT 0,10: H0 is accepted after about a hundred pairs of the 600 budgeted.
fn weak_match(extra: &[&str]) -> Vec<String> {
    let weak = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/weak.toml");
    let mut a: Vec<String> = [
        "match",
        "--player",
        &format!("name=weak,params={}", weak.display()),
        "--player",
        "default",
        "--nodes",
        "300",
        "--pairs",
        &BUDGET.to_string(),
        "--sprt",
        "0,10",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

#[test]
fn shards_in_one_folder_stop_at_the_combined_sprt_decision() {
    let tmp = Tmp::new("stop");
    let shared = tmp.join("shared");
    let children: Vec<_> = (0..3)
        .map(|i| {
            arena()
                .args(weak_match(&[
                    "--shard",
                    &format!("{i}/3"),
                    "--out",
                    &shared,
                    "--concurrency",
                    "1",
                ]))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("starts")
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().expect("waits"))
        .collect();
    let dir = Path::new(&shared);
    for (i, out) in outs.iter().enumerate() {
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(report.contains("H0 accepted"), "shard {i}: {report}");
        // Well before its budget of 200 pairs (400 games).
        let games = lines(&dir.join(format!("games-shard-{i}-of-3.jsonl")));
        assert!(games < 200, "shard {i} played {games} of 400 games");
    }

    // The folder read directly, merged, and the same run in one process: one decision.
    let summary = arena()
        .args(["summary", &shared, "--json"])
        .output()
        .expect("runs");
    assert_eq!(summary.status.code(), Some(0), "{}", text(&summary.stderr));
    assert!(
        !text(&summary.stderr).contains("not finished"),
        "{}",
        text(&summary.stderr)
    );
    let folder: serde_json::Value = serde_json::from_slice(&summary.stdout).expect("json");
    let merged = tmp.join("merged");
    let out = arena()
        .args(["merge", "--out", &merged, &shared])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let merged = json(&Path::new(&merged).join("summary.json"));
    let sprt = &merged["matchups"][0]["sprt"];
    assert_eq!(sprt["status"]["verdict"], "AcceptH0", "{sprt}");
    let decided = sprt["decided_after_pairs"].as_u64().expect("decided");
    assert!(decided < BUDGET / 3, "{decided} pairs");
    assert_eq!(folder["matchups"], merged["matchups"]);
    let single = tmp.join("single");
    let out = arena()
        .args(weak_match(&["--out", &single, "--concurrency", "2"]))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let single = json(&Path::new(&single).join("summary.json"));
    assert_eq!(single["matchups"], merged["matchups"]);

    // The folder's charts are those of the combined run.
    for stem in ["score", "colours", "sprt"] {
        assert!(dir.join(format!("{stem}.png")).exists(), "{stem}.png");
    }
    // A shard started late (its peers are done): it plays exactly its pairs before the
    // decision (counting waits for them) and stops there, not its whole budget.
    let late = tmp.join("late");
    std::fs::create_dir_all(&late).expect("dir");
    for f in [
        "run-shard-0-of-3.json",
        "games-shard-0-of-3.jsonl",
        "run-shard-1-of-3.json",
        "games-shard-1-of-3.jsonl",
    ] {
        std::fs::copy(dir.join(f), Path::new(&late).join(f)).expect("copies");
    }
    // Read while shard 2 has not run: the pairs it owes are reported as unfinished.
    let partial = arena().args(["summary", &late]).output().expect("runs");
    assert_eq!(partial.status.code(), Some(0));
    let note = text(&partial.stderr);
    assert!(
        note.contains("not finished") && note.contains("2/3"),
        "{note}"
    );
    let out = arena()
        .args(weak_match(&[
            "--shard",
            "2/3",
            "--out",
            &late,
            "--concurrency",
            "1",
        ]))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("H0 accepted"));
    let played = lines(&Path::new(&late).join("games-shard-2-of-3.jsonl")) as u64;
    let needed = 2 * (0..decided).filter(|g| g % 3 == 2).count() as u64;
    // One more game may have started before the decision was seen.
    assert!(
        (needed..=needed + 2).contains(&played),
        "the late shard played {played} games, {needed} needed"
    );

    // A shard of another run (other seed) in the folder: status 2, naming the file.
    let out = arena()
        .args(weak_match(&[
            "--shard", "2/3", "--out", &shared, "--seed", "7", "--resume",
        ]))
        .output()
        .expect("runs");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("run-shard-2-of-3.json"), "{err}");
    let other = tmp.join("other");
    std::fs::create_dir_all(&other).expect("dir");
    std::fs::copy(
        dir.join("run-shard-0-of-3.json"),
        Path::new(&other).join("run-shard-0-of-3.json"),
    )
    .expect("copies");
    let out = arena()
        .args(weak_match(&[
            "--shard", "1/3", "--out", &other, "--seed", "7",
        ]))
        .output()
        .expect("runs");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("run-shard-0-of-3.json"), "{err}");
    assert!(err.contains("another run"), "{err}");
}
