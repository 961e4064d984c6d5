//! External Gomocup brains as arena players: `pbrain-wuzi` against itself and against the
//! in-process engine, misbehaving brains (shell scripts that crash, answer garbage, hang or
//! play an occupied point) losing with the right reason while the run goes on, and the
//! `cmd=` player spec.
//!
//! `pbrain-wuzi` is built for the test's profile by `support/pbrain.rs`.
//!
//! Brains play with `move-ms` 50 to 100 and games are capped, so the file runs in seconds;
//! the referee's margin is generous so a loaded machine does not turn a move into a timeout.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use wuzi_arena::config::{Matchup, RunConfig, RunKind};
use wuzi_arena::external::ExternalPlayer;
use wuzi_arena::opening::{self, Opening};
use wuzi_arena::player::{EnginePlayer, Player, PlayerKind, PlayerLimits, PlayerSpec, Scripted};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::{play_game, GameResult, GameSettings, Reason};
use wuzi_arena::run::{run, RunOptions};
use wuzi_engine::{Engine, Params, Pos, Stone};

#[path = "support/pbrain.rs"]
mod pbrain;
use pbrain::pbrain;

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
        // Noise is skipped: a brain that only talks loses on time, saying what it sent.
        (
            "garbage",
            brain_loop("echo 'MESSAGE thinking'; echo 'hello there'"),
            Reason::Timeout,
        ),
        ("hang", brain_loop("exec sleep 60"), Reason::Timeout),
        ("occupied", brain_loop("echo 7,7"), Reason::Illegal),
        (
            "unknown",
            brain_loop("echo \"UNKNOWN $cmd\""),
            Reason::Timeout,
        ),
        ("offboard", brain_loop("echo 15,3"), Reason::Illegal),
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
                assert!(detail.contains("no answer to BEGIN"), "{detail}");
                assert!(detail.contains("the last 'hello there'"), "{detail}");
                let notes = &r.reports[0].notes;
                assert_eq!(notes, &["answer to BEGIN: 'hello there'"], "{r:?}");
            }
            "offboard" => assert!(detail.contains("off the 15x15 board"), "{detail}"),
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
            options: Default::default(),
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
    // Node and depth limits are the brain's own (INFO max_node/max_depth), never the run's.
    let p = parse("cmd=/bin/sh,name=x,nodes=100,depth=7").expect("valid");
    assert_eq!(
        (p.limits.nodes, p.limits.depth, p.limits.move_ms),
        (Some(100), Some(7), None)
    );
    let p = parse("cmd=/bin/sh,name=x,move-ms=10").expect("valid");
    assert_eq!((p.limits.nodes, p.limits.depth), (None, None));
    let p = parse("cmd=/bin/sh,name=x,move-ms=10,settle-ms=0,setup=turn,info=hash_size 1024")
        .expect("valid");
    let PlayerKind::External { options, .. } = &p.kind else {
        panic!("external: {p:?}")
    };
    assert_eq!(options.settle_ms, Some(0));
    assert_eq!(options.setup, wuzi_arena::external::SetupMode::Turn);
    assert_eq!(options.info, ["hash_size 1024"]);
    assert!(msg("cmd=/bin/sh,name=x,move-ms=10,setup=board2").contains("board or turn"));
    assert!(msg("name=x,nodes=10,settle-ms=5").contains("need cmd"));
    // Issue 23: values on an external brain travel through a parameter channel.
    assert!(
        msg("cmd=/bin/sh,name=x,set=defence=60,move-ms=10").contains("needs a parameter channel")
    );
    assert!(
        msg("cmd=/bin/sh,name=x,params=new.toml,move-ms=10").contains("unknown parameter channel")
    );
    assert!(msg("cmd=/bin/sh,name=x,preset=classic,move-ms=10").contains("preset does not apply"));
    assert!(msg("cmd=/bin/sh,name=x").contains("needs a limit"));
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

// ---------------------------------------------------------------------------------------
// Playing the field: brains with the protocol habits of real engines (issue 10). Most wrap
// `pbrain-wuzi` in a bash script that adds the habit, so their games are real games that
// must end on the board (five, full board, move cap, foul), never by a protocol misread.
// ---------------------------------------------------------------------------------------

