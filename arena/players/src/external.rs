//! External Gomocup brains as players: any `pbrain-*` program (our `pbrain-wuzi` with other
//! parameters or from another build, or a third-party engine) run as a child process.
//!
//! # Spec
//!
//! `--player 'name=rapfi,cmd=./pbrain-rapfi,arg=--flag,dir=work/rapfi,move-ms=1000'`:
//! `cmd=PATH` is the program (a bare name is looked up in `PATH`), `arg=TEXT` one command-line
//! argument (repeatable, in order; a spec item cannot contain a comma), `dir=PATH` the brain's
//! working folder (created if missing, kept afterwards; default: a fresh temporary folder per
//! player instance, removed when the player is dropped). Without `name=` the player is named
//! after the brain's `ABOUT` answer (`name="..."`), else after the program's file name. A
//! brain named in a registry file needs none of this: `--player rapfi` ([`crate::registry`]).
//!
//! Limits: `move-ms=N` (sent as `INFO timeout_turn`) and/or `tc=GAME_MS+INC_MS`
//! (`INFO timeout_match`, and `INFO time_left` before every move, the referee's clock with
//! the increments it added); `nodes=N` and `depth=N` are sent as the Yixin-Board extensions
//! `INFO max_node` and `INFO max_depth` (Rapfi and `pbrain-wuzi` honour them; with either and
//! no time limit the brain still gets `timeout_turn` [`DEFAULT_TURN_MS`] as a safety). The
//! run-wide `--nodes`/`--depth` are not applied to external players: only a spec's own.
//! `threads=` becomes `INFO thread_num`, `hash-mb=` `INFO max_memory` (the hash plus what
//! `pbrain-wuzi` keeps aside, so a `pbrain-wuzi` brain gets exactly that hash). Every record
//! says which limits the brain was given (`given`: the limit `INFO` lines). Engine options go
//! on its command line: for `pbrain-wuzi`, `arg=--params=FILE.toml` or `arg=--set=defence=60`.
//!
//! Protocol options ([`BrainOptions`]): `settle-ms=N` (default [`DEFAULT_SETTLE_MS`]),
//! `setup=board|turn`, `start-ms=N` (default [`DEFAULT_START_MS`]), `end-ms=N` (default
//! [`DEFAULT_END_MS`]) and `info=KEY VALUE` (repeatable, an extra `INFO` line per game; one
//! with a key the arena sends replaces the arena's line, e.g. `info=timeout_match 1000000000`
//! for a brain that cannot take the protocol's 0 for "no limit").
//!
//! # Protocol
//!
//! Per game: `START n` or `RESTART` when the process is alive, played the previous game
//! cleanly and the board size is the same (a brain that does not answer `RESTART` with `OK`
//! is killed and started afresh). A brain that answers `START` with `ERROR` (or anything it
//! says instead of `OK` that is an `ERROR`/`UNKNOWN`) loses the game as a crash; one that
//! says nothing within `start-ms` plays on, with a note in the record. Then `INFO`
//! `timeout_turn`, `timeout_match`, `max_memory`, `game_type 1`, `rule` (0 freestyle,
//! 1 standard, 4 renju), `thread_num`, `max_node`/`max_depth` when given, the extra `info=`
//! lines and `folder` (the working folder). Per move: `BEGIN` on the empty board, `TURN x,y`
//! with the opponent's reply, and for a game from an opening (or whenever the brain's view is
//! out of step) a set-up: `BOARD` with every stone in play order (1 own, 2 opponent) then
//! `DONE`, or with `setup=turn` each stone as `TURN x,y` with the brain's answer to each but
//! the last taken back (`TAKEBACK x,y`). The set-up is not charged to the brain's clock.
//!
//! **Pacing.** No command is sent sooner than the settle gap after the brain's last output
//! (some brains half-read a command that arrives just after their move); the wait is not
//! charged to either clock. A brain that keeps talking is sent its command anyway after the
//! gap plus [`SETTLE_CAP_MS`].
//!
//! **Tolerance.** Replies are read on a separate thread, so a hung brain cannot block the
//! arena, and CRLF line ends are fine. While the arena waits for a move, only `x,y` on the
//! board counts: `MESSAGE` lines are skipped (the last one is kept:
//! [`ExternalPlayer::last_message`]; `pbrain-wuzi`'s `depth`, `score` and `nodes` are read
//! from it into the move's record), `DEBUG`, `OK` and blank lines are skipped, and every other
//! line (`ERROR`, `UNKNOWN`, debug output, text with control bytes, a banner printed before
//! `START`) is kept in the game record's notes (at most [`MAX_NOTES`] per game and player) and
//! skipped. Two numbers `x,y` off the board lose as `illegal`, and an occupied point is left to
//! the referee (also `illegal`). No move within the time limit plus a grace
//! ([`DEFAULT_GRACE_MS`]) loses on time, the detail saying what the brain sent instead; a brain
//! that exits or closes its output loses as `crash`. After any such failure the process is
//! killed, and the next game starts a new one in the same working folder, so a run goes on.
//! Dropping the player sends `END` in the background and kills the brain if it has not exited
//! after `end-ms`; games go on meanwhile, and only the end of a run waits for these exits
//! ([`wait_for_exits`]). A brain runs in its own process group and is killed with the whole
//! group, so a wrapper script that does not `exec` its engine leaves nothing running.
//!
//! The brain's standard error goes to `stderr.log` in its working folder; the last line of it
//! is quoted when a brain crashes. A brain that reads files relative to its working folder
//! (weights, configuration) needs `dir=` set to its own folder.

