//! Interrupted runs, with the real binary and real signals: a SIGINT stops a run cleanly (exit
//! status 130, a readable summary and report marked interrupted, no finished game lost, the
//! resume command printed, and that command finishes the run); a SIGKILLed run is called
//! incomplete by `summary` and `report`.
//!
//! Signals are sent once the run has recorded games (the records are polled, so a loaded
//! machine only makes the tests slower).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-arena");

/// Games of the test run: 12 pairs at 1500 nodes per move, two workers.
const PAIRS: u64 = 12;

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!(
            "wuzi-arena-interrupt-{name}-{}",
            std::process::id()
        ));
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

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Starts a node-limited match recording into `out`.
fn start_match(out: &Path) -> Child {
    Command::new(BIN)
        .args([
            "match",
            "--player",
            "a",
            "--player",
            "b,set=defence=60",
            "--nodes",
            "1500",
            "--pairs",
            &PAIRS.to_string(),
            "--concurrency",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

/// Complete lines in `out/games.jsonl`.
fn recorded(out: &Path) -> usize {
    std::fs::read_to_string(out.join("games.jsonl"))
        .map(|t| t.matches('\n').count())
        .unwrap_or(0)
}

/// Waits (generously) until the run has recorded `n` games.
fn wait_for_games(child: &mut Child, out: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(600);
    while recorded(out) < n {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the run ended ({status}) before {n} games were recorded");
        }
        assert!(Instant::now() < deadline, "no {n} games within 10 minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).expect("pid fits");
    // SAFETY: signals our own child process only.
    let rc = unsafe { libc::kill(pid, sig) };
    assert_eq!(rc, 0, "kill({pid}, {sig})");
}

fn json(path: &Path) -> serde_json::Value {
    let t = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn both(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn sigint_writes_an_interrupted_summary_and_report_and_the_printed_resume_finishes() {
    let tmp = Tmp::new("sigint");
    let out = tmp.0.join("run");
    let mut child = start_match(&out);
    wait_for_games(&mut child, &out, 2);
    signal(&child, libc::SIGINT);
    let output = child.wait_with_output().expect("waits");
    let all = both(&output);
    assert_eq!(output.status.code(), Some(130), "{all}");
    assert!(!all.contains("panicked"), "{all}");

    // Every finished game is in the records, and the summary counts exactly those.
    let games = recorded(&out);
    let planned = 2 * PAIRS;
    assert!(
        games >= 2 && (games as u64) < planned,
        "{games} games: {all}"
    );
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["completion"], "interrupted", "{summary}");
    assert_eq!(summary["games_finished"], games as u64, "{summary}");
    assert_eq!(summary["games_planned"], planned, "{summary}");
    let note = format!("interrupted after {games} of {planned} games: no verdict");
    assert!(all.contains(&note), "expected '{note}' in: {all}");

    // The report is written and neutral: no pass/fail banner for a partial run.
    let report = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(report.contains(&note), "report lacks '{note}'");
    assert!(!report.contains("verdict pass") && !report.contains("verdict fail"));

    // `summary` on the folder says the same.
    let s = Command::new(BIN)
        .arg("summary")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(text(&s.stdout).contains(&note), "{}", both(&s));

    // The printed command resumes the run to its end.
    let line = text(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("resume with: ").map(str::to_string))
        .unwrap_or_else(|| panic!("no resume command in: {all}"));
    assert_eq!(line, format!("wuzi-arena resume {}", out.display()));
    let mut words = line.split_whitespace().skip(1);
    let resumed = Command::new(BIN)
        .args(words.by_ref())
        .arg("--quiet")
        .output()
        .expect("resumes");
    assert_eq!(resumed.status.code(), Some(0), "{}", both(&resumed));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["completion"], "finished", "{summary}");
    assert_eq!(summary["games_finished"], planned, "{summary}");
    assert_eq!(
        recorded(&out) as u64,
        planned,
        "a game recorded twice or lost"
    );
    assert_eq!(
        summary["timing"]["games_resumed"], games as u64,
        "{summary}"
    );
}

#[test]
fn sigkill_leaves_a_run_that_summary_and_report_call_incomplete() {
    let tmp = Tmp::new("sigkill");
    let out = tmp.0.join("run");
    let mut child = start_match(&out);
    wait_for_games(&mut child, &out, 2);
    signal(&child, libc::SIGKILL);
    let status = child.wait().expect("waits");
    assert_eq!(status.code(), None, "killed by a signal");

    let games = recorded(&out);
    let expected = format!(
        "incomplete: {games} of {} games recorded; the run did not finish",
        2 * PAIRS
    );
    let resume = format!("resume with: wuzi-arena resume {}", out.display());
    let s = Command::new(BIN)
        .arg("summary")
        .arg(&out)
        .output()
        .expect("runs");
    let all = both(&s);
    assert_eq!(s.status.code(), Some(0), "{all}");
    assert!(all.contains(&expected), "expected '{expected}' in: {all}");
    assert!(all.contains(&resume), "expected '{resume}' in: {all}");

    let r = Command::new(BIN)
        .arg("report")
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(r.status.code(), Some(0), "{}", both(&r));
    let report = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(report.contains(&expected), "report lacks '{expected}'");
    assert!(report.contains(&format!("wuzi-arena resume {}", out.display())));
    assert!(!report.contains("verdict pass") && !report.contains("verdict fail"));
}