/// Runs `script` (bash) with `pbrain-wuzi` as its first argument: the spec items of it.
#[cfg(unix)]
fn wrapped(tmp: &Tmp, name: &str, body: &str) -> String {
    let path = tmp.join(&format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/bash\n{body}")).expect("writes script");
    format!("cmd=/bin/bash,arg={},arg={}", path.display(), pbrain())
}

/// PentaZen's habits: a banner before `START`, lines with control bytes and debug output
/// between moves, `ERROR` lines, and CRLF line ends throughout.
#[cfg(unix)]
const NOISY: &str = r#"printf 'NoisyBrain 0.4 \033[1mready\033[0m\r\n'
"$1" | while IFS= read -r line; do
  case "$line" in
    [0-9]*,[0-9]*)
      printf 'ev +v17 nd 3078 tm 3 sp 1026\r\n'
      printf 'MESSAGE dep \014-\023 ev 134 nd 379k\r\n'
      printf '\001\002 raw bytes\r\n'
      printf '\r\n'
      printf 'ERROR something odd happened\r\n' ;;
  esac
  printf '%s\r\n' "$line"
done
"#;

/// Rapfi's habit: a command that arrives within 30 ms of the brain's move is half-read (the
/// command word is lost and the rest answered with `ERROR Unknown command`). The time of
/// each move is stamped before the move is printed, so the arena cannot see the move before
/// the stamp exists.
#[cfg(unix)]
const DROPS_FAST_COMMANDS: &str = r#"brain="$1"
rm -f in.fifo out.fifo stamp; mkfifo in.fifo out.fifo
"$brain" < in.fifo > out.fifo &
exec 3> in.fifo
echo 0 > stamp
{ while IFS= read -r line; do
    case "$line" in [0-9]*,[0-9]*) echo "${EPOCHREALTIME/./}" > stamp ;; esac
    printf '%s\n' "$line"
  done < out.fifo; } &
while IFS= read -r cmd; do
  read -r last < stamp
  now=${EPOCHREALTIME/./}
  if (( now - last < 30000 )); then
    echo "ERROR Unknown command: ${cmd#* }"
    continue
  fi
  printf '%s\n' "$cmd" >&3
  [ "$cmd" = END ] && break
done
exec 3>&-
wait
"#;

/// mintaka's habit: never an `OK` (to `START`, `RESTART` or anything).
#[cfg(unix)]
const NO_OK: &str = r#""$1" | while IFS= read -r line; do
  [ "$line" = OK ] && continue
  printf '%s\n' "$line"
done
"#;

/// Settings for games against the in-process engine at 100 nodes a move.
fn field_settings() -> GameSettings {
    GameSettings {
        max_moves: Some(40),
        time_margin_ms: 2_000,
        ..GameSettings::default()
    }
}

/// Plays `pairs` pairs of `spec` against the engine at 100 nodes in a run; the records.
fn run_against_engine(tmp: &Tmp, out: &str, spec: &str, pairs: u64) -> Vec<GameRecord> {
    let ext = PlayerSpec::parse(spec, &nodes(100)).expect("valid spec");
    let eng = PlayerSpec::engine("engine", &Params::default(), nodes(100));
    let openings: Vec<Opening> = opening::renju26(15).expect("fits").into_iter().collect();
    let mut config = RunConfig::new_match(field_settings(), [ext, eng], openings);
    config.pairs = pairs;
    let opts = RunOptions {
        concurrency: 1,
        out: Some(tmp.join(out)),
        resume: false,
    };
    run(&config, &opts, &mut |_| {}).expect("run");
    let mut records = read_records(&tmp.join(out).join(GAMES_FILE))
        .expect("records")
        .records;
    records.sort_by_key(|r| (r.pair, r.game));
    assert_eq!(records.len() as u64, 2 * pairs);
    records
}

/// The notes of the external player (named `ext`) in a record.
fn ext_notes(r: &GameRecord) -> &[String] {
    if r.black.name == "ext" {
        &r.black.notes
    } else {
        &r.white.notes
    }
}

