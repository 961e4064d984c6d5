//! The soak: one round-robin of two in-process engines and a fake brain that misbehaves at
//! random moments (crashes, hangs, exits mid-game, floods garbage, prints a line of 1 MB
//! without a newline, closes its output but keeps running, ignores `END` and the end of its
//! input, forks a child that outlives it, also one with `setsid`, answers after the clock),
//! with the real `wuzi-arena` binary, concurrency equal to the cores, killed with SIGKILL
//! twice and resumed. Then every scheduled game must be in the records exactly once, the
//! engines' games (matchup 0) and statistics must equal those of an uninterrupted run of the
//! same configuration's shard 0/3 (which holds exactly matchup 0's pairs), no process started
//! by the run may be left, and the arena's descriptors, threads and resident memory must stay
//! flat (sampled at the start, middle and end of each session, and printed).
//!
//! `soak_twin` (300 games) runs in CI. The full soak is
//! `cargo test --release -p wuzi-arena --test soak -- --ignored --nocapture`
//! (10,002 games; `WUZI_SOAK_PAIRS=N` sets the pairs per matchup, games = 6 N).
#![cfg(target_os = "linux")]

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-arena");

/// The fake brain: plays random free points, and before a move, with probability 1/PERIOD,
/// injects one fault (logged to `$2/faults`, one line per fault). Half the processes
/// (`ignore-end-armed`) also ignore `END` and the end of their input. Arguments: seed, log folder, token (in the
/// command line of every child it leaves, so the test can find them), move time in ms.
const CHAOS: &str = r#"seed=$1 log=$2 token=$3 move_ms=$4
RANDOM=$(( (seed * 7919) ^ $$ ))
period=12
size=15
declare -A occ
ignore_end=$(( RANDOM % 2 ))
[ "$ignore_end" = 1 ] && echo ignore-end-armed >> "$log/faults"
fault() { echo "$1" >> "$log/faults"; }
child() { exec -a "wuzi-soak-$token" sleep 3600; }
play() {
  local x y n=0
  while :; do
    x=$(( RANDOM % size )); y=$(( RANDOM % size ))
    [ -z "${occ[$x,$y]}" ] && break
    n=$(( n + 1 )); [ $n -gt 400 ] && break
  done
  occ[$x,$y]=1
  echo "$x,$y"
}
misbehave() {
  (( RANDOM % period != 0 )) && return 0
  case $(( RANDOM % 9 )) in
    0) fault crash; exit 3 ;;
    1) fault hang; exec sleep 3600 ;;
    2) fault exit; exit 0 ;;
    3) fault flood; for i in $(seq 2000); do echo "garbage $i $RANDOM $RANDOM"; done ;;
    4) fault long-line; head -c 1048576 /dev/zero | tr '\0' x ;;
    5) fault close-stdout; exec 1>&-; while read -r line; do :; done; sleep 3600 ;;
    6) fault late; sleep "0.$(( move_ms * 3 / 100 ))" ;;
    7) fault fork; child & ;;
    8) fault setsid; setsid bash -c "exec -a wuzi-soak-$token sleep 3600" & ;;
  esac
}
while :; do
  if ! read -r cmd rest; then
    [ "$ignore_end" = 1 ] || exit 0
    fault ignore-eof; trap '' TERM HUP INT; while :; do sleep 1; done
  fi
  case "$cmd" in
    START) size=${rest%% *}; occ=(); echo OK ;;
    RESTART) occ=(); echo OK ;;
    ABOUT) echo 'name="chaos", version="1"' ;;
    BEGIN) misbehave; play ;;
    TURN) occ[${rest%%,*},${rest##*,}]=1; misbehave; play ;;
    BOARD)
      while read -r line && [ "$line" != DONE ]; do
        IFS=, read -r bx by bw <<< "$line"; occ[$bx,$by]=1
      done
      misbehave; play ;;
    END)
      [ "$ignore_end" = 1 ] || exit 0
      fault ignore-end; trap '' TERM HUP INT ;;
  esac
done
"#;

/// One reading of the arena process.
#[derive(Clone, Debug)]
struct Sample {
    /// Games in the records when it was taken.
    games: usize,
    fds: usize,
    threads: usize,
    rss_kb: u64,
    /// Processes carrying the session's brain tag (live brains and what they started).
    brains: usize,
}

fn sample(pid: u32, out: &Path) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count();
    if fds == 0 {
        // The arena is exiting: its descriptors are closed, its memory is going.
        return None;
    }
    Some(Sample {
        games: recorded(out),
        fds,
        threads: field("Threads:")? as usize,
        rss_kb: field("VmRSS:")?,
        brains: tagged(&[pid]).len(),
    })
}

/// Complete lines in `out/games.jsonl`.
fn recorded(out: &Path) -> usize {
    std::fs::read(out.join("games.jsonl"))
        .map(|t| t.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0)
}

