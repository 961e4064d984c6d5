//! The `wuzi` command as a shell pipeline runs it.

use std::io::Read;
use std::process::{Command, Stdio};

/// Regression: `wuzi params | head -1` panicked in `println!` (exit 101, a backtrace on
/// stderr) once the reader had closed the pipe.
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .arg("params")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wuzi starts");
    // The reader is gone before the command writes its first line.
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("stderr reads");
    let status = child.wait().expect("wuzi ends");
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(status.code(), Some(101), "{status:?}: {err}");
}
