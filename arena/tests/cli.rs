//! The `wuzi-arena` binary: bad input exits with status 2 and a clear message; a small run,
//! export, summary, sweep, round robin and shard merge work end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("wuzi-arena-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        Tmp(p)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the binary and expects exit status 2 with `needle` in the error message.
fn fails(args: &[&str], needle: &str) {
    let out = arena(args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn bad_input_exits_with_status_2() {
    let tmp = Tmp::new("bad");
    let bad_toml = tmp.join("bad.toml");
    std::fs::write(&bad_toml, "defence = = 3\n").expect("writes");
    let unknown = tmp.join("unknown.toml");
    std::fs::write(&unknown, "defense = 3\n").expect("writes");
    let bad_openings = tmp.join("openings.txt");
    std::fs::write(&bad_openings, "h8 h9 h10\nh8 zz9\n").expect("writes");
    let offsets = tmp.join("offsets.txt");
    std::fs::write(&offsets, "0,0, 0,1\n0,0, 12,0\n").expect("writes");

    let p = |s: &Path| format!("name=x,params={}", s.display());
    fails(
        &[
            "match",
            "--player",
            &p(&bad_toml),
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "bad.toml",
    );
    fails(
        &[
            "match",
            "--player",
            &p(&unknown),
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "unknown parameter 'defense'; did you mean 'defence'?",
    );
    fails(
        &[
            "match",
            "--player",
            "name=a,set=defense=3",
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "unknown parameter 'defense'; did you mean 'defence'?",
    );
    fails(
        &[
            "match",
            "--player",
            "name=a,set=nosuch=1",
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "unknown parameter 'nosuch'",
    );
    fails(
        &[
            "match",
            "--player",
            "name=a,set=radius=9",
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "out of range",
    );
    let o = bad_openings.display().to_string();
    fails(
        &[
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--nodes",
            "100",
            "--openings",
            &o,
        ],
        "line 2",
    );
    let o = offsets.display().to_string();
    fails(
        &[
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--nodes",
            "100",
            "--openings",
            &o,
        ],
        "off the 15x15 board",
    );
    fails(
        &[
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--nodes",
            "100",
            "--openings",
            "/no/such/file",
        ],
        "/no/such/file",
    );
    fails(&["match", "--player", "a", "--player", "b"], "no limit");
    fails(
        &["match", "--player", "a", "--player", "a", "--nodes", "100"],
        "two players are named 'a'",
    );
    fails(&["match", "--player", "a", "--nodes", "100"], "exactly two");
    fails(
        &[
            "match", "--player", "a", "--player", "b", "--nodes", "100", "--sprt", "5,0",
        ],
        "elo1",
    );
    fails(
        &[
            "match", "--player", "a", "--player", "b", "--nodes", "100", "--shard", "3/2",
        ],
        "shard",
    );
    fails(
        &["sweep", "--grid", "defence=10:5:1", "--nodes", "100"],
        "lo <= hi",
    );
    fails(
        &[
            "sweep", "--param", "nosuch", "--values", "1,2", "--nodes", "100",
        ],
        "nosuch",
    );
    fails(&["summary", "/no/such/dir"], "run.json");
    fails(
        &[
            "match", "--player", "a", "--player", "b", "--nodes", "100", "--rule", "chess",
        ],
        "chess",
    );
}

#[test]
fn match_export_summary_and_merge_end_to_end() {
    let tmp = Tmp::new("e2e");
    let dir = tmp.join("run");
    let d = dir.display().to_string();
    let common = [
        "--nodes",
        "300",
        "--pairs",
        "3",
        "--concurrency",
        "2",
        "--quiet",
        "--seed",
        "5",
    ];
    let mut args = vec![
        "match",
        "--player",
        "a",
        "--player",
        "name=b,set=tempo=50",
        "--out",
        &d,
    ];
    args.extend(common);
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("a vs b"), "{report}");
    assert!(dir.join("summary.json").exists());

    // The same command again is refused; with --resume it plays nothing new.
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(2));
    let mut resume = args.clone();
    resume.push("--resume");
    let out = arena(&resume);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().nth(1), report.lines().nth(1));

    // Export: one PSQ file per game, one move line per game.
    let psq = tmp.join("psq");
    let out = arena(&[
        "export",
        &d,
        "--format",
        "psq",
        "--out",
        &psq.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let files: Vec<_> = std::fs::read_dir(&psq).expect("dir").collect();
    assert_eq!(files.len(), 6);
    let first = std::fs::read_to_string(psq.join("pair000000-g0.psq")).expect("psq");
    assert!(
        first.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n"),
        "{first}"
    );
    let out = arena(&["export", &d, "--format", "moves"]);
    let lines = text(&out.stdout);
    assert_eq!(lines.lines().count(), 6);
    assert!(lines.lines().all(|l| l.starts_with("h8 ")), "{lines}");

    // summary --json recomputes the same statistics.
    let out = arena(&["summary", &d, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["matchups"][0]["games"], 6);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("reads"))
            .expect("json");
    assert_eq!(v["matchups"], saved["matchups"]);

    // Shards through the command line, merged: the same statistics.
    let mut shard_dirs = Vec::new();
    for i in 0..2 {
        let sd = tmp.join(&format!("s{i}")).display().to_string();
        let shard = format!("{i}/2");
        let mut a = vec![
            "match",
            "--player",
            "a",
            "--player",
            "name=b,set=tempo=50",
            "--out",
            &sd,
            "--shard",
            &shard,
        ];
        a.extend(common);
        let out = arena(&a);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        shard_dirs.push(sd);
    }
    let merged = tmp.join("merged").display().to_string();
    let out = arena(&["merge", "--out", &merged, &shard_dirs[0], &shard_dirs[1]]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let m: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.join("merged").join("summary.json")).expect("reads"),
    )
    .expect("json");
    assert_eq!(m["matchups"], saved["matchups"]);
}

#[test]
fn sweep_and_round_robin_tables() {
    let out = arena(&[
        "sweep", "--param", "defence", "--values", "60,120", "--nodes", "300", "--pairs", "2",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("sweep against baseline"), "{report}");
    assert!(report.contains("defence=60 vs baseline"), "{report}");
    let table: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("sweep against"))
        .collect();
    assert!(table[1].starts_with("defence"), "{report}");
    assert!(table[2].trim_start().starts_with("60"), "{report}");
    assert!(table[3].trim_start().starts_with("120"), "{report}");

    let out = arena(&[
        "round-robin",
        "--player",
        "a",
        "--player",
        "name=b,set=tempo=60",
        "--player",
        "name=c,preset=classic,depth=2",
        "--nodes",
        "300",
        "--pairs",
        "1",
        "--quiet",
        "--openings",
        "random:4",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for m in ["a vs b", "a vs c", "b vs c", "Elo vs field"] {
        assert!(report.contains(m), "{m}: {report}");
    }
}

/// Issue 24: `--player default --player weak` plays default against default ("weak" is only a
/// name); the run says so on stderr, and two different players get no such warning.
#[test]
fn two_names_for_one_player_are_warned_about() {
    let run = |second: &str| {
        let o = arena(&[
            "match",
            "--player",
            "default",
            "--player",
            second,
            "--nodes",
            "100",
            "--pairs",
            "1",
            "--openings",
            "renju26",
            "--quiet",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let err = run("weak");
    assert!(
        err.contains("'default' and 'weak' are the same player"),
        "{err}"
    );
    let err = run("name=weak,set=defence=20");
    assert!(!err.contains("same player"), "{err}");
}

/// The commit of the checkout the tests run in (`None` outside git).
fn head_commit() -> Option<String> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let o = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(text(&o.stdout).trim().to_string())
}

/// `wuzi-arena --version` names the commit as `wuzi` and `pbrain-wuzi` do (it showed only
/// `wuzi-arena 0.1.0`).
#[test]
fn version_names_the_build_commit() {
    use wuzi_engine::build_info::{commit_from_version_output, VERSION_WITH_COMMIT};
    let out = arena(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with(&format!("wuzi-arena {VERSION_WITH_COMMIT}\n")),
        "{shown}"
    );
    let commit = commit_from_version_output(&shown).expect("a commit line");
    if let Some(head) = head_commit() {
        assert_eq!(commit.hash.as_deref(), Some(head.as_str()), "{shown}");
    }
}

/// A zero limit given as an option is reported against that option, not as "bad player
/// spec 'default'".
#[test]
fn zero_limits_name_the_option() {
    for (option, value) in [("--nodes", "0"), ("--depth", "0"), ("--threads", "0")] {
        let out = arena(&["match", option, value, "--pairs", "1"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("{option} must be at least 1")),
            "{err}"
        );
        assert!(!err.contains("bad player spec"), "{err}");
    }
    // A player's own zero limit names its key.
    fails(
        &[
            "match",
            "--player",
            "a,nodes=0",
            "--player",
            "b",
            "--nodes",
            "100",
        ],
        "nodes=0: the node limit must be at least 1",
    );
}

/// A run without --out says at the start that it keeps nothing; with --out it does not.
#[test]
fn a_run_without_out_says_it_keeps_nothing() {
    let note = "no --out: games are not kept (pass --out DIR to keep records, summary and report)";
    let args = [
        "--player",
        "a",
        "--player",
        "name=b,set=tempo=50",
        "--nodes",
        "100",
        "--pairs",
        "1",
        "--quiet",
    ];
    for kind in ["match", "gauntlet"] {
        let mut cmd = vec![kind];
        cmd.extend(args);
        let out = arena(&cmd);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(err.lines().next(), Some(note), "{kind}: {err}");
    }
    let tmp = Tmp::new("kept");
    let dir = tmp.join("run").display().to_string();
    let mut cmd = vec!["match", "--out", &dir];
    cmd.extend(args);
    let out = arena(&cmd);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("no --out"));
}