#[cfg(unix)]
#[test]
fn noise_control_bytes_banner_and_crlf_are_skipped_and_recorded() {
    let tmp = Tmp::new("noisy");
    let spec = format!(
        "name=ext,{},move-ms=100,hash-mb=4",
        wrapped(&tmp, "noisy", NOISY)
    );
    let records = run_against_engine(&tmp, "out", &spec, 2);
    for r in &records {
        assert!(record_played_out(r), "{r:?}");
        assert!(r.moves.len() > 6, "{r:?}");
        let notes = ext_notes(r);
        assert!(
            notes.len() <= wuzi_arena::external::MAX_NOTES + 1,
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("'ev +v17 nd 3078 tm 3 sp 1026'")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("'\\u{1}\\u{2} raw bytes'")),
            "control bytes are escaped: {notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("ERROR something odd")),
            "{notes:?}"
        );
        assert!(
            notes.last().is_some_and(|n| n.contains("more not kept")),
            "{notes:?}"
        );
    }
    // The banner came before the first START (later games RESTART the same process).
    let first = ext_notes(&records[0]);
    assert!(
        first[0].starts_with("before OK to START 15: 'NoisyBrain 0.4 \\u{1b}[1mready"),
        "{first:?}"
    );
    // The brain's MESSAGE with control bytes was skipped, not taken for stats or a move.
    assert!(records.iter().all(|r| r.moves.iter().all(|m| m.ms < 2_000)));
}

/// A wrapper that does not `exec` its engine and starts a helper beside it that never ends
/// (so the wrapper never exits by itself either): their process ids go to `pids`.
#[cfg(unix)]
const LEAVES_CHILDREN: &str = r#"sleep 600 &
echo $! > pids
"$1" <&0 &
echo $! >> pids
wait
"#;

/// Whether process `pid` is gone (or a zombie nobody reaps: this container's init may not).
#[cfg(unix)]
fn process_is_gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Regression: killing a wrapper script left the engine it started (and anything else)
/// running after every game, tests included.
#[cfg(unix)]
#[test]
fn nothing_a_brain_started_outlives_it() {
    let tmp = Tmp::new("children");
    let brain = wrapped(&tmp, "children", LEAVES_CHILDREN);
    let dir = tmp.join("d");
    let spec = format!(
        "name=ext,{brain},dir={},move-ms=100,hash-mb=4",
        dir.display()
    );
    let records = run_against_engine(&tmp, "run", &spec, 1);
    assert!(records.iter().all(record_played_out), "{records:?}");
    wuzi_arena::external::wait_for_exits();
    let pids = std::fs::read_to_string(dir.join("pids")).expect("the wrapper wrote its pids");
    let pids: Vec<&str> = pids.split_whitespace().collect();
    assert_eq!(pids.len(), 2, "{pids:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !pids.iter().all(|p| process_is_gone(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in &pids {
        assert!(process_is_gone(pid), "process {pid} outlived its brain");
    }
}

#[cfg(unix)]
#[test]
fn the_settle_gap_keeps_a_brain_that_drops_fast_commands_playing() {
    let tmp = Tmp::new("drops");
    let brain = wrapped(&tmp, "drops", DROPS_FAST_COMMANDS);
    // Without a settle gap the brain loses commands sent right after its move and then
    // never answers: the test proves the fake really drops them.
    let spec = format!(
        "name=ext,{brain},dir={},move-ms=100,hash-mb=4,settle-ms=0",
        tmp.join("d0").display()
    );
    let records = run_against_engine(&tmp, "gap0", &spec, 1);
    let lost: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.reason == Reason::Timeout)
        .collect();
    assert!(!lost.is_empty(), "no command was dropped: {records:?}");
    for r in &lost {
        assert!(
            ext_notes(r)
                .iter()
                .any(|n| n.contains("ERROR Unknown command")),
            "{r:?}"
        );
    }
    // With the default settle gap (50 ms) every command arrives whole.
    let spec = format!(
        "name=ext,{brain},dir={},move-ms=100,hash-mb=4",
        tmp.join("d1").display()
    );
    let records = run_against_engine(&tmp, "gap", &spec, 2);
    for r in &records {
        assert!(record_played_out(r), "{r:?}");
        assert!(
            !ext_notes(r).iter().any(|n| n.contains("Unknown command")),
            "{r:?}"
        );
        // The settle gap is not charged to the brain's clock.
        assert!(r.moves.iter().all(|m| m.ms < 100 + 2_000), "{r:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_brain_that_never_says_ok_plays_on_with_a_note() {
    let tmp = Tmp::new("nook");
    let spec = format!(
        "name=ext,{},move-ms=100,hash-mb=4,start-ms=300",
        wrapped(&tmp, "nook", NO_OK)
    );
    let records = run_against_engine(&tmp, "out", &spec, 1);
    for r in &records {
        assert!(record_played_out(r), "{r:?}");
        let notes = ext_notes(r);
        assert!(
            notes
                .iter()
                .any(|n| n == "no OK to START 15 within 300 ms; played on"),
            "{notes:?}"
        );
    }
    // The second game: RESTART got no OK either, so the brain was started afresh.
    assert!(
        ext_notes(&records[1])
            .iter()
            .any(|n| n.contains("no OK to RESTART within 300 ms; restarted")),
        "{:?}",
        records[1]
    );
}

/// A brain that cannot take `BOARD` (it answers `ERROR` and skips the block) and places
/// stones alternately, like mintaka: `TURN` plays for the side to move, `TAKEBACK` undoes.
/// It answers with the first empty point in row order and logs its stones before each
/// answer to `positions.log`.
#[cfg(unix)]
const NO_BOARD: &str = r#"declare -A occ
stones=()
answer() {
  echo "${stones[*]}" >> positions.log
  for y in $(seq 0 14); do for x in $(seq 0 14); do
    if [ -z "${occ[$x,$y]}" ]; then
      occ[$x,$y]=1; stones+=("$x,$y"); echo "$x,$y"; return
    fi
  done; done
}
while IFS= read -r line; do
  echo "$line" >> commands.log
  set -- $line
  case "$1" in
    START|RESTART) occ=(); stones=(); echo OK ;;
    BOARD) echo "ERROR BOARD is not supported"
           while IFS= read -r l; do [ "$l" = DONE ] && break; done ;;
    BEGIN) answer ;;
    TURN) occ[$2]=1; stones+=("$2"); answer ;;
    TAKEBACK) unset "occ[$2]"; unset 'stones[-1]'; echo OK ;;
    END) exit 0 ;;
  esac
