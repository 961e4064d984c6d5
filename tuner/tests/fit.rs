//! `wuzi-tune fit` end to end on records the arena plays here: a fit from the detuned set's own
//! self-play moves both weights toward the defaults and the fitted set beats the detuned start;
//! bad input (mixed rules or sizes, damaged records, unknown or search parameters, an empty
//! sample) exits 2 with nothing written; a cut-off last line is tolerated; the result does not
//! depend on the thread count.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use wuzi_arena::config::RunConfig;
use wuzi_arena::opening::{random, RandomSpec};
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::run::{run, RunOptions};
use wuzi_engine::{Params, Rule};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tune");

fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wuzi-tune-fit-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn params_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../suites/params")
        .join(name)
}

/// Plays `pairs` random openings (one per pair) of `a` against `b` at `nodes` per move into
/// `dir`; returns the run's score for `a`.
#[allow(clippy::too_many_arguments)]
fn play(
    dir: &Path,
    a: (&str, &Params),
    b: (&str, &Params),
    pairs: usize,
    nodes: u64,
    seed: u64,
    rule: Rule,
    size: usize,
) -> f64 {
    let openings = random(
        &RandomSpec {
            count: pairs,
            check_nodes: 300,
            ..RandomSpec::default()
        },
        size,
        rule,
        seed,
    )
    .expect("openings");
    let limits = PlayerLimits {
        nodes: Some(nodes),
        ..PlayerLimits::default()
    };
    let mut config = RunConfig::new_match(
        GameSettings {
            size,
            rule,
            ..GameSettings::default()
        },
        [
            PlayerSpec::engine(a.0, a.1, limits.clone()),
            PlayerSpec::engine(b.0, b.1, limits),
        ],
        openings,
    );
    config.seed = seed;
    let outcome = run(
        &config,
        &RunOptions {
            concurrency: 2,
            out: Some(dir.to_path_buf()),
            resume: false,
        },
        &mut |_| {},
    )
    .expect("run");
    let t = &outcome.summary.matchups[0].wdl;
    (t.wins as f64 + 0.5 * t.draws as f64) / (t.wins + t.draws + t.losses) as f64
}

fn fit_cmd(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("fit")
        .args(args)
        .arg("--quiet")
        .output()
        .expect("runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A fit's summary.json.
fn summary_of(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("reads"))
        .expect("json")
}

/// The weights a fit left at their start for being rare.
fn rare_of(summary: &serde_json::Value) -> Vec<&str> {
    summary["rare"]
        .as_array()
        .expect("rare")
        .iter()
        .map(|v| v.as_str().expect("name"))
        .collect()
}

/// Small detuned self-play records: (directory holder, records dir).
fn detuned_records(name: &str, pairs: usize, nodes: u64) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let rec = dir.join("selfplay");
    let detuned = Params::load(&params_file("detuned.toml")).expect("detuned.toml");
    play(
        &rec,
        ("det1", &detuned),
        ("det2", &detuned),
        pairs,
        nodes,
        7,
        Rule::Renju,
        15,
    );
    (dir, rec)
}

/// The smaller version of the done-when experiment: a fit of `defence` and `w_open_three` on
/// the detuned set's own self-play moves both clearly toward the defaults (77 and 268 from 45
/// and 40), and the fitted set beats the detuned start in a node-limited match. 160 pairs: with
/// 60 (about 1,900 training positions) the fit found nothing on the openings drawn once the
/// defaults (whose quick search balances them) moved to `defence` 77; 80 moved too little, 120
/// and 160 recovered both (65/260 and 73/360, scores 0.800 and 0.856). With the aspiration
/// re-search of 1179f0d the games changed and 160 pairs fitted only 55/79 (early-stopped at
/// epoch 5), 200 fitted 65/101 (0.706); 240 fit 73/314 (0.812), near the defaults 77/310.
#[test]
fn fit_from_detuned_self_play_recovers_strength() {
    recovery(240, 200, 40, 0.58, None);
}

