//! `wuzi-arena replay` and `export --format sgf` on small node-limited runs made here: a
//! replayed game is identical (exit 0); a record edited to another move makes the replay
//! name the first divergent move (exit 1); an unknown game, a folder without `run.json` and a
//! game lost in a truncated `games.jsonl` are clear errors (exit 2). The library's replay is
//! checked in-process too.

use std::path::Path;
use std::process::{Command, Output};

use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::replay::{find_game, replay, GameId};
use wuzi_engine::Pos;

#[path = "support/small_run.rs"]
mod small_run;
use small_run::temp_run;

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn records(dir: &Path) -> Vec<GameRecord> {
    read_records(&dir.join(GAMES_FILE)).expect("reads").records
}

fn write_records(dir: &Path, records: &[GameRecord]) {
    let text: String = records.iter().map(|r| r.to_line() + "\n").collect();
    std::fs::write(dir.join(GAMES_FILE), text).expect("writes");
}

#[test]
fn replays_are_identical_or_name_the_first_divergent_move() {
    let (tmp, dir) = temp_run();
    let d = dir.display().to_string();
    let all = records(&dir);
    assert_eq!(all.len(), 4);

    // In-process: every game of the run comes out the same.
    for r in &all {
        let (config, found) = find_game(&dir, GameId::of(r)).expect("found");
        assert_eq!(&found, r);
        let again = replay(&config, &found).expect("replays");
        assert!(again.identical(), "{:?}", again.divergence);
        assert_eq!(again.first_report_difference, None);
    }

    // The command says so and exits 0; --show draws a board per move.
    let out = arena(&["replay", &d, "--game", "1.0"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let game = all.iter().find(|r| r.key() == (1, 0)).expect("game 1.0");
    let n = game.all_moves().len();
    assert!(
        stdout.contains(&format!("identical: {n} moves, same result")),
        "{stdout}"
    );
    let out = arena(&["replay", &d, "--game", "1:0", "--show"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.matches("   a b c d e f g h i j k l m n o").count(),
        game.moves.len() + 1,
        "{stdout}"
    );

    // A record edited to another move: the replay plays the original there, says where and
    // what, and exits 1.
    let k = game.moves.len() / 2;
    let played = game.all_moves();
    let other = (0..15 * 15)
        .map(|i| Pos::new(i % 15, i / 15))
        .find(|p| !played.contains(p))
        .expect("a free point");
    let original = game.moves[k].mv;
    let edited: Vec<GameRecord> = all
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if r.key() == (1, 0) {
                r.moves[k].mv = other;
            }
            r
        })
        .collect();
    write_records(&dir, &edited);
    let out = arena(&["replay", &d, "--game", "1.0"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let ply = game.opening.opening.moves.len() + k + 1;
    let line = stdout
        .lines()
        .find(|l| l.starts_with("diverged"))
        .unwrap_or_else(|| panic!("no divergence line: {stdout}"));
    assert!(
        line.starts_with(&format!("diverged at move {ply} ")),
        "{line}"
    );
    assert!(line.contains(&format!("recorded {other} (score")), "{line}");
    assert!(
        line.contains(&format!("replayed {original} (score")),
        "{line}"
    );
    assert!(stdout.contains("node- or depth-limited"), "{stdout}");

    // Errors, exit 2: an unknown game, a bad id, a folder without run.json.
    let fails = |args: &[&str], needle: &str| {
        let out = arena(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{needle}' not in {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    fails(&["replay", &d, "--game", "9.0"], "no game 9.0");
    fails(&["replay", &d, "--game", "9"], "PAIR.GAME");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    fails(
        &["replay", &empty.display().to_string(), "--game", "0.0"],
        "no run.json",
    );

    // A games.jsonl cut in its last line: that game is not there, and the message says why.
    write_records(&dir, &all);
    let full = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("reads");
    let last = all.last().expect("a record");
    std::fs::write(dir.join(GAMES_FILE), &full[..full.len() - 20]).expect("writes");
    fails(
        &[
            "replay",
            &d,
            "--game",
            &format!("{}.{}", last.pair, last.game),
        ],
        "incomplete line",
    );
}

#[test]
fn sgf_export_writes_one_file_per_game() {
    let (tmp, dir) = temp_run();
    let out_dir = tmp.path().join("sgf");
    let out = arena(&[
        "export",
        &dir.display().to_string(),
        "--format",
        "sgf",
        "--out",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for r in records(&dir) {
        let path = out_dir.join(format!("pair{:06}-g{}.sgf", r.pair, r.game));
        let sgf = std::fs::read_to_string(&path).expect("one file per game");
        assert!(
            sgf.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[wuzi-arena:"),
            "{sgf}"
        );
        assert!(sgf.contains("SZ[15]RU[renju]"), "{sgf}");
        assert!(
            sgf.contains(&format!("PB[{}]PW[{}]", r.black.name, r.white.name)),
            "{sgf}"
        );
        // Moves after the root: the opening's and the played ones.
        assert_eq!(
            sgf.matches(";B[").count() + sgf.matches(";W[").count(),
            r.all_moves().len()
        );
    }
    // SGF files need a folder.
    let out = arena(&["export", &dir.display().to_string(), "--format", "sgf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--out DIR is required for sgf export"));
}

/// Issue 21's case "a record from another rule or size": the records of a renju 15x15 run
/// under a `run.json` that says standard are refused by replay, analyze, summary and export
/// with a message naming both, exit 2, nothing written; so is a lone records file exported
/// with a contradicting `--rule` or `--size`. Records written before the marks were kept
/// are still read.
#[test]
fn records_of_another_rule_or_board_are_refused() {
    let (tmp, dir) = temp_run();
    let all = records(&dir);
    assert!(all
        .iter()
        .all(|r| r.rule == Some(wuzi_engine::Rule::Renju) && r.size == Some(15)));

    // The same records under a run.json of another rule.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).expect("dir");
    let run_json = std::fs::read_to_string(dir.join("run.json")).expect("run.json");
    let mut v: serde_json::Value = serde_json::from_str(&run_json).expect("json");
    v["game"]["rule"] = "standard".into();
    std::fs::write(other.join("run.json"), v.to_string()).expect("writes");
    std::fs::copy(dir.join(GAMES_FILE), other.join(GAMES_FILE)).expect("copies");
    let o = other.display().to_string();
    let sgf_out = tmp.path().join("sgf");
    let analysis = other.join("analysis.jsonl");
    let s = sgf_out.display().to_string();
    let wrong = "was played under renju on 15x15, not standard on 15x15";
    for args in [
        vec!["replay", &o, "--game", "0.0"],
        vec!["summary", &o],
        vec!["analyze", &o, "--analyst", "default,nodes=100", "--quiet"],
        vec!["export", &o, "--format", "sgf", "--out", &s],
    ] {
        let out = arena(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(wrong), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!sgf_out.exists(), "nothing exported");
    assert!(!analysis.exists(), "nothing analysed");

    // A records file given alone with a contradicting --rule or --size: the same refusal.
    let lone = tmp.path().join("lone");
    std::fs::create_dir_all(&lone).expect("dir");
    std::fs::copy(dir.join(GAMES_FILE), lone.join(GAMES_FILE)).expect("copies");
    let lone_file = lone.join(GAMES_FILE).display().to_string();
    for (flag, value, needle) in [
        ("--size", "13", "not renju on 13x13"),
        ("--rule", "freestyle", "not freestyle on 15x15"),
    ] {
        let out = arena(&[
            "export", &lone_file, "--format", "sgf", "--out", &s, flag, value,
        ]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains(needle), "{flag}: {err}");
        assert!(!sgf_out.exists(), "nothing exported");
    }
    // Alone and without options, the records' own marks give the board (renju, not the
    // export's fallback).
    let out = arena(&["export", &lone_file, "--format", "sgf", "--out", &s]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = std::fs::read_dir(&sgf_out)
        .expect("written")
        .next()
        .expect("a file")
        .expect("entry");
    let sgf = std::fs::read_to_string(first.path()).expect("reads");
    assert!(sgf.contains("SZ[15]RU[renju]"), "{sgf}");

    // Records without the marks (written before they were kept) read under run.json as before.
    let unmarked: Vec<GameRecord> = all
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.rule = None;
            r.size = None;
            r
        })
        .collect();
    write_records(&dir, &unmarked);
    let line = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("reads");
    assert!(!line.contains("\"rule\""), "{line}");
    let out = arena(&["replay", &dir.display().to_string(), "--game", "0.0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