done
"#;

#[cfg(unix)]
#[test]
fn board_refused_then_set_up_with_turn_and_takeback() {
    let tmp = Tmp::new("noboard");
    let path = tmp.join("noboard.sh");
    std::fs::write(&path, format!("#!/bin/bash\n{NO_BOARD}")).expect("writes");
    let args = [path.to_string_lossy().into_owned()];
    let l = move_ms(100);
    let e = nodes(100);
    let s = settings(40);
    let opening = pos("h8 i9 j8");

    // With BOARD the brain never answers: a time loss that says why.
    let mut fake = ExternalPlayer::new("fake", "/bin/bash", &args, None, l.clone()).with_grace(300);
    let mut eng = engine(100);
    let r = play_game(&s, &opening, [&mut eng, &mut fake], [&e, &l], 1).expect("game");
    assert_eq!(
        (r.winner, r.reason),
        (Some(Stone::Black), Reason::Timeout),
        "{r:?}"
    );
    assert!(
        r.reports[1]
            .notes
            .iter()
            .any(|n| n.contains("ERROR BOARD is not supported")),
        "{r:?}"
    );

    // setup=turn: each opening stone as TURN, the brain's answers taken back.
    let turn = wuzi_arena::external::BrainOptions {
        setup: wuzi_arena::external::SetupMode::Turn,
        ..Default::default()
    };
    let mut fake =
        ExternalPlayer::new("fake", "/bin/bash", &args, None, l.clone()).with_options(turn);
    let r = play_game(&s, &opening, [&mut eng, &mut fake], [&e, &l], 2).expect("game");
    assert!(played_out(&r), "{r:?}");
    let folder = fake.working_folder().expect("started").to_path_buf();
    let log = std::fs::read_to_string(folder.join("commands.log")).expect("log");
    let xy = |p: &Pos| format!("{},{}", p.x(), p.y());
    let stones: Vec<String> = opening.iter().map(xy).collect();
    let sent: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("TURN") || l.starts_with("TAKEBACK") || *l == "BOARD")
        .collect();
    assert_eq!(&sent[0], &format!("TURN {}", stones[0]), "{log}");
    assert!(sent[1].starts_with("TAKEBACK "), "{log}");
    assert_eq!(&sent[2], &format!("TURN {}", stones[1]), "{log}");
    assert!(sent[3].starts_with("TAKEBACK "), "{log}");
    assert_eq!(&sent[4], &format!("TURN {}", stones[2]), "{log}");
    assert!(!sent.contains(&"BOARD"), "{log}");
    // The brain's board before its first real answer is the opening, in play order.
    let positions = std::fs::read_to_string(folder.join("positions.log")).expect("log");
    assert_eq!(
        positions.lines().nth(2),
        Some(stones.join(" ").as_str()),
        "{positions}"
    );
    // Its first move is the first empty point of its scan, and it was recorded as such.
    assert_eq!(r.moves[0].mv, Pos::new(0, 0), "{r:?}");

    // As black after two stones: TURN h8, TAKEBACK, then the clocked TURN i9.
    let opening = pos("h8 i9");
    let r = play_game(&s, &opening, [&mut fake, &mut eng], [&l, &e], 3).expect("game");
    assert!(played_out(&r), "{r:?}");
    let positions = std::fs::read_to_string(folder.join("positions.log")).expect("log");
    let two: Vec<String> = opening.iter().map(xy).collect();
    assert!(positions.lines().any(|p| p == two.join(" ")), "{positions}");
}

