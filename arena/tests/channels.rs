//! Issue 23: parameter channels of external brains. A fake brain (a shell script) reads its
//! `offset` parameter by `INFO`, by its command line and from a rendered config file, and
//! plays differently by it; records say what each brain was given and how; a refused
//! parameter or a template that does not render stops the run, keeping what was played; and
//! `pbrain-wuzi` given parameters over `INFO` plays exactly the in-process engine's games.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use wuzi_arena::config::RunConfig;
use wuzi_arena::opening;
use wuzi_arena::player::{GameStart, MoveRequest, Player, PlayerLimits, PlayerSpec};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::registry::Registry;
use wuzi_arena::run::{run, RunOptions};
use wuzi_engine::{Board, Params, Rule, Stone};

#[path = "support/pbrain.rs"]
mod pbrain;
use pbrain::pbrain;

/// A temporary folder, removed when dropped.
fn tmp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("wuzi-channels-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// A brain whose `offset` (0 by default) comes from `--offset=N`, from `engine.ini` in its
/// working folder (`offset = N`) or from `INFO p_offset N`; it refuses (`ERROR`, or exiting
/// at start for the command line) an offset above 9. It plays `offset,k` for its k-th move.
const FAKE: &str = r#"off=0
for a in "$@"; do
  case "$a" in
    --offset=*) off="${a#--offset=}"
      if [ "$off" -gt 9 ]; then echo "offset $off is too large" >&2; exit 1; fi ;;
  esac
done
if [ -f engine.ini ]; then off=$(sed -n 's/^offset *= *//p' engine.ini); fi
n=0
while read -r cmd a b; do
  case "$cmd" in
    START|RESTART) echo OK ;;
    ABOUT) echo 'name="fake", version="1"' ;;
    INFO) case "$a" in
            p_offset) if [ "$b" -gt 9 ]; then echo "ERROR parameter p_offset: $b is out of range"
                      else off=$b; fi ;;
          esac ;;
    BEGIN|TURN|DONE) echo "$off,$n"; n=$((n+1)) ;;
    END) exit 0 ;;
  esac
done
"#;

/// The fake brain and a registry naming it once per channel (paths relative to the file).
fn registry(dir: &Path) -> Registry {
    std::fs::write(dir.join("fake.sh"), FAKE).expect("writes");
    std::fs::write(dir.join("engine.ini.in"), "[search]\noffset = {{offset}}\n").expect("writes");
    let reg = dir.join("engines.toml");
    std::fs::write(
        &reg,
        r#"[brains.by-info]
command = "/bin/sh"
args = ["fake.sh"]
params = "info"
param-prefix = "p_"

[brains.by-args]
command = "/bin/sh"
args = ["fake.sh"]
params = "args"
param-args = ["--{name}={value}"]

[brains.by-config]
command = "/bin/sh"
args = ["fake.sh"]
params = "config"
param-template = "engine.ini.in"
param-file = "engine.ini"
"#,
    )
    .expect("writes");
    // The script is run from each brain's own (temporary) working folder: give its path.
    let text = std::fs::read_to_string(&reg).expect("reads").replace(
        "\"fake.sh\"",
        &format!("\"{}\"", dir.join("fake.sh").display()),
    );
    std::fs::write(&reg, text).expect("writes");
    Registry::load(&reg).expect("a valid registry")
}

fn move_ms(ms: u64) -> PlayerLimits {
    PlayerLimits {
        move_ms: Some(ms),
        ..PlayerLimits::default()
    }
}

/// The first move of `spec`'s brain on the empty board.
fn first_move(spec: &PlayerSpec) -> (u32, u32) {
    let mut p: Box<dyn Player> = spec.build().expect("builds");
    let start = GameStart {
        size: 15,
        rule: Rule::Freestyle,
        color: Stone::Black,
        seed: 1,
    };
    p.new_game(&start).expect("starts");
    let board = Board::new(15, Rule::Freestyle).expect("board");
    let reply = p
        .play(&MoveRequest {
            board: &board,
            moves: &[],
            clock: None,
        })
        .expect("a move");
    p.end_game();
    let report = p.report();
    assert!(report.rejected.is_none(), "{report:?}");
    let mv = reply.mv.expect("a move");
    (mv.x() as u32, mv.y() as u32)
}

#[test]
fn a_fake_brain_reads_its_parameter_by_each_channel_and_plays_by_it() {
    let dir = tmp("fake");
    let r = registry(dir.path());
    let parse = |s: &str| PlayerSpec::parse_with(s, &move_ms(2000), Some(&r)).expect(s);
    for brain in ["by-info", "by-args", "by-config"] {
        assert_eq!(
            first_move(&parse(brain)).0,
            0,
            "{brain}: no parameter given"
        );
        for offset in [3, 7] {
            let spec = parse(&format!("{brain},set=offset={offset}"));
            assert_eq!(
                first_move(&spec),
                (offset, 0),
                "{brain} with offset {offset}"
            );
        }
    }
    // The same from the command line alone, without a registry.
    let fake = dir.path().join("fake.sh").display().to_string();
    let spec = PlayerSpec::parse(
        &format!("name=f,cmd=/bin/sh,arg={fake},params=info,param-prefix=p_,set=offset=5"),
        &move_ms(2000),
    )
    .expect("valid");
    assert_eq!(first_move(&spec), (5, 0));
}