/// Running processes (zombies excluded) whose environment holds the brain tag of one of the
/// arenas `pids`.
fn tagged(pids: &[u32]) -> Vec<i32> {
    let marks: Vec<String> = pids
        .iter()
        .map(|p| format!("{}={p}.", wuzi_arena::external::TAG_VAR))
        .collect();
    processes()
        .into_iter()
        .filter(|&p| {
            let env = std::fs::read(format!("/proc/{p}/environ")).unwrap_or_default();
            env.split(|&b| b == 0)
                .any(|e| marks.iter().any(|m| e.starts_with(m.as_bytes())))
        })
        .collect()
}

/// Running processes (zombies excluded) whose command line mentions `needle`.
fn mentioning(needle: &str) -> Vec<i32> {
    processes()
        .into_iter()
        .filter(|&p| {
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmd).contains(needle)
        })
        .collect()
}

fn processes() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
                .filter(|p| {
                    std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                        s.rsplit_once(')')
                            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What the soak saw.
struct Soak {
    games: usize,
    planned: usize,
    faults: BTreeMap<String, usize>,
    kills: usize,
    /// Per session: the samples at its start, middle and end.
    sessions: Vec<[Sample; 3]>,
    left: Vec<i32>,
    elapsed: Duration,
}

/// Waits for `child`, sampling it; SIGKILLs it once the records hold `kill_at` games.
fn watch(child: &mut Child, out: &Path, kill_at: Option<usize>) -> [Sample; 3] {
    let pid = child.id();
    let mut samples: Vec<Sample> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(6 * 3600);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            assert!(
                kill_at.is_none(),
                "the arena ended ({status}) before its kill"
            );
            assert!(status.success(), "the arena failed: {status}");
            break;
        }
        if let Some(s) = sample(pid, out) {
            if kill_at.is_some_and(|k| s.games >= k) {
                samples.push(s);
                child.kill().expect("SIGKILL");
                child.wait().expect("reaped");
                break;
            }
            samples.push(s);
        }
        assert!(Instant::now() < deadline, "the soak stalled");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!samples.is_empty(), "no sample of the arena");
    // Start: the first reading once games are being played in this session.
    let first_games = samples[0].games;
    let start = samples
        .iter()
        .position(|s| s.games > first_games)
        .unwrap_or(0);
    let mid = (start + samples.len() - 1) / 2;
    [
        samples[start].clone(),
        samples[mid].clone(),
        samples[samples.len() - 1].clone(),
    ]
}