#[cfg(unix)]
#[test]
fn a_brain_slow_to_exit_after_end_is_killed_without_stalling() {
    let tmp = Tmp::new("slowend");
    let body = brain_loop("echo \"$i,0\"; i=$((i+1))").replace("END) exit 0", "END) exec sleep 30");
    let path = script(&tmp, "slowend.sh", &format!("i=0\n{body}"));
    let args = [path.to_string_lossy().into_owned()];
    let l = move_ms(100);
    let options = wuzi_arena::external::BrainOptions {
        end_ms: Some(300),
        ..Default::default()
    };
    let mut fake =
        ExternalPlayer::new("slow", "/bin/sh", &args, None, l.clone()).with_options(options);
    let mut white = Scripted::new("w", pos("o1 o3 o5"));
    let fast = nodes(100);
    let r = play_game(&settings(6), &[], [&mut fake, &mut white], [&l, &fast], 1).expect("game");
    assert_eq!(r.reason, Reason::MoveCap, "{r:?}");
    let pid = fake.process_id().expect("running");
    let t = std::time::Instant::now();
    drop(fake);
    // The brain sleeps 30 s after END; dropping the player does not wait for it...
    assert!(t.elapsed().as_millis() < 1_000, "{:?}", t.elapsed());
    // ...and it is killed after its grace.
    wuzi_arena::external::wait_for_exits();
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "brain {pid} still there"
    );
}

#[cfg(unix)]
#[test]
fn a_flooding_brain_loses_on_time_and_its_notes_are_capped() {
    let tmp = Tmp::new("flood");
    let path = script(
        &tmp,
        "flood.sh",
        &brain_loop("while :; do echo 'garbage garbage garbage'; done"),
    );
    let args = [path.to_string_lossy().into_owned()];
    let l = move_ms(100);
    let mut fake = ExternalPlayer::new("flood", "/bin/sh", &args, None, l.clone()).with_grace(400);
    let mut eng = engine(100);
    let e = nodes(100);
    let r = play_game(&settings(20), &[], [&mut fake, &mut eng], [&l, &e], 1).expect("game");
    assert_eq!(
        (r.winner, r.reason),
        (Some(Stone::White), Reason::Timeout),
        "{r:?}"
    );
    let detail = r.detail.clone().unwrap_or_default();
    assert!(
        detail.contains("no answer to BEGIN within 100+400 ms"),
        "{detail}"
    );
    assert!(
        detail.contains("the last 'garbage garbage garbage'"),
        "{detail}"
    );
    let notes = &r.reports[0].notes;
    assert_eq!(
        notes.len(),
        wuzi_arena::external::MAX_NOTES + 1,
        "{notes:?}"
    );
    assert!(
        notes[wuzi_arena::external::MAX_NOTES].contains("more not kept"),
        "{notes:?}"
    );
    assert_eq!(fake.process_id(), None, "the flooding brain was killed");
}

