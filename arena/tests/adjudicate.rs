//! Adjudication (issue 21, point 2): a game ended by a VCF proof has the result the same game
//! has when played out; the options are refused with a clear message when malformed; runs
//! without them read and write run.json as before.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use wuzi_arena::adjudication::{ProofRule, ResignRule};
use wuzi_arena::config::{Matchup, RunConfig};
use wuzi_arena::default_match;
use wuzi_arena::opening;
use wuzi_arena::player::PlayerLimits;
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::{GameSettings, Reason};
use wuzi_arena::run::{run, RunOptions};

/// Default against weak parameters (the default match's players) at `nodes` per move, on
/// seeded random openings.
fn self_play(pairs: u64, nodes: u64, adjudicate: Option<ProofRule>) -> RunConfig {
    let limits = PlayerLimits {
        nodes: Some(nodes),
        hash_mb: 4,
        ..PlayerLimits::default()
    };
    let players = default_match::players(&limits).expect("shipped parameter files");
    let game = GameSettings {
        adjudicate,
        ..GameSettings::default()
    };
    let mut c = RunConfig::new_match(
        game,
        [players[0].clone(), players[1].clone()],
        opening::renju26(15).expect("fits"),
    );
    c.matchups = vec![Matchup {
        first: 0,
        second: 1,
    }];
    c.pairs = pairs;
    c.seed = 21;
    c
}

/// Plays `config` into `dir`; its records by (pair, game).
fn play(config: &RunConfig, dir: &Path) -> BTreeMap<(u64, u8), GameRecord> {
    let opts = RunOptions {
        concurrency: 2,
        out: Some(dir.to_path_buf()),
        resume: false,
    };
    run(config, &opts, &mut |_| {}).expect("the run plays");
    read_records(&dir.join(GAMES_FILE))
        .expect("readable")
        .records
        .into_iter()
        .map(|r| ((r.pair, r.game), r))
        .collect()
}

/// The done-when of issue 21: in node-limited self-play every game ended by a proof is won by
/// the same side when played out, and up to the proof it is the same game.
#[test]
fn every_vcf_adjudicated_game_has_the_result_of_the_game_played_out() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (pairs, nodes) = (12, 500);
    let on = play(
        &self_play(pairs, nodes, Some("vcf".parse().expect("valid"))),
        &tmp.path().join("on"),
    );
    let off = play(&self_play(pairs, nodes, None), &tmp.path().join("off"));
    assert_eq!(
        (on.len(), off.len()),
        (2 * pairs as usize, 2 * pairs as usize)
    );
    let mut adjudicated = 0;
    for (key, a) in &on {
        let p = &off[key];
        let prefix: Vec<_> = a.moves.iter().map(|m| m.mv).collect();
        let played: Vec<_> = p.moves.iter().map(|m| m.mv).collect();
        assert!(
            played.starts_with(&prefix),
            "{key:?}: the adjudicated game is not a prefix of the played one"
        );
        if a.reason == Reason::Adjudicated {
            adjudicated += 1;
            assert_eq!(
                a.winner, p.winner,
                "{key:?}: adjudicated {} ({:?}), played out {} by {}",
                a.result, a.detail, p.result, p.reason
            );
            assert!(
                a.detail.as_deref().unwrap_or("").starts_with("vcf for "),
                "{a:?}"
            );
        } else {
            assert_eq!((a.winner, a.reason), (p.winner, p.reason), "{key:?}");
        }
    }
    eprintln!("{adjudicated} of {} games adjudicated", on.len());
    assert!(
        adjudicated * 2 >= on.len(),
        "only {adjudicated} of {} adjudicated",
        on.len()
    );
}

/// Runs without the options write run.json without them; run.json files from before them
/// load with adjudication off; a resume with another rule names it.
#[test]
fn run_json_without_adjudication_is_unchanged_and_resume_names_a_change() {
    let off = self_play(2, 300, None);
    let json = serde_json::to_string(&off).expect("serializes");
    for key in ["adjudicate", "resign", "\"draw\""] {
        assert!(!json.contains(key), "{key} in {json}");
    }
    let back: RunConfig = serde_json::from_str(&json).expect("an old run.json loads");
    assert_eq!(back.game, GameSettings::default());
    let mut on = off.clone();
    on.game.adjudicate = Some(ProofRule { nodes: 5000 });
    on.game.resign = Some(ResignRule {
        count: 3,
        score: 900,
    });
    let back: RunConfig =
        serde_json::from_str(&serde_json::to_string(&on).expect("serializes")).expect("loads");
    assert_eq!(back, on);
    let diff = off.differences(&on);
    assert!(
        diff.contains(&"--adjudicate: none -> vcf:5000".to_string()),
        "{diff:?}"
    );
    assert!(
        diff.iter().any(|d| d.starts_with("--resign: none -> ")),
        "{diff:?}"
    );
    let mut other = on.clone();
    other.game.resign = Some(ResignRule {
        count: 4,
        score: 900,
    });
    assert_eq!(on.differences(&other), vec!["--resign count: 3 -> 4"]);
}

fn arena(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn bad_adjudication_options_exit_2_with_a_clear_message() {
    let players = [
        "--player", "a", "--player", "b", "--nodes", "100", "--pairs", "1", "--quiet",
    ];
    for (args, says) in [
        (vec!["--adjudicate", "foo"], "expected vcf or vcf:NODES"),
        (vec!["--adjudicate", "vcf:0"], "expected vcf or vcf:NODES"),
        (
            vec!["--resign", "3"],
            "2 values required for '--resign <COUNT> <SCORE>'",
        ),
        (
            vec!["--resign", "3", "0"],
            "--resign COUNT SCORE: both must be at least 1",
        ),
        (
            vec!["--draw", "0", "10"],
            "--draw COUNT SCORE [FROM_MOVE]: COUNT",
        ),
        (vec!["--draw", "x", "10"], "invalid value 'x'"),
    ] {
        for command in ["match", "gauntlet"] {
            let mut all = vec![command];
            all.extend(players);
            all.extend(&args);
            let (code, stderr) = arena(&all);
            assert_eq!(code, 2, "{all:?}: {stderr}");
            assert!(stderr.contains(says), "{all:?}: {stderr}");
        }
    }
    let (code, stderr) = arena(&["gate", "--adjudicate", "vct", "--no-suites"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("expected vcf or vcf:NODES"), "{stderr}");
}

/// The options reach the records through the command line: a short node-limited match with
/// `--adjudicate vcf` and score rules writes them into run.json and ends games by proof.
#[test]
fn the_run_commands_keep_the_rules_in_run_json() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("run");
    let (code, stderr) = arena(&[
        "match",
        "--player",
        "default",
        "--player",
        "name=weak,set=defence=45",
        "--nodes",
        "300",
        "--pairs",
        "2",
        "--adjudicate",
        "vcf:4000",
        "--resign",
        "4",
        "20000",
        "--draw",
        "10",
        "0",
        "60",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let run_json = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    let config: RunConfig = serde_json::from_str(&run_json).expect("loads");
    assert_eq!(config.game.adjudicate, Some(ProofRule { nodes: 4000 }));
    assert_eq!(
        config.game.resign,
        Some(ResignRule {
            count: 4,
            score: 20000
        })
    );
    assert_eq!(
        config.game.draw.map(|d| (d.count, d.score, d.from_move)),
        Some((10, 0, 60))
    );
    assert!(
        run_json.contains(r#""adjudicate": "vcf:4000""#),
        "{run_json}"
    );
}
