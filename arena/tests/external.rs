//! External Gomocup brains as arena players: `pbrain-wuzi` against itself and against the
//! in-process engine, misbehaving brains (shell scripts that crash, answer garbage, hang or
//! play an occupied point) losing with the right reason while the run goes on, and the
//! `cmd=` player spec.
//!
//! # Finding `pbrain-wuzi`
//!
//! Cargo only hands a test the binaries of its own package (`CARGO_BIN_EXE_*`), and artifact
//! dependencies are unstable, so these tests build the engine's brain themselves: once per
//! test process, `cargo build -p wuzi-engine --bin pbrain-wuzi` with the profile and target
//! directory of this test executable (`target/<profile>/deps/external-*`), then use
//! `target/<profile>/pbrain-wuzi`. The build is a no-op when the binary is up to date, so the
//! brain always matches the engine's sources. `WUZI_PBRAIN=/path/to/brain` skips the build.
//!
//! Brains play with `move-ms` 50 to 100 and games are capped, so the file runs in seconds;
//! the referee's margin is generous so a loaded machine does not turn a move into a timeout.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use wuzi_arena::config::{Matchup, RunConfig, RunKind};
use wuzi_arena::external::ExternalPlayer;
use wuzi_arena::opening::{self, Opening};
use wuzi_arena::player::{EnginePlayer, Player, PlayerKind, PlayerLimits, PlayerSpec, Scripted};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::{play_game, GameResult, GameSettings, Reason};
use wuzi_arena::run::{run, RunOptions};
use wuzi_engine::{Engine, Params, Pos, Stone};

/// A temporary directory removed on drop.
struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("wuzi-ext-{name}-{}", std::process::id()));
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

/// The `pbrain-wuzi` binary, built for this test's profile if needed (see the file's doc).
fn pbrain() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("WUZI_PBRAIN") {
            return p.to_string_lossy().into_owned();
        }
        let exe = std::env::current_exe().expect("test executable");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps/<test>");
        let target_dir = profile_dir.parent().expect("target directory");
        let profile = profile_dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let profile = match profile.as_str() {
            "debug" => "dev".to_string(),
            other => other.to_string(),
        };
        let brain = profile_dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "-p",
                "wuzi-engine",
                "--bin",
                "pbrain-wuzi",
                "--profile",
            ])
            .arg(&profile)
            .arg("--target-dir")
            .arg(target_dir)
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) if brain.is_file() => eprintln!(
                "cargo build of pbrain-wuzi failed, using the existing binary: {}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Ok(o) => panic!(
                "cannot build pbrain-wuzi: {}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) if brain.is_file() => eprintln!("cannot run cargo ({e}), using {brain:?}"),
            Err(e) => panic!("cannot run cargo to build pbrain-wuzi: {e}"),
        }
        assert!(brain.is_file(), "{brain:?} missing after the build");
        brain.to_string_lossy().into_owned()
    })
}

fn pos(s: &str) -> Vec<Pos> {
    Pos::parse_list(s, 15).expect("valid moves")
}

fn nodes(n: u64) -> PlayerLimits {
    PlayerLimits {
        nodes: Some(n),
        hash_mb: 4,
        ..PlayerLimits::default()
    }
}

fn move_ms(ms: u64) -> PlayerLimits {
    PlayerLimits {
        move_ms: Some(ms),
        hash_mb: 4,
        ..PlayerLimits::default()
    }
}

/// Renju on 15x15, a generous time margin and a move cap.
fn settings(max_moves: usize) -> GameSettings {
    GameSettings {
        max_moves: Some(max_moves),
        time_margin_ms: 1_000,
        ..GameSettings::default()
    }
}

fn engine(n: u64) -> EnginePlayer {
    EnginePlayer::new("engine", Engine::new(Params::default(), 4, 1), nodes(n))
}

/// A game that ended by the rules, not by a player's failure.
fn played_out(r: &GameResult) -> bool {
    matches!(
        r.reason,
        Reason::Five | Reason::Forbidden | Reason::FullBoard | Reason::MoveCap
    )
}

fn record_played_out(r: &GameRecord) -> bool {
    matches!(
        r.reason,
        Reason::Five | Reason::Forbidden | Reason::FullBoard | Reason::MoveCap
    )
}