#[cfg(unix)]
#[test]
fn node_and_depth_limits_are_sent_as_yixin_info_and_recorded() {
    let tmp = Tmp::new("limits");
    let path = script(&tmp, "recorder.sh", RECORDER);
    let spec = PlayerSpec::parse(
        &format!(
            "name=ext,cmd=/bin/sh,arg={},nodes=5000,depth=7",
            path.display()
        ),
        &nodes(300),
    )
    .expect("valid");
    assert_eq!(
        (spec.limits.nodes, spec.limits.depth),
        (Some(5000), Some(7))
    );
    let mut p = spec.build().expect("builds");
    let mut white = Scripted::new("w", pos("o15 o13"));
    let fast = nodes(100);
    let r = play_game(
        &settings(4),
        &[],
        [p.as_mut(), &mut white],
        [&spec.limits, &fast],
        1,
    )
    .expect("game");
    assert_eq!(r.reason, Reason::MoveCap, "{r:?}");
    assert_eq!(
        r.reports[0].given.as_deref(),
        Some("INFO timeout_turn 30000; INFO timeout_match 0; INFO max_node 5000; INFO max_depth 7")
    );
    assert_eq!(r.reports[1].given, None, "{r:?}");
    drop(p);
    wuzi_arena::external::wait_for_exits();

    // In a run the record says it too, and the run-wide node limit is not the brain's. An
    // info= line with a key the arena sends replaces the arena's line; others are added.
    let ext = PlayerSpec::parse(
        &format!(
            "name=ext,cmd=/bin/sh,arg={},dir={},move-ms=100,nodes=777,\
             info=TIMEOUT_MATCH 1000000000,info=hash_size 64",
            path.display(),
            tmp.join("work").display()
        ),
        &nodes(300),
    )
    .expect("valid");
    let w = PlayerSpec::engine("engine", &Params::default(), nodes(100));
    let openings: Vec<Opening> = opening::renju26(15).expect("fits").into_iter().collect();
    let mut config = RunConfig::new_match(settings(8), [ext, w], openings);
    config.pairs = 1;
    let opts = RunOptions {
        concurrency: 1,
        out: Some(tmp.join("out")),
        resume: false,
    };
    run(&config, &opts, &mut |_| {}).expect("run");
    let records = read_records(&tmp.join("out").join(GAMES_FILE))
        .expect("records")
        .records;
    for r in &records {
        let (ext, eng) = if r.black.name == "ext" {
            (&r.black, &r.white)
        } else {
            (&r.white, &r.black)
        };
        assert_eq!(
            ext.given.as_deref(),
            Some("INFO timeout_turn 100; INFO TIMEOUT_MATCH 1000000000; INFO max_node 777"),
            "{r:?}"
        );
        assert_eq!(eng.given, None);
    }
    let log = std::fs::read_to_string(tmp.join("work").join("commands.log")).expect("log");
    assert!(log.contains("INFO max_node 777\n"), "{log}");
    assert!(!log.contains("INFO timeout_match 0"), "{log}");
    assert!(
        log.contains("INFO thread_num 1\nINFO hash_size 64\nINFO folder"),
        "{log}"
    );
    assert!(!log.contains("max_depth"), "{log}");
}

/// A registry naming `pbrain-wuzi` twice: by absolute path, and through a script in the
/// registry's folder (`dir = "."` resolves against the file, not the current folder).
#[cfg(unix)]
fn registry_file(tmp: &Tmp) -> PathBuf {
    std::fs::write(
        tmp.join("local.sh"),
        format!("#!/bin/sh\nexec '{}'\n", pbrain()),
    )
    .expect("writes");
    let reg = tmp.join("engines.toml");
    std::fs::write(
        &reg,
        format!(
            r#"[brains.wuzi-brain]
command = "{}"
description = "pbrain-wuzi of this build"
settle-ms = 0
extensions = ["max_node"]

[brains.local]
command = "/bin/sh"
args = ["local.sh"]
dir = "."
"#,
            pbrain()
        ),
    )
    .expect("writes");
    reg
}

#[cfg(unix)]
#[test]
fn brains_by_name_from_a_registry() {
    let tmp = Tmp::new("registry");
    let reg = registry_file(&tmp);
    let registry = wuzi_arena::registry::Registry::load(&reg).expect("valid");
    let d = nodes(300);
    let parse = |s: &str| PlayerSpec::parse_with(s, &d, Some(&registry));
    let p = parse("wuzi-brain,move-ms=200").expect("valid");
    assert_eq!(p.name, "wuzi-brain");
    assert_eq!((p.limits.move_ms, p.limits.nodes), (Some(200), None));
    let PlayerKind::External {
        command, options, ..
    } = &p.kind
    else {
        panic!("{p:?}")
    };
    assert_eq!(command, pbrain());
    assert_eq!(options.settle_ms, Some(0));
    let p = parse("brain=local,name=mine,move-ms=100,settle-ms=20,arg=--x").expect("valid");
    assert_eq!(p.name, "mine");
    let PlayerKind::External {
        args,
        workdir,
        options,
        ..
    } = &p.kind
    else {
        panic!("{p:?}")
    };
    assert_eq!(args, &["local.sh", "--x"]);
    assert_eq!(
        workdir.as_deref(),
        Some(tmp.0.canonicalize().expect("exists").as_path())
    );
    assert_eq!(options.settle_ms, Some(20));
    // Engine players still parse; a bare unknown word does not silently become one.
    assert!(parse("default").is_ok());
    assert!(parse("name=a").is_ok());
    assert!(parse("a,set=defence=60").is_ok());
    let msg = |s: &str| parse(s).unwrap_err().to_string();
    assert!(msg("rapfo,move-ms=100").contains("unknown brain 'rapfo'"));
    assert!(msg("rapfo,move-ms=100").contains("local, wuzi-brain"));
    assert!(msg("brain=rapfo").contains("unknown brain"));
    assert!(msg("wuzi-brain,depth=3").contains("max_depth"));
    assert!(msg("wuzi-brain,move-ms=10,cmd=/bin/sh").contains("do not mix"));
    let e = PlayerSpec::parse("brain=x,move-ms=10", &d)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no brain registry"), "{e}");
}

