//! Behaviour fixture: small node-limited runs with fixed seeds must write the same
//! `games.jsonl` and `summary.json` as the recorded ones in `tests/data/same-games/`, byte for
//! byte once the clock readings are masked (`ms`, `time_ms` and the summary's `timing` are wall
//! time; everything else — moves, nodes, depths, scores, results, tallies, Elo, SPRT — is
//! decided by the seed and the node limits). One worker plays them, so the records are also
//! written in one order (with more workers the same records come in completion order). It guards restructuring of the arena, engine
//! and their floors: a change that alters games or their summary shows here.
//!
//! A deliberate change of behaviour re-records the fixture: `WUZI_BLESS=1 cargo test -p
//! wuzi-arena --test same_games` (then review the diff and say why in the commit).

use std::path::Path;
use std::process::Command;

/// Replaces the digits after every `"key":` of `keys` by `0`.
fn zero_numbers(text: &str, keys: &[&str]) -> String {
    let mut out = text.to_string();
    for key in keys {
        let needle = format!("\"{key}\":");
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&needle) {
            let (head, tail) = rest.split_at(at + needle.len());
            result.push_str(head);
            let spaces = tail.len() - tail.trim_start().len();
            result.push_str(&tail[..spaces]);
            let tail = &tail[spaces..];
            let digits = tail
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
                .unwrap_or(tail.len());
            result.push('0');
            rest = &tail[digits..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// `summary.json` with its `"timing": {...}` object (the session's wall time) replaced by
/// `null`.
fn mask_timing(text: &str) -> String {
    let Some(at) = text.find("\"timing\": {") else {
        return text.to_string();
    };
    let open = at + "\"timing\": ".len();
    let mut depth = 0;
    let close = text[open..]
        .char_indices()
        .find(|&(_, c)| {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            depth == 0
        })
        .expect("timing object closes")
        .0
        + open;
    format!("{}null{}", &text[..open], &text[close + 1..])
}

fn masked(dir: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).expect("run file written");
    match file {
        "games.jsonl" => zero_numbers(&text, &["ms", "time_ms"]),
        _ => mask_timing(&text),
    }
}

/// Runs `wuzi-arena ARGS --out DIR` and compares (or, with `WUZI_BLESS=1`, records) its
/// files against `tests/data/same-games/NAME/`.
fn same_as_recorded(name: &str, args: &[&str]) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/same-games")
        .join(name);
    for file in ["games.jsonl", "summary.json"] {
        let got = masked(&out, file);
        let path = fixture.join(file);
        if std::env::var_os("WUZI_BLESS").is_some() {
            std::fs::create_dir_all(&fixture).expect("fixture dir");
            std::fs::write(&path, &got).expect("fixture written");
            continue;
        }
        let want = std::fs::read_to_string(&path).expect("fixture recorded");
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .map_or("(lengths)".to_string(), |i| format!("line {}", i + 1));
            panic!(
                "{name}/{file} differs from the recorded run at {line}: games or their summary \
                 changed (re-record with WUZI_BLESS=1 only for a deliberate change)"
            );
        }
    }
}

#[test]
fn a_seeded_match_with_sprt_plays_the_recorded_games() {
    same_as_recorded(
        "match",
        &[
            "match",
            "--player",
            "default",
            "--player",
            "name=weak,set=defence=45",
            "--nodes",
            "400",
            "--pairs",
            "8",
            "--seed",
            "11",
            "--sprt=-20,0",
            "--concurrency",
            "1",
        ],
    );
}

#[test]
fn a_seeded_gauntlet_with_the_classic_player_and_random_openings_plays_the_recorded_games() {
    same_as_recorded(
        "gauntlet",
        &[
            "gauntlet",
            "--player",
            "default",
            "--player",
            "preset=classic",
            "--player",
            "name=narrow,set=radius=1",
            "--rule",
            "standard",
            "--openings",
            "random:3",
            "--pairs",
            "3",
            "--nodes",
            "300",
            "--seed",
            "5",
            "--concurrency",
            "1",
        ],
    );
}

#[test]
fn masking_keeps_everything_but_clock_readings() {
    let line = r#"{"moves":[{"mv":"h8","ms":12,"nodes":300}],"time_ms":40,"pair":3}"#;
    assert_eq!(
        zero_numbers(line, &["ms", "time_ms"]),
        r#"{"moves":[{"mv":"h8","ms":0,"nodes":300}],"time_ms":0,"pair":3}"#
    );
    let summary =
        "{\n  \"timing\": {\n    \"a\": {\"b\": 1},\n    \"elapsed_s\": 1.5\n  },\n  \"x\": 1\n}";
    assert_eq!(
        mask_timing(summary),
        "{\n  \"timing\": null,\n  \"x\": 1\n}"
    );
}
