//! A tune stopped with a real SIGINT: exit status 130, the checkpoint of the last completed
//! iteration kept, the resume command printed, and that command finishes the tune.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tune");

/// 6 iterations of 8 pairs at 400 nodes per move.
const ITERATIONS: u64 = 6;

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-interrupt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn iteration(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("state.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["iteration"].as_u64()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn sigint_keeps_the_checkpoint_and_the_printed_resume_finishes_the_tune() {
    let tmp = temp_dir();
    let params = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params");
    let spec = tmp.join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "base = \"{}\"\npairs = {}\npairs_per_iteration = 8\nseed = 1\n\
             [limits]\nnodes = 400\n[params.defence]\nmin = 20\nmax = 200\n",
            params.join("detuned.toml").display(),
            8 * ITERATIONS
        ),
    )
    .expect("spec");
    let out = tmp.join("tune");
    let mut child = Command::new(BIN)
        .args([
            "tune",
            "--no-verify",
            "--quiet",
            "--concurrency",
            "2",
            "--spec",
        ])
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    // Once the first iteration is checkpointed (polled: a loaded machine is only slower).
    let deadline = Instant::now() + Duration::from_secs(600);
    while iteration(&out).unwrap_or(0) < 1 {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the tune ended ({status}) before its first checkpoint");
        }
        assert!(Instant::now() < deadline, "no checkpoint within 10 minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
    let signalled = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let output = child.wait_with_output().expect("waits");
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(130), "{stdout}{stderr}");

    let done = iteration(&out).expect("a checkpoint");
    assert!((1..ITERATIONS).contains(&done), "iteration {done}");
    assert!(
        stdout.contains(&format!(
            "interrupted after iteration {done} of {ITERATIONS}"
        )),
        "{stdout}{stderr}"
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("resume with: "))
        .unwrap_or_else(|| panic!("no resume command in: {stdout}"));
    assert_eq!(
        line,
        format!("wuzi-tune resume {} --no-verify", out.display())
    );

    let resumed = Command::new(BIN)
        .args(line.split_whitespace().skip(1))
        .arg("--quiet")
        .output()
        .expect("resumes");
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}{}",
        text(&resumed.stdout),
        text(&resumed.stderr)
    );
    assert_eq!(iteration(&out), Some(ITERATIONS));
    let _ = std::fs::remove_dir_all(&tmp);
}
