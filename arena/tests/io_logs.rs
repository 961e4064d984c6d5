//! Protocol logs (`--log-io`, issue 21 point 4) with shell-script brains: a run writes one
//! file per game and brain with both directions and timestamps, keeps the option in run.json
//! and links the files from report.html; a killed arena leaves the files of the game it was
//! playing; and without `--log-io` a brain that crashes, hangs or plays an occupied point
//! leaves its last protocol lines in the record's detail.

#![cfg(unix)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wuzi_arena::external::{ExternalPlayer, TAIL_LINES};
use wuzi_arena::player::{EnginePlayer, PlayerLimits};
use wuzi_arena::referee::{play_game, GameSettings, Reason};
use wuzi_engine::{Engine, Params, Pos, Stone};

/// Writes a brain script (run as `/bin/sh SCRIPT`, see `external.rs` on "text file busy").
fn script(tmp: &tempfile::TempDir, name: &str, body: &str) -> PathBuf {
    let path = tmp.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("writes script");
    path
}

/// A brain loop answering START/RESTART with OK and move commands with `answer`.
fn brain_loop(answer: &str) -> String {
    format!(
        r#"while read -r cmd rest; do
  case "$cmd" in
    START|RESTART) echo OK ;;
    BEGIN|TURN|DONE) {answer} ;;
    END) exit 0 ;;
  esac
done
"#
    )
}

/// Plays along the top row from the left, one point further each move (the engine plays in
/// the centre, so the moves are legal), with a MESSAGE before each.
const TOP_ROW: &str = r#"i=0
while read -r cmd rest; do
  case "$cmd" in
    START|RESTART) i=0; echo OK ;;
    BEGIN|TURN|DONE) echo "MESSAGE move $i"; echo "$i,0"; i=$((i+1)) ;;
    END) exit 0 ;;
  esac
done
"#;

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
}

/// A protocol log line: `     MS D TEXT` with a right-aligned millisecond count.
fn parse_line(line: &str) -> Option<(u64, char, &str)> {
    let line = line.trim_start();
    let (ms, rest) = line.split_once(' ')?;
    let mut chars = rest.chars();
    let dir = chars.next()?;
    Some((ms.parse().ok()?, dir, chars.as_str().trim_start()))
}