mod options;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use wuzi_engine::protocol::{BASE_MEMORY_MB, THREAD_MEMORY_MB};
use wuzi_engine::{Pos, Rule};

pub use options::{BrainOptions, SetupMode, DEFAULT_END_MS, DEFAULT_SETTLE_MS, DEFAULT_START_MS};

use crate::limits::PlayerLimits;
use crate::player::{GameStart, MoveReply, MoveRequest, Player, PlayerError, PlayerReport};

/// Longest wait for the answer to `ABOUT`, in milliseconds.
pub const START_TIMEOUT_MS: u64 = 10_000;
/// Time allowed beyond a move's limit before the brain is given up and killed, in ms. The
/// referee's own margin (`--time-margin-ms`) decides whether a late answer loses on time.
pub const DEFAULT_GRACE_MS: u64 = 1_000;
/// `timeout_turn` when the limits give no time at all (the piskvork default), in ms.
pub const DEFAULT_TURN_MS: u64 = 30_000;
/// Longest extra wait for a brain that keeps talking, beyond the settle gap, in ms.
pub const SETTLE_CAP_MS: u64 = 1_000;
/// Wait for the `OK` to a `TAKEBACK` during a `setup=turn` set-up, in ms (some brains do
/// not answer it at all).
pub const TAKEBACK_WAIT_MS: u64 = 300;
/// Notes (noise lines and protocol events) kept per game and player; more are counted.
pub const MAX_NOTES: usize = 20;
/// The brain's standard error log, in its working folder.
pub const STDERR_LOG: &str = "stderr.log";
/// Longest line kept from a brain; the rest of a longer line is discarded.
const MAX_LINE: usize = 64 * 1024;
/// Lines buffered between the reader thread and the player.
const LINE_QUEUE: usize = 1024;
/// Longest piece of a brain's answer quoted in a loss's detail.
const QUOTE: usize = 120;

/// The Gomocup `INFO rule` value of a rule: 0 freestyle, 1 standard, 4 renju.
pub fn rule_bits(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// The `INFO max_memory` value (bytes) for `hash_mb` MB of hash with `threads` threads: the
/// hash plus the memory `pbrain-wuzi` keeps aside, so that brain uses exactly `hash_mb`.
pub fn max_memory_bytes(hash_mb: usize, threads: usize) -> u64 {
    let mb = hash_mb + BASE_MEMORY_MB + THREAD_MEMORY_MB * threads.max(1);
    mb as u64 * 1024 * 1024
}

/// Parses an `ABOUT` answer, `name="wuzi", version="1.0", author="..."`, into its keys (lower
/// case) and values. Anything that is not `key="value"` or `key=value` is skipped.
pub fn parse_about(line: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = line.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq]
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = rest[eq + 1..].trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(',') {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        if !key.is_empty() && !key.contains(char::is_whitespace) {
            out.insert(key, value.trim().to_string());
        }
        rest = next.trim_start().trim_start_matches(',');
    }
    out
}

