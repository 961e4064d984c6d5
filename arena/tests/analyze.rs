//! `wuzi-arena analyze` on a small node-limited run made here: one row per move played with
//! the analyst's view, a summary consistent with the records (decisive mistakes are moves of
//! the losers), resume after a cut-off analysis file (the same final file), the game and
//! player filters, decisive positions read back by the engine's suite reader, an analyst that
//! crashes (recorded per position, the command finishes), and bad inputs (exit 2, nothing
//! written).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use wuzi_arena::analysis::summary::AnalysisSummary;
use wuzi_arena::analysis::{read_rows, AnalysisRow};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_engine::Stone;

#[path = "support/small_run.rs"]
mod small_run;
use small_run::temp_run;

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        // No registry of the machine running the tests: `default` is the engine.
        .env("WUZI_ENGINES", "")
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const ANALYST: &str = "default,nodes=6000";

fn records(dir: &Path) -> Vec<GameRecord> {
    read_records(&dir.join(GAMES_FILE)).expect("reads").records
}

fn rows(path: &Path) -> Vec<AnalysisRow> {
    let (rows, _, truncated) = read_rows(path).expect("reads");
    assert!(!truncated);
    rows
}

fn summary(path: &Path) -> AnalysisSummary {
    serde_json::from_str(&std::fs::read_to_string(path).expect("summary")).expect("parses")
}

fn analyze(args: &[&str]) -> String {
    let out = arena(args);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {stdout}{}",
        text(&out.stderr)
    );
    stdout
}