#[test]
fn a_run_with_log_io_writes_each_brains_lines_with_timestamps_and_the_report_links_them() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let brain = script(&tmp, "top.sh", TOP_ROW);
    let out = tmp.path().join("run");
    let status = arena()
        .args(["match", "--player"])
        .arg(format!(
            "name=ext,cmd=/bin/sh,arg={},move-ms=2000",
            brain.display()
        ))
        .args(["--player", "default", "--nodes", "100", "--pairs", "1"])
        .args(["--max-moves", "12", "--time-margin-ms", "2000", "--quiet"])
        .args(["--concurrency", "1", "--log-io", "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let run_json = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    assert!(run_json.contains(r#""log_io": true"#), "{run_json}");

    // One file per game for the brain, none for the in-process engine.
    let mut files: Vec<String> = std::fs::read_dir(out.join("io"))
        .expect("io folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["pair000000-g0-black-ext.log", "pair000000-g1-white-ext.log"]
    );
    for name in &files {
        let text = std::fs::read_to_string(out.join("io").join(name)).expect("log");
        let mut lines = text.lines();
        assert!(
            lines.next().expect("header").starts_with("# ext "),
            "{text}"
        );
        let parsed: Vec<(u64, char, &str)> = lines
            .map(|l| parse_line(l).unwrap_or_else(|| panic!("{l:?} in {text}")))
            .collect();
        assert!(parsed.windows(2).all(|w| w[0].0 <= w[1].0), "{text}");
        let has = |d: char, t: &str| parsed.iter().any(|&(_, dir, s)| dir == d && s == t);
        // The second game finds the brain running: RESTART.
        assert!(has('>', "START 15") || has('>', "RESTART"), "{text}");
        assert!(has('<', "OK"), "{text}");
        assert!(has('>', "INFO timeout_turn 2000"), "{text}");
        assert!(has('<', "0,0") && has('<', "MESSAGE move 0"), "{text}");
        assert!(parsed
            .iter()
            .any(|&(_, d, s)| d == '>' && s.starts_with("TURN ")));
    }

    let report = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    for name in &files {
        assert!(report.contains(&format!("io/{name}")), "no link to {name}");
    }

    // Resuming the finished run keeps the option: run.json is unchanged.
    let again = arena()
        .args(["resume", "--quiet"])
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(again.status.code(), Some(0));
    let after = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    assert_eq!(after, run_json);
}

#[test]
fn a_killed_arena_leaves_the_log_of_the_game_it_was_playing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // Never answers a move; exits when its input closes (the arena's death), so nothing is
    // left running.
    let brain = script(&tmp, "stall.sh", &brain_loop("read -r more || exit 0"));
    let out = tmp.path().join("run");
    let mut child = arena()
        .args(["match", "--player"])
        .arg(format!(
            "name=stall,cmd=/bin/sh,arg={},move-ms=60000",
            brain.display()
        ))
        .args([
            "--player", "default", "--nodes", "100", "--pairs", "1", "--quiet",
        ])
        .args(["--concurrency", "1", "--log-io", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let log = out.join("io/pair000000-g0-black-stall.log");
    let deadline = Instant::now() + Duration::from_secs(60);
    let asked = |text: &str| {
        text.lines()
            .filter_map(parse_line)
            .any(|(_, d, s)| d == '>' && (s == "BEGIN" || s == "DONE"))
    };
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if asked(&text) {
            break;
        }
        assert!(Instant::now() < deadline, "no move asked for: {text:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("kills the arena");
    child.wait().expect("reaped");
    let text = std::fs::read_to_string(&log).expect("the log survives the kill");
    assert!(
        text.contains("> START 15") && text.contains("< OK"),
        "{text}"
    );
    assert!(asked(&text), "{text}");
}

fn move_ms(ms: u64) -> PlayerLimits {
    PlayerLimits {
        move_ms: Some(ms),
        ..PlayerLimits::default()
    }
}

fn nodes(n: u64) -> PlayerLimits {
    PlayerLimits {
        nodes: Some(n),
        ..PlayerLimits::default()
    }
}

#[test]
fn failures_keep_the_last_lines_in_the_detail_without_log_io() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let settings = GameSettings {
        max_moves: Some(30),
        time_margin_ms: 2_000,
        ..GameSettings::default()
    };
    let cases = [
        (
            "crash",
            "read -r line\necho OK\necho 'fatal: out of cheese' >&2\nexit 3\n".to_string(),
            Reason::Crash,
            "> START 15\n< OK\n> INFO timeout_turn 100",
        ),
        (
            "hang",
            brain_loop("echo 'MESSAGE thinking\x07'; exec sleep 60"),
            Reason::Timeout,
            "> BEGIN\n< MESSAGE thinking\\u{7}",
        ),
        (
            "occupied",
            brain_loop("echo 7,7"),
            Reason::Illegal,
            "> DONE\n< 7,7",
        ),
    ];
    let e = nodes(100);
    let l = move_ms(100);
    for (name, body, reason, expected) in cases {
        let path = script(&tmp, &format!("{name}.sh"), &body);
        let args = [path.to_string_lossy().into_owned()];
        let mut fake = ExternalPlayer::new(name, "/bin/sh", &args, None, l.clone());
        let mut eng = EnginePlayer::new("engine", Engine::new(Params::default(), 4, 1), nodes(100));
        // Black from the empty board (BEGIN); the occupied brain after h8 i9 (BOARD ... DONE),
        // so its 7,7 is taken.
        let opening = if name == "occupied" {
            Pos::parse_list("h8 i9", 15).expect("valid")
        } else {
            Vec::new()
        };
        let r = play_game(&settings, &opening, [&mut fake, &mut eng], [&l, &e], 1).expect("game");
        assert_eq!((r.winner, r.reason), (Some(Stone::White), reason), "{r:?}");
        let detail = r.detail.expect("a detail");
        let (_, tail) = detail
            .split_once(&format!("\nlast lines with {name} (> sent, < received):\n"))
            .unwrap_or_else(|| panic!("no last lines: {detail}"));
        assert!(tail.contains(expected), "{name}: {tail}");
        assert!(tail.lines().count() <= TAIL_LINES, "{tail}");
        assert!(
            std::fs::read_dir(tmp.path()).expect("dir").all(|e| !e
                .expect("entry")
                .path()
                .to_string_lossy()
                .ends_with(".log")),
            "no log file without --log-io"
        );
    }
    // A game that ends by a five says nothing of the protocol. The brain plays every other
    // point of the top row, so it never threatens anything and the engine's five comes first
    // whatever its evaluation (with a contiguous row the engine may block, and the brain then
    // plays on the blocked point).
    let spaced = TOP_ROW.replace("echo \"$i,0\"", "echo \"$((2 * i)),0\"");
    assert_ne!(spaced, TOP_ROW);
    let brain = script(&tmp, "top.sh", &spaced);
    let args = [brain.to_string_lossy().into_owned()];
    let mut fake = ExternalPlayer::new("top", "/bin/sh", &args, None, l.clone());
    let mut eng = EnginePlayer::new("engine", Engine::new(Params::default(), 4, 1), nodes(100));
    let r = play_game(&settings, &[], [&mut eng, &mut fake], [&e, &l], 1).expect("game");
    assert_ne!(r.reason, Reason::Crash, "{r:?}");
    assert_eq!(r.reason, Reason::Five, "{r:?}");
    assert!(
        !r.detail.clone().unwrap_or_default().contains("last lines"),
        "{r:?}"
    );
    assert!(tmp.path().is_dir());
}