fn soak(pairs: u64, name: &str) -> Soak {
    let began = Instant::now();
    let tmp = std::env::temp_dir().join(format!("wuzi-soak-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let token = format!("{name}{}", std::process::id());
    let script = tmp.join("chaos.sh");
    std::fs::write(&script, format!("#!/bin/bash\n{CHAOS}")).expect("writes the brain");
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let move_ms = 100;
    let chaos = format!(
        "chaos,cmd=/bin/bash,arg={},arg=7,arg={},arg={token},arg={move_ms},move-ms={move_ms},\
         settle-ms=0,end-ms=300,start-ms=1000",
        script.display(),
        tmp.display()
    );
    let common = |out: &Path| -> Command {
        let mut c = Command::new(BIN);
        c.args([
            "round-robin",
            "--player",
            "e1",
            "--player",
            "e2,set=defence=60",
        ])
        .args(["--player", &chaos])
        .args(["--nodes", "60", "--hash-mb", "1", "--max-moves", "30"])
        .args(["--time-margin-ms", "100", "--seed", "11"])
        .args(["--pairs", &pairs.to_string()])
        .args(["--concurrency", &cores.to_string(), "--quiet", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        c
    };
    let out = tmp.join("run");
    let planned = 6 * pairs as usize;
    let mut arenas = Vec::new();
    let mut sessions = Vec::new();
    let mut child = common(&out).spawn().expect("starts the arena");
    arenas.push(child.id());
    sessions.push(watch(&mut child, &out, Some(planned / 3)));
    for kill_at in [Some(2 * planned / 3), None] {
        let mut c = Command::new(BIN);
        c.arg("resume")
            .arg(&out)
            .args(["--concurrency", &cores.to_string(), "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = c.spawn().expect("resumes");
        arenas.push(child.id());
        sessions.push(watch(&mut child, &out, kill_at));
    }

    // Every scheduled game exactly once.
    let text = std::fs::read_to_string(out.join("games.jsonl")).expect("records");
    let mut keys = HashSet::new();
    let mut engines: BTreeMap<(u64, u64), serde_json::Value> = BTreeMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a whole record");
        let key = (
            v["pair"].as_u64().expect("pair"),
            v["game"].as_u64().expect("game"),
        );
        assert!(keys.insert(key), "game {key:?} recorded twice");
        if v["matchup"] == 0 {
            engines.insert(key, without_clocks(v));
        }
    }
    assert_eq!(keys.len(), planned, "games missing from the records");

    // The engines' games and statistics are those of an uninterrupted run.
    let reference = tmp.join("reference");
    let status = common(&reference)
        .args(["--shard", "0/3"])
        .status()
        .expect("runs the reference");
    assert!(status.success());
    let text =
        std::fs::read_to_string(reference.join("games-shard-0-of-3.jsonl")).expect("records");
    let expected: BTreeMap<(u64, u64), serde_json::Value> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("record");
            let key = (
                v["pair"].as_u64().expect("pair"),
                v["game"].as_u64().expect("game"),
            );
            (key, without_clocks(v))
        })
        .collect();
    assert_eq!(engines.len(), 2 * pairs as usize);
    assert!(
        engines == expected,
        "the engines' games differ from the uninterrupted run"
    );
    let summary = |dir: &Path, file: &str| -> serde_json::Value {
        let t = std::fs::read_to_string(dir.join(file)).expect("summary");
        let v: serde_json::Value = serde_json::from_str(&t).expect("json");
        v["matchups"][0].clone()
    };
    let soaked = summary(&out, "summary.json");
    let alone = summary(&reference, "summary-shard-0-of-3.json");
    assert!(!soaked.is_null(), "no matchups in the summary");
    assert_eq!(soaked, alone, "the engines' statistics differ");

    // No process the run started is left.
    std::thread::sleep(Duration::from_millis(500));
    let mut left = tagged(&arenas);
    left.extend(mentioning(&format!("wuzi-soak-{token}")));
    left.extend(mentioning(&script.display().to_string()));
    left.sort_unstable();
    left.dedup();

    let mut faults = BTreeMap::new();
    for f in std::fs::read_to_string(tmp.join("faults"))
        .unwrap_or_default()
        .lines()
    {
        *faults.entry(f.to_string()).or_insert(0) += 1;
    }
    for p in &left {
        // SAFETY: signals what the soak's own brains left, so a failure leaves nothing behind.
        unsafe {
            libc::kill(*p, libc::SIGKILL);
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Soak {
        games: keys.len(),
        planned,
        faults,
        kills: 2,
        sessions,
        left,
        elapsed: began.elapsed(),
    }
}

/// A record without its clock readings (`ms` of each move, `time_ms`) and player notes.
fn without_clocks(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("time_ms");
    }
    if let Some(moves) = v["moves"].as_array_mut() {
        for m in moves {
            if let Some(o) = m.as_object_mut() {
                o.remove("ms");
            }
        }
    }
    v
}

/// Prints the figures and checks them.
fn check(s: &Soak) {
    let total: usize = s.faults.values().sum();
    println!(
        "soak: {} of {} games recorded once each, {} kills and resumes, {:.0} s",
        s.games,
        s.planned,
        s.kills,
        s.elapsed.as_secs_f64()
    );
    println!("faults injected ({total}): {:?}", s.faults);
    println!("session | at | games | fds | threads | RSS MB | brain processes");
    for (i, session) in s.sessions.iter().enumerate() {
        for (at, x) in ["start", "middle", "end"].iter().zip(session) {
            println!(
                "{} | {at} | {} | {} | {} | {:.1} | {}",
                i + 1,
                x.games,
                x.fds,
                x.threads,
                x.rss_kb as f64 / 1024.0,
                x.brains
            );
        }
    }
    println!("processes left: {}", s.left.len());
    assert!(s.left.is_empty(), "processes left: {:?}", s.left);
    for kind in ["crash", "hang", "exit", "close-stdout", "fork", "setsid"] {
        assert!(
            s.faults.contains_key(kind),
            "no {kind} fault: {:?}",
            s.faults
        );
    }
    // Flat: the last session's end against its start (a leak per game would grow with them).
    let [start, _, end] = &s.sessions[2];
    assert!(
        end.fds <= start.fds + 16,
        "descriptors grew: {start:?} -> {end:?}"
    );
    assert!(
        end.threads <= start.threads + 16,
        "threads grew: {start:?} -> {end:?}"
    );
    assert!(
        end.rss_kb <= start.rss_kb * 2 + 64 * 1024,
        "memory grew: {start:?} -> {end:?}"
    );
}

/// The CI twin: 300 games, two SIGKILLs and resumes.
#[test]
fn soak_twin() {
    check(&soak(50, "twin"));
}

/// The full soak (see the file's documentation).
#[test]
#[ignore = "the full soak: 10,002 games, run by hand in release"]
fn soak_full() {
    let pairs = std::env::var("WUZI_SOAK_PAIRS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1667);
    check(&soak(pairs, "full"));
}