#[test]
fn pbrain_wuzi_plays_itself_and_restarts_between_games() {
    let brain = pbrain();
    let l = move_ms(50);
    let mut a = ExternalPlayer::new("a", brain, &[], None, l.clone());
    let tweak = ["--set".to_string(), "defence=60".to_string()];
    let mut b = ExternalPlayer::new("b", brain, &tweak, None, l.clone());
    let s = settings(40);

    // From the empty board (BEGIN), then from an opening (BOARD), colours swapped.
    let r1 = play_game(&s, &[], [&mut a, &mut b], [&l, &l], 1).expect("game");
    assert!(played_out(&r1), "{r1:?}");
    assert!(!r1.moves.is_empty());
    let (pa, pb) = (a.process_id(), b.process_id());
    assert!(pa.is_some() && pb.is_some() && pa != pb);
    let folder = a.working_folder().expect("started").to_path_buf();
    assert!(folder.is_dir(), "{folder:?}");

    let opening = pos("h8 i9 j8");
    let r2 = play_game(&s, &opening, [&mut b, &mut a], [&l, &l], 2).expect("game");
    assert!(played_out(&r2), "{r2:?}");
    // Same processes: the second game began with RESTART.
    assert_eq!((a.process_id(), b.process_id()), (pa, pb));
    // pbrain-wuzi's MESSAGE lines fill in depth and nodes.
    assert!(
        r1.moves
            .iter()
            .chain(&r2.moves)
            .any(|m| m.depth.is_some() && m.nodes.is_some()),
        "{r1:?}"
    );
    assert!(a.last_message().is_some());

    // Dropping a player ends the brain and removes its temporary folder.
    drop(a);
    assert!(!folder.exists(), "{folder:?}");
}

#[test]
fn pbrain_wuzi_against_the_in_process_engine_in_a_run() {
    let brain = pbrain();
    let tmp = Tmp::new("run");
    let ext = PlayerSpec::parse(
        &format!("name=ext,cmd={brain},arg=--set=defence=60,move-ms=50,hash-mb=4"),
        &nodes(300),
    )
    .expect("valid spec");
    assert_eq!((ext.limits.nodes, ext.limits.move_ms), (None, Some(50)));
    let eng = PlayerSpec::engine("engine", &Params::default(), nodes(300));
    let openings: Vec<Opening> = opening::renju26(15).expect("fits").into_iter().collect();
    let mut config = RunConfig::new_match(settings(50), [ext, eng], openings);
    config.pairs = 2;
    let opts = RunOptions {
        concurrency: 2,
        out: Some(tmp.0.clone()),
        resume: false,
    };
    let outcome = run(&config, &opts, &mut |_| {}).expect("run");
    assert_eq!(outcome.games_played, 4);
    let records = read_records(&tmp.join(GAMES_FILE))
        .expect("records")
        .records;
    assert_eq!(records.len(), 4);
    for r in &records {
        assert!(record_played_out(r), "{r:?}");
        let names = [r.black.name.as_str(), r.white.name.as_str()];
        assert!(names.contains(&"ext") && names.contains(&"engine"), "{r:?}");
    }
}

/// Writes a shell script; brains are run as `/bin/sh SCRIPT` (running a file just written
/// directly can fail with "text file busy" while other test threads fork).
#[cfg(unix)]
fn script(tmp: &Tmp, name: &str, body: &str) -> PathBuf {
    let path = tmp.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("writes script");
    path
}

/// A brain loop answering START/RESTART with OK and move commands with `answer`.
#[cfg(unix)]
fn brain_loop(answer: &str) -> String {
    format!(
        r#"while read -r cmd rest; do
  case "$cmd" in
    START|RESTART) echo OK ;;
    ABOUT) echo 'name="fake", version="1"' ;;
    BEGIN|TURN|DONE) {answer} ;;
    END) exit 0 ;;
  esac
done
"#
    )
}

/// The script bodies of the misbehaving brains and the reason each loses by.
#[cfg(unix)]
fn misbehaviours() -> Vec<(&'static str, String, Reason)> {
    vec![
        (
            "crash",
            "read -r line\necho OK\necho 'fatal: out of cheese' >&2\nexit 3\n".to_string(),
            Reason::Crash,
        ),
        (
            "garbage",
            brain_loop("echo 'MESSAGE thinking'; echo 'hello there'"),
            Reason::Illegal,
        ),
        ("hang", brain_loop("exec sleep 60"), Reason::Timeout),
        ("occupied", brain_loop("echo 7,7"), Reason::Illegal),
        (
            "unknown",
            brain_loop("echo \"UNKNOWN $cmd\""),
            Reason::Illegal,
        ),
        (
            "refuse",
            "read -r line\necho 'ERROR unsupported size'\nread -r line\n".to_string(),
            Reason::Crash,
        ),
    ]
}