#[test]
fn analysis_rows_summary_resume_filters_and_export() {
    let (tmp, dir) = temp_run();
    let d = dir.display().to_string();
    let games = records(&dir);
    let suite = tmp.path().join("decisive.toml");
    let stdout = analyze(&[
        "analyze",
        &d,
        "--analyst",
        ANALYST,
        "--concurrency",
        "2",
        "--export-positions",
        suite.to_str().expect("utf-8"),
    ]);
    assert!(stdout.contains("decisive"), "{stdout}");

    // One row per move played, in order, with the mover and the analyst's view.
    let path = dir.join("analysis.jsonl");
    let all = rows(&path);
    assert_eq!(
        all.len(),
        games.iter().map(|g| g.moves.len()).sum::<usize>()
    );
    for g in &games {
        let mine: Vec<&AnalysisRow> = all.iter().filter(|r| (r.pair, r.game) == g.key()).collect();
        let first = g.opening.opening.moves.len();
        for (i, (r, m)) in mine.iter().zip(&g.moves).enumerate() {
            assert_eq!(r.ply, first + i);
            assert_eq!(r.played, m.mv);
            let (colour, name) = if r.ply % 2 == 0 {
                (Stone::Black, &g.black.name)
            } else {
                (Stone::White, &g.white.name)
            };
            assert_eq!((r.colour, &r.mover), (colour, name));
            assert!(
                r.best.is_some() && r.score.is_some() && r.error.is_none(),
                "{r:?}"
            );
            assert_eq!(r.analyst, ANALYST);
            let (s, a) = (r.score.expect("score"), r.after.expect("after"));
            let expected = if r.best == Some(r.played) {
                0
            } else {
                (s - a).max(0)
            };
            assert_eq!(r.loss, Some(expected), "{r:?}");
            assert_eq!(r.mate, wuzi_engine::score::mate_distance(s));
        }
        // The move that ends a game by five leaves the mover a win.
        if g.reason == wuzi_arena::referee::Reason::Five {
            let last = mine.last().expect("moves");
            assert_eq!(last.after, Some(wuzi_engine::score::MATE), "{last:?}");
        }
    }

    // The summary agrees with the records: each player's moves and lost games; each decisive
    // mistake is a move of the game's loser, not the analyst's move, from not lost to lost.
    let s = summary(&dir.join("analysis-summary.json"));
    assert_eq!(s.games, games.len());
    assert_eq!(s.analyst, ANALYST);
    let mut lost: BTreeMap<String, u64> = BTreeMap::new();
    for g in &games {
        match g.winner {
            Some(Stone::Black) => *lost.entry(g.white.name.clone()).or_default() += 1,
            Some(Stone::White) => *lost.entry(g.black.name.clone()).or_default() += 1,
            None => {}
        }
    }
    for p in &s.players {
        assert_eq!(
            p.moves,
            all.iter().filter(|r| r.mover == p.name).count() as u64
        );
        assert_eq!(p.lost_games, lost.get(&p.name).copied().unwrap_or(0));
        assert_eq!(p.decisive + p.undecided, p.lost_games);
        assert_eq!(p.by_colour.values().sum::<u64>(), p.decisive);
        assert_eq!(p.by_phase.values().sum::<u64>(), p.decisive);
        assert_eq!(p.by_opening.values().sum::<u64>(), p.decisive);
        assert!(p.mistakes >= p.decisive);
    }
    for dm in &s.decisive {
        let g = games
            .iter()
            .find(|g| g.key() == (dm.pair, dm.game))
            .expect("game");
        let loser = g.winner.expect("a lost game").opp();
        assert_eq!(dm.colour, loser);
        assert_eq!(dm.ply % 2 == 0, loser == Stone::Black);
        let r = all
            .iter()
            .find(|r| (r.pair, r.game, r.ply) == (dm.pair, dm.game, dm.ply))
            .expect("row");
        assert_eq!(r.mover, dm.player);
        assert!(wuzi_arena::analysis::summary::is_mistake(r), "{r:?}");
    }

    // The exported positions read back with the engine's suite reader: one case per decisive
    // mistake, the analyst's move the answer, the played move to avoid, the side to move the
    // loser's.
    assert!(
        !s.decisive.is_empty(),
        "the run has lost games the analyst explains"
    );
    let file = wuzi_engine::suite::load(&suite).expect("suite reads");
    assert_eq!(file.cases.len(), s.decisive.len());
    for (case, dm) in file.cases.iter().zip(&s.decisive) {
        let board = case.board(&file).expect("position builds");
        assert_eq!(board.side_to_move(), dm.colour);
        assert_eq!(case.best.as_deref(), dm.best.as_deref());
        assert_eq!(case.avoid.as_deref(), Some(dm.played.as_str()));
        assert_eq!(board.stone_count(), dm.ply);
    }

    // Resume: a file cut in the middle of a line (a kill while writing) is completed to the
    // same content, re-analysing only the game cut.
    let full = std::fs::read(&path).expect("reads");
    std::fs::write(&path, &full[..full.len() * 3 / 5]).expect("cuts");
    let stdout = analyze(&["analyze", &d, "--analyst", ANALYST]);
    assert!(stdout.contains("kept from an earlier analysis"), "{stdout}");
    assert_eq!(std::fs::read(&path).expect("reads"), full);

    // Another analyst does not mix into the same file.
    let out = arena(&["analyze", &d, "--analyst", "default,nodes=700"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("give another --out"));
    assert_eq!(std::fs::read(&path).expect("reads"), full);

    // Filters: two games by id into another file; a player's games.
    let other = tmp.path().join("two.jsonl");
    analyze(&[
        "analyze",
        &d,
        "--analyst",
        ANALYST,
        "--games",
        "0.1,1.0",
        "--out",
        other.to_str().expect("utf-8"),
    ]);
    let two = rows(&other);
    assert!(two
        .iter()
        .all(|r| (r.pair, r.game) == (0, 1) || (r.pair, r.game) == (1, 0)));
    let expected: Vec<&AnalysisRow> = all
        .iter()
        .filter(|r| (r.pair, r.game) == (0, 1) || (r.pair, r.game) == (1, 0))
        .collect();
    assert_eq!(two.iter().collect::<Vec<_>>(), expected);
    assert_eq!(summary(&tmp.path().join("two-summary.json")).games, 2);
    let stdout = analyze(&["analyze", &d, "--analyst", ANALYST, "--player", "b"]);
    assert!(
        stdout.contains("(4 kept from an earlier analysis)"),
        "{stdout}"
    );
    let out = arena(&["analyze", &d, "--analyst", ANALYST, "--player", "zed"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("players: a, b"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_inputs_exit_2_and_write_nothing() {
    let (tmp, dir) = temp_run();
    let d = dir.display().to_string();
    let out_file = tmp.path().join("out.jsonl");
    let o = out_file.to_str().expect("utf-8");
    let expect_error = |args: &[&str], says: &str| {
        let out = arena(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!out_file.exists(), "{args:?} wrote {out_file:?}");
    };
    expect_error(
        &[
            "analyze",
            &d,
            "--analyst",
            ANALYST,
            "--games",
            "7.0",
            "--out",
            o,
        ],
        "no game 7.0",
    );
    expect_error(
        &[
            "analyze",
            &d,
            "--analyst",
            ANALYST,
            "--games",
            "7",
            "--out",
            o,
        ],
        "PAIR.GAME",
    );
    expect_error(
        &["analyze", &d, "--analyst", "default", "--out", o],
        "no limit",
    );
    expect_error(
        &["analyze", &d, "--analyst", "default,nodes=x", "--out", o],
        "bad --analyst",
    );
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    expect_error(
        &[
            "analyze",
            empty.to_str().expect("utf-8"),
            "--analyst",
            ANALYST,
            "--out",
            o,
        ],
        "not a run directory",
    );
    // A records file cut in the middle of a line.
    let games = dir.join(GAMES_FILE);
    let mut bytes = std::fs::read(&games).expect("reads");
    bytes.extend_from_slice(b"{\"matchup\":0,\"pa");
    std::fs::write(&games, bytes).expect("writes");
    expect_error(
        &["analyze", &d, "--analyst", ANALYST, "--out", o],
        "incomplete line",
    );
    assert!(!dir.join("analysis.jsonl").exists());
}

/// Analyses game `id` of the run in `dir` with a brain made of the shell `script` (given
/// `move_ms` a move) that never gives a move: every position is recorded as failed with an
/// error starting with `error`, counted in the summary, and the command still exits 0.
#[cfg(unix)]
fn every_position_fails(dir: &Path, id: (u64, u8), script: &str, move_ms: u64, error: &str) {
    let brain = dir.with_extension("sh");
    std::fs::write(&brain, script).expect("script");
    let spec = format!(
        "name=failing,cmd=/bin/sh,arg={},move-ms={move_ms}",
        brain.display()
    );
    let game = records(dir)
        .into_iter()
        .find(|r| r.key() == id)
        .expect("the game");
    let d = dir.display().to_string();
    let games = format!("{}.{}", id.0, id.1);
    let stdout = analyze(&["analyze", &d, "--analyst", &spec, "--games", &games]);
    let all = rows(&dir.join("analysis.jsonl"));
    assert_eq!(all.len(), game.moves.len());
    for r in &all {
        let e = r.error.as_deref().expect("an error per position");
        assert!(e.starts_with(error), "{e}");
        assert!(r.best.is_none() && r.score.is_none() && r.loss.is_none());
    }
    let failed =
        game.moves.len() + 1 - usize::from(game.reason == wuzi_arena::referee::Reason::Five);
    assert!(
        stdout.contains(&format!("{failed} failed position(s)")),
        "{stdout}"
    );
    let s = summary(&dir.join("analysis-summary.json"));
    assert_eq!(
        s.players.iter().map(|p| p.failed).sum::<u64>(),
        game.moves.len() as u64
    );
    assert!(s.decisive.is_empty());
}

#[cfg(unix)]
#[test]
fn an_analyst_that_crashes_is_recorded_per_position() {
    let (_tmp, dir) = temp_run();
    // Says OK to START, then dies at the first position; restarted for each position.
    let script = "#!/bin/sh\nread -r line\necho OK\nexit 3\n";
    every_position_fails(&dir, (1, 1), script, 500, "crash");
}

/// Issue 21: an analyst that hangs is given up per position (its time-out), recorded, and the
/// analysis finishes. A short game (`--max-moves 6`) keeps the waits to a few seconds.
#[cfg(unix)]
#[test]
fn an_analyst_that_hangs_is_recorded_per_position() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("run");
    let d = dir.display().to_string();
    let out = arena(&[
        "match",
        "--player",
        "default",
        "--player",
        "name=b,set=tempo=50",
        "--nodes",
        "300",
        "--pairs",
        "1",
        "--max-moves",
        "6",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        &d,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Says OK to START, then never answers.
    let script = "#!/bin/sh\nread -r line\necho OK\nexec sleep 60\n";
    every_position_fails(&dir, (0, 0), script, 50, "timeout");
}

/// The JSON of the page's `<script type="application/json" id="ID">`.
fn embedded_json(html: &str, id: &str) -> serde_json::Value {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let start = html.find(&open).expect(id) + open.len();
    let end = start + html[start..].find("</script>").expect("closed");
    serde_json::from_str(&html[start..end]).expect("json")
}

#[test]
fn the_report_of_an_analysed_run_shows_mistakes_graph_data_and_decisive_marks() {
    use wuzi_arena::report::{write_run_report, ReportOptions};
    let (_tmp, dir) = temp_run();
    let d = dir.display().to_string();
    let opts = ReportOptions::default();
    let read = |dir: &Path| {
        let path = write_run_report(dir, None, &opts).expect("report");
        std::fs::read_to_string(path).expect("page")
    };

    // Without analysis: no section, no analysis data or script.
    let plain = read(&dir);
    for absent in [
        "<section id=\"analysis\">",
        "wuzi-analysis",
        "\"an\":",
        "eval-graph",
    ] {
        assert!(!plain.contains(absent), "{absent}");
    }

    analyze(&["analyze", &d, "--analyst", ANALYST, "--concurrency", "2"]);
    let html = read(&dir);
    let s = summary(&dir.join("analysis-summary.json"));
    let all = rows(&dir.join("analysis.jsonl"));
    assert!(html.contains("<section id=\"analysis\">\n<h2>Analysis</h2>"));
    assert!(html.contains(&format!("Analyst <code>{ANALYST}</code>")));

    // The mistakes table: one row per player, the summary's numbers in its order.
    for p in &s.players {
        let mut row = format!("<tr><td>{}</td>", p.name);
        for v in p.table_counts() {
            row.push_str(&format!("<td class=\"n\">{v}</td>"));
        }
        assert!(html.contains(&format!("{row}</tr>")), "{row}");
    }

    // Each embedded game carries its rows: the analyst's moves and scores per ply, the
    // decisive mistake's ply where the summary has one.
    let conf = embedded_json(&html, "wuzi-analysis");
    assert_eq!(conf["analyst"], ANALYST);
    let data = embedded_json(&html, "wuzi-games");
    let games = data["games"].as_array().expect("games");
    assert_eq!(games.len(), records(&dir).len());
    for g in games {
        let key = (
            g["pair"].as_u64().expect("pair"),
            g["g"].as_u64().expect("g") as u8,
        );
        let mine: Vec<&AnalysisRow> = all.iter().filter(|r| (r.pair, r.game) == key).collect();
        let an = &g["an"];
        assert_eq!(an["f"].as_u64(), Some(mine[0].ply as u64), "{key:?}");
        let best: Vec<Option<String>> =
            mine.iter().map(|r| r.best.map(|p| p.to_string())).collect();
        let score: Vec<Option<i32>> = mine.iter().map(|r| r.score).collect();
        let after: Vec<Option<i32>> = mine.iter().map(|r| r.after).collect();
        assert_eq!(
            serde_json::from_value::<Vec<Option<String>>>(an["b"].clone()).expect("b"),
            best
        );
        assert_eq!(
            serde_json::from_value::<Vec<Option<i32>>>(an["s"].clone()).expect("s"),
            score
        );
        assert_eq!(
            serde_json::from_value::<Vec<Option<i32>>>(an["a"].clone()).expect("a"),
            after
        );
        let decisive = s.decisive.iter().find(|x| (x.pair, x.game) == key);
        assert_eq!(an["x"].as_u64(), decisive.map(|x| x.ply as u64), "{key:?}");
    }

    // The decisive mistakes' table opens each game in the viewer, whose script marks it.
    assert!(!s.decisive.is_empty());
    for dm in &s.decisive {
        let k = games
            .iter()
            .position(|g| {
                g["pair"].as_u64() == Some(dm.pair) && g["g"].as_u64() == Some(u64::from(dm.game))
            })
            .expect("embedded");
        assert!(html.contains(&format!(
            "<tr data-open-game=\"{k}\"><td class=\"n\">{}</td>",
            k + 1
        )));
    }
    assert!(html.contains("<table id=\"decisive-table\""));
    assert!(html.contains("row.classList.add('decisive')"));

    // Without the analysis files again, the page is the one it was.
    std::fs::remove_file(dir.join("analysis.jsonl")).expect("rm");
    std::fs::remove_file(dir.join("analysis-summary.json")).expect("rm");
    assert!(read(&dir) == plain, "a report without analysis changed");
}