/// The experiment at its scale (500 pairs at 500 nodes for the records, 400 pairs for
/// each match): the fitted set beats the detuned start by at least 0.70 (the defaults score
/// about 0.77 against it) and scores at least 0.444 against the defaults (-39 Elo, the issue's
/// bound; measured with the CLI: +4.3 +- 21.0, README "Fit or SPSA").
///
/// Measured: 0.526 against the hand-weight defaults (fit 63, 211); under the shipped
/// combination table 0.438 (fit 72, 457), 4 Elo short of the bound and well inside an 800-game
/// match's ±22 (a replication from other records scored 0.516; README "Fit or SPSA").
#[test]
#[ignore = "a few minutes in release: the convincing version of fit_from_detuned_self_play_recovers_strength"]
fn fit_from_detuned_self_play_recovers_strength_convincingly() {
    recovery(500, 500, 400, 0.70, Some(0.444));
}

fn recovery(
    pairs: usize,
    nodes: u64,
    match_pairs: usize,
    min_score: f64,
    min_vs_defaults: Option<f64>,
) {
    let (dir, rec) = detuned_records("recovery", pairs, nodes);
    let out = dir.join("fit");
    let o = fit_cmd(&[
        "--records",
        s(&rec),
        "--base",
        s(&params_file("detuned.toml")),
        "--param",
        "defence",
        "--param",
        "w_open_three",
        "--out",
        s(&out),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    eprintln!("{stdout}");
    let fitted = Params::load(&out.join("fitted.toml")).expect("fitted.toml loads");
    let detuned = Params::load(&params_file("detuned.toml")).expect("detuned.toml");
    assert!(fitted.defence >= 55, "defence {}", fitted.defence);
    assert!(
        fitted.w_open_three >= 80,
        "w_open_three {}",
        fitted.w_open_three
    );
    // Nothing else moved.
    let mut rest = fitted.clone();
    rest.defence = detuned.defence;
    rest.w_open_three = detuned.w_open_three;
    assert_eq!(rest, detuned);
    let score = play(
        &dir.join("match"),
        ("fitted", &fitted),
        ("detuned", &detuned),
        match_pairs,
        nodes,
        99,
        Rule::Renju,
        15,
    );
    eprintln!("fitted vs detuned: score {score:.3} over {match_pairs} pairs");
    assert!(score >= min_score, "score {score}");
    if let Some(min) = min_vs_defaults {
        let score = play(
            &dir.join("match-defaults"),
            ("fitted", &fitted),
            ("defaults", &Params::default()),
            match_pairs,
            nodes,
            4242,
            Rule::Renju,
            15,
        );
        eprintln!("fitted vs defaults: score {score:.3} over {match_pairs} pairs");
        assert!(score >= min, "score against the defaults {score}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_are_complete_and_independent_of_the_thread_count() {
    let (dir, rec) = detuned_records("outputs", 12, 100);
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("fit{threads}"));
        let o = fit_cmd(&[
            "--records",
            s(&rec),
            "--epochs",
            "12",
            "--batch",
            "256",
            "--threads",
            threads,
            "--seed",
            "5",
            "--out",
            s(&out),
        ]);
        let (stdout, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{stderr}");
        for word in ["positions:", "K = ", "w_open_three", "tempo", "validation"] {
            assert!(stdout.contains(word), "{word} not in {stdout}");
        }
        for f in [
            "fitted.toml",
            "summary.json",
            "epochs.csv",
            "loss.png",
            "loss.svg",
            "paths.png",
            "paths.svg",
            "report.html",
        ] {
            assert!(out.join(f).is_file(), "{f} missing");
        }
        // A complete parameter file: every declared parameter, loadable.
        let fitted_text = std::fs::read_to_string(out.join("fitted.toml")).expect("reads");
        let table: toml::Table = fitted_text.parse().expect("toml");
        assert_eq!(table.len(), Params::SPECS.len());
        Params::from_toml(&fitted_text).expect("loads");
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("summary.json")).expect("reads"),
        )
        .expect("json");
        assert_eq!(summary["epochs"].as_array().expect("epochs").len(), 13);
        // The epoch kept has the lowest validation loss (the last one was kept before, even
        // when the loss had risen), and the printed table and the report say which and why.
        let losses: Vec<f64> = summary["epochs"]
            .as_array()
            .expect("epochs")
            .iter()
            .map(|e| e["validation_loss"].as_f64().expect("validation loss"))
            .collect();
        let kept = summary["best_epoch"].as_u64().expect("best_epoch") as usize;
        assert!(
            losses.iter().all(|&l| l >= losses[kept]),
            "{kept}: {losses:?}"
        );
        assert!(
            losses[..kept].iter().all(|&l| l > losses[kept]),
            "the earliest of equals"
        );
        let line = format!("kept epoch {kept} of 12: ");
        assert!(stdout.contains(&line), "{stdout}");
        let report = std::fs::read_to_string(out.join("report.html")).expect("reads");
        assert!(
            report.contains(&format!("epoch {kept} of 12: ")),
            "kept epoch not in the report"
        );
        // The reason: the lowest validation loss, or the start when no epoch lowered it
        // (which of the two depends on the records, that is on the shipped defaults).
        assert!(
            report.contains("lowest validation loss")
                || report.contains("no epoch lowered the validation loss"),
            "no reason in the report"
        );
        assert!(
            report.contains("data-charts=\"2\""),
            "loss and paths charts inlined"
        );
        // One row per epoch in the losses table.
        assert_eq!(report.matches("<tr><td class=\"n\">").count(), 13);
        assert!(summary["k"].as_f64().expect("k") > 0.0);
        assert!(summary["positions"]["train"].as_u64().expect("train") > 0);
        assert_eq!(
            summary["positions"]["black_to_move"],
            summary["positions"]["white_to_move"]
        );
        let csv = std::fs::read_to_string(out.join("epochs.csv")).expect("reads");
        // No temporary file left behind.
        for entry in std::fs::read_dir(&out).expect("lists") {
            let name = entry.expect("entry").file_name();
            assert!(!name.to_string_lossy().contains(".tmp"), "{name:?}");
        }
        runs.push((fitted_text, csv));
    }
    assert_eq!(runs[0], runs[1], "the thread count changed the fit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The combination table through the fit: `--param 'cmb_white_*'` writes white's entries seen
/// in enough positions into fitted.toml as overrides (some of them moved), leaves the rare ones
/// as in the start (following the hand weights unless the start overrides them), and the file
/// loads into a different evaluation.
#[test]
fn table_fit_writes_the_fitted_table_as_overrides() {
    let (dir, rec) = detuned_records("table", 12, 100);
    let out = dir.join("fit");
    let base = params_file("detuned.toml");
    let o = fit_cmd(&[
        "--records",
        s(&rec),
        "--base",
        s(&base),
        "--param",
        "cmb_white_*",
        "--min-positions",
        "30",
        "--epochs",
        "10",
        // What the table's entries become, not which epoch is kept: on 12 pairs of records the
        // validation loss may rise from the start, and the best epoch would be the start itself.
        "--keep-last",
        "--out",
        s(&out),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("left at their start"), "{stdout}");
    eprintln!("{stdout}");
    let detuned = Params::load(&base).expect("detuned.toml");
    let fitted = Params::load(&out.join("fitted.toml")).expect("fitted.toml loads");
    // White's overrides are exactly its entries that were not rare, and those the start (the
    // shipped table) already had; black's are the shipped table's, untouched.
    let (overrides, black): (Vec<_>, Vec<_>) = fitted
        .combo
        .overrides()
        .into_iter()
        .partition(|(n, _)| n.starts_with("cmb_white_"));
    for (n, v) in black {
        assert_eq!(detuned.get(n), Some(v), "{n}");
    }
    let summary = summary_of(&out);
    let rare = rare_of(&summary);
    assert!(!rare.is_empty() && rare.len() < 48, "{rare:?}");
    let mut written: Vec<&str> = overrides.iter().map(|&(n, _)| n).collect();
    let in_base = |n: &str| {
        let (c, k) = wuzi_engine::eval::table::parse_name(n).unwrap();
        detuned.combo.get(c.index(), k).is_some()
    };
    let mut expected: Vec<&str> = wuzi_engine::eval::table::TABLE_NAMES
        .iter()
        .copied()
        .filter(|n| n.starts_with("cmb_white_") && (!rare.contains(n) || in_base(n)))
        .collect();
    written.sort_unstable();
    expected.sort_unstable();
    assert_eq!(written, expected);
    // A rare entry follows the hand weights: it moves with w_four_three.
    let mut bumped = fitted.clone();
    bumped.set("w_four_three", 3000).unwrap();
    let rare_four_three = rare
        .iter()
        .find(|n| {
            let (_, k) = wuzi_engine::eval::table::parse_name(n).unwrap();
            wuzi_engine::eval::table::class_combo(k) == Some(wuzi_engine::eval::Combo::FourThree)
                && !in_base(n)
        })
        .expect("a rare four-three class");
    assert_eq!(bumped.get(rare_four_three), Some(3000));
    let moved = overrides
        .iter()
        .filter(|&&(n, v)| detuned.get(n) != Some(v))
        .count();
    assert!(moved > 0, "no table entry moved");
    // Only the table moved, and it changes the evaluation.
    for spec in Params::SPECS {
        assert_eq!(
            fitted.get(spec.name),
            detuned.get(spec.name),
            "{}",
            spec.name
        );
    }
    assert_ne!(
        wuzi_engine::eval::EvalWeights::new(&fitted, Rule::Renju),
        wuzi_engine::eval::EvalWeights::new(&detuned, Rule::Renju)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pattern-code table through the fit (`--param 'pcd_*'`, labels half search score): the
/// entries seen in enough positions move, the rare ones stay at the start, the training loss
/// falls, and the written file gives another renju evaluation (and the same freestyle one: the
/// table counts under renju only).
#[test]
fn code_fit_moves_the_seen_entries_and_lowers_the_training_loss() {
    let (dir, rec) = detuned_records("codes", 12, 100);
    let out = dir.join("fit");
    let base = params_file("detuned.toml");
    let o = fit_cmd(&[
        "--records",
        s(&rec),
        "--base",
        s(&base),
        "--param",
        "pcd_*",
        "--score-weight",
        "0.5",
        "--min-positions",
        "30",
        "--epochs",
        "10",
        "--keep-last",
        "--out",
        s(&out),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let detuned = Params::load(&base).expect("detuned.toml");
    let fitted = Params::load(&out.join("fitted.toml")).expect("fitted.toml loads");
    let summary = summary_of(&out);
    let rare = rare_of(&summary);
    let names = wuzi_engine::eval::code::code_names();
    assert!(
        rare.len() > names.len() / 2 && rare.len() < names.len(),
        "{stdout}"
    );
    for n in &rare {
        assert_eq!(fitted.get(n), detuned.get(n), "rare {n} moved");
    }
    let moved = fitted
        .code
        .overrides()
        .iter()
        .filter(|&&(n, v)| detuned.get(n) != Some(v))
        .count();
    assert!(moved >= 10, "{moved} entries moved: {stdout}");
    // The report lists the moved entries, not all 2,730.
    assert!(stdout.contains("unmoved, not listed"), "{stdout}");
    assert!(stdout.lines().count() < 2 * moved + 40, "{stdout}");
    let loss = |k: &str| summary[k].as_f64().expect("a loss");
    assert!(
        loss("train_loss") < loss("train_loss_start"),
        "training loss did not fall: {stdout}"
    );
    for spec in Params::SPECS {
        assert_eq!(
            fitted.get(spec.name),
            detuned.get(spec.name),
            "{}",
            spec.name
        );
    }
    assert_ne!(
        wuzi_engine::eval::EvalWeights::new(&fitted, Rule::Renju),
        wuzi_engine::eval::EvalWeights::new(&detuned, Rule::Renju)
    );
    assert_eq!(
        wuzi_engine::eval::EvalWeights::new(&fitted, Rule::Freestyle),
        wuzi_engine::eval::EvalWeights::new(&detuned, Rule::Freestyle)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let (dir, rec) = detuned_records("bad", 4, 60);
    // The same players on a 13x13 board and under freestyle.
    let detuned = Params::load(&params_file("detuned.toml")).expect("detuned.toml");
    let small = dir.join("small");
    play(
        &small,
        ("a", &detuned),
        ("b", &detuned),
        2,
        60,
        3,
        Rule::Renju,
        13,
    );
    let free = dir.join("free");
    play(
        &free,
        ("a", &detuned),
        ("b", &detuned),
        2,
        60,
        3,
        Rule::Freestyle,
        15,
    );
    // A damaged line in the middle of a copy of the records.
    let damaged = dir.join("damaged");
    std::fs::create_dir_all(&damaged).expect("dir");
    std::fs::copy(rec.join("run.json"), damaged.join("run.json")).expect("copy");
    let games = std::fs::read_to_string(rec.join("games.jsonl")).expect("reads");
    let mut lines: Vec<&str> = games.lines().collect();
    lines[2] = "{\"matchup\":0,\"pair\":";
    std::fs::write(damaged.join("games.jsonl"), lines.join("\n") + "\n").expect("writes");
    let no_run = dir.join("no-run");
    std::fs::create_dir_all(&no_run).expect("dir");
    std::fs::copy(rec.join("games.jsonl"), no_run.join("games.jsonl")).expect("copy");

    let out = dir.join("out");
    let rec_s = s(&rec);
    let (missing, nope) = (dir.join("missing"), dir.join("nope.toml"));
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["--records", rec_s, "--records", s(&small)],
            vec!["13x13", "15x15", "one rule and board size"],
        ),
        (
            vec!["--records", rec_s, "--records", s(&free)],
            vec!["freestyle", "renju"],
        ),
        (
            vec!["--records", s(&damaged)],
            vec!["games.jsonl", "line 3"],
        ),
        (vec!["--records", s(&no_run)], vec!["run.json"]),
        (vec!["--records", s(&missing)], vec!["missing", "not found"]),
        (
            vec!["--records", rec_s, "--param", "defense"],
            vec!["unknown parameter 'defense'"],
        ),
        (
            vec!["--records", rec_s, "--param", "radius"],
            vec!["'radius' is a search parameter", "SPSA"],
        ),
        (
            vec!["--records", rec_s, "--param", "cmb_grey_*"],
            vec!["cmb_grey_*", "matches no evaluation weight"],
        ),
        (
            vec!["--records", rec_s, "--param", "cmb_white_f3t0w0"],
            vec!["unknown parameter 'cmb_white_f3t0w0'"],
        ),
        (
            vec!["--records", rec_s, "--skip-plies", "400"],
            vec!["no positions to fit"],
        ),
        (
            vec!["--records", rec_s, "--validation", "0.95"],
            vec!["--validation"],
        ),
        (
            vec!["--records", rec_s, "--base", s(&nope)],
            vec!["nope.toml"],
        ),
    ];
    for (args, words) in cases {
        let mut all = args.clone();
        all.extend(["--out", s(&out)]);
        let o = fit_cmd(&all);
        let (_, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        for w in words {
            assert!(stderr.contains(w), "{args:?}: '{w}' not in {stderr}");
        }
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cut_off_last_line_is_an_interrupted_run_and_is_tolerated() {
    let (dir, rec) = detuned_records("cut", 4, 60);
    let games = std::fs::read_to_string(rec.join("games.jsonl")).expect("reads");
    let full = games.lines().count();
    // Cut the last record in the middle, as a killed run leaves it.
    std::fs::write(rec.join("games.jsonl"), &games[..games.len() - 40]).expect("writes");
    let out = dir.join("fit");
    let o = fit_cmd(&[
        "--records",
        s(&rec.join("games.jsonl")),
        "--epochs",
        "3",
        "--out",
        s(&out),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("cut off"), "{stderr}");
    assert!(stdout.contains(&format!("{} games", full - 1)), "{stdout}");
    assert!(out.join("fitted.toml").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