#[cfg(unix)]
#[test]
fn misbehaving_brains_lose_with_the_reason_every_game() {
    let tmp = Tmp::new("fakes");
    let s = settings(30);
    let l = move_ms(100);
    let e = nodes(200);
    for (name, body, reason) in misbehaviours() {
        let path = script(&tmp, &format!("{name}.sh"), &body);
        let args = [path.to_string_lossy().into_owned()];
        let mut fake = ExternalPlayer::new(name, "/bin/sh", &args, None, l.clone());
        let mut eng = engine(200);
        // White after h8 (BOARD, and h8 is 7,7), then black from the empty board (BEGIN; the
        // occupied brain gets h8 i9 so its 7,7 is taken).
        let r = play_game(&s, &pos("h8"), [&mut eng, &mut fake], [&e, &l], 1).expect("game");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::Black), reason),
            "{name}: {r:?}"
        );
        assert!(r.moves.is_empty(), "{name}: {r:?}");
        let second = if name == "occupied" {
            pos("h8 i9")
        } else {
            vec![]
        };
        let r = play_game(&s, &second, [&mut fake, &mut eng], [&l, &e], 2).expect("game");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::White), reason),
            "{name}: {r:?}"
        );
        let detail = r.detail.clone().unwrap_or_default();
        match name {
            "garbage" => {
                assert!(detail.contains("'hello there' is not a move"), "{detail}");
                assert!(detail.contains("BEGIN"), "{detail}");
            }
            "occupied" => assert!(detail.contains("occupied"), "{detail}"),
            "unknown" => assert!(detail.contains("UNKNOWN"), "{detail}"),
            "crash" => assert!(detail.contains("brain"), "{detail}"),
            "refuse" => assert!(detail.contains("ERROR unsupported size"), "{detail}"),
            _ => {}
        }
        if name != "occupied" {
            // The failed brain was killed; the next game starts a new one.
            assert_eq!(fake.process_id(), None, "{name}");
        }
    }
}

/// A brain that logs every line it gets to `commands.log` in its working folder, talks
/// (DEBUG, MESSAGE, an objection to an INFO) and plays 0,0 2,0 4,0 ... each game.
#[cfg(unix)]
const RECORDER: &str = r#"i=0
while read -r line; do
  echo "$line" >> commands.log
  set -- $line
  case "$1" in
    START|RESTART) i=0; echo OK ;;
    BEGIN|TURN|DONE)
      echo 'DEBUG thinking'
      echo 'MESSAGE depth 2-2 score 5 nodes 77'
      echo 'UNKNOWN INFO foo'
      echo "$i,0"
      i=$((i+2)) ;;
    END) exit 0 ;;
  esac
done
"#;

