//! The three programs as a shell pipeline runs them: a reader that has gone away (`| head`)
//! is not a panic. `wuzi` takes the default SIGPIPE and ends quietly; `wuzi-arena` and
//! `wuzi-tune` keep SIGPIPE ignored (they write to brains' pipes), stop printing and finish
//! the command with its own exit status.

use wuzi_tests::{bin, run_with_closed_stdout, TempDir};

/// Regression: `wuzi params | head -1` panicked in `println!` (exit 101, a backtrace on
/// stderr) once the reader had closed the pipe.
#[test]
fn wuzi_with_a_closed_stdout_ends_quietly() {
    let (status, err) = run_with_closed_stdout(&bin("wuzi"), &["params"]);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(status, Some(101), "{status:?}: {err}");
}

/// Regression: `wuzi-tune params | head -1` panicked in `println!` (exit 101).
#[test]
fn wuzi_tune_with_a_closed_stdout_finishes() {
    let (status, err) = run_with_closed_stdout(&bin("wuzi-tune"), &["params"]);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status, Some(0), "{err}");
}

/// Regression: `wuzi-arena summary DIR | head -1` panicked in `print!` (exit 101) when the
/// reader closed the pipe before the tables were written. A match whose reader has gone still
/// plays and keeps every game.
#[test]
fn wuzi_arena_with_a_closed_stdout_finishes_and_keeps_its_games() {
    let tmp = TempDir::new("closed-stdout");
    let out = tmp.join("run");
    let out = out.to_str().expect("utf-8 path");
    let arena = bin("wuzi-arena");
    let (status, err) = run_with_closed_stdout(
        &arena,
        &[
            "match",
            "--player",
            "a",
            "--player",
            "name=b,set=defence=60",
            "--nodes",
            "200",
            "--openings",
            "random:2",
            "--out",
            out,
        ],
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status, Some(0), "{err}");
    let games = std::fs::read_to_string(tmp.join("run/games.jsonl")).expect("records");
    assert_eq!(games.lines().count(), 4, "every game kept");
    for args in [
        vec!["summary", out],
        vec!["summary", out, "--per-opening"],
        vec!["summary", out, "--json"],
    ] {
        let (status, err) = run_with_closed_stdout(&arena, &args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(status, Some(0), "{args:?}: {err}");
    }
}