/// The program a `cmd=` names: a path (with a separator) that must be a file, or a bare name
/// found in `PATH`. `None` when there is no such file.
pub fn resolve_program(program: &str) -> Option<PathBuf> {
    if program.is_empty() {
        return None;
    }
    let path = Path::new(program);
    if program.contains('/') || program.contains(std::path::MAIN_SEPARATOR) {
        return path.is_file().then(|| path.to_path_buf());
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Asks a brain its `ABOUT` line: starts `program` with `args` (in `workdir`, or a temporary
/// folder), sends `ABOUT`, waits at most [`START_TIMEOUT_MS`] for a line with `name=` (other
/// lines, a banner for example, are skipped) and ends the process.
pub fn query_about(
    program: &str,
    args: &[String],
    workdir: Option<&Path>,
) -> Result<BTreeMap<String, String>, String> {
    let mut player = ExternalPlayer::new("about", program, args, workdir, PlayerLimits::default())
        .with_options(BrainOptions {
            settle_ms: Some(0),
            end_ms: Some(200),
            ..BrainOptions::default()
        });
    let process = player.spawn().map_err(|e| e.to_string())?;
    process.send("ABOUT")?;
    let deadline = deadline_in(START_TIMEOUT_MS);
    loop {
        match process.next_line(deadline) {
            Ok(line) => {
                let about = parse_about(&line);
                if about.contains_key("name") {
                    return Ok(about);
                }
            }
            Err(Wait::Timeout) => {
                return Err(format!("no answer to ABOUT within {START_TIMEOUT_MS} ms"))
            }
            Err(Wait::Closed) => {
                return Err(format!("exited after ABOUT: {}", process.exit_note()))
            }
        }
    }
}

/// Distinguishes the two ways a wait for a line ends without one.
enum Wait {
    /// The deadline passed.
    Timeout,
    /// The brain closed its output (it exited or crashed).
    Closed,
}

/// Pending background stops of brains (see [`wait_for_exits`]).
static REAPERS: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Process ids (= process group ids) of the brains started and not yet killed, for
/// [`kill_all`].
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills every brain still running, with everything it started (its process group): for a
/// program that must exit at once (a second Ctrl-C, see `wuzi_runs::interrupt`) without
/// leaving brains behind.
pub fn kill_all() {
    let live = match LIVE.lock() {
        Ok(mut l) => std::mem::take(&mut *l),
        Err(e) => std::mem::take(&mut *e.into_inner()),
    };
    for pid in live {
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(pid) {
            // SAFETY: as in `kill_group`: only that process group is signalled.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        #[cfg(not(unix))]
        let _ = pid;
    }
}

/// Waits until every brain sent `END` by a dropped player has exited or been killed after
/// its grace. Programs call it before they exit, so no brain outlives the arena.
pub fn wait_for_exits() {
    loop {
        let pending = match REAPERS.lock() {
            Ok(mut r) => std::mem::take(&mut *r),
            Err(_) => return,
        };
        if pending.is_empty() {
            return;
        }
        for handle in pending {
            let _ = handle.join();
        }
    }
}

/// A running brain: the child, its input, and its output lines from the reader thread.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<PathBuf>,
    /// The board size of the last `START` the brain accepted.
    size: Option<usize>,
    /// When the process started.
    born: Instant,
    /// Milliseconds from `born` to the brain's last output line (set by the reader thread).
    last_output: Arc<AtomicU64>,
    /// The settle gap.
    settle: Duration,
    /// Set once the process group has been killed and the brain reaped.
    killed: bool,
}

impl Process {
    fn spawn(program: &Path, args: &[String], dir: &Path, settle_ms: u64) -> io::Result<Process> {
        let log = dir.join(STDERR_LOG);
        let (stderr, log) = match File::options().create(true).append(true).open(&log) {
            Ok(f) => (Stdio::from(f), Some(log)),
            Err(_) => (Stdio::null(), None),
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        // Its own process group, so that killing the brain also ends what it started: a
        // wrapper script that runs the engine without `exec` would otherwise leave the
        // engine running (and searching) after every kill.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let born = Instant::now();
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(io::Error::other("no pipes to the child"));
            }
        };
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        let last_output = Arc::new(AtomicU64::new(0));
        let stamp = Arc::clone(&last_output);
        let reader = std::thread::Builder::new()
            .name("brain-reader".into())
            .spawn(move || read_lines(stdout, tx, born, stamp));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        if let Ok(mut live) = LIVE.lock() {
            live.push(child.id());
        }
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines,
            log,
            size: None,
            born,
            last_output,
            settle: Duration::from_millis(settle_ms),
            killed: false,
        })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until the brain has been silent for the settle gap (at most the gap plus
    /// [`SETTLE_CAP_MS`] in all); returns the ms waited.
    fn settle(&self) -> u64 {
        if self.settle.is_zero() {
            return 0;
        }
        let start = Instant::now();
        let cap = start + self.settle + Duration::from_millis(SETTLE_CAP_MS);
        loop {
            let last = self.born + Duration::from_millis(self.last_output.load(Ordering::Acquire));
            let ready = (last + self.settle).min(cap);
            let now = Instant::now();
            if now >= ready {
                break;
            }
            std::thread::sleep(ready - now);
        }
        start.elapsed().as_millis() as u64
    }

    /// Waits for the settle gap, then writes `text` (one or more lines, without the final
    /// newline) and flushes. Returns the ms spent settling; the error says why the brain
    /// stopped listening.
    fn send(&mut self, text: &str) -> Result<u64, String> {
        let waited = self.settle();
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{text}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::Error::other("input closed")),
        };
        written.map(|()| waited).map_err(|e| {
            let what = text.lines().last().unwrap_or_default();
            format!("{} (writing {what}: {e})", self.exit_note())
        })
    }

    /// The next output line, trimmed (CR included), before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Wait> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line.trim().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
        }
    }

    /// Why the brain stopped talking: its exit status (waiting briefly for it) and the last
    /// line of its standard error.
    fn exit_note(&mut self) -> String {
        let mut note = match wait_exit(&mut self.child, Duration::from_millis(200)) {
            Some(status) => format!("the brain exited ({status})"),
            None => "the brain closed its output".to_string(),
        };
        if let Some(tail) = self.log.as_deref().and_then(last_log_line) {
            note.push_str(&format!("; stderr: {tail}"));
        }
        note
    }

    /// Asks the brain to exit (`END`, after the settle gap), then kills it if it has not
    /// after `grace_ms`.
    fn stop(&mut self, grace_ms: u64) {
        if self.stdin.is_some() {
            let _ = self.send("END");
        }
        self.stdin = None;
        // Killed also after a clean exit: what the brain started must not outlive it.
        let _ = wait_exit(&mut self.child, Duration::from_millis(grace_ms));
        self.kill();
    }

    /// [`Process::stop`] on a background thread, so a brain slow to exit does not hold up
    /// the run. If no thread can be started the brain is killed at once (dropped with the
    /// closure).
    fn stop_in_background(self, grace_ms: u64) {
        let mut process = self;
        let spawned = std::thread::Builder::new()
            .name("brain-stop".into())
            .spawn(move || process.stop(grace_ms));
        if let Ok(handle) = spawned {
            match REAPERS.lock() {
                Ok(mut r) => r.push(handle),
                Err(_) => {
                    let _ = handle.join();
                }
            }
        }
    }

    /// Kills the brain and everything it started (its process group), and reaps it.
    fn kill(&mut self) {
        self.stdin = None;
        if self.killed {
            return;
        }
        self.killed = true;
        let pid = self.child.id();
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&p| p != pid);
        }
        kill_group(&self.child);
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends SIGKILL to the brain's process group (the brain is its leader, see
/// [`Process::spawn`]): children a brain left behind die with it, also after the brain itself
/// exited. Without Unix process groups only the brain itself is killed.
fn kill_group(child: &Child) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid only signals that process group; an empty or
        // vanished group gives ESRCH, which is ignored.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// The instant `ms` milliseconds from now (capped at a day, so no limit can overflow).