#[cfg(unix)]
#[test]
fn the_brain_gets_start_info_begin_turn_board_and_restart() {
    let tmp = Tmp::new("recorder");
    let path = script(&tmp, "recorder.sh", RECORDER);
    let args = [path.to_string_lossy().into_owned()];
    let l = PlayerLimits {
        move_ms: Some(100),
        game_ms: Some(10_000),
        inc_ms: 50,
        threads: 2,
        hash_mb: 8,
        ..PlayerLimits::default()
    };
    let mut rec = ExternalPlayer::new("rec", "/bin/sh", &args, None, l.clone());
    let fast = nodes(100);

    // Black from the empty board: BEGIN, then TURN with white's replies.
    let mut white = Scripted::new("w", pos("o15 o13 o11"));
    let r = play_game(&settings(6), &[], [&mut rec, &mut white], [&l, &fast], 1).expect("game");
    assert_eq!(r.reason, Reason::MoveCap, "{r:?}");
    assert_eq!(r.moves[0].mv, Pos::new(0, 0));
    assert_eq!(r.moves[2].mv, Pos::new(2, 0));
    let m = &r.moves[0];
    assert_eq!((m.depth, m.nodes, m.score), (Some(2), Some(77), Some(5)));
    assert_eq!(rec.last_message(), Some("depth 2-2 score 5 nodes 77"));

    // White after the opening h8: RESTART, BOARD with h8 as the opponent's stone, TURN.
    let mut black = Scripted::new("b", pos("a15 c15"));
    let opening = pos("h8");
    let r = play_game(
        &settings(5),
        &opening,
        [&mut black, &mut rec],
        [&fast, &l],
        2,
    )
    .expect("game");
    assert_eq!(r.reason, Reason::MoveCap, "{r:?}");

    let folder = rec.working_folder().expect("started").to_path_buf();
    let log = std::fs::read_to_string(folder.join("commands.log")).expect("log");
    let lines: Vec<&str> = log.lines().collect();
    let info = [
        "INFO timeout_turn 100".to_string(),
        "INFO timeout_match 10000".to_string(),
        format!("INFO max_memory {}", (8 + 16 + 2 * 2) * 1024 * 1024),
        "INFO game_type 1".to_string(),
        "INFO rule 4".to_string(),
        "INFO thread_num 2".to_string(),
        format!("INFO folder {}", folder.display()),
    ];
    let mut expected = vec!["START 15".to_string()];
    expected.extend(info.clone());
    for command in ["BEGIN", "TURN 14,14", "TURN 14,12"] {
        expected.push("INFO time_left *".into());
        expected.push(command.into());
    }
    expected.push("RESTART".into());
    expected.extend(info);
    expected.push("INFO time_left *".into());
    expected.extend(["BOARD", "7,7,2", "DONE"].map(String::from));
    expected.push("INFO time_left *".into());
    expected.push("TURN 0,14".into());
    assert_eq!(lines.len(), expected.len(), "{log}");
    for (got, want) in lines.iter().zip(&expected) {
        match want.strip_suffix('*') {
            Some(prefix) => {
                let left: u64 = got
                    .strip_prefix(prefix)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("'{got}' is not '{want}'"));
                assert!(left > 5_000 && left <= 10_000 + 3 * 50, "{got}");
            }
            None => assert_eq!(got, want, "{log}"),
        }
    }

    // A standard-rule game on another board size: START again, rule 1.
    let s = GameSettings {
        size: 9,
        rule: wuzi_engine::Rule::Standard,
        ..settings(2)
    };
    let mut white = Scripted::new("w", Pos::parse_list("i9", 9).expect("valid"));
    let r = play_game(&s, &[], [&mut rec, &mut white], [&l, &fast], 3).expect("game");
    assert_eq!(r.reason, Reason::MoveCap, "{r:?}");
    let log = std::fs::read_to_string(folder.join("commands.log")).expect("log");
    assert!(log.contains("START 9\nINFO timeout_turn 100"), "{log}");
    assert!(log.contains("INFO rule 1\n"), "{log}");
}

#[cfg(unix)]
#[test]
fn a_run_goes_on_and_restarted_brains_play_the_next_game() {
    let brain = pbrain();
    let tmp = Tmp::new("flaky");
    let l = move_ms(100);
    let mut players = vec![PlayerSpec::engine("engine", &Params::default(), nodes(200))];
    let mut expected = Vec::new();
    for (name, body, reason) in misbehaviours() {
        if !["crash", "garbage", "hang"].contains(&name) {
            continue;
        }
        // Misbehaves in its first game only (a marker in its working folder), then is
        // pbrain-wuzi.
        let body =
            format!("if [ -e misbehaved ]; then exec '{brain}'; fi\ntouch misbehaved\n{body}");
        let path = script(&tmp, &format!("{name}.sh"), &body);
        let dir = tmp.join(&format!("{name}-dir"));
        let spec = PlayerSpec::parse(
            &format!(
                "name={name},cmd=/bin/sh,arg={},dir={},move-ms=100",
                path.display(),
                dir.display()
            ),
            &l,
        )
        .expect("valid spec");
        players.push(spec);
        expected.push((name, reason));
    }
    let matchups = (1..players.len())
        .map(|i| Matchup {
            first: 0,
            second: i,
        })
        .collect();
    let openings = opening::renju26(15).expect("fits");
    let mut config = RunConfig::new(
        RunKind::Gauntlet,
        settings(40),
        players,
        matchups,
        openings,
        "renju26",
    );
    config.pairs = 1;
    let opts = RunOptions {
        concurrency: 1,
        out: Some(tmp.join("out")),
        resume: false,
    };
    run(&config, &opts, &mut |_| {}).expect("the run completes");
    let mut records = read_records(&tmp.join("out").join(GAMES_FILE))
        .expect("records")
        .records;
    records.sort_by_key(|r| (r.pair, r.game));
    assert_eq!(records.len(), 2 * expected.len());
    for (name, reason) in expected {
        let games: Vec<&GameRecord> = records
            .iter()
            .filter(|r| r.black.name == name || r.white.name == name)
            .collect();
        assert_eq!(games.len(), 2, "{name}");
        let loser = match games[0].winner {
            Some(Stone::Black) => &games[0].white.name,
            Some(Stone::White) => &games[0].black.name,
            None => panic!("{name}: draw {:?}", games[0]),
        };
        assert_eq!((loser.as_str(), games[0].reason), (name, reason), "{name}");
        assert!(record_played_out(games[1]), "{name}: {:?}", games[1]);
        assert!(!games[1].moves.is_empty(), "{name}");
        // The brain's stderr went to its working folder.
        let log = tmp.join(&format!("{name}-dir")).join("stderr.log");
        assert!(log.is_file(), "{log:?}");
    }
}

