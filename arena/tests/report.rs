//! `report.html` of run directories: every game's moves in the page, inline SVG charts,
//! escaping of hostile names, the sample of large runs, and the size and generation time of a
//! 20,000-game report (ignored test; its cheap twin always runs).

use std::path::PathBuf;
use std::time::Instant;

use wuzi_arena::config::{mix64, Matchup, RunConfig, RunKind, RUN_FILE};
use wuzi_arena::gate::write_report;
use wuzi_arena::opening;
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::record::{
    GameRecord, MoveEntry, OpeningRef, RecordPlayer, RecordWriter, GAMES_FILE,
};
use wuzi_arena::referee::{GameSettings, Reason};
use wuzi_arena::report::{write_run_report, ReportOptions};
use wuzi_arena::run::{run, RunOptions};
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_engine::{Board, Outcome, Params, Pos, Stone};

/// A temporary directory removed on drop.
struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("wuzi-report-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        Tmp(p)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn engine(name: &str, settings: &[&str]) -> PlayerSpec {
    let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
    let params = Params::from_file_and_settings(None, &settings).expect("valid settings");
    PlayerSpec::engine(
        name,
        &params,
        PlayerLimits {
            nodes: Some(150),
            hash_mb: 2,
            ..PlayerLimits::default()
        },
    )
}

const HOSTILE: &str = "<img src=x onerror=alert(1)>";

fn records(dir: &std::path::Path) -> Vec<GameRecord> {
    wuzi_arena::record::read_records(&dir.join(GAMES_FILE))
        .expect("records")
        .records
}

/// Things that would make the page reach the network.
fn assert_offline(html: &str) {
    for bad in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "fetch(",
        "XMLHttpRequest",
        "<link",
        "<iframe",
    ] {
        assert!(
            !html.contains(bad),
            "the report must not load anything: {bad}"
        );
    }
}