fn match_config(players: [PlayerSpec; 2], pairs: u64) -> RunConfig {
    let settings = GameSettings {
        max_moves: Some(12),
        time_margin_ms: 5_000,
        ..GameSettings::default()
    };
    let mut config = RunConfig::new_match(settings, players, opening::renju26(15).expect("fits"));
    config.pairs = pairs;
    config.seed = 3;
    config
}

fn engine(nodes: u64) -> PlayerSpec {
    let limits = PlayerLimits {
        nodes: Some(nodes),
        hash_mb: 4,
        ..PlayerLimits::default()
    };
    PlayerSpec::engine("engine", &Params::default(), limits)
}

fn records(dir: &Path) -> Vec<GameRecord> {
    read_records(&dir.join(GAMES_FILE))
        .map(|f| f.records)
        .unwrap_or_default()
}

#[test]
fn records_say_which_values_each_brain_was_given_and_how() {
    let dir = tmp("records");
    let r = registry(dir.path());
    let parse = |s: &str| PlayerSpec::parse_with(s, &move_ms(2000), Some(&r)).expect(s);
    for (brain, via, sent) in [
        ("by-info", "info", "INFO p_offset 4".to_string()),
        ("by-args", "args", "--offset=4".to_string()),
        (
            "by-config",
            "config",
            format!(
                "engine.ini (from {})",
                dir.path().join("engine.ini.in").display()
            ),
        ),
    ] {
        let out = dir.path().join(format!("run-{brain}"));
        let config = match_config([parse(&format!("{brain},set=offset=4")), engine(200)], 1);
        let opts = RunOptions {
            concurrency: 1,
            out: Some(out.clone()),
            resume: false,
        };
        run(&config, &opts, &mut |_| {}).expect("plays");
        let recs = records(&out);
        assert_eq!(recs.len(), 2);
        for rec in &recs {
            let fake = if rec.black.name == brain {
                &rec.black
            } else {
                &rec.white
            };
            let given = fake.given_params.as_ref().expect("recorded");
            assert_eq!(given.via, via);
            assert_eq!(given.values.get("offset").map(String::as_str), Some("4"));
            assert_eq!(given.sent, sent, "{brain}");
            let other = if rec.black.name == brain {
                &rec.white
            } else {
                &rec.black
            };
            assert!(other.given_params.is_none());
        }
    }
}

/// Runs `spec` against the engine for 3 pairs; the error, and the records kept.
fn failing_run(dir: &Path, spec: PlayerSpec) -> (String, usize) {
    let out = dir.join(format!("run-{}", spec.name));
    let config = match_config([spec, engine(200)], 3);
    let opts = RunOptions {
        concurrency: 1,
        out: Some(out.clone()),
        resume: false,
    };
    let e = run(&config, &opts, &mut |_| {}).expect_err("the run stops");
    (e.to_string(), records(&out).len())
}

/// Issue 23 point 6: a parameter the brain refuses (by `ERROR`, or by not starting with its
/// arguments or config), or a template that stopped rendering after the run started, stops
/// the run with an error naming it, and nothing played is lost.
#[test]
fn refused_parameters_and_broken_templates_stop_the_run() {
    let dir = tmp("refused");
    let r = registry(dir.path());
    let parse = |s: &str| PlayerSpec::parse_with(s, &move_ms(2000), Some(&r)).expect(s);
    let (e, kept) = failing_run(dir.path(), parse("by-info,set=offset=12"));
    assert!(
        e.contains("parameter offset = 12 refused") && e.contains("out of range"),
        "{e}"
    );
    assert_eq!(kept, 0);
    let (e, _) = failing_run(dir.path(), parse("by-args,set=offset=12"));
    assert!(e.contains("--offset=12") && e.contains("via args"), "{e}");
    // A template broken after the spec was checked (it is read again for every process).
    let spec = parse("by-config,set=offset=2");
    std::fs::write(dir.path().join("engine.ini.in"), "offset = {{offset\n").expect("writes");
    let (e, _) = failing_run(dir.path(), spec);
    assert!(
        e.contains("does not render") && e.contains("engine.ini.in"),
        "{e}"
    );
}

