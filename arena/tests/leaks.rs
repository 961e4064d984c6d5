//! Processes that outlived the arena, tried as a new user would, with the real binary: a brain
//! that starts a child in a session of its own (out of reach of its process group), and
//! brains that ignore the end of their input when the arena is killed with SIGKILL.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-arena");

/// Is process `pid` running (a zombie nobody reaped counts as gone)?
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// The process ids the brains wrote to `file`, one per line.
fn pids(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Waits up to 5 s for every process in `pids` to be gone; the ones still running.
fn survivors(pids: &[String]) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<String> = pids.iter().filter(|p| running(p)).cloned().collect();
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills what a failed test leaves, so it does not outlive the test either.
fn kill_all(pids: &[String]) {
    for p in pids {
        if let Ok(pid) = p.parse::<libc::pid_t>() {
            // SAFETY: signals processes the test's own brains started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// A match of the engine against the bash script `brain` (in `dir`, which is also the
/// brain's working folder), `pairs` pairs, recording into `dir/run`.
fn start_match(dir: &Path, brain: &str, extra: &str, pairs: u64) -> Child {
    let script = dir.join("brain.sh");
    std::fs::write(&script, format!("#!/bin/bash\n{brain}")).expect("writes the brain");
    Command::new(BIN)
        .args(["match", "--player", "engine", "--player"])
        .arg(format!(
            "x,cmd=/bin/bash,arg={},dir={},settle-ms=0{extra}",
            script.display(),
            dir.display()
        ))
        .args(["--nodes", "100", "--max-moves", "20", "--concurrency", "1"])
        .args(["--pairs", &pairs.to_string(), "--quiet", "--out"])
        .arg(dir.join("run"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts the arena")
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("wuzi-leaks-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).expect("temp dir");
    p
}

/// Regression: a brain that starts a child with `setsid` (its own session and process group)
/// left that child running after the run, one per brain started (10 after a 40-game match):
/// killing the brain's process group does not reach it.
#[test]
fn a_setsid_child_does_not_outlive_its_brain() {
    let dir = tmp("setsid");
    // Starts the child (`$!` is its pid: setsid execs in place), says OK, then crashes at
    // its first move: a new brain every game.
    let brain = r#"setsid sleep 600 < /dev/null > /dev/null 2>&1 &
echo $! >> pids
read -r line
echo OK
while read -r cmd rest; do
  case "$cmd" in
    BEGIN|TURN|DONE) exit 3 ;;
  esac
done
"#;
    let child = start_match(&dir, brain, ",move-ms=5000", 2);
    let out = child.wait_with_output().expect("the arena runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{all}");
    let started = pids(&dir.join("pids"));
    assert_eq!(started.len(), 4, "one child per game: {started:?}\n{all}");
    let left = survivors(&started);
    kill_all(&left);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        left.is_empty(),
        "setsid children outlived their brains: {left:?}"
    );
}

/// Regression: when the arena was killed with SIGKILL, brains that ignore `END` and the end
/// of their input kept running, with the children they started (32 processes after a
/// 120-game run with such brains, one SIGKILL and a resume).
#[test]
fn a_brain_ignoring_end_dies_when_the_arena_is_sigkilled() {
    let dir = tmp("sigkill");
    // Writes its pid and its child's, ignores END, EOF and the polite signals, never moves.
    let brain = r#"echo $$ >> pids
sleep 600 < /dev/null > /dev/null 2>&1 &
echo $! >> pids
trap '' TERM HUP INT
while :; do
  if read -r cmd rest; then
    case "$cmd" in
      START|RESTART) echo OK ;;
    esac
  else
    sleep 1
  fi
done
"#;
    let mut child = start_match(&dir, brain, ",move-ms=60000", 1);
    let file = dir.join("pids");
    let deadline = Instant::now() + Duration::from_secs(60);
    while pids(&file).len() < 2 {
        assert!(Instant::now() < deadline, "the brain never started");
        assert!(
            child.try_wait().expect("polls").is_none(),
            "the arena ended early"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let started = pids(&file);
    let left = survivors(&started);
    kill_all(&left);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        left.is_empty(),
        "a brain and its child outlived the SIGKILLed arena: {left:?} of {started:?}"
    );
}