fn deadline_in(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms.min(24 * 3600 * 1000))
}

/// Polls for the child's exit for at most `wait`.
fn wait_exit(child: &mut Child, wait: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + wait;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// The last non-empty line of a log file (at most [`QUOTE`] characters of it).
fn last_log_line(path: &Path) -> Option<String> {
    let mut file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(4096);
    io::Seek::seek(&mut file, io::SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(4096).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty())?;
    Some(quote(line))
}

/// At most [`QUOTE`] characters of `text` (control characters escaped), with `...` when cut.
fn quote(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == QUOTE {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The reader thread: sends each output line (lossily decoded, cut at [`MAX_LINE`] bytes,
/// CR/LF removed) until the output closes or the player is gone, and stamps the time of the
/// last line (ms since `born`) into `stamp` for the settle gap.
fn read_lines(stdout: ChildStdout, tx: SyncSender<String>, born: Instant, stamp: Arc<AtomicU64>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_capped_line(&mut reader, &mut buf, MAX_LINE) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        stamp.store(born.elapsed().as_millis() as u64, Ordering::Release);
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        if tx.send(line).is_err() {
            break;
        }
    }
}

/// Reads one line into `buf`, keeping at most `cap` bytes of it. Returns the bytes consumed
/// (0 at the end of the input).
fn read_capped_line(r: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let (done, used) = {
            let available = match r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(total);
            }
            let (done, used) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, available.len()),
            };
            let room = cap.saturating_sub(buf.len());
            buf.extend_from_slice(&available[..used.min(room)]);
            (done, used)
        };
        r.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

/// Parses a move answer `x,y` on a `size` board.
fn parse_move(line: &str, size: usize) -> Result<Pos, String> {
    let not_a_move = || format!("'{}' is not a move", quote(line));
    let (x, y) = line.split_once(',').ok_or_else(not_a_move)?;
    let x: usize = x.trim().parse().map_err(|_| not_a_move())?;
    let y: usize = y.trim().parse().map_err(|_| not_a_move())?;
    if x >= size || y >= size {
        return Err(format!("{x},{y} is off the {size}x{size} board"));
    }
    Ok(Pos::new(x, y))
}

/// Depth, nodes and score from a `pbrain-wuzi`-style message
/// (`... score -226 ... depth 3-3 nodes 4096 ...`); `None` for what it does not say.
fn parse_stats(message: &str) -> (Option<i32>, Option<u64>, Option<i32>) {
    let words: Vec<&str> = message.split_whitespace().collect();
    let after = |key: &str| {
        words
            .windows(2)
            .find(|w| w[0].eq_ignore_ascii_case(key))
            .map(|w| w[1])
    };
    let depth = after("depth").and_then(|d| d.split('-').next()?.parse().ok());
    let nodes = after("nodes").and_then(|n| n.parse().ok());
    let score = after("score").and_then(|s| s.parse().ok());
    (depth, nodes, score)
}

/// What one output line of a brain is.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// Empty, `DEBUG ...` or `OK` while a move is awaited: skipped.
    Skip,
    /// `OK`.
    Ok,
    /// `MESSAGE text`.
    Message(String),
    /// `ERROR ...` or `UNKNOWN ...`.
    Refusal(String),
    /// `x,y` on the board.
    Move(Pos),
    /// Two numbers `x,y` that are off the board: an illegal move, not noise.
    OffBoard(String),
    /// Anything else: kept in the notes and skipped.
    Noise(String),
}

/// Classifies a (trimmed) output line for a `size` board.
fn classify(line: &str, size: usize) -> Line {
    if line.is_empty() {
        return Line::Skip;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    match word.to_ascii_uppercase().as_str() {
        "OK" if rest.is_empty() => return Line::Ok,
        "MESSAGE" => return Line::Message(rest.to_string()),
        "DEBUG" => return Line::Skip,
        "ERROR" | "UNKNOWN" => return Line::Refusal(line.to_string()),
        _ => {}
    }
    match parse_move(line, size) {
        Ok(p) => Line::Move(p),
        Err(e) if looks_like_move(line) => Line::OffBoard(e),
        Err(_) => Line::Noise(line.to_string()),
    }
}

/// The key of an `INFO KEY VALUE` line, lower case.
fn info_key(line: &str) -> String {
    line.split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// Two integers separated by a comma (a move, perhaps off the board).
fn looks_like_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        let int = |s: &str| {
            let s = s.trim();
            let s = s.strip_prefix('-').unwrap_or(s);
            !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
        };
        int(x) && int(y)
    })
}

/// Notes of one game for the record, capped at [`MAX_NOTES`].
#[derive(Default)]
struct Notes {
    kept: Vec<String>,
    dropped: u64,
}

impl Notes {
    fn push(&mut self, note: String) {
        if self.kept.len() < MAX_NOTES {
            self.kept.push(note);
        } else {
            self.dropped += 1;
        }
    }

