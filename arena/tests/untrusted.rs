//! Untrusted output (issue 22): a brain's text reaches the records, the printed summary,
//! `report.html` and the analysis shown in it. Hostile brains (markup, `<script>`, control
//! bytes, a 1 MB line, in their `ABOUT` name, their noise, their standard error and their
//! answers) play a real gauntlet through the `wuzi-arena` binary; everything they said must
//! come out bounded and escaped wherever it is shown. And run folders edited by hand into
//! nonsense are refused with a clear error and exit status 2, never half-trusted.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// Prints `$BIG` (1 MB of `<` and no newline inside) as one line; the markup and control
/// bytes every hostile brain sends before its answer.
const PRELUDE: &str = r#"BIG=$(head -c 1048576 /dev/zero | tr '\0' '<')
noise() {
  printf '</script><script>alert("noise")</script><!--\n'
  printf '\001\002\033[31m<img src=x onerror=alert(2)>\033[0m\n'
  printf 'MESSAGE <b>depth</b> 3 nodes 99 </script><script>alert("msg")</script>\n'
  printf '%s\n' "$BIG"
}
"#;

/// A brain's loop: `OK` to every `START`, `RESTART` and `TAKEBACK`, `answer` to every move
/// request (`BEGIN`, `TURN`, the `DONE` of a set-up), `about` to `ABOUT`.
fn brain_loop(about: &str, answer: &str) -> String {
    format!(
        r#"while IFS= read -r line; do
  line=${{line%$'\r'}}
  case "$line" in
    ABOUT) {about} ;;
    START*|RESTART|TAKEBACK*) echo OK ;;
    BEGIN|TURN*|DONE) {answer} ;;
    END) exit 0 ;;
  esac
done
"#
    )
}

/// Named by its `ABOUT` answer (markup, a terminal escape, a 1 MB version); answers every
/// move request with noise and then a point off the board (loses as illegal).
fn off_board() -> String {
    brain_loop(
        r#"printf 'name="<script>alert(1)</script>\033[2Jx", version="%s"\n' "$BIG""#,
        "noise; printf '99,99\\n'",
    )
}

/// Answers with noise, then a 1 MB line without its newline, and never moves (loses on time).
fn stall() -> String {
    brain_loop(
        "echo 'name=\"stall\"'",
        r#"noise; printf '<script>alert("stall")</script>%s' "$BIG"; sleep 30"#,
    )
}

/// Writes markup, control bytes and a 1 MB line to its standard error and exits (a crash).
fn crash() -> String {
    brain_loop(
        "echo 'name=\"crash\"'",
        r#"noise; printf '%s\n' "$BIG" >&2; printf '<script>alert("stderr")</script>\033[2J\001\n' >&2; exit 3"#,
    )
}

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .expect("runs")
}

/// The `--player` spec of a bash brain `body` written into `dir`, with `move_ms` a move (the
/// brains that do not stall get plenty: a loaded machine must not turn their loss into a
/// time loss).
fn brain(dir: &Path, name: &str, body: &str, move_ms: u64) -> String {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/bash\n{PRELUDE}{body}")).expect("writes script");
    format!("cmd=/bin/bash,arg={},move-ms={move_ms}", path.display())
}

