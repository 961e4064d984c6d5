//! The charts of `wuzi-arena` runs and the built-in default match, end to end through the
//! binary: charts written at the end of a run, redrawn by `chart DIR`, drawn after `merge`;
//! the default match's players, options and output directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p =
            std::env::temp_dir().join(format!("wuzi-arena-charts-{name}-{}", std::process::id()));
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

fn arena_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Both files of every chart exist, the PNG is a PNG and the SVG an SVG.
fn has_charts(dir: &Path, stems: &[&str]) {
    for stem in stems {
        let png = std::fs::read(dir.join(format!("{stem}.png")))
            .unwrap_or_else(|e| panic!("{}: {stem}.png: {e}", dir.display()));
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png");
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).expect("svg");
        assert!(svg.starts_with("<svg"), "{stem}.svg");
    }
}

#[test]
fn default_match_uses_its_players_sprt_and_a_new_directory() {
    let tmp = Tmp::new("default");
    let args = ["match", "--pairs", "2", "--nodes", "200", "--quiet"];
    let report = ok(&arena_in(&tmp.0, &args));
    assert!(report.contains("default vs weak"), "{report}");
    assert!(report.contains("SPRT [0, 10]"), "{report}");
    let runs: Vec<PathBuf> = std::fs::read_dir(tmp.join("arena-out"))
        .expect("arena-out")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    let run = &runs[0];
    let name = run.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("match-"), "{name}");
    has_charts(run, &["score", "colours", "sprt"]);
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).expect("run.json"))
            .expect("json");
    assert_eq!(config["players"][0]["name"], "default");
    assert_eq!(config["players"][1]["name"], "weak");
    assert_eq!(config["players"][1]["params"]["w_open_three"], 20);
    assert_eq!(config["players"][1]["params"]["w_open_four"], 100);
    assert_eq!(config["players"][0]["limits"]["nodes"], 200);
    assert_eq!(config["openings"].as_array().map(Vec::len), Some(184));
    assert_eq!(config["game"]["rule"], "renju");
    assert_eq!(config["sprt"]["elo1"], 10.0);

    // A second default match does not touch the first.
    let args = [
        "match", "--pairs", "1", "--nodes", "100", "--quiet", "--sprt", "off",
    ];
    ok(&arena_in(&tmp.0, &args));
    assert_eq!(std::fs::read_dir(tmp.join("arena-out")).unwrap().count(), 2);

    // An explicit --out that holds a run is refused without --resume, continued with it.
    let d = run.display().to_string();
    let args = [
        "match", "--pairs", "2", "--nodes", "200", "--quiet", "--out", &d,
    ];
    let out = arena_in(&tmp.0, &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--resume"),
        "{}",
        text(&out.stderr)
    );
    let mut resume = args.to_vec();
    resume.push("--resume");
    let again = ok(&arena_in(&tmp.0, &resume));
    assert_eq!(again.lines().nth(2), report.lines().nth(2), "{again}");
}