#[test]
fn bad_channel_specs_are_errors_naming_the_problem() {
    let dir = tmp("bad");
    let r = registry(dir.path());
    let msg = |s: &str| {
        PlayerSpec::parse_with(s, &move_ms(100), Some(&r))
            .unwrap_err()
            .to_string()
    };
    assert!(msg("by-config,set=depth=3").contains("unknown placeholder '{{offset}}'"));
    assert!(
        msg("by-config,set=offset=1,set=depth=3").contains("parameter depth has no '{{depth}}'")
    );
    assert!(msg("name=x,cmd=/bin/sh,move-ms=10,set=a=1").contains("needs a parameter channel"));
    assert!(
        msg("by-args,params=args,param-arg=--{nmae}={value},set=a=1")
            .contains("unknown placeholder '{nmae}'")
    );
    assert!(msg("name=x,cmd=/bin/sh,param-prefix=p").contains("need params=info"));
    let reg = dir.path().join("bad.toml");
    let load = |text: &str| {
        std::fs::write(&reg, text).expect("writes");
        Registry::load(&reg).unwrap_err().to_string()
    };
    let e = load(
        "[brains.x]\ncommand = \"/bin/sh\"\nparams = \"config\"\nparam-template = \"none.in\"\n",
    );
    assert!(
        e.contains("none.in") && e.contains("brains.x.params"),
        "{e}"
    );
    let e = load("[brains.x]\ncommand = \"/bin/sh\"\nparam-prefix = \"p\"\n");
    assert!(e.contains("need params ="), "{e}");
    let e = load("[brains.x]\ncommand = \"/bin/sh\"\nparams = \"uci\"\n");
    assert!(e.contains("unknown parameter channel 'uci'"), "{e}");
}

/// Issue 23: `pbrain-wuzi` takes every tunable over `INFO` under the names `wuzi params`
/// prints, so at node limits an external `pbrain-wuzi` with parameters plays exactly the games
/// the in-process engine plays with them.
#[test]
fn pbrain_wuzi_with_info_parameters_plays_the_in_process_games() {
    let dir = tmp("same");
    let d = Params::default();
    let sets = [("defence", d.defence + 25), ("tempo", d.tempo + 15)];
    let limits = PlayerLimits {
        nodes: Some(400),
        hash_mb: 4,
        ..PlayerLimits::default()
    };
    let mut tuned = d.clone();
    for (n, v) in sets {
        tuned.set(n, i64::from(v)).expect("in range");
    }
    let inproc = PlayerSpec::engine("tuned", &tuned, limits.clone());
    let items: Vec<String> = sets.iter().map(|(n, v)| format!("set={n}={v}")).collect();
    let external = PlayerSpec::parse(
        &format!(
            "name=tuned,cmd={},params=info,settle-ms=0,nodes=400,hash-mb=4,{}",
            pbrain(),
            items.join(",")
        ),
        &limits,
    )
    .expect("valid");
    let play = |spec: PlayerSpec, out: PathBuf| {
        let mut config = match_config([spec, engine(400)], 4);
        config.game.max_moves = None;
        let opts = RunOptions {
            concurrency: 2,
            out: Some(out.clone()),
            resume: false,
        };
        run(&config, &opts, &mut |_| {}).expect("plays");
        let mut recs = records(&out);
        recs.sort_by_key(|r| (r.pair, r.game));
        recs
    };
    let a = play(inproc, dir.path().join("in-process"));
    let b = play(external, dir.path().join("external"));
    assert_eq!(a.len(), 8);
    let moves = |r: &GameRecord| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(moves(x), moves(y), "pair {} game {}", x.pair, x.game);
        assert_eq!((x.winner, x.reason), (y.winner, y.reason));
    }
    let sent = b[0]
        .black
        .given_params
        .as_ref()
        .or(b[0].white.given_params.as_ref())
        .expect("recorded");
    assert_eq!(sent.via, "info");
    assert_eq!(sent.values.len(), 2);
    // And the parameters matter: the default engine plays other games.
    let c = play(
        PlayerSpec::engine("tuned", &d, limits),
        dir.path().join("default"),
    );
    assert!(a.iter().zip(&c).any(|(x, y)| moves(x) != moves(y)));
}

/// Issue 23 point 5: the example registry loads on any machine: its peers are under
/// `${PEERS:-~/peers}`, and our own brain takes its parameters over `INFO`.
#[test]
fn the_example_registry_works_wherever_the_peers_are_built() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/engines.example.toml");
    let r = Registry::load(&path).expect("the example loads");
    let peers = std::env::var("PEERS")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| format!("{}/peers", std::env::var("HOME").expect("HOME")));
    for name in ["rapfi", "pentazen", "pela", "mintaka"] {
        let b = r.get(name).expect("in the example");
        assert!(b.command.starts_with(&peers), "{name}: {}", b.command);
        assert!(!b.command.contains("/work/"), "{name}: {}", b.command);
    }
    let own = r.get("wuzi-release").expect("in the example");
    assert!(own.command.ends_with("target/release/pbrain-wuzi"));
    assert_eq!(own.options.channel.as_ref().map(|c| c.kind()), Some("info"));
}
