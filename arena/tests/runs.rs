//! Whole runs: determinism across concurrency, resume, shards + merge, SPRT early stop.
//!
//! Tiny node limits keep every run to a few seconds.

use std::path::{Path, PathBuf};

use wuzi_arena::config::{Matchup, RunConfig, RunKind, Shard, RUN_FILE};
use wuzi_arena::opening;
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::run::{merge, run, RunOptions, RunOutcome};
use wuzi_arena::stats::{EloModel, SprtParams, SprtVerdict};
use wuzi_arena::summary::Summary;
use wuzi_arena::ArenaError;
use wuzi_engine::Params;

/// A temporary directory removed on drop.
struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("wuzi-arena-{name}-{}", std::process::id()));
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

fn limits(nodes: u64) -> PlayerLimits {
    PlayerLimits {
        nodes: Some(nodes),
        hash_mb: 4,
        ..PlayerLimits::default()
    }
}

fn engine(name: &str, settings: &[&str], nodes: u64) -> PlayerSpec {
    let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
    let params = Params::from_file_and_settings(None, &settings).expect("valid settings");
    PlayerSpec::engine(name, &params, limits(nodes))
}

/// base vs a slightly different engine, renju openings, `pairs` pairs at `nodes` per move.
fn match_config(pairs: u64, nodes: u64) -> RunConfig {
    let openings = opening::renju26(15).expect("fits");
    let mut c = RunConfig::new_match(
        GameSettings::default(),
        [
            engine("base", &[], nodes),
            engine("tweak", &["defence=110", "tempo=40"], nodes),
        ],
        openings,
    );
    c.pairs = pairs;
    c.seed = 7;
    c
}

/// A gauntlet of base against two others.
fn gauntlet_config(pairs: u64, nodes: u64) -> RunConfig {
    let mut c = match_config(pairs, nodes);
    c.kind = RunKind::Gauntlet;
    c.players
        .push(engine("third", &["w_open_three=140", "defence=80"], nodes));
    c.matchups.push(Matchup {
        first: 0,
        second: 2,
    });
    c
}

fn play(
    config: &RunConfig,
    dir: Option<&Path>,
    concurrency: usize,
    resume: bool,
) -> Result<RunOutcome, ArenaError> {
    let opts = RunOptions {
        concurrency,
        out: dir.map(Path::to_path_buf),
        resume,
    };
    run(config, &opts, &mut |_| {})
}

fn without_timing(s: &Summary) -> Summary {
    let mut s = s.clone();
    s.timing = None;
    s
}

/// The records of a run directory, sorted by (pair, game), timings zeroed.
fn records(dir: &Path) -> Vec<GameRecord> {
    let mut r: Vec<GameRecord> = read_records(&dir.join(GAMES_FILE))
        .expect("readable")
        .records
        .iter()
        .map(GameRecord::without_timing)
        .collect();
    r.sort_by_key(GameRecord::key);
    r
}

#[test]
fn same_seed_same_games_at_any_concurrency() {
    let tmp = Tmp::new("determinism");
    let config = match_config(8, 300);
    let one = play(&config, Some(&tmp.join("c1")), 1, false).expect("runs");
    let two = play(&config, Some(&tmp.join("c2")), 2, false).expect("runs");
    assert_eq!(one.games_played, 16);
    assert_eq!(two.games_played, 16);
    let (r1, r2) = (records(&tmp.join("c1")), records(&tmp.join("c2")));
    assert_eq!(r1.len(), 16);
    assert_eq!(r1, r2);
    assert_eq!(without_timing(&one.summary), without_timing(&two.summary));
    // The players differ, so the pairs are not all mirror images of each other.
    let m = &one.summary.matchups[0];
    assert_eq!(m.games, 16);
    assert_eq!(m.penta.pairs(), 8);
    // Records carry the players' parameter differences and per-move nodes.
    let tweak = r1
        .iter()
        .find(|r| r.black.name == "tweak")
        .expect("tweak plays black once");
    assert_eq!(tweak.black.params.get("defence"), Some(&110));
    assert!(tweak
        .moves
        .iter()
        .all(|m| m.nodes.is_some_and(|n| n <= 400)));
    // A different seed gives a different opening order.
    let mut other = config.clone();
    other.seed = 8;
    other.pairs = 2;
    let o = play(&other, None, 2, false).expect("runs");
    assert_eq!(o.summary.matchups[0].games, 4);
}

