//! The brain as a child process: starting it in its own process group with its standard error
//! in a log, the reader thread that hands its output lines over, the settle gap before each
//! command, stopping and killing it (in the background too), and the registry of live brains
//! behind [`kill_all`] and [`wait_for_exits`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::containment;
use super::protocol::quote;
use super::transcript::{self, Shared};

/// Longest extra wait for a brain that keeps talking, beyond the settle gap, in ms.
pub const SETTLE_CAP_MS: u64 = 1_000;

/// The brain's standard error log, in its working folder.
pub const STDERR_LOG: &str = "stderr.log";
/// Longest line kept from a brain; the rest of a longer line is discarded.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines buffered between the reader thread and the player.
const LINE_QUEUE: usize = 1024;

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

/// Distinguishes the two ways a wait for a line ends without one.
pub(super) enum Wait {
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
    containment::kill_tagged();
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
        containment::end_orphans();
    }
}

/// A running brain: the child, its input, and its output lines from the reader thread.
pub(super) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<PathBuf>,
    /// The board size of the last `START` the brain accepted.
    pub(super) size: Option<usize>,
    /// When the process started.
    born: Instant,
    /// Milliseconds from `born` to the brain's last output line (set by the reader thread).
    last_output: Arc<AtomicU64>,
    /// The settle gap.
    settle: Duration,
    /// Set once the process group has been killed and the brain reaped.
    killed: bool,
    /// The brain's tag, inherited by all it starts (see [`containment`]).
    tag: String,
    /// The player's transcript: what is sent is recorded here, what is read by the reader
    /// thread.
    transcript: Shared,
}

impl Process {
    pub(super) fn spawn(
        program: &Path,
        args: &[String],
        dir: &Path,
        settle_ms: u64,
        transcript: Shared,
    ) -> io::Result<Process> {
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
        let tag = containment::new_tag();
        let mut child = containment::spawn(command, &tag)?;
        let born = Instant::now();
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                containment::forget(child.id());
                return Err(io::Error::other("no pipes to the child"));
            }
        };
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        let last_output = Arc::new(AtomicU64::new(0));
        let stamp = Arc::clone(&last_output);
        let heard = Arc::clone(&transcript);
        let reader = std::thread::Builder::new()
            .name("brain-reader".into())
            .spawn(move || read_lines(stdout, tx, born, stamp, heard));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            containment::forget(child.id());
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
            tag,
            transcript,
        })
    }

    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until the brain has been silent for the settle gap (at most the gap plus
    /// [`SETTLE_CAP_MS`] in all); returns the ms waited.
    pub(super) fn settle(&self) -> u64 {
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
    pub(super) fn send(&mut self, text: &str) -> Result<u64, String> {
        let waited = self.settle();
        transcript::record(&self.transcript, '>', text);
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
    pub(super) fn next_line(&mut self, deadline: Instant) -> Result<String, Wait> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line.trim().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
        }
    }

    /// Why the brain stopped talking: its exit status (waiting briefly for it) and the last
    /// line of its standard error.
    pub(super) fn exit_note(&mut self) -> String {
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
    pub(super) fn stop(&mut self, grace_ms: u64) {
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
    pub(super) fn stop_in_background(self, grace_ms: u64) {
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
    pub(super) fn kill(&mut self) {
        self.stdin = None;
        if self.killed {
            return;
        }
        self.killed = true;
        let pid = self.child.id();
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&p| p != pid);
        }
        // Only a brain not yet reaped still owns its pid, and with it a tree to search.
        let running = matches!(self.child.try_wait(), Ok(None));
        containment::end_descendants(running.then_some(pid), &self.tag);
        kill_group(&self.child);
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        containment::forget(pid);
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
pub(super) fn deadline_in(ms: u64) -> Instant {
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

/// The reader thread: sends each output line (lossily decoded, cut at [`MAX_LINE`] bytes,
/// CR/LF removed) until the output closes or the player is gone, records it in the
/// transcript as it is read, and stamps the time of the last line (ms since `born`) into
/// `stamp` for the settle gap.
fn read_lines(
    stdout: ChildStdout,
    tx: SyncSender<String>,
    born: Instant,
    stamp: Arc<AtomicU64>,
    heard: Shared,
) {
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
        transcript::record(&heard, '<', &line);
        if tx.send(line).is_err() {
            break;
        }
    }
}

/// Reads one line into `buf`, keeping at most `cap` bytes of it. Returns the bytes consumed
/// (0 at the end of the input).
pub fn read_capped_line(r: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<usize> {
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
#[cfg(test)]
mod tests {
    use super::*;

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
    fn missing_programs_are_not_resolved() {
        assert!(resolve_program("").is_none());
        assert!(resolve_program("/nonexistent/pbrain-x").is_none());
        assert!(resolve_program("pbrain-surely-not-installed-anywhere").is_none());
    }

    #[test]
    fn deadlines_never_overflow() {
        assert!(deadline_in(u64::MAX) > Instant::now());
    }
}