/// Every string in a JSON value.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// No terminal control bytes (line ends and tabs aside).
fn assert_no_control(what: &str, text: &str) {
    let bad = text
        .char_indices()
        .find(|&(_, c)| c.is_control() && !matches!(c, '\n' | '\t' | '\r'));
    if let Some((i, c)) = bad {
        let from = text[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
        panic!("{what}: control byte {c:?} after {:?}", &text[from..i]);
    }
}

/// The markup the brains sent, which must never appear unescaped.
const LIVE_MARKUP: [&str; 6] = [
    "<script>alert",
    "<img src=x",
    "onerror=alert(2)>",
    "<b>depth",
    "<!--",
    "<<<<<<<<",
];

#[test]
fn hostile_brain_text_is_bounded_and_escaped_everywhere() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().expect("utf-8 path");
    let off = brain(tmp.path(), "off", &off_board(), 10_000);
    let stall = format!("name=stall,{}", brain(tmp.path(), "stall", &stall(), 300));
    let crash = format!(
        "name=crash,{}",
        brain(tmp.path(), "crash", &crash(), 10_000)
    );
    let out = arena(&[
        "gauntlet",
        "--player",
        "default,nodes=100",
        "--player",
        &off,
        "--player",
        &stall,
        "--player",
        &crash,
        "--pairs",
        "1",
        "--concurrency",
        "2",
        "--out",
        dir_s,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_no_control("the run's output", &stdout);
    assert_no_control("the run's messages", &stderr);
    assert!(stdout.len() + stderr.len() < 64 * 1024, "{stdout}");

    // The records: every game ended by the brain's misdeed, everything it said quoted short.
    let games = std::fs::read_to_string(dir.join("games.jsonl")).expect("records");
    let records: Vec<Value> = games
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    assert_eq!(records.len(), 6);
    let reasons: Vec<&str> = records
        .iter()
        .filter_map(|r| r["reason"].as_str())
        .collect();
    for want in ["illegal", "timeout", "crash"] {
        assert_eq!(
            reasons.iter().filter(|&&r| r == want).count(),
            2,
            "{reasons:?}"
        );
    }
    for (line, r) in games.lines().zip(&records) {
        assert!(line.len() < 32 * 1024, "a record of {} bytes", line.len());
        let mut all = Vec::new();
        strings(r, &mut all);
        for s in all {
            assert_no_control("a record's text", s);
            assert!(s.chars().count() < 4096, "{} chars in a record", s.len());
        }
    }
    let named: Vec<&str> = records
        .iter()
        .flat_map(|r| [&r["black"]["name"], &r["white"]["name"]])
        .filter_map(Value::as_str)
        .filter(|n| n.contains("alert(1)"))
        .collect();
    assert_eq!(named.len(), 2, "the brain is named after its ABOUT answer");

    // The printed summary.
    let summary = arena(&["summary", dir_s]);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(summary.status.success());
    assert_no_control("summary", &text);
    assert!(text.len() < 16 * 1024, "{text}");

    // The analysis of the games (the analyst is the in-process engine), then the report.
    let analysed = arena(&["analyze", dir_s, "--analyst", "default,nodes=50"]);
    assert!(
        analysed.status.success(),
        "{}",
        String::from_utf8_lossy(&analysed.stderr)
    );
    assert_no_control("analysis", &String::from_utf8_lossy(&analysed.stdout));
    let report = arena(&["report", dir_s]);
    assert!(report.status.success());
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report");
    assert!(html.contains("id=\"analysis\"") || html.contains("Analysis"));
    assert_no_control("report.html", &html);
    for bad in LIVE_MARKUP {
        assert!(!html.contains(bad), "report.html holds {bad:?}");
    }
    // Only the page's own script elements end in it: the viewer, the games' data, the
    // analysis data and the analysis layer.
    assert_eq!(html.matches("</script>").count(), 4, "script elements");
    assert!(html.len() < 2 << 20, "report.html of {} bytes", html.len());
    // The hostile text is there, as text.
    assert!(
        html.contains("&lt;script&gt;alert(1)") || html.contains("\\u003cscript\\u003ealert(1)")
    );
}

/// A hand-edited folder must fail with status 2 and a message naming the file.
fn refused(args: &[&str], file: &str) {
    let out = arena(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(file), "{args:?}: expected {file} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn hand_edited_run_folders_are_refused_with_status_2() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().expect("utf-8 path");
    let out = arena(&[
        "match",
        "--player",
        "a",
        "--player",
        "b,set=tempo=50",
        "--nodes",
        "100",
        "--pairs",
        "2",
        "--out",
        dir_s,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = dir.join("games.jsonl");
    let run = dir.join("run.json");
    let good_games = std::fs::read_to_string(&games).expect("records");
    let good_run = std::fs::read_to_string(&run).expect("run");
    let first: Value =
        serde_json::from_str(good_games.lines().next().expect("a game")).expect("json");

    // Each edit, and what must refuse it: every reader of the folder.
    let mut bad_games = Vec::new();
    bad_games.push(("not json", "{\"pair\": 0, oops\n".to_string()));
    bad_games.push(("binary", "\u{0}\u{1}\u{2}\n".to_string()));
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut v = first.clone();
        f(&mut v);
        format!("{}\n{good_games}", serde_json::to_string(&v).expect("json"))
    };
    bad_games.push(("pair out of the run", edit(&|v| v["pair"] = 99.into())));
    bad_games.push(("game 7", edit(&|v| v["game"] = 7.into())));
    bad_games.push((
        "wrong players",
        edit(&|v| v["black"]["name"] = "mallory".into()),
    ));
    bad_games.push((
        "wrong opening",
        edit(&|v| v["opening"]["moves"] = "a1 b2".into()),
    ));
    bad_games.push((
        "move off the board",
        edit(&|v| v["moves"][0]["m"] = "z99".into()),
    ));
    bad_games.push((
        "negative nodes",
        edit(&|v| v["moves"][0]["nodes"] = (-5).into()),
    ));
    // Regressions (issue 22): these three were read and counted before.
    bad_games.push(("unknown result", edit(&|v| v["result"] = "victory".into())));
    bad_games.push((
        "result against the winner",
        edit(&|v| v["result"] = "1/2-1/2".into()),
    ));
    let opening_stone = first["opening"]["moves"]
        .as_str()
        .and_then(|m| m.split_whitespace().next())
        .expect("an opening")
        .to_string();
    bad_games.push((
        "stone on an occupied point",
        edit(&|v| v["moves"][1]["m"] = opening_stone.clone().into()),
    ));
    for (what, text) in &bad_games {
        std::fs::write(&games, text).expect("edit");
        for cmd in ["summary", "report", "export", "analyze"] {
            let mut args = vec![cmd, dir_s];
            match cmd {
                "export" => args.extend(["--format", "moves", "--out"]),
                "analyze" => args.extend(["--analyst", "default,nodes=20"]),
                _ => {}
            }
            let export = tmp.path().join("export.txt");
            let export_s = export.to_str().expect("utf-8");
            if cmd == "export" {
                args.push(export_s);
            }
            let out = arena(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{what}: {cmd}: {err}");
            assert!(err.contains("games.jsonl"), "{what}: {cmd}: {err}");
            assert!(!err.contains("panicked"), "{what}: {cmd}: {err}");
        }
        refused(&["resume", dir_s], "games.jsonl");
    }
    std::fs::write(&games, &good_games).expect("restore");

    let run_value: Value = serde_json::from_str(&good_run).expect("json");
    let edit_run = |f: &dyn Fn(&mut Value)| {
        let mut v = run_value.clone();
        f(&mut v);
        serde_json::to_string(&v).expect("json")
    };
    let bad_runs = [
        ("cut", good_run[..good_run.len() / 2].to_string()),
        ("not json", "run = yes".to_string()),
        (
            "no players",
            edit_run(&|v| v["players"] = Value::Array(vec![])),
        ),
        ("board 99", edit_run(&|v| v["game"]["size"] = 99.into())),
        ("zero pairs", edit_run(&|v| v["pairs"] = 0.into())),
        ("huge pairs", edit_run(&|v| v["pairs"] = u64::MAX.into())),
        (
            "matchup of player 9",
            edit_run(&|v| v["matchups"][0]["second"] = 9.into()),
        ),
        (
            "no openings",
            edit_run(&|v| v["openings"] = Value::Array(vec![])),
        ),
        ("format 99", edit_run(&|v| v["format"] = 99.into())),
    ];
    for (what, text) in &bad_runs {
        std::fs::write(&run, text).expect("edit");
        for cmd in ["summary", "report", "resume"] {
            let out = arena(&[cmd, dir_s]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{what}: {cmd}: {err}");
            assert!(
                err.contains("run.json") || err.contains(dir_s),
                "{what}: {cmd}: {err}"
            );
            assert!(!err.contains("panicked"), "{what}: {cmd}: {err}");
        }
    }
}
