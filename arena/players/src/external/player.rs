//! [`ExternalPlayer`]: one brain playing games, the protocol conversation from `START` to the
//! move answers, with its limits, notes and working folder.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use wuzi_engine::{Pos, Stone};

use super::notes::Notes;
use super::options::{BrainOptions, SetupMode};
use super::process::{deadline_in, Process, Wait};
use super::protocol::{
    classify, info_key, max_memory_bytes, parse_about, parse_stats, quote, rule_bits, Line,
};
use super::transcript::{self, Transcript};
use crate::limits::PlayerLimits;
use crate::player::{
    GameStart, GivenParams, MoveReply, MoveRequest, Player, PlayerError, PlayerReport,
};

/// Longest wait for the answer to `ABOUT`, in milliseconds.
pub const START_TIMEOUT_MS: u64 = 10_000;
/// Time allowed beyond a move's limit before the brain is given up and killed, in ms. The
/// referee's own margin (`--time-margin-ms`) decides whether a late answer loses on time.
pub const DEFAULT_GRACE_MS: u64 = 1_000;
/// `timeout_turn` when the limits give no time at all (the piskvork default), in ms.
pub const DEFAULT_TURN_MS: u64 = 30_000;

/// Wait for the `OK` to a `TAKEBACK` during a `setup=turn` set-up, in ms (some brains do
/// not answer it at all).
pub const TAKEBACK_WAIT_MS: u64 = 300;
pub use super::notes::MAX_NOTES;

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