#[cfg(unix)]
#[test]
fn external_player_specs() {
    let tmp = Tmp::new("specs");
    let about = script(&tmp, "about.sh", &brain_loop("echo 7,7"));
    let mute = script(&tmp, "mute.sh", "exit 0\n");
    let d = nodes(500);
    let parse = |s: &str| PlayerSpec::parse(s, &d);

    // The name comes from ABOUT, else from the program's file name.
    let p = parse(&format!("cmd=/bin/sh,arg={},move-ms=100", about.display())).expect("valid");
    assert_eq!(p.name, "fake");
    assert_eq!((p.limits.nodes, p.limits.move_ms), (None, Some(100)));
    let p = parse(&format!("cmd=/bin/sh,arg={},tc=1000+10", mute.display())).expect("valid");
    assert_eq!(p.name, "sh");
    let p = parse(&format!(
        "name=x,cmd=/bin/sh,arg={},arg=--flag,dir=work,move-ms=100,threads=2",
        about.display()
    ))
    .expect("valid");
    assert_eq!(
        p.kind,
        PlayerKind::External {
            command: "/bin/sh".into(),
            args: vec![about.display().to_string(), "--flag".into()],
            workdir: Some(PathBuf::from("work")),
        }
    );
    assert!(p.params().is_none() && p.params_diff().is_empty());
    assert!(p.to_string().contains("external /bin/sh"), "{p}");
    let json = serde_json::to_string(&p).expect("serializes");
    assert!(json.contains(r#""kind":"external""#), "{json}");
    let back: PlayerSpec = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, p);
    assert!(p.build().is_ok());

    let msg = |s: &str| parse(s).unwrap_err().to_string();
    assert!(msg("cmd=/nonexistent/pbrain-x,move-ms=10").contains("no program"));
    assert!(msg("cmd=/bin/sh,name=x,nodes=100,move-ms=10").contains("do not apply"));
    assert!(msg("cmd=/bin/sh,name=x,set=defence=60,move-ms=10").contains("do not apply"));
    assert!(msg("cmd=/bin/sh,name=x,preset=classic,move-ms=10").contains("do not apply"));
    assert!(msg("cmd=/bin/sh,name=x").contains("time limit"));
    assert!(msg("name=x,arg=--threads=2,nodes=10").contains("need cmd"));
    assert!(msg("name=x,dir=here,nodes=10").contains("need cmd"));
}

#[test]
fn the_command_line_runs_an_external_brain() {
    let brain = pbrain();
    let tmp = Tmp::new("cli");
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(["match", "--player"])
        .arg(format!("name=ext,cmd={brain},move-ms=50"))
        .args(["--player", "default", "--nodes", "200", "--pairs", "1"])
        .args(["--max-moves", "30", "--time-margin-ms", "1000", "--quiet"])
        .arg("--out")
        .arg(tmp.join("run"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let records = read_records(&tmp.join("run").join(GAMES_FILE))
        .expect("records")
        .records;
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(record_played_out), "{records:?}");
    let run_json = std::fs::read_to_string(tmp.join("run").join("run.json")).expect("run.json");
    assert!(run_json.contains(r#""kind": "external""#), "{run_json}");
}

/// Every [`Player`] method of a brain that was never started is harmless.
#[test]
fn an_unstarted_external_player_is_inert() {
    let mut p = ExternalPlayer::new("x", "/nonexistent/brain", &[], None, move_ms(10));
    assert_eq!(p.name(), "x");
    assert_eq!(p.process_id(), None);
    p.end_game();
    let start = wuzi_arena::player::GameStart {
        size: 15,
        rule: wuzi_engine::Rule::Renju,
        color: Stone::Black,
        seed: 0,
    };
    let e = p.new_game(&start).unwrap_err();
    assert!(e.to_string().contains("cannot start"), "{e}");
}