#[test]
fn match_report_holds_every_game_inline_charts_and_escaped_names() {
    let tmp = Tmp::new("match");
    let dir = tmp.0.join("run");
    let mut config = RunConfig::new_match(
        GameSettings::default(),
        [
            engine(HOSTILE, &[]),
            engine("a\"b'&</script>", &["defence=60"]),
        ],
        opening::renju26(15).expect("fits"),
    );
    config.pairs = 3;
    config.sprt = Some(SprtParams::new(0.0, 10.0, EloModel::Logistic));
    run(
        &config,
        &RunOptions {
            concurrency: 2,
            out: Some(dir.clone()),
            resume: false,
        },
        &mut |_| {},
    )
    .expect("run");
    // A perfect score's Elo bound is infinite and written as null.
    let summary_path = dir.join("summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).expect("summary")).unwrap();
    summary["matchups"][0]["elo"] =
        serde_json::json!({"value": 100.0, "lower": 50.0, "upper": null});
    std::fs::write(&summary_path, summary.to_string()).expect("write summary");
    let path = write_report(&dir, None, &ReportOptions::default()).expect("report");
    assert_eq!(path, dir.join("report.html"));
    let html = std::fs::read_to_string(&path).expect("read");
    let games = records(&dir);
    assert_eq!(games.len(), 6);
    for r in &games {
        let moves = Pos::format_list(&r.all_moves());
        assert!(html.contains(&moves), "game {:?} missing: {moves}", r.key());
    }
    // score, colours, sprt: inline SVG, no image files referenced.
    assert_eq!(html.matches("<figure class=\"chart\"><svg").count(), 3);
    assert!(html.contains("<body data-charts=\"3\">"));
    assert!(!html.contains(".png"));
    assert_offline(&html);
    // Names are escaped in HTML and in the embedded JSON alike.
    assert!(!html.contains(HOSTILE) && !html.contains("</script>\""));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("\\u003cimg src=x onerror=alert(1)\\u003e"));
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "the data block and the script"
    );
    // The session's timing comes from summary.json (regression: a summary with an infinite
    // Elo bound, written as null, lost it).
    assert!(html.contains("games/s"), "timing row");
    // Tables and viewer.
    for id in [
        "summary-table",
        "sprt-table",
        "openings-table",
        "game-list",
        "move-table",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[test]
fn gauntlet_report_and_bad_directories() {
    let tmp = Tmp::new("gauntlet");
    let dir = tmp.0.join("run");
    let mut config = RunConfig::new_match(
        GameSettings::default(),
        [engine("a", &[]), engine("b", &["defence=60"])],
        opening::renju26(15).expect("fits"),
    );
    config.kind = RunKind::Gauntlet;
    config.players.push(engine("c", &["tempo=0"]));
    config.matchups.push(Matchup {
        first: 0,
        second: 2,
    });
    config.pairs = 1;
    run(
        &config,
        &RunOptions {
            concurrency: 2,
            out: Some(dir.clone()),
            resume: false,
        },
        &mut |_| {},
    )
    .expect("run");
    let out = tmp.0.join("elsewhere.html");
    write_run_report(&dir, Some(&out), &ReportOptions::default()).expect("report");
    let html = std::fs::read_to_string(&out).expect("read");
    assert!(html.contains("<title>Gauntlet: a against b, c</title>"));
    assert!(html.contains("id=\"standings\""));
    assert_eq!(html.matches("<figure class=\"chart\"><svg").count(), 2);

    let err = write_report(&tmp.0, None, &ReportOptions::default()).unwrap_err();
    assert!(err.to_string().contains("neither a run directory"), "{err}");
}

/// A synthetic run of `pairs` pairs (two matchups' worth of players, renju, random legal
/// moves near the stones, at most 50 moves after the opening) written as the arena writes
/// records, so reports of large runs can be measured without playing them.
fn synthetic_run(dir: &std::path::Path, pairs: u64) -> RunConfig {
    let mut config = RunConfig::new_match(
        GameSettings {
            max_moves: Some(60),
            ..GameSettings::default()
        },
        [engine("new", &["defence=60"]), engine("base", &[])],
        opening::renju26(15).expect("fits"),
    );
    config.pairs = pairs;
    std::fs::create_dir_all(dir).expect("dir");
    config.save(&dir.join(RUN_FILE)).expect("run.json");
    let schedule = wuzi_arena::config::Schedule::new(&config);
    let mut w = RecordWriter::append(&dir.join(GAMES_FILE)).expect("records");
    for pair in 0..pairs {
        for game in 0..2u8 {
            let op = schedule.opening(pair);
            let opening = config.openings[op].clone();
            let mut board =
                Board::from_moves(15, config.game.rule, &opening.moves).expect("opening");
            let mut moves = Vec::new();
            let mut seed = mix64(pair * 2 + u64::from(game));
            let mut outcome = None;
            while moves.len() < 50 {
                let mut legal: Vec<Pos> = board
                    .legal_moves()
                    .into_iter()
                    .filter(|p| {
                        board.history().iter().any(|h| {
                            (h.pos.x() as i32 - p.x() as i32).abs() <= 2
                                && (h.pos.y() as i32 - p.y() as i32).abs() <= 2
                        })
                    })
                    .collect();
                legal.sort();
                seed = mix64(seed);
                let mv = legal[(seed % legal.len() as u64) as usize];
                board.make(mv).expect("legal");
                moves.push(MoveEntry {
                    mv,
                    ms: seed % 40,
                    nodes: Some(1800 + seed % 400),
                    depth: Some(4 + (seed % 5) as i32),
                    score: Some((seed % 2000) as i32 - 1000),
                });
                outcome = board.outcome();
                if outcome.is_some() {
                    break;
                }
            }
            let [b, wh] = config.colours(0, game);
            let (winner, reason) = match outcome {
                Some(Outcome::Win { winner, .. }) => (Some(winner), Reason::Five),
                _ => (None, Reason::MoveCap),
            };
            let player = |i: usize| RecordPlayer {
                name: config.players[i].name.clone(),
                params: config.players[i].params_diff(),
                given: None,
                given_params: None,
                notes: Vec::new(),
            };
            w.write(&GameRecord {
                matchup: 0,
                pair,
                game,
                seed,
                rule: None,
                size: None,
                opening: OpeningRef { index: op, opening },
                black: player(b),
                white: player(wh),
                moves,
                winner,
                result: match winner {
                    Some(Stone::Black) => "1-0",
                    Some(Stone::White) => "0-1",
                    None => "1/2-1/2",
                }
                .into(),
                reason,
                detail: None,
                time_ms: 500,
            })
            .expect("write");
        }
    }
    config
}

fn measure(pairs: u64, max_games: usize) -> (usize, f64, String) {
    let tmp = Tmp::new(&format!("large-{pairs}"));
    let dir = tmp.0.join("run");
    synthetic_run(&dir, pairs);
    let start = Instant::now();
    let path = write_report(&dir, None, &ReportOptions { max_games }).expect("report");
    let secs = start.elapsed().as_secs_f64();
    let html = std::fs::read_to_string(&path).expect("read");
    // WUZI_KEEP_REPORTS=DIR keeps the pages (to time them in a browser).
    if let Some(keep) = std::env::var_os("WUZI_KEEP_REPORTS") {
        let keep = PathBuf::from(keep);
        std::fs::create_dir_all(&keep).expect("keep dir");
        std::fs::copy(
            &path,
            keep.join(format!("report-{}-{max_games}.html", 2 * pairs)),
        )
        .expect("copy");
    }
    (html.len(), secs, html)
}

#[test]
fn large_runs_embed_a_sample_and_say_so() {
    let (bytes, _, html) = measure(300, 100);
    assert!(
        html.contains("\"total\":600,\"shown\":100"),
        "sample of 100"
    );
    assert!(html.contains("100 of 600 games"));
    assert!(html.contains("wuzi-arena export"));
    // About 1 KB per embedded game, and the tables cover all games.
    assert!(bytes < 400_000, "{bytes} bytes");
    assert!(html.contains("over all 600 finished games"));
}

/// The README's figures: `cargo test --release -p wuzi-arena --test report -- --ignored
/// --nocapture`.
#[test]
#[ignore = "measurement: 20,000 games (about a minute)"]
fn report_of_20000_games() {
    for max in [2000, 0] {
        let (bytes, secs, _) = measure(10_000, max);
        println!(
            "20000 games, max-games {max}: {:.1} MB written in {secs:.1} s",
            bytes as f64 / 1e6
        );
    }
}

/// Regression: brain noise lines, details and limits sent are embedded as data, never as markup.
#[test]
fn brain_noise_and_details_are_escaped() {
    let tmp = Tmp::new("noise");
    let dir = tmp.0.join("run");
    synthetic_run(&dir, 1);
    let path = dir.join(GAMES_FILE);
    let mut rs = records(&dir);
    let evil = "</script><script>alert('noise')</script><!--";
    rs[0].black.notes = vec![evil.to_string()];
    rs[0].white.given = Some(evil.to_string());
    rs[0].detail = Some(evil.to_string());
    rs[0].reason = Reason::Crash;
    let text: String = rs.iter().map(|r| r.to_line() + "\n").collect();
    std::fs::write(&path, text).expect("rewrite");
    let html = std::fs::read_to_string(
        write_report(&dir, None, &ReportOptions::default()).expect("report"),
    )
    .expect("read");
    assert!(!html.contains("alert('noise')</script>"));
    assert!(!html.contains("<!--"));
    assert_eq!(html.matches("</script>").count(), 2);
    // The endings table shows the detail as text.
    assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(&#39;noise&#39;)"));
}
