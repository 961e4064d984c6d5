//! Keeping brains and everything they start from outliving their game or the arena.
//!
//! Killing a brain's process group ([`super::process`]) misses two kinds of process:
//! a child the brain started in a session of its own (`setsid`, a daemon's double fork),
//! which left the group, and — when the arena itself is killed with SIGKILL — brains that
//! ignore the end of their input, with their children. On Linux:
//!
//! - every brain is started with `WUZI_BRAIN=<arena pid>.<arena start time>.<serial>` in its
//!   environment, which its descendants inherit: when a brain ends, every process carrying its
//!   tag (or still below it in the process tree) is killed too;
//! - every brain gets a parent-death signal (SIGKILL), so it dies with the arena. The kernel
//!   sends it when the *thread* that started the brain ends, so brains are started by one
//!   thread that lives as long as the process;
//! - [`contain_brains`] (called first thing by the arena's and the tuner's `main`) makes the
//!   process a child subreaper, so orphaned descendants of brains are re-parented to it and
//!   reaped, and starts a guardian process that outlives the arena: when the arena's end of a
//!   pipe closes (it exited or was killed), the guardian kills every process carrying the
//!   arena's tag. It also kills what an earlier, killed arena left behind (tags whose arena is
//!   gone), in case that arena's guardian was killed with it.
//!
//! Elsewhere brains are only killed with their process group.

use std::io;
use std::process::{Child, Command};
#[cfg(target_os = "linux")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The environment variable that marks a brain and everything it starts.
pub const TAG_VAR: &str = "WUZI_BRAIN";

static SERIAL: AtomicU64 = AtomicU64::new(0);

/// Brains started and not yet reaped by their `Child`: `(pid, tag)`. Held while a brain is
/// started, so the orphan sweep never mistakes a brain that has just exited for an orphan.
static BRAINS: Mutex<Vec<(u32, String)>> = Mutex::new(Vec::new());

/// Set by [`contain_brains`]: orphans are re-parented to this process, which reaps them.
#[cfg(target_os = "linux")]
static SUBREAPER: AtomicBool = AtomicBool::new(false);

fn brains() -> std::sync::MutexGuard<'static, Vec<(u32, String)>> {
    BRAINS.lock().unwrap_or_else(|e| e.into_inner())
}

/// `<pid>.<start time>.` of this process: the prefix of its brains' tags.
fn tag_prefix() -> &'static str {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PREFIX.get_or_init(|| {
        let pid = std::process::id();
        let start = proc::stat(pid as i32).map_or(0, |s| s.start);
        format!("{pid}.{start}.")
    })
}

/// A fresh tag for the next brain.
pub(super) fn new_tag() -> String {
    format!("{}{}", tag_prefix(), SERIAL.fetch_add(1, Ordering::Relaxed))
}

/// Makes this process the reaper of its brains' orphans and starts the guardian that ends
/// them if the process is killed (see the module documentation); also kills what brains of
/// earlier, killed arenas left running. Call it first thing in `main`, before any thread is
/// started (the guardian is forked). Does nothing outside Linux. Returns what failed, if
/// anything; brains are still killed with their process groups then.
pub fn contain_brains() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with integer arguments only changes this process's attributes.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        SUBREAPER.store(true, Ordering::SeqCst);
        kill_abandoned();
        start_guardian()?;
    }
    Ok(())
}

/// Starts a brain's `command` tagged with `tag` (see the module documentation) and registers
/// it; on Linux from the one long-lived spawning thread, with a parent-death signal.
pub(super) fn spawn(mut command: Command, tag: &str) -> io::Result<Child> {
    command.env(TAG_VAR, tag);
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs between fork and exec and only calls prctl and getppid,
        // which are async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The arena may have died before the signal was armed: then nothing sends it.
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        spawner::spawn(command, tag)
    }
    #[cfg(not(target_os = "linux"))]
    register_spawn(command, tag)
}

/// Starts `command` and registers the child under `tag`, holding the registry meanwhile.
fn register_spawn(mut command: Command, tag: &str) -> io::Result<Child> {
    let mut brains = brains();
    let child = command.spawn()?;
    brains.push((child.id(), tag.to_string()));
    Ok(child)
}

/// The brain `pid` was reaped: it is no longer ours to skip. Reaps the orphans that died.
pub(super) fn forget(pid: u32) {
    {
        let mut brains = brains();
        if let Some(i) = brains.iter().position(|(p, _)| *p == pid) {
            brains.remove(i);
        }
    }
    #[cfg(target_os = "linux")]
    reap_orphans();
}