    /// The notes, with a count of those not kept, and a fresh start.
    fn take(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.kept);
        if self.dropped > 0 {
            out.push(format!("... {} more not kept", self.dropped));
        }
        self.dropped = 0;
        out
    }
}

/// What the brain said while the arena waited for a move, besides the move.
#[derive(Default)]
struct Chatter {
    /// Lines kept as notes (noise and refusals).
    lines: u64,
    /// The last of them.
    last: Option<String>,
}

/// The end of a wait for `OK`.
enum OkWait {
    Ok,
    /// `ERROR`/`UNKNOWN` instead.
    Refused(String),
    Silent,
    Closed,
}

/// The brain's view of the current game.
struct GameState {
    size: usize,
    /// The stones on the brain's board in the order it got them (its own answers included).
    known: Vec<Pos>,
    /// Has the brain played a move this game (its answer is the last of `known`)?
    answered: bool,
}

/// Numbers the temporary working folders of this process.
static FOLDERS: AtomicU64 = AtomicU64::new(0);

/// An external Gomocup brain as a [`Player`] (see the [module documentation](self)).
pub struct ExternalPlayer {
    name: String,
    program: String,
    args: Vec<String>,
    workdir: Option<PathBuf>,
    limits: PlayerLimits,
    options: BrainOptions,
    grace_ms: u64,
    /// The temporary working folder this player made (removed on drop).
    own_dir: Option<PathBuf>,
    process: Option<Process>,
    game: Option<GameState>,
    last_message: Option<String>,
    /// This game's notes.
    notes: Notes,
    /// The limit `INFO` lines of this game.
    given: Option<String>,
    /// Time of the last `play` not charged to the clock (settle gaps, set-up), in ms.
    unclocked_ms: u64,
}

impl ExternalPlayer {
    /// A player that runs `program` with `args` in `workdir` (default: a temporary folder)
    /// under the limits of `limits`, with default [`BrainOptions`]. Nothing starts until the
    /// first game.
    pub fn new(
        name: &str,
        program: &str,
        args: &[String],
        workdir: Option<&Path>,
        limits: PlayerLimits,
    ) -> ExternalPlayer {
        ExternalPlayer {
            name: name.to_string(),
            program: program.to_string(),
            args: args.to_vec(),
            workdir: workdir.map(Path::to_path_buf),
            limits,
            options: BrainOptions::default(),
            grace_ms: DEFAULT_GRACE_MS,
            own_dir: None,
            process: None,
            game: None,
            last_message: None,
            notes: Notes::default(),
            given: None,
            unclocked_ms: 0,
        }
    }

    /// Talks to the brain with these protocol options (settle gap, set-up mode, waits).
    pub fn with_options(mut self, options: BrainOptions) -> ExternalPlayer {
        self.options = options;
        self
    }

    /// Waits `ms` beyond a move's limit before giving up on the brain (default
    /// [`DEFAULT_GRACE_MS`]).
    pub fn with_grace(mut self, ms: u64) -> ExternalPlayer {
        self.grace_ms = ms;
        self
    }

    /// The process id of the running brain, if one runs.
    pub fn process_id(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }

    /// The working folder: the one given, or the temporary one once the brain has started.
    pub fn working_folder(&self) -> Option<&Path> {
        self.workdir.as_deref().or(self.own_dir.as_deref())
    }

    /// The last `MESSAGE` text the brain sent (during the last move, or earlier).
    pub fn last_message(&self) -> Option<&str> {
        self.last_message.as_deref()
    }