#[test]
fn resume_after_truncation_reaches_the_same_statistics() {
    let tmp = Tmp::new("resume");
    let config = match_config(6, 300);
    let full = play(&config, Some(&tmp.join("full")), 2, false).expect("runs");

    // An interrupted run: run.json, five complete records and half of the sixth.
    let cut = tmp.join("cut");
    std::fs::create_dir_all(&cut).expect("dir");
    std::fs::copy(tmp.join("full").join(RUN_FILE), cut.join(RUN_FILE)).expect("copies");
    let text = std::fs::read_to_string(tmp.join("full").join(GAMES_FILE)).expect("reads");
    let lines: Vec<&str> = text.lines().collect();
    let mut partial: String = lines[..5].iter().map(|l| format!("{l}\n")).collect();
    partial.push_str(&lines[5][..lines[5].len() / 2]);
    std::fs::write(cut.join(GAMES_FILE), partial).expect("writes");

    // Without --resume the directory is refused.
    let e = play(&config, Some(&cut), 2, false).unwrap_err();
    assert!(e.to_string().contains("--resume"), "{e}");
    // Another configuration is refused too.
    let mut other = config.clone();
    other.seed = 99;
    let e = play(&other, Some(&cut), 2, true).unwrap_err();
    assert!(matches!(e, ArenaError::Mismatch(_)), "{e}");
    // The error names the changed option with the run's value and the new one.
    assert!(e.to_string().contains("--seed: 7 -> 99"), "{e}");

    let resumed = play(&config, Some(&cut), 2, true).expect("resumes");
    assert_eq!(resumed.games_resumed, 5);
    assert_eq!(resumed.games_played, 7);
    assert_eq!(
        without_timing(&resumed.summary),
        without_timing(&full.summary)
    );
    assert_eq!(records(&cut), records(&tmp.join("full")));
    // Resuming a finished run plays nothing and reports the same.
    let again = play(&config, Some(&cut), 1, true).expect("resumes");
    assert_eq!(again.games_played, 0);
    assert_eq!(
        without_timing(&again.summary),
        without_timing(&full.summary)
    );
}

#[test]
fn shards_merged_equal_a_single_run() {
    let tmp = Tmp::new("shards");
    let config = gauntlet_config(3, 300);
    let single = play(&config, Some(&tmp.join("single")), 2, false).expect("runs");
    assert_eq!(single.games_played, 12);
    let mut dirs = Vec::new();
    for index in 0..2 {
        let mut c = config.clone();
        c.shard = Some(Shard { index, count: 2 });
        let dir = tmp.join(&format!("shard{index}"));
        let out = play(&c, Some(&dir), 1, false).expect("runs");
        assert_eq!(out.games_played, 6, "pairs {index}, {} of 0..6", index + 2);
        dirs.push(dir);
    }
    // Shards in any order.
    dirs.reverse();
    let merged = merge(&dirs, &tmp.join("merged")).expect("merges");
    assert_eq!(merged, without_timing(&single.summary));
    assert_eq!(records(&tmp.join("merged")), records(&tmp.join("single")));
    // A missing shard is an error.
    let e = merge(&dirs[..1], &tmp.join("merged2")).unwrap_err();
    assert!(e.to_string().contains("missing shard"), "{e}");
}

#[test]
fn sprt_stops_a_lopsided_match_early_at_any_concurrency() {
    let openings = opening::renju26(15).expect("fits");
    let mut config = RunConfig::new_match(
        GameSettings::default(),
        [
            engine("default", &[], 500),
            engine("weak", &["defence=20", "w_open_four=50"], 500),
        ],
        openings,
    );
    config.pairs = 80;
    config.sprt = Some(SprtParams::new(0.0, 50.0, EloModel::Logistic));
    let one = play(&config, None, 1, false).expect("runs");
    let two = play(&config, None, 2, false).expect("runs");
    let m = &one.summary.matchups[0];
    let sprt = m.sprt.as_ref().expect("sprt");
    assert_eq!(sprt.status.verdict, SprtVerdict::AcceptH1, "{m:?}");
    let decided = sprt.decided_after_pairs.expect("decided");
    assert!(decided < 80, "{decided}");
    assert_eq!(m.pairs, decided);
    assert!(one.stopped_early);
    assert!(one.games_played < 160 && one.games_played >= 2 * decided);
    // In-flight games beyond the decision are not counted: same statistics.
    assert_eq!(one.summary.matchups, two.summary.matchups);
    assert!(m.score.is_some_and(|s| s.value > 0.6), "{m:?}");
}