#[test]
fn chart_redraws_runs_and_merged_shards() {
    let tmp = Tmp::new("redraw");
    let common = [
        "--nodes",
        "150",
        "--pairs",
        "4",
        "--quiet",
        "--sprt",
        "0,10",
        "--player",
        "a",
        "--player",
        "name=b,set=defence=40",
        "--player",
        "name=c,set=tempo=60",
    ];
    let mut shards = Vec::new();
    for i in 0..2 {
        let dir = tmp.join(&format!("shard{i}")).display().to_string();
        let mut args = vec!["gauntlet"];
        args.extend(common);
        let shard = format!("{i}/2");
        args.extend(["--shard", &shard, "--out", &dir]);
        ok(&arena_in(&tmp.0, &args));
        has_charts(Path::new(&dir), &["score", "colours", "sprt-1-a-vs-b"]);
        shards.push(dir);
    }
    let merged = tmp.join("merged").display().to_string();
    ok(&arena_in(
        &tmp.0,
        &["merge", "--out", &merged, &shards[0], &shards[1]],
    ));
    let stems = ["score", "colours", "sprt-1-a-vs-b", "sprt-2-a-vs-c"];
    has_charts(Path::new(&merged), &stems);

    // Redrawn elsewhere from run.json + games.jsonl alone.
    let again = tmp.join("again").display().to_string();
    let listing = ok(&arena_in(&tmp.0, &["chart", &merged, "--out", &again]));
    has_charts(Path::new(&again), &stems);
    assert!(listing.contains("sprt-2-a-vs-c.svg"), "{listing}");

    // Not a run directory, or a corrupt one: status 2 and a message, no panic.
    for (dir, needle) in [
        (tmp.join("nothing"), "run.json"),
        (tmp.0.clone(), "run.json"),
    ] {
        let out = arena_in(&tmp.0, &["chart", &dir.display().to_string()]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains(needle) && !err.contains("panicked"), "{err}");
    }
    let broken = tmp.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::copy(Path::new(&merged).join("run.json"), broken.join("run.json")).unwrap();
    std::fs::write(broken.join("games.jsonl"), "{\"not\": \"a record\"}\n").unwrap();
    let out = arena_in(&tmp.0, &["chart", &broken.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("panicked"));
    // No records yet: charts with no data.
    std::fs::remove_file(broken.join("games.jsonl")).unwrap();
    ok(&arena_in(&tmp.0, &["chart", &broken.display().to_string()]));
    has_charts(&broken, &stems);
}

#[test]
fn sweep_charts_have_one_elo_chart_per_axis() {
    let tmp = Tmp::new("sweep");
    let out = tmp.join("grid").display().to_string();
    ok(&arena_in(
        &tmp.0,
        &[
            "sweep",
            "--grid",
            "w_open_three=60,110",
            "--grid",
            "tempo=0,20,40",
            "--nodes",
            "100",
            "--pairs",
            "1",
            "--quiet",
            "--out",
            &out,
        ],
    ));
    has_charts(
        Path::new(&out),
        &["score", "colours", "elo-w_open_three", "elo-tempo"],
    );
    let svg = std::fs::read_to_string(Path::new(&out).join("elo-w_open_three.svg")).unwrap();
    // One line per value of the other axis, named in the legend.
    for v in [0, 20, 40] {
        assert!(svg.contains(&format!("tempo = {v}")), "tempo = {v}");
    }
    // The baseline's own value is marked on every axis' chart (legend and label).
    for stem in ["elo-w_open_three", "elo-tempo"] {
        let svg = std::fs::read_to_string(Path::new(&out).join(format!("{stem}.svg"))).unwrap();
        assert!(
            svg.contains("(Elo 0 by definition)"),
            "{stem}: no baseline legend"
        );
        assert!(
            svg.contains(">\nbaseline\n</text>"),
            "{stem}: no baseline label"
        );
    }
}

#[test]
fn sweep_elo_chart_marks_the_baseline_value() {
    let tmp = Tmp::new("sweep-baseline");
    let out = tmp.join("one").display().to_string();
    ok(&arena_in(
        &tmp.0,
        &[
            "sweep",
            "--grid",
            "tempo=0,40",
            "--nodes",
            "100",
            "--pairs",
            "1",
            "--quiet",
            "--out",
            &out,
        ],
    ));
    let svg = std::fs::read_to_string(Path::new(&out).join("elo-tempo.svg")).unwrap();
    assert!(svg.contains("(Elo 0 by definition)"), "no baseline legend");
    assert!(svg.contains(">\nbaseline\n</text>"), "no baseline label");
}

/// Identical deterministic players mirror each other: in every pair each side wins with the
/// same colour, so every pair is even and the score is exactly 50 %.
#[test]
fn identical_deterministic_players_mirror_every_pair() {
    let tmp = Tmp::new("mirror");
    let out = tmp.join("run");
    let d = out.display().to_string();
    ok(&arena_in(
        &tmp.0,
        &[
            "match", "--player", "a", "--player", "b", "--nodes", "200", "--pairs", "4", "--quiet",
            "--out", &d,
        ],
    ));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let m = &summary["matchups"][0];
    assert_eq!(m["penta"], serde_json::json!([0, 0, 4, 0, 0]), "{m}");
    assert_eq!(m["score"]["value"], 0.5);
}