/// Kills what the brain tagged `tag` started: every process carrying its tag and, when the
/// brain is still running as `pid`, every process below it; the brain itself excepted (its
/// `Child` kills and reaps it).
pub(super) fn end_descendants(pid: Option<u32>, tag: &str) {
    #[cfg(target_os = "linux")]
    {
        let table = proc::table();
        let pid = pid.map_or(-1, |p| p as i32);
        let mut doomed: Vec<i32> = if pid > 0 {
            proc::below(&table, pid)
        } else {
            Vec::new()
        };
        let mark = format!("{TAG_VAR}={tag}");
        for s in &table {
            if s.pid != pid && !doomed.contains(&s.pid) && proc::has_env(s.pid, &mark) {
                doomed.push(s.pid);
            }
        }
        for p in doomed {
            kill(p);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (pid, tag);
}

/// Kills every process tagged by this arena's brains (for an exit at once, see
/// [`super::kill_all`]).
pub(super) fn kill_tagged() {
    #[cfg(target_os = "linux")]
    kill_with_prefix(tag_prefix());
}

/// At the end of a run: kills the orphans re-parented to this process that carry the tag of
/// one of its brains that has ended, and reaps the orphans that died, for up to a second while
/// new ones arrive. (An untagged orphan is only reaped: it may be a daemon of another program,
/// e.g. a compiler cache the gate's build started.)
pub(super) fn end_orphans() {
    #[cfg(target_os = "linux")]
    {
        if !SUBREAPER.load(Ordering::SeqCst) {
            return;
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
        loop {
            let mut left = false;
            {
                let brains = brains();
                for s in orphans(&brains) {
                    if s.state == b'Z' {
                        reap(s.pid);
                        left = true;
                        continue;
                    }
                    let ended = proc::env_value(s.pid, TAG_VAR).is_some_and(|t| {
                        t.starts_with(tag_prefix()) && !brains.iter().any(|(_, b)| *b == t)
                    });
                    if ended {
                        kill(s.pid);
                        left = true;
                    }
                }
            }
            if !left || std::time::Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// Reaps the orphans that have died (zombie children that are not brains; see [`orphans`]).
#[cfg(target_os = "linux")]
fn reap_orphans() {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    let brains = brains();
    for s in orphans(&brains) {
        if s.state == b'Z' {
            reap(s.pid);
        }
    }
}

/// Children of this process that are not brains and not in its process group: orphaned
/// descendants of brains re-parented to it (children the program starts itself stay in its
/// group; brains are in `brains`).
#[cfg(target_os = "linux")]
fn orphans(brains: &[(u32, String)]) -> Vec<proc::Stat> {
    let me = std::process::id() as i32;
    // SAFETY: getpgrp has no preconditions.
    let group = unsafe { libc::getpgrp() };
    proc::table()
        .into_iter()
        .filter(|s| s.ppid == me && s.pgrp != group)
        .filter(|s| !brains.iter().any(|(p, _)| *p as i32 == s.pid))
        .collect()
}

#[cfg(target_os = "linux")]
fn kill(pid: i32) {
    // SAFETY: kill(2) on one process; a vanished one gives ESRCH, ignored.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Reaps the zombie child `pid` (never blocks).
#[cfg(target_os = "linux")]
fn reap(pid: i32) {
    let mut status = 0;
    // SAFETY: waitpid on one child with WNOHANG; a non-child gives ECHILD, ignored.
    unsafe {
        libc::waitpid(pid, &mut status, libc::WNOHANG);
    }
}

/// Kills every process whose tag starts with `prefix`, until none is left (at most a second).
#[cfg(target_os = "linux")]
fn kill_with_prefix(prefix: &str) {
    let mark = format!("{TAG_VAR}={prefix}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        let found: Vec<i32> = proc::table()
            .into_iter()
            .filter(|s| s.state != b'Z' && proc::has_env_prefix(s.pid, &mark))
            .map(|s| s.pid)
            .collect();
        for &p in &found {
            kill(p);
        }
        if found.is_empty() || std::time::Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Kills the tagged processes of arenas that are gone (their pid is free or now another
/// process's: the start time differs).
#[cfg(target_os = "linux")]
fn kill_abandoned() {
    for s in proc::table() {
        let Some(tag) = proc::env_value(s.pid, TAG_VAR) else {
            continue;
        };
        let mut parts = tag.split('.');
        let (Some(Ok(pid)), Some(Ok(start))) = (
            parts.next().map(str::parse::<i32>),
            parts.next().map(str::parse::<u64>),
        ) else {
            continue;
        };
        if proc::stat(pid).is_none_or(|a| a.start != start) {
            kill(s.pid);
        }
    }
}

/// Forks the guardian: it waits for the end of a pipe whose writing end only this process
/// holds, then kills every process carrying this process's tag, and exits.
#[cfg(target_os = "linux")]
fn start_guardian() -> io::Result<()> {
    let prefix = tag_prefix().to_string();
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the two descriptors; close-on-exec keeps brains from holding the
    // writing end (the guardian would never see it close).
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: called before any other thread exists (documented on `contain_brains`), so the
    // child may run ordinary code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid > 0 {
        // SAFETY: the reading end is the guardian's; the writing end stays open until we die.
        unsafe {
            libc::close(fds[0]);
        }
        return Ok(());
    }
    // The guardian. It holds none of the arena's standard streams (a caller waiting for the
    // arena's output would wait for the guardian too) and ignores the terminal's signals.
    // SAFETY: plain system calls on this process's own descriptors and signal dispositions.
    unsafe {
        libc::close(fds[1]);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
        }
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
        let mut byte = 0u8;
        loop {
            let n = libc::read(fds[0], (&mut byte as *mut u8).cast(), 1);
            if n == 0 || (n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted)
            {
                break;
            }
        }
    }
    kill_with_prefix(&prefix);
    // SAFETY: ends the guardian without running the arena's exit handlers.
    unsafe { libc::_exit(0) }
}

/// The one thread that starts brains on Linux (see the module documentation).
#[cfg(target_os = "linux")]
mod spawner {
    use std::io;
    use std::process::{Child, Command};
    use std::sync::mpsc::{self, Sender};
    use std::sync::Mutex;

    type Request = (Command, String, Sender<io::Result<Child>>);

    static REQUESTS: Mutex<Option<Sender<Request>>> = Mutex::new(None);

    /// Starts `command` on the spawning thread (started on first use). If that thread cannot
    /// be started the brain is started here, without the guarantee of a parent that lives.
    pub(super) fn spawn(command: Command, tag: &str) -> io::Result<Child> {
        let (reply, answer) = mpsc::channel();
        let sent = {
            let mut requests = REQUESTS.lock().unwrap_or_else(|e| e.into_inner());
            if requests.is_none() {
                let (tx, rx) = mpsc::channel::<Request>();
                let started = std::thread::Builder::new()
                    .name("brain-spawner".into())
                    .spawn(move || {
                        for (command, tag, reply) in rx {
                            let _ = reply.send(super::register_spawn(command, &tag));
                        }
                    });
                if started.is_ok() {
                    *requests = Some(tx);
                }
            }
            match requests.as_ref() {
                Some(tx) => tx
                    .send((command, tag.to_string(), reply))
                    .map_err(|e| e.0 .0),
                None => Err(command),
            }
        };
        match sent {
            Ok(()) => answer
                .recv()
                .unwrap_or_else(|_| Err(io::Error::other("the brain-spawner thread is gone"))),
            Err(command) => super::register_spawn(command, tag),
        }
    }
}

/// Reading `/proc`: process states, parents, groups and environments.
#[cfg(target_os = "linux")]
mod proc {
    /// The fields of `/proc/PID/stat` used here.
    #[derive(Clone, Debug)]
    pub(super) struct Stat {
        pub(super) pid: i32,
        pub(super) state: u8,
        pub(super) ppid: i32,
        pub(super) pgrp: i32,
        /// Start time after boot, in clock ticks.
        pub(super) start: u64,
    }

    pub(super) fn stat(pid: i32) -> Option<Stat> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name is in parentheses and may hold anything: fields follow the last ')'.
        let (_, rest) = text.rsplit_once(')')?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some(Stat {
            pid,
            state: *fields.first()?.as_bytes().first()?,
            ppid: fields.get(1)?.parse().ok()?,
            pgrp: fields.get(2)?.parse().ok()?,
            start: fields.get(19)?.parse().ok()?,
        })
    }

    /// Every process now.
    pub(super) fn table() -> Vec<Stat> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(stat)
            .collect()
    }

    /// The processes below `pid` in the process tree.
    pub(super) fn below(table: &[Stat], pid: i32) -> Vec<i32> {
        let mut found = vec![pid];
        let mut i = 0;
        while i < found.len() {
            let parent = found[i];
            found.extend(table.iter().filter(|s| s.ppid == parent).map(|s| s.pid));
            i += 1;
        }
        found.remove(0);
        found
    }

    fn environ(pid: i32) -> Vec<u8> {
        std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default()
    }

    /// Does process `pid` have the environment entry `entry` (`NAME=VALUE`)?
    pub(super) fn has_env(pid: i32, entry: &str) -> bool {
        environ(pid)
            .split(|&b| b == 0)
            .any(|e| e == entry.as_bytes())
    }

    /// Does process `pid` have an environment entry starting with `prefix`?
    pub(super) fn has_env_prefix(pid: i32, prefix: &str) -> bool {
        environ(pid)
            .split(|&b| b == 0)
            .any(|e| e.starts_with(prefix.as_bytes()))
    }

    /// The value of `name` in the environment of process `pid`.
    pub(super) fn env_value(pid: i32, name: &str) -> Option<String> {
        let head = format!("{name}=");
        environ(pid)
            .split(|&b| b == 0)
            .find_map(|e| e.strip_prefix(head.as_bytes()))
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn tags_carry_this_process_and_a_serial() {
        let (a, b) = (new_tag(), new_tag());
        assert_ne!(a, b);
        assert!(a.starts_with(&format!("{}.", std::process::id())), "{a}");
        assert_eq!(a.split('.').count(), 3, "{a}");
    }

    #[test]
    fn the_proc_table_sees_this_process_and_its_environment() {
        let me = proc::stat(std::process::id() as i32).expect("own stat");
        assert_eq!(me.ppid as u32, std::os::unix::process::parent_id());
        std::env::var("PATH").expect("PATH is set");
        assert!(proc::env_value(me.pid, "PATH").is_some());
        assert!(proc::has_env_prefix(me.pid, "PATH="));
    }
}