/// An external Gomocup brain as a [`Player`] (see the [module documentation](super)).
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
    /// This game's protocol lines, shared with the brain's reader thread.
    transcript: transcript::Shared,
    /// Where the next game's protocol log goes (`--log-io`), if anywhere.
    io_log: Option<PathBuf>,
    /// Processes started so far by this player.
    spawns: u64,
    /// The running process has not yet been checked for refusing its `INFO` parameters.
    params_unchecked: bool,
    /// The parameters this game was given, for the record.
    given_params: Option<GivenParams>,
    /// The brain refused its parameters (see [`PlayerReport::rejected`]).
    rejected: Option<String>,
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
            transcript: Arc::default(),
            io_log: None,
            spawns: 0,
            params_unchecked: false,
            given_params: None,
            rejected: None,
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
        let args = self.process_args(&dir)?;
        self.spawns += 1;
        self.params_unchecked = true;
        let process = Process::spawn(
            &self.program_path(),
            &args,
            &dir,
            self.options.settle(),
            Arc::clone(&self.transcript),
        )
        .map_err(|e| PlayerError::Crash(format!("cannot start {}: {e}", self.program)))?;
        Ok(self.process.insert(process))
    }

    /// The command line of a new process: the brain's arguments, then those of its parameter
    /// channel; a config channel's file is rendered into `dir` first. A template that does
    /// not render stops the run ([`PlayerReport::rejected`]).
    fn process_args(&mut self, dir: &Path) -> Result<Vec<String>, PlayerError> {
        let mut args = self.args.clone();
        if let Some(channel) = &self.options.channel {
            let values = &self.options.values;
            if let Err(e) = channel.write_config(values, dir) {
                return Err(self.reject(e));
            }
            args.extend(channel.args(values));
        }
        Ok(args)
    }

    /// Records that the brain refused its parameters; the error that loses the game.
    fn reject(&mut self, why: String) -> PlayerError {
        let message = format!("{}: {why}", self.name);
        self.rejected = Some(message.clone());
        PlayerError::Crash(message)
    }

    /// A brain given parameters by its command line or a config file that did not start on
    /// its first process refused them (or cannot start at all): either way nothing can be
    /// played with it.
    fn refused_at_start(&mut self, what: String) -> PlayerError {
        let channel = self.options.channel.as_ref().filter(|c| c.kind() != "info");
        match channel {
            Some(c) if self.spawns == 1 && !self.options.values.is_empty() => {
                let given = c.given(&self.options.values).sent;
                self.reject(format!(
                    "{what} with its parameters (via {}: {given}); check the values and the \
                     template",
                    c.kind()
                ))
            }
            _ => PlayerError::Crash(what),
        }
    }

    /// After the first `INFO` parameters a process got: `ABOUT`, and every line before its
    /// answer read; an `ERROR`/`UNKNOWN` naming a parameter's key is a refusal.
    fn check_params(&mut self) -> Result<(), PlayerError> {
        let Some(channel) = self.options.channel.clone() else {
            return Ok(());
        };
        if !self.params_unchecked || channel.kind() != "info" || self.options.values.is_empty() {
            return Ok(());
        }
        self.params_unchecked = false;
        let wait = self.options.start_wait();
        let size = self.game.as_ref().map_or(15, |g| g.size);
        self.running()?.send("ABOUT").map_err(PlayerError::Crash)?;
        let deadline = deadline_in(wait);
        loop {
            let next = self.running()?.next_line(deadline);
            let line = match next {
                Ok(line) => line,
                Err(Wait::Timeout) => {
                    self.notes.push(format!(
                        "no answer to ABOUT within {wait} ms after its parameters"
                    ));
                    return Ok(());
                }
                Err(Wait::Closed) => {
                    let note = self.running()?.exit_note();
                    return Err(self.reject(format!("{note} after its parameters (INFO)")));
                }
            };
            if parse_about(&line).contains_key("name") {
                return Ok(());
            }
            match classify(&line, size) {
                Line::Refusal(l) => {
                    if let Some(name) = channel.named_in(&l, &self.options.values) {
                        let value = &self.options.values[&name];
                        return Err(self.reject(format!(
                            "parameter {name} = {value} refused: '{}'",
                            quote(&l)
                        )));
                    }
                    self.notes.push(format!("before ABOUT: '{}'", quote(&l)));
                }
                Line::Message(m) => self.last_message = Some(m),
                Line::Skip | Line::Ok => {}
                Line::Move(_) | Line::OffBoard(_) | Line::Noise(_) => {
                    self.notes.push(format!("before ABOUT: '{}'", quote(&line)))
                }
            }
        }
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
        let answer = match self.send_expect_ok(&command, wait) {
            // A brain that is gone before it reads START (it refused its command line).
            Err(PlayerError::Crash(m)) => return Err(self.refused_at_start(m)),
            other => other?,
        };
        match answer {
            OkWait::Ok => Ok(()),
            OkWait::Silent => {
                self.notes
                    .push(format!("no OK to {command} within {wait} ms; played on"));
                Ok(())
            }
            OkWait::Refused(l) => {
                Err(self.refused_at_start(format!("answered '{}' to {command}", quote(&l))))
            }
            OkWait::Closed => {
                let note = self.running()?.exit_note();
                Err(self.refused_at_start(format!("{note} after {command}")))
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
        if let Some(channel) = &self.options.channel {
            info.extend(channel.info_lines(&self.options.values));
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
        self.given_params = self
            .options
            .channel
            .as_ref()
            .filter(|_| !self.options.values.is_empty())
            .map(|c| c.given(&self.options.values));
        let process = self.running()?;
        process.size = Some(start.size);
        process.send(&info).map_err(PlayerError::Crash)?;
        self.check_params()
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

    fn lock_transcript(&self) -> std::sync::MutexGuard<'_, Transcript> {
        self.transcript.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the game's transcript, in the `--log-io` file when one was asked for (a file
    /// that cannot be made is a note, not a lost game).
    fn begin_transcript(&mut self, start: &GameStart) {
        let file = self.io_log.take().and_then(|path| {
            let made = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::File::create(&path));
            made.map_err(|e| {
                self.notes.push(format!(
                    "cannot write the protocol log {}: {e}",
                    path.display()
                ))
            })
            .ok()
        });
        let colour = if start.color == Stone::Black {
            "black"
        } else {
            "white"
        };
        let header = format!(
            "# {} ({}) as {colour}, {}x{} {}: ms since the game's start, > sent to the brain, \
             < read from it",
            self.name, self.program, start.size, start.size, start.rule
        );
        self.lock_transcript().begin(file, &header);
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
        self.given_params = None;
        self.begin_transcript(start);
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

    fn log_io_to(&mut self, path: &Path) {
        self.io_log = Some(path.to_path_buf());
    }

    fn report(&mut self) -> PlayerReport {
        let last_lines = self.lock_transcript().finish();
        PlayerReport {
            given: self.given.clone(),
            notes: self.notes.take(),
            last_lines,
            params: self.given_params.clone(),
            rejected: self.rejected.take(),
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