#[cfg(unix)]
#[test]
fn the_command_line_finds_brains_by_name_and_rejects_bad_registries() {
    let tmp = Tmp::new("cli-registry");
    let reg = registry_file(&tmp);
    let arena = env!("CARGO_BIN_EXE_wuzi-arena");
    // A gauntlet by name, run from another folder, with the registry from --engines.
    let out = Command::new(arena)
        .current_dir(std::env::temp_dir())
        .args(["gauntlet", "--engines"])
        .arg(&reg)
        .args(["--player", "default", "--player", "wuzi-brain,move-ms=50"])
        .args([
            "--player",
            "local,move-ms=50",
            "--nodes",
            "200",
            "--pairs",
            "1",
        ])
        .args([
            "--max-moves",
            "20",
            "--time-margin-ms",
            "1000",
            "--quiet",
            "--out",
        ])
        .arg(tmp.join("run"))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = read_records(&tmp.join("run").join(GAMES_FILE))
        .expect("records")
        .records;
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(record_played_out), "{records:?}");
    for name in ["wuzi-brain", "local"] {
        assert!(
            records
                .iter()
                .any(|r| r.black.name == name || r.white.name == name),
            "{name}"
        );
    }
    // A sweep's baseline by name.
    let out = Command::new(arena)
        .args(["sweep", "--engines"])
        .arg(&reg)
        .args([
            "--param",
            "defence",
            "--values",
            "60",
            "--baseline",
            "wuzi-brain,move-ms=50",
        ])
        .args(["--nodes", "200", "--pairs", "1", "--max-moves", "12"])
        .args(["--time-margin-ms", "1000", "--quiet", "--out"])
        .arg(tmp.join("sweep"))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = read_records(&tmp.join("sweep").join(GAMES_FILE))
        .expect("records")
        .records;
    assert_eq!(records.len(), 2);
    assert!(records
        .iter()
        .all(|r| r.black.given.is_some() || r.white.given.is_some()));
    // The gate's baseline by name: an unknown one stops it before anything runs.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    let out = Command::new(arena)
        .current_dir(root)
        .args(["gate", "--engines"])
        .arg(&reg)
        .args(["--baseline", "rapfo,move-ms=50", "--out"])
        .arg(tmp.join("gate"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown brain 'rapfo'"), "{err}");
    // The registry from WUZI_ENGINES; an unknown name is an error naming what there is.
    let out = Command::new(arena)
        .env(wuzi_arena::registry::ENV_VAR, &reg)
        .args([
            "match", "--player", "rapfi", "--player", "default", "--nodes", "100",
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown brain 'rapfi'") && err.contains("local, wuzi-brain"),
        "{err}"
    );
    // A registry with a bad key.
    let bad = tmp.join("bad.toml");
    std::fs::write(&bad, "[brains.x]\ncommand = \"/bin/sh\"\nsettle = 5\n").expect("writes");
    let out = Command::new(arena)
        .args(["round-robin", "--engines"])
        .arg(&bad)
        .args([
            "--player",
            "x,move-ms=10",
            "--player",
            "default",
            "--nodes",
            "100",
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.toml") && err.contains("settle"), "{err}");
    // A registry that is not there.
    let out = Command::new(arena)
        .args(["match", "--engines", "/nonexistent/engines.toml"])
        .args(["--player", "a", "--player", "b", "--nodes", "100"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/engines.toml"));
}