    /// The working folder, made if needed, as an absolute path.
    fn folder(&mut self) -> io::Result<PathBuf> {
        let dir = match (&self.workdir, &self.own_dir) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => d.clone(),
            (None, None) => {
                let n = FOLDERS.fetch_add(1, Ordering::Relaxed);
                let d = std::env::temp_dir()
                    .join(format!("wuzi-arena-brain-{}-{n}", std::process::id()));
                let _ = std::fs::remove_dir_all(&d);
                std::fs::create_dir_all(&d)?;
                self.own_dir = Some(d.clone());
                d
            }
        };
        std::fs::create_dir_all(&dir)?;
        dir.canonicalize()
    }

    /// The program as the child should be started: a relative path with a separator is
    /// taken from the arena's folder, not the brain's.
    fn program_path(&self) -> PathBuf {
        let p = PathBuf::from(&self.program);
        let has_separator =
            self.program.contains('/') || self.program.contains(std::path::MAIN_SEPARATOR);
        if has_separator && p.is_relative() {
            if let Ok(cwd) = std::env::current_dir() {
                return cwd.join(p);
            }
        }
        p
    }

    /// Starts a new process (the old one, if any, is killed).
    fn spawn(&mut self) -> Result<&mut Process, PlayerError> {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        let dir = self
            .folder()
            .map_err(|e| PlayerError::Crash(format!("working folder: {e}")))?;
        let process = Process::spawn(
            &self.program_path(),
            &self.args,
            &dir,
            self.options.settle(),
        )
        .map_err(|e| PlayerError::Crash(format!("cannot start {}: {e}", self.program)))?;
        Ok(self.process.insert(process))
    }

    /// Kills the process, if any; the next game starts a new one.
    fn discard(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.game = None;
    }

    fn running(&mut self) -> Result<&mut Process, PlayerError> {
        self.process
            .as_mut()
            .ok_or_else(|| PlayerError::Crash("the brain is not running".into()))
    }

    /// Sends `command` and waits up to `wait_ms` for `OK`; other lines become notes.
    fn send_expect_ok(&mut self, command: &str, wait_ms: u64) -> Result<OkWait, PlayerError> {
        let size = self.game.as_ref().map_or(0, |g| g.size);
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerError::Crash("the brain is not running".into()))?;
        process.send(command).map_err(PlayerError::Crash)?;
        let deadline = deadline_in(wait_ms);
        loop {
            let line = match process.next_line(deadline) {
                Ok(line) => line,
                Err(Wait::Timeout) => return Ok(OkWait::Silent),
                Err(Wait::Closed) => return Ok(OkWait::Closed),
            };
            match classify(&line, size.max(1)) {
                Line::Ok => return Ok(OkWait::Ok),
                Line::Refusal(l) => return Ok(OkWait::Refused(l)),
                Line::Skip => {}
                Line::Message(m) => self.last_message = Some(m),
                Line::Move(_) | Line::OffBoard(_) | Line::Noise(_) => self
                    .notes
                    .push(format!("before OK to {command}: '{}'", quote(&line))),
            }
        }
    }

    /// The brain is running and has accepted `START size` or `RESTART` (or said nothing to
    /// `START`, noted).
    fn ready(&mut self, size: usize) -> Result<(), PlayerError> {
        let wait = self.options.start_wait();
        if self.process.as_ref().is_some_and(|p| p.size == Some(size)) {
            match self.send_expect_ok("RESTART", wait) {
                Ok(OkWait::Ok) => return Ok(()),
                Ok(OkWait::Refused(l)) => self
                    .notes
                    .push(format!("answered '{}' to RESTART; restarted", quote(&l))),
                Ok(OkWait::Silent) => self
                    .notes
                    .push(format!("no OK to RESTART within {wait} ms; restarted")),
                Ok(OkWait::Closed) | Err(_) => {}
            }
        }
        self.spawn()?;
        let command = format!("START {size}");
        match self.send_expect_ok(&command, wait)? {
            OkWait::Ok => Ok(()),
            OkWait::Silent => {
                self.notes
                    .push(format!("no OK to {command} within {wait} ms; played on"));
                Ok(())
            }
            OkWait::Refused(l) => Err(PlayerError::Crash(format!(
                "answered '{}' to {command}",
                quote(&l)
            ))),
            OkWait::Closed => {
                let note = self.running()?.exit_note();
                Err(PlayerError::Crash(format!("{note} after {command}")))
            }
        }
    }

    /// The limit `INFO` lines of a game (also the record's `given`).
    fn limit_info(&self) -> Vec<String> {
        let l = &self.limits;
        let turn = l.move_ms.or(l.game_ms).unwrap_or(DEFAULT_TURN_MS);
        let mut info = vec![
            format!("INFO timeout_turn {turn}"),
            format!("INFO timeout_match {}", l.game_ms.unwrap_or(0)),
        ];
        if let Some(n) = l.nodes {
            info.push(format!("INFO max_node {n}"));
        }
        if let Some(d) = l.depth {
            info.push(format!("INFO max_depth {d}"));
        }
        self.overridden(info)
    }

    /// `lines` with each `INFO` line whose key is also in the `info=` option replaced by the
    /// option's line (e.g. `timeout_match 1000000000` for a brain that cannot take 0).
    fn overridden(&self, lines: Vec<String>) -> Vec<String> {
        lines
            .into_iter()
            .map(|line| {
                let key = info_key(&line);
                self.options
                    .info
                    .iter()
                    .find(|i| info_key(&format!("INFO {i}")) == key)
                    .map_or(line, |i| format!("INFO {}", i.trim()))
            })
            .collect()
    }

    /// The `INFO` lines sent at the start of a game.
    fn game_info(&self, start: &GameStart, folder: Option<&Path>) -> Vec<String> {
        let l = &self.limits;
        let mut info = self.limit_info();
        info.extend(self.overridden(vec![
            format!("INFO max_memory {}", max_memory_bytes(l.hash_mb, l.threads)),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", rule_bits(start.rule)),
            format!("INFO thread_num {}", l.threads.max(1)),
        ]));
        let keys: Vec<String> = info.iter().map(|i| info_key(i)).collect();
        info.extend(
            self.options
                .info
                .iter()
                .map(|i| format!("INFO {}", i.trim()))
                .filter(|i| !keys.contains(&info_key(i))),
        );
        if let Some(f) = folder {
            info.push(format!("INFO folder {}", f.display()));
        }
        info
    }

    fn start_game(&mut self, start: &GameStart) -> Result<(), PlayerError> {
        self.game = Some(GameState {
            size: start.size,
            known: Vec::new(),
            answered: false,
        });
        self.ready(start.size)?;
        let folder = self.folder().ok();
        let info = self.game_info(start, folder.as_deref()).join("\n");
        self.given = Some(self.limit_info().join("; "));
        let process = self.running()?;
        process.size = Some(start.size);
        process.send(&info).map_err(PlayerError::Crash)?;
        Ok(())
    }

    /// The time the brain has for this move, in ms.
    fn move_limit(&self, request: &MoveRequest<'_>) -> u64 {
        let l = &self.limits;
        let clock = l
            .game_ms
            .map(|g| request.clock.map_or(g, |c| c.time_left_ms));
        match (l.move_ms, clock) {
            (Some(t), Some(c)) => t.min(c),
            (Some(t), None) => t,
            (None, Some(c)) => c,
            (None, None) => DEFAULT_TURN_MS,
        }
    }

    /// Sends `command` (its last line names it in messages, `BOARD` for a set-up) and waits
    /// for a move within `limit` plus the grace; the move and the last `MESSAGE` sent with
    /// it. The settle wait before it goes to `unclocked_ms`.
    fn ask_move(
        &mut self,
        command: &str,
        limit: u64,
    ) -> Result<(Pos, Option<String>), PlayerError> {
        let name = command.lines().last().unwrap_or("").to_string();
        let name = if command.contains("BOARD") {
            "BOARD".to_string()
        } else {
            name
        };
        let size = self.game.as_ref().map_or(0, |g| g.size);
        let grace = self.grace_ms;
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerError::Crash("the brain is not running".into()))?;
        let waited = process.send(command).map_err(PlayerError::Crash)?;
        self.unclocked_ms += waited;
        let deadline = deadline_in(limit.saturating_add(grace));
        let mut chatter = Chatter::default();
        let mut message: Option<String> = None;
        loop {
            let line = match process.next_line(deadline) {
                Ok(line) => line,
                Err(Wait::Timeout) => {
                    let mut detail = format!(
                        "no answer to {name} within {limit}+{grace} ms; the brain was killed"
                    );
                    if let Some(last) = &chatter.last {
                        detail.push_str(&format!(
                            " (it sent {} other line(s) instead, the last '{last}')",
                            chatter.lines
                        ));
                    }
                    if let Some(m) = &message {
                        detail.push_str(&format!("; its last MESSAGE: '{}'", quote(m)));
                    }
                    return Err(PlayerError::Timeout(detail));
                }
                Err(Wait::Closed) => {
                    return Err(PlayerError::Crash(format!(
                        "{} during {name}",
                        process.exit_note()
                    )))
                }
            };
            match classify(&line, size) {
                Line::Move(mv) => {
                    if message.is_some() {
                        self.last_message.clone_from(&message);
                    }
                    return Ok((mv, message));
                }
                Line::OffBoard(e) => {
                    return Err(PlayerError::Illegal(format!("{e} (answer to {name})")))
                }
                Line::Skip | Line::Ok => {}
                Line::Message(m) => message = Some(m),
                Line::Refusal(l) | Line::Noise(l) => {
                    let q = quote(&l);
                    self.notes.push(format!("answer to {name}: '{q}'"));
                    chatter.lines += 1;
                    chatter.last = Some(q);
                }
            }
        }
    }

    /// Sends `TAKEBACK x,y` and waits briefly for its `OK`.
    fn take_back(&mut self, p: Pos) -> Result<(), PlayerError> {
        let command = format!("TAKEBACK {},{}", p.x(), p.y());
        match self.send_expect_ok(&command, TAKEBACK_WAIT_MS)? {
            OkWait::Ok | OkWait::Silent => Ok(()),
            OkWait::Refused(l) => Err(PlayerError::Crash(format!(
                "answered '{}' to {command} (setup=turn)",
                quote(&l)
            ))),
            OkWait::Closed => {
                let note = self.running()?.exit_note();
                Err(PlayerError::Crash(format!("{note} after {command}")))
            }
        }
    }

    /// `setup=turn`: brings the brain's board to `history[..n-1]` with `TAKEBACK`s and
    /// `TURN`s (each answer taken back), leaving the last stone for the clocked `TURN`.
    /// Returns the ms it took.
    fn set_up_with_turns(&mut self, history: &[Pos], limit: u64) -> Result<u64, PlayerError> {
        let t0 = Instant::now();
        let known = self
            .game
            .as_ref()
            .map(|g| g.known.clone())
            .unwrap_or_default();
        let n = history.len();
        let mut common = known
            .iter()
            .zip(history)
            .take_while(|(a, b)| a == b)
            .count();
        common = common.min(n.saturating_sub(1));
        for &p in known[common..].iter().rev() {
            self.take_back(p)?;
        }
        for &p in &history[common..n.saturating_sub(1)] {
            let command = format!("TURN {},{}", p.x(), p.y());
            let (answer, _) = self.ask_move(&command, limit)?;
            self.take_back(answer)?;
        }
        Ok(t0.elapsed().as_millis() as u64)
    }

    fn play_move(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, PlayerError> {
        let played = request.board.history();
        let history: Vec<Pos> = played.iter().map(|r| r.pos).collect();
        let own = request.board.side_to_move();
        let limit = self.move_limit(request);
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| PlayerError::Crash("no game started".into()))?;
        let n = history.len();
        let k = game.known.len();
        let in_step = game.answered && k + 1 == n && history[..k] == game.known[..];
        let mut text = String::new();
        if let Some(game_ms) = self.limits.game_ms {
            let left = request.clock.map_or(game_ms, |c| c.time_left_ms);
            text.push_str(&format!("INFO time_left {left}\n"));
        }
        let command = if n == 0 {
            "BEGIN".to_string()
        } else if in_step || self.options.setup == SetupMode::Turn {
            if !in_step {
                let setup_ms = self.set_up_with_turns(&history, limit)?;
                self.unclocked_ms += setup_ms;
            }
            let p = history[n - 1];
            format!("TURN {},{}", p.x(), p.y())
        } else {
            let mut block = String::from("BOARD\n");
            for r in played {
                let who = if r.stone == own { 1 } else { 2 };
                block.push_str(&format!("{},{},{who}\n", r.pos.x(), r.pos.y()));
            }
            block.push_str("DONE");
            block
        };
        text.push_str(&command);
        let (mv, message) = self.ask_move(&text, limit)?;
        let (depth, nodes, score) = message.as_deref().map(parse_stats).unwrap_or_default();
        if let Some(g) = self.game.as_mut() {
            g.known = history;
            g.known.push(mv);
            g.answered = true;
        }
        Ok(MoveReply {
            mv: Some(mv),
            nodes,
            depth,
            score,
        })
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), PlayerError> {
        self.game = None;
        self.notes = Notes::default();
        self.given = None;
        let result = self.start_game(start);
        if result.is_err() {
            self.discard();
        }
        result
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, PlayerError> {
        self.unclocked_ms = 0;
        let result = self.play_move(request);
        if result.is_err() {
            // Its state is unknown (and a late answer would be read as the next one).
            self.discard();
        }
        result
    }

    fn unclocked_ms(&self) -> u64 {
        self.unclocked_ms
    }

    fn end_game(&mut self) {
        self.game = None;
    }

    fn report(&mut self) -> PlayerReport {
        PlayerReport {
            given: self.given.clone(),
            notes: self.notes.take(),
        }
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.stop_in_background(self.options.end_grace());
        }
        if let Some(d) = self.own_dir.take() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_lines_parse() {
        let a = parse_about(
            r#"name="wuzi", version="0.1.0", author="wuzi developers", country="China""#,
        );
        assert_eq!(a.get("name").map(String::as_str), Some("wuzi"));
        assert_eq!(a.get("author").map(String::as_str), Some("wuzi developers"));
        assert_eq!(a.len(), 4);
        let a = parse_about("name=Rapfi, version = 2 ,www=\"a, b\"");
        assert_eq!(a.get("name").map(String::as_str), Some("Rapfi"));
        assert_eq!(a.get("version").map(String::as_str), Some("2"));
        assert_eq!(a.get("www").map(String::as_str), Some("a, b"));
        assert!(parse_about("garbage without equals").is_empty());
        assert!(parse_about("=\"x\"").is_empty());
        let _ = parse_about("name=\"unterminated");
    }

    #[test]
    fn moves_parse_and_bad_answers_are_errors() {
        assert_eq!(parse_move("7,7", 15), Ok(Pos::new(7, 7)));
        assert_eq!(parse_move(" 14 , 0 ", 15), Ok(Pos::new(14, 0)));
        assert!(parse_move("15,0", 15)
            .unwrap_err()
            .contains("off the 15x15"));
        assert!(parse_move("99999999999999999999,1", 15).is_err());
        assert!(parse_move("hello", 15).unwrap_err().contains("not a move"));
        assert!(parse_move("UNKNOWN BEGIN", 15).is_err());
        assert!(parse_move("-1,3", 15).is_err());
        let long = "x".repeat(1000);
        assert!(parse_move(&long, 15).unwrap_err().len() < 200);
    }

    #[test]
    fn stats_come_from_pbrain_messages() {
        let m = "best j8 score -226 (search) depth 3-3 nodes 4096 speed 215k/s time 19ms pv j8";
        assert_eq!(parse_stats(m), (Some(3), Some(4096), Some(-226)));
        assert_eq!(parse_stats("depth 5-9 score win7"), (Some(5), None, None));
        assert_eq!(parse_stats("hello"), (None, None, None));
        assert_eq!(parse_stats("nodes"), (None, None, None));
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_skipped() {
        let data = format!("{}\nOK\r\nlast", "a".repeat(100));
        let mut r = BufReader::with_capacity(16, data.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_capped_line(&mut r, &mut buf, 10).expect("reads"), 101);
        assert_eq!(buf, b"aaaaaaaaaa");
        buf.clear();
        assert_eq!(read_capped_line(&mut r, &mut buf, 10).expect("reads"), 4);
        assert_eq!(buf, b"OK\r\n");
        buf.clear();
        assert_eq!(read_capped_line(&mut r, &mut buf, 10).expect("reads"), 4);
        assert_eq!(buf, b"last");
        buf.clear();
        assert_eq!(read_capped_line(&mut r, &mut buf, 10).expect("reads"), 0);
    }

    #[test]
    fn info_values() {
        assert_eq!(
            [Rule::Freestyle, Rule::Standard, Rule::Renju].map(rule_bits),
            [0, 1, 4]
        );
        // pbrain-wuzi keeps BASE + THREAD * threads aside, so it gets exactly the hash.
        let bytes = max_memory_bytes(16, 2);
        assert_eq!(
            wuzi_engine::protocol::hash_for_memory(bytes, None, 2),
            16,
            "{bytes}"
        );
        assert_eq!(quote(&"é".repeat(300)).chars().count(), QUOTE + 3);
        assert_eq!(quote("a\u{1b}[2Jb\u{0}"), "a\\u{1b}[2Jb\\u{0}");
        assert!(deadline_in(u64::MAX) > Instant::now());
    }

    #[test]
    fn missing_programs_are_not_resolved() {
        assert!(resolve_program("").is_none());
        assert!(resolve_program("/nonexistent/pbrain-x").is_none());
        assert!(resolve_program("pbrain-surely-not-installed-anywhere").is_none());
    }
}
