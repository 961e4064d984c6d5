//! The Gomocup (piskvork) brain protocol: command parsing and the brain's state machine.
//!
//! [`Command::parse`] turns one input line into a command; [`Brain`] holds the game and
//! the settings the manager sent, answers each line on any [`Write`], and never loses the
//! game state on bad input: a malformed command gets `ERROR text`, an unknown one
//! `UNKNOWN text`, and the game goes on. [`run`] drives a brain from any [`BufRead`] until
//! `END` or the end of the input; the `pbrain-wuzi` binary is a thin wrapper around it.
//!
//! Stones are kept as moves in play order (a `BOARD` set-up is replayed move by move), so
//! a change of rule in mid-game, a `TAKEBACK` and renju's history all stay exact.
//!
//! The Yixin-Board extensions (as Rapfi speaks them) are understood too: `INFO max_node N` and
//! `INFO max_depth N` limit every search (0 lifts the limit) and, while either is set, the
//! brain ignores the clock and searches on one thread, so its moves are a function of the
//! position and its games are reproducible; `YXBOARD` sets a position up without a move;
//! `YXSHOWFORBID` answers `FORBID ` and black's forbidden points as two-digit x then y, ended
//! by `.` (`FORBID 0907.`; none unless renju with black to move); `YXHASHCLEAR` empties the
//! transposition table; `SWAP2BOARD` plays the swap2 opening rule (see [`swap2`]).

pub mod swap2;

use crate::board::Board;
use crate::clock::Clock;
use crate::limits::Limits;
use crate::params::Params;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::search::Engine;
use crate::search::Info;
use crate::stone::Stone;
use std::io::{self, BufRead, Write};
use std::time::Instant;
use thiserror::Error;

/// Nodes searched when `timeout_turn` is 0 ("play at once").
pub const QUICK_NODES: u64 = 3_000;
/// Hash size when the manager sets no memory limit and the command line none either.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash chosen automatically from `max_memory`.
pub const MAX_AUTO_HASH_MB: usize = 256;
/// Memory kept aside for everything but the hash (code, pattern tables, boards), in MB.
pub const BASE_MEMORY_MB: usize = 16;
/// Memory kept aside per search thread (stack and per-thread tables), in MB.
pub const THREAD_MEMORY_MB: usize = 2;
/// `timeout_turn` before any `INFO` (the piskvork default), in milliseconds.
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 30_000;
/// `timeout_match` before any `INFO` (the piskvork default), in milliseconds.
pub const DEFAULT_TIMEOUT_MATCH_MS: u64 = 1_000_000_000;
/// The game clock used when the match time is unlimited, in milliseconds.
const UNLIMITED_MS: u64 = 1_000_000_000;
/// Below this much time for a move, search a fixed small number of nodes instead.
const QUICK_BELOW_MS: u64 = 15;
/// Nodes searched when the clock is about to run out (a few milliseconds' work).
pub const PANIC_NODES: u64 = 300;

/// The brain's `ABOUT` line; the version names the commit it was built from
/// (`version="0.1.0 (abc1234)"`, see [`crate::build_info`]).
pub fn about() -> String {
    format!(
        "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\", country=\"China\"",
        crate::build_info::VERSION_WITH_COMMIT
    )
}

/// A command or board line that cannot be carried out. The brain answers `ERROR` and the
/// message, and keeps its state.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// A game command before `START`.
    #[error("no game: send START first")]
    NoGame,
    /// `START` with a size that is not a number from 5 to 20.
    #[error("unsupported board size '{0}' (square boards from 5 to 20 only)")]
    BadSize(String),
    /// `RECTSTART` with anything but a square board from 5 to 20.
    #[error("unsupported board {0} (square boards from 5 to 20 only)")]
    BadRect(String),
    /// Coordinates that are not `x,y` with two non-negative integers.
    #[error("bad coordinates '{0}': expected x,y with two numbers from 0")]
    BadCoords(String),
    /// Coordinates outside the board.
    #[error("{x},{y} is off the {size}x{size} board")]
    OffBoard {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// Board side.
        size: usize,
    },
    /// A stone on a point that already holds one.
    #[error("{x},{y} is already occupied")]
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A `BOARD` line that is not `x,y,who` with `who` 1, 2 or 3.
    #[error("bad board line '{0}': expected x,y,who with who 1 (own), 2 (opponent) or 3")]
    BadBoardLine(String),
    /// `TAKEBACK` of an empty point.
    #[error("no stone at {x},{y} to take back")]
    NothingToTakeBack {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// `INFO` with a value that does not fit the key.
    #[error("bad INFO value '{value}' for {key}")]
    BadInfo {
        /// The key, lower case.
        key: String,
        /// The rejected value.
        value: String,
    },
    /// `INFO` without a value.
    #[error("INFO needs a key and a value")]
    InfoMissingValue,
    /// A move was asked for but the board has no legal point left.
    #[error("no legal move left: the board is full")]
    NoMove,
    /// A `SWAP2BOARD` line that is not `x,y`.
    #[error("bad SWAP2BOARD line '{0}': expected x,y")]
    BadSwap2Line(String),
    /// `SWAP2BOARD` with a stone count other than 0, 3 or 5.
    #[error("SWAP2BOARD with {0} stones: swap2 asks with 0, 3 or 5")]
    Swap2Stones(usize),
}

/// One protocol command, as read from a line outside a `BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n x n board.
    Start(usize),
    /// `RECTSTART w,h`.
    RectStart(usize, usize),
    /// `BEGIN`: play the first move.
    Begin,
    /// `TURN x,y`: the opponent played x,y; answer with a move.
    Turn(usize, usize),
    /// `BOARD`: a position follows, one `x,y,who` a line, closed by `DONE`.
    Board,
    /// `INFO key value` (the key in lower case).
    Info(String, String),
    /// `END`: exit.
    End,
    /// `ABOUT`: describe the brain.
    About,
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `TAKEBACK x,y`: remove the stone at x,y.
    Takeback(usize, usize),
    /// `YXBOARD`: a position follows as for `BOARD`; set it up without moving.
    YxBoard,
    /// `YXSHOWFORBID`: list black's forbidden points.
    YxShowForbid,
    /// `YXHASHCLEAR`: empty the transposition table.
    YxHashClear,
    /// `SWAP2BOARD`: the stones placed so far follow, one `x,y` a line, closed by `DONE`.
    Swap2Board,
    /// Anything else (the line as given, trimmed).
    Unknown(String),
}

impl Command {
    /// Parses one line (any case, CR/LF already or not yet removed). `Ok(None)` for a blank
    /// line; an error for a known command with malformed arguments.
    pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        let (word, rest) = match line.find(char::is_whitespace) {
            Some(i) => (&line[..i], line[i..].trim()),
            None => (line, ""),
        };
        let cmd = match word.to_ascii_uppercase().as_str() {
            "START" => {
                let n: usize = rest
                    .parse()
                    .map_err(|_| ProtocolError::BadSize(rest.to_string()))?;
                if !(crate::pos::MIN_SIZE..=crate::pos::MAX_SIZE).contains(&n) {
                    return Err(ProtocolError::BadSize(rest.to_string()));
                }
                Command::Start(n)
            }
            "RECTSTART" => {
                let (w, h) =
                    parse_pair(rest).map_err(|_| ProtocolError::BadRect(rest.to_string()))?;
                if w != h || !(crate::pos::MIN_SIZE..=crate::pos::MAX_SIZE).contains(&w) {
                    return Err(ProtocolError::BadRect(format!("{w}x{h}")));
                }
                Command::RectStart(w, h)
            }
            "BEGIN" if rest.is_empty() => Command::Begin,
            "TURN" => {
                let (x, y) = parse_pair(rest)?;
                Command::Turn(x, y)
            }
            "BOARD" if rest.is_empty() => Command::Board,
            "INFO" => {
                let (key, value) = match rest.find(char::is_whitespace) {
                    Some(i) => (&rest[..i], rest[i..].trim()),
                    None => return Err(ProtocolError::InfoMissingValue),
                };
                Command::Info(key.to_ascii_lowercase(), value.to_string())
            }
            "END" => Command::End,
            "ABOUT" => Command::About,
            "RESTART" => Command::Restart,
            "TAKEBACK" => {
                let (x, y) = parse_pair(rest)?;
                Command::Takeback(x, y)
            }
            "YXBOARD" if rest.is_empty() => Command::YxBoard,
            "YXSHOWFORBID" if rest.is_empty() => Command::YxShowForbid,
            "YXHASHCLEAR" if rest.is_empty() => Command::YxHashClear,
            "SWAP2BOARD" if rest.is_empty() => Command::Swap2Board,
            _ => Command::Unknown(line.to_string()),
        };
        Ok(Some(cmd))
    }
}

/// Parses `x,y` (spaces allowed around the numbers).
fn parse_pair(text: &str) -> Result<(usize, usize), ProtocolError> {
    let bad = || ProtocolError::BadCoords(text.to_string());
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let x = a.trim().parse::<usize>().map_err(|_| bad())?;
    let y = b.trim().parse::<usize>().map_err(|_| bad())?;
    Ok((x, y))
}

/// Who owns a stone of a `BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a continuous-game stone; it takes the colour whose turn it is in the replay.
    Continuous,
}

/// Parses one `x,y,who` line of a `BOARD` block.
pub fn parse_board_line(line: &str) -> Result<(usize, usize, Owner), ProtocolError> {
    let bad = || ProtocolError::BadBoardLine(line.trim().to_string());
    let mut parts = line.trim().split(',').map(str::trim);
    let mut num = || -> Result<usize, ProtocolError> {
        parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())
    };
    let (x, y, who) = (num()?, num()?, num()?);
    if parts.next().is_some() {
        return Err(bad());
    }
    let owner = match who {
        1 => Owner::Own,
        2 => Owner::Opponent,
        3 => Owner::Continuous,
        _ => return Err(bad()),
    };
    Ok((x, y, owner))
}

/// The rule for a Gomocup `INFO rule` bit sum, and a note when the reading is lenient.
///
/// 4 (renju) wins over 1 (exactly five = standard); 2 alone (the continuous-game bit) is
/// read as renju as Rapfi and Yixin-Board do; 8 (caro) is not supported and played as
/// standard; 0 is freestyle.
pub fn rule_from_bits(bits: u32) -> (Rule, Option<String>) {
    if bits & 4 != 0 {
        (Rule::Renju, None)
    } else if bits & 1 != 0 {
        (Rule::Standard, None)
    } else if bits & 2 != 0 {
        (
            Rule::Renju,
            Some(format!(
                "rule {bits} read as renju (bit 2, as Rapfi and Yixin-Board do)"
            )),
        )
    } else if bits & 8 != 0 {
        (
            Rule::Standard,
            Some(format!(
                "rule {bits}: caro is not supported, playing standard (exactly five)"
            )),
        )
    } else {
        (Rule::Freestyle, None)
    }
}

/// The hash size (MB) to use under a memory limit of `max_memory` bytes (0 = none) with
/// `threads` search threads; `wanted` is the size asked for on the command line, if any.
pub fn hash_for_memory(max_memory: u64, wanted: Option<usize>, threads: usize) -> usize {
    if max_memory == 0 {
        return wanted.unwrap_or(DEFAULT_HASH_MB).max(1);
    }
    let budget = (max_memory / (1024 * 1024)) as usize;
    let reserve = BASE_MEMORY_MB + THREAD_MEMORY_MB * threads.max(1);
    budget
        .saturating_sub(reserve)
        .min(wanted.unwrap_or(MAX_AUTO_HASH_MB))
        .max(1)
}

pub use crate::score::score_text;

/// One line of search progress: depth, score, nodes, speed, time and principal variation.
pub fn info_line(i: &Info) -> String {
    let ms = i.elapsed.as_millis().max(1) as u64;
    format!(
        "depth {}-{} score {} nodes {} speed {}k/s time {}ms pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nodes / ms,
        ms,
        Pos::format_list(&i.pv)
    )
}

/// A legal move for the side to move when the search offered none that is legal: the
/// legal point nearest to the stones (then to the centre). `None` if no point is legal.
pub fn fallback_move(board: &mut Board) -> Option<Pos> {
    let stones: Vec<Pos> = board
        .points()
        .filter(|&p| board.stone_at(p).is_some())
        .collect();
    let c = (board.size() as isize - 1) / 2;
    let dist =
        |a: Pos, x: isize, y: isize| (a.x() as isize - x).abs().max((a.y() as isize - y).abs());
    board.legal_moves().into_iter().min_by_key(|&p| {
        let near = stones
            .iter()
            .map(|&s| dist(p, s.x() as isize, s.y() as isize))
            .min()
            .unwrap_or(0);
        (near, dist(p, c, c))
    })
}

/// Replays `board`'s moves on an empty board under `rule`, skipping the move at `skip`.
fn replay(board: &Board, rule: Rule, skip: Option<usize>) -> Board {
    let mut b = Board::new(board.size(), rule).expect("size already checked");
    for (i, r) in board.history().iter().enumerate() {
        if Some(i) != skip {
            b.set_side_to_move(r.stone);
            b.make(r.pos).expect("replaying distinct points");
        }
    }
    b.set_side_to_move(board.side_to_move());
    b
}

/// What to do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `END` was received: exit.
    Quit,
}

/// Time and memory settings from `INFO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Milliseconds per move; 0 = play at once.
    pub timeout_turn: u64,
    /// Milliseconds per game; 0 = no limit.
    pub timeout_match: u64,
    /// Milliseconds left in the game, as last sent.
    pub time_left: Option<u64>,
    /// Memory limit in bytes; 0 = none.
    pub max_memory: u64,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network).
    pub game_type: u32,
    /// `max_node` (Yixin-Board): most nodes per search.
    pub max_nodes: Option<u64>,
    /// `max_depth` (Yixin-Board): deepest iteration per search.
    pub max_depth: Option<i32>,
}

impl Settings {
    /// Is every search limited by nodes or depth rather than the clock (so reproducible)?
    pub fn is_reproducible(&self) -> bool {
        self.max_nodes.is_some() || self.max_depth.is_some()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
            timeout_match: DEFAULT_TIMEOUT_MATCH_MS,
            time_left: None,
            max_memory: 0,
            game_type: 0,
            max_nodes: None,
            max_depth: None,
        }
    }
}

/// Which command a block of stone lines belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    /// `BOARD`: set up, then move.
    Board,
    /// `YXBOARD`: set up only.
    YxBoard,
    /// `SWAP2BOARD`: `x,y` lines, alternately black and white.
    Swap2,
}

/// A block being read: its kind, its stones so far, and its first error.
type BoardBlock = (BlockKind, Vec<(usize, usize, Owner)>, Option<ProtocolError>);

/// A Gomocup brain: the game, the manager's settings and a search engine.
pub struct Brain {
    engine: Engine,
    board: Option<Board>,
    rule: Rule,
    me: Option<Stone>,
    settings: Settings,
    /// Lines of the `BOARD` block being read, and its first error.
    block: Option<BoardBlock>,
    hash_wanted: Option<usize>,
    hash_mb: usize,
    hash_in_use: usize,
    threads: usize,
    folder: Option<String>,
}

impl Brain {
    /// A brain with these parameters and thread count. `hash_mb` is the transposition
    /// table size asked for on the command line (`None`: [`DEFAULT_HASH_MB`], or what
    /// `max_memory` allows). The table is allocated on the first move, once the manager's
    /// `INFO max_memory` is known.
    pub fn new(params: Params, hash_mb: Option<usize>, threads: usize) -> Brain {
        // Build the pattern tables now rather than inside the first move's time.
        let _ = Board::new(15, Rule::Renju);
        let threads = threads.max(1);
        Brain {
            engine: Engine::new(params, 1, threads),
            board: None,
            rule: Rule::Freestyle,
            me: None,
            settings: Settings::default(),
            block: None,
            hash_wanted: hash_mb,
            hash_mb: hash_for_memory(0, hash_mb, threads),
            hash_in_use: 1,
            threads,
            folder: None,
        }
    }

    /// The current game, if `START` was received.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The brain's colour, once known (`BEGIN`, `TURN` or `BOARD` decide it).
    pub fn colour(&self) -> Option<Stone> {
        self.me
    }

    /// The settings received so far.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The transposition table size (MB) the next search will use.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The `folder` the manager gave for persistent files, if any.
    pub fn folder(&self) -> Option<&str> {
        self.folder.as_deref()
    }

    /// The limits for a move when `elapsed_ms` have already passed since the command came:
    /// `max_node`/`max_depth` when set (no clock then), else the time settings.
    pub fn limits(&self, elapsed_ms: u64) -> Limits {
        let s = &self.settings;
        if s.is_reproducible() {
            return Limits {
                nodes: s.max_nodes,
                depth: s.max_depth,
                ..Limits::default()
            };
        }
        if s.timeout_turn == 0 {
            return Limits::nodes(QUICK_NODES);
        }
        let game_left = if s.timeout_match == 0 {
            UNLIMITED_MS
        } else {
            s.time_left.unwrap_or(s.timeout_match)
        };
        let turn = s.timeout_turn.saturating_sub(elapsed_ms);
        let left = game_left.saturating_sub(elapsed_ms);
        if turn.min(left) < QUICK_BELOW_MS {
            return Limits::nodes(PANIC_NODES);
        }
        Limits {
            clock: Some(Clock {
                time_left_ms: left,
                increment_ms: 0,
                turn_ms: Some(turn),
            }),
            ..Limits::default()
        }
    }

    /// Handles one input line, writing the replies (each flushed) to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Flow> {
        let received = Instant::now();
        if self.block.is_some() {
            return self.board_block_line(line, received, out);
        }
        let cmd = match Command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(Flow::Continue),
            Err(e) => {
                reply(out, &format!("ERROR {e}"))?;
                return Ok(Flow::Continue);
            }
        };
        let result = match cmd {
            Command::End => return Ok(Flow::Quit),
            Command::About => Ok(reply(out, &about())?),
            Command::Start(n) | Command::RectStart(n, _) => {
                self.new_game(n);
                Ok(reply(out, "OK")?)
            }
            Command::Restart => match &self.board {
                Some(b) => {
                    self.new_game(b.size());
                    Ok(reply(out, "OK")?)
                }
                None => Err(ProtocolError::NoGame.into()),
            },
            Command::Info(key, value) => self.info(&key, &value, out),
            Command::Begin => match self.board.as_ref() {
                None => Err(ProtocolError::NoGame.into()),
                Some(b) => {
                    self.me = Some(b.side_to_move());
                    self.answer(received, out)
                }
            },
            Command::Turn(x, y) => self
                .opponent_move(x, y)
                .and_then(|()| self.answer(received, out)),
            Command::Takeback(x, y) => self.takeback(x, y).and_then(|()| Ok(reply(out, "OK")?)),
            Command::Board => {
                self.block = Some((BlockKind::Board, Vec::new(), None));
                Ok(())
            }
            Command::YxBoard => {
                self.block = Some((BlockKind::YxBoard, Vec::new(), None));
                Ok(())
            }
            Command::Swap2Board => {
                self.block = Some((BlockKind::Swap2, Vec::new(), None));
                Ok(())
            }
            Command::YxShowForbid => self.show_forbid(out),
            Command::YxHashClear => {
                self.engine.new_game();
                Ok(())
            }
            Command::Unknown(text) => Ok(reply(out, &format!("UNKNOWN command '{text}'"))?),
        };
        finish(result, out)?;
        Ok(Flow::Continue)
    }

    fn new_game(&mut self, size: usize) {
        self.board = Some(Board::new(size, self.rule).expect("size checked by the parser"));
        self.me = None;
        self.block = None;
        self.engine.new_game();
    }

    fn info(&mut self, key: &str, value: &str, out: &mut dyn Write) -> Result<(), Failure> {
        let bad = || ProtocolError::BadInfo {
            key: key.to_string(),
            value: value.to_string(),
        };
        // Times may come negative from some managers when the clock has run out.
        let number = || -> Result<u64, Failure> {
            value
                .parse::<i64>()
                .map(|v| v.max(0) as u64)
                .map_err(|_| bad().into())
        };
        match key {
            "timeout_turn" => self.settings.timeout_turn = number()?,
            "timeout_match" => self.settings.timeout_match = number()?,
            "time_left" => self.settings.time_left = Some(number()?),
            "max_memory" => {
                self.settings.max_memory = number()?;
                self.hash_mb =
                    hash_for_memory(self.settings.max_memory, self.hash_wanted, self.threads);
            }
            "game_type" => self.settings.game_type = number()? as u32,
            "thread_num" => {
                let n = number()?.clamp(1, 256) as usize;
                self.threads = n;
                self.hash_mb =
                    hash_for_memory(self.settings.max_memory, self.hash_wanted, self.threads);
            }
            "rule" => {
                let bits = value.parse::<u32>().map_err(|_| bad())?;
                let (rule, note) = rule_from_bits(bits);
                if let Some(note) = note {
                    reply(out, &format!("MESSAGE {note}"))?;
                }
                self.set_rule(rule);
            }
            "folder" => self.folder = Some(value.to_string()),
            // Yixin-Board: 0 (or less) lifts the limit.
            "max_node" => self.settings.max_nodes = Some(number()?).filter(|&n| n > 0),
            "max_depth" => {
                let d = number()?.min(i32::MAX as u64) as i32;
                self.settings.max_depth = Some(d).filter(|&d| d > 0);
            }
            // Other keys (evaluate, ...) are informational: ignore them, as the protocol asks.
            _ => {}
        }
        Ok(())
    }

    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(b) = &self.board {
            self.board = Some(replay(b, rule, None));
        }
    }

    /// Checks that x,y is an empty point of the current board.
    fn empty_point(&self, x: usize, y: usize) -> Result<Pos, ProtocolError> {
        let b = self.board.as_ref().ok_or(ProtocolError::NoGame)?;
        let size = b.size();
        if x >= size || y >= size {
            return Err(ProtocolError::OffBoard { x, y, size });
        }
        let p = Pos::new(x, y);
        if b.stone_at(p).is_some() {
            return Err(ProtocolError::Occupied { x, y });
        }
        Ok(p)
    }

    fn opponent_move(&mut self, x: usize, y: usize) -> Result<(), Failure> {
        let p = self.empty_point(x, y)?;
        let b = self.board.as_mut().expect("checked");
        let opp = match self.me {
            Some(me) => me.opp(),
            None => b.side_to_move(),
        };
        self.me = Some(opp.opp());
        b.set_side_to_move(opp);
        b.make(p).expect("checked empty");
        Ok(())
    }

    fn takeback(&mut self, x: usize, y: usize) -> Result<(), Failure> {
        let b = self.board.as_mut().ok_or(ProtocolError::NoGame)?;
        let size = b.size();
        if x >= size || y >= size {
            return Err(ProtocolError::OffBoard { x, y, size }.into());
        }
        let p = Pos::new(x, y);
        let Some(i) = b.history().iter().position(|r| r.pos == p) else {
            return Err(ProtocolError::NothingToTakeBack { x, y }.into());
        };
        let stone = b.history()[i].stone;
        if i + 1 == b.history().len() {
            b.undo();
        } else {
            *b = replay(b, b.rule(), Some(i));
            b.set_side_to_move(stone);
        }
        Ok(())
    }

    fn board_block_line(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let text = line.trim();
        if text.is_empty() {
            return Ok(Flow::Continue);
        }
        let word = text.to_ascii_uppercase();
        if word == "END" {
            return Ok(Flow::Quit);
        }
        if word == "DONE" {
            let (kind, stones, error) = self.block.take().expect("in a block");
            let result = match (error, kind) {
                (Some(e), _) => Err(e.into()),
                (None, BlockKind::Board) => self
                    .set_up(&stones)
                    .and_then(|()| self.answer(received, out)),
                (None, BlockKind::YxBoard) => self.set_up(&stones),
                (None, BlockKind::Swap2) => self.swap2(&stones, received, out),
            };
            finish(result, out)?;
            return Ok(Flow::Continue);
        }
        let (kind, stones, error) = self.block.as_mut().expect("in a block");
        let parsed = match kind {
            BlockKind::Swap2 => parse_pair(text)
                .map(|(x, y)| (x, y, Owner::Continuous))
                .map_err(|_| ProtocolError::BadSwap2Line(text.to_string())),
            _ => parse_board_line(text),
        };
        match parsed {
            Ok(s) => stones.push(s),
            Err(e) => {
                error.get_or_insert(e);
            }
        }
        Ok(Flow::Continue)
    }

    /// Replaces the game by the `BOARD` stones, replayed in the given order. The first
    /// stone's owner moved first and is black; with no stones the brain is black.
    fn set_up(&mut self, stones: &[(usize, usize, Owner)]) -> Result<(), Failure> {
        let size = self.board.as_ref().ok_or(ProtocolError::NoGame)?.size();
        let mut b = Board::new(size, self.rule).expect("size checked");
        // Continuous-game stones alternate colours, so the first owned stone's colour is
        // known from its place in the list.
        let me = match stones.iter().position(|s| s.2 != Owner::Continuous) {
            Some(k) => {
                let colour = if k % 2 == 0 {
                    Stone::Black
                } else {
                    Stone::White
                };
                if stones[k].2 == Owner::Own {
                    colour
                } else {
                    colour.opp()
                }
            }
            None if stones.len() % 2 == 0 => Stone::Black,
            None => Stone::White,
        };
        for &(x, y, owner) in stones {
            if x >= size || y >= size {
                return Err(ProtocolError::OffBoard { x, y, size }.into());
            }
            let p = Pos::new(x, y);
            if b.stone_at(p).is_some() {
                return Err(ProtocolError::Occupied { x, y }.into());
            }
            match owner {
                Owner::Own => b.set_side_to_move(me),
                Owner::Opponent => b.set_side_to_move(me.opp()),
                Owner::Continuous => {}
            }
            b.make(p).expect("checked empty");
        }
        b.set_side_to_move(me);
        self.board = Some(b);
        self.me = Some(me);
        Ok(())
    }

    /// Sizes the table and sets the threads for the next search: one thread under
    /// `max_node`/`max_depth` (several threads would make the moves depend on timing).
    fn prepare_search(&mut self) {
        if self.hash_in_use != self.hash_mb {
            // Free the old table before allocating the new one, to stay under the limit.
            self.engine.set_hash_mb(1);
            self.engine.set_hash_mb(self.hash_mb);
            self.hash_in_use = self.hash_mb;
        }
        let threads = if self.settings.is_reproducible() {
            1
        } else {
            self.threads
        };
        self.engine.set_threads(threads);
    }

    /// `YXSHOWFORBID`: `FORBID ` then each forbidden point as two-digit x and y, then `.`;
    /// black's forbidden points when black is to move under renju, none otherwise (as Rapfi).
    fn show_forbid(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let board = self.board.as_mut().ok_or(ProtocolError::NoGame)?;
        let mut text = String::from("FORBID ");
        if board.side_to_move() == Stone::Black {
            for p in board.forbidden_points() {
                text.push_str(&format!("{:02}{:02}", p.x(), p.y()));
            }
        }
        text.push('.');
        Ok(reply(out, &text)?)
    }

    /// `SWAP2BOARD`: sets the given stones up (alternately black and white) and answers as
    /// [`swap2::decide`] chooses; the stones the brain places or plays are added to the board.
    fn swap2(
        &mut self,
        stones: &[(usize, usize, Owner)],
        received: Instant,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        if !matches!(stones.len(), 0 | 3 | 5) {
            return Err(ProtocolError::Swap2Stones(stones.len()).into());
        }
        self.set_up(stones)?;
        self.prepare_search();
        let limits = self.limits_after(received);
        let board = self.board.as_mut().expect("set up");
        let answer = swap2::decide(&mut self.engine, board, &limits)
            .ok_or(ProtocolError::Swap2Stones(stones.len()))?;
        match &answer {
            swap2::Swap2Answer::Place(placed) => {
                for &p in placed {
                    board.make(p).expect("legal stone");
                }
                self.me = None;
            }
            swap2::Swap2Answer::Move(p) => {
                board.set_side_to_move(Stone::White);
                board.make(*p).expect("legal move");
                self.me = Some(Stone::White);
            }
            swap2::Swap2Answer::Swap => self.me = Some(Stone::Black),
        }
        Ok(reply(out, &answer.text())?)
    }

    /// Searches for the brain's move, checks it, plays it and prints it.
    fn answer(&mut self, received: Instant, out: &mut dyn Write) -> Result<(), Failure> {
        self.prepare_search();
        let me = self.me.expect("colour known before answering");
        let Some(board) = self.board.as_mut() else {
            return Err(ProtocolError::NoGame.into());
        };
        board.set_side_to_move(me);
        let limits = self.limits_after(received);
        let board = self.board.as_mut().expect("checked");
        let mut failed = None;
        let mut on_info = |i: &Info| {
            if failed.is_none() {
                if let Err(e) = reply(out, &format!("MESSAGE {}", info_line(i))) {
                    failed = Some(e);
                }
            }
        };
        let r = self.engine.search(board, &limits, Some(&mut on_info));
        if let Some(e) = failed {
            return Err(Failure::Io(e));
        }
        let chosen = match r.best {
            Some(p) if board.is_legal(p) => Some(p),
            proposed => {
                let fallback = fallback_move(board);
                if let (Some(p), Some(f)) = (proposed, fallback) {
                    reply(
                        out,
                        &format!("MESSAGE search proposed illegal {p}; playing {f} instead"),
                    )?;
                }
                fallback
            }
        };
        let Some(p) = chosen else {
            return Err(ProtocolError::NoMove.into());
        };
        let speed = r.nodes / r.time_ms.max(1);
        reply(
            out,
            &format!(
                "MESSAGE best {p} score {} ({}) depth {}-{} nodes {} speed {speed}k/s time {}ms pv {}",
                score_text(r.score),
                r.source,
                r.depth,
                r.seldepth,
                r.nodes,
                r.time_ms,
                Pos::format_list(&r.pv)
            ),
        )?;
        board.make(p).expect("legal move");
        Ok(reply(out, &format!("{},{}", p.x(), p.y()))?)
    }

    fn limits_after(&self, received: Instant) -> Limits {
        self.limits(received.elapsed().as_millis() as u64)
    }
}

/// Why a command failed: the manager's mistake (answered with `ERROR`) or the output's.
enum Failure {
    Protocol(ProtocolError),
    Io(io::Error),
}

impl From<ProtocolError> for Failure {
    fn from(e: ProtocolError) -> Self {
        Failure::Protocol(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// Answers a failed command with `ERROR`; passes output errors on.
fn finish(result: Result<(), Failure>, out: &mut dyn Write) -> io::Result<()> {
    match result {
        Ok(()) => Ok(()),
        Err(Failure::Protocol(e)) => reply(out, &format!("ERROR {e}")),
        Err(Failure::Io(e)) => Err(e),
    }
}

/// Writes one reply line and flushes it.
fn reply(out: &mut dyn Write, text: &str) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// Runs a brain on `input` until `END` or the end of the input. Lines need not be UTF-8
/// (invalid bytes are replaced) and may end in CRLF or LF.
pub fn run(brain: &mut Brain, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        if brain.handle_line(&line, out)? == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brain() -> Brain {
        Brain::new(Params::default(), Some(1), 1)
    }

    /// Sends lines, returns the replies without MESSAGE lines.
    fn send(b: &mut Brain, lines: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for l in lines {
            b.handle_line(l, &mut out).unwrap();
        }
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect()
    }

    fn coords(reply: &str) -> Pos {
        let (x, y) = parse_pair(reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
        Pos::new(x, y)
    }

    #[test]
    fn parses_commands_in_any_case() {
        assert_eq!(Command::parse("start 15\r\n"), Ok(Some(Command::Start(15))));
        assert_eq!(Command::parse("Turn 7, 8"), Ok(Some(Command::Turn(7, 8))));
        assert_eq!(
            Command::parse("INFO Timeout_Turn 500"),
            Ok(Some(Command::Info("timeout_turn".into(), "500".into())))
        );
        assert_eq!(Command::parse("  \r\n"), Ok(None));
        assert_eq!(
            Command::parse("PLAY 1,1"),
            Ok(Some(Command::Unknown("PLAY 1,1".into())))
        );
        assert!(matches!(
            Command::parse("START 4"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("START 21"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("START"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("RECTSTART 15,20"),
            Err(ProtocolError::BadRect(_))
        ));
        assert_eq!(
            Command::parse("RECTSTART 15,15"),
            Ok(Some(Command::RectStart(15, 15)))
        );
        assert!(matches!(
            Command::parse("TURN -1,3"),
            Err(ProtocolError::BadCoords(_))
        ));
        assert!(matches!(
            Command::parse("TURN 3"),
            Err(ProtocolError::BadCoords(_))
        ));
        assert!(matches!(
            Command::parse("INFO rule"),
            Err(ProtocolError::InfoMissingValue)
        ));
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1\r"), Ok((7, 7, Owner::Own)));
        assert_eq!(parse_board_line(" 0, 14 ,2"), Ok((0, 14, Owner::Opponent)));
        assert_eq!(parse_board_line("3,3,3"), Ok((3, 3, Owner::Continuous)));
        assert!(parse_board_line("3,3,4").is_err());
        assert!(parse_board_line("3,3").is_err());
        assert!(parse_board_line("3,3,1,1").is_err());
    }

    #[test]
    fn rule_bits() {
        assert_eq!(rule_from_bits(0), (Rule::Freestyle, None));
        assert_eq!(rule_from_bits(1), (Rule::Standard, None));
        assert_eq!(rule_from_bits(4), (Rule::Renju, None));
        assert_eq!(rule_from_bits(5).0, Rule::Renju);
        let (r, note) = rule_from_bits(2);
        assert_eq!(r, Rule::Renju);
        assert!(note.unwrap().contains("renju"));
        assert_eq!(rule_from_bits(3).0, Rule::Standard);
    }

    #[test]
    fn hash_fits_the_memory_limit() {
        assert_eq!(hash_for_memory(0, None, 1), DEFAULT_HASH_MB);
        assert_eq!(hash_for_memory(0, Some(8), 4), 8);
        assert_eq!(
            hash_for_memory(350 * 1024 * 1024, None, 1),
            MAX_AUTO_HASH_MB
        );
        assert_eq!(hash_for_memory(350 * 1024 * 1024, Some(32), 1), 32);
        assert_eq!(
            hash_for_memory(50 * 1024 * 1024, None, 2),
            50 - BASE_MEMORY_MB - 4
        );
        assert_eq!(hash_for_memory(10 * 1024 * 1024, None, 1), 1);
    }

    #[test]
    fn limits_follow_info() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO timeout_turn 0"]);
        assert_eq!(b.limits(0), Limits::nodes(QUICK_NODES));
        send(
            &mut b,
            &[
                "INFO timeout_turn 500",
                "INFO timeout_match 10000",
                "INFO time_left 4000",
            ],
        );
        let c = b.limits(20).clock.unwrap();
        assert_eq!(c.turn_ms, Some(480));
        assert_eq!(c.time_left_ms, 3980);
        send(&mut b, &["INFO timeout_match 0"]);
        assert_eq!(b.limits(0).clock.unwrap().time_left_ms, UNLIMITED_MS);
        send(&mut b, &["INFO time_left -5", "INFO timeout_match 1000"]);
        assert_eq!(b.limits(0), Limits::nodes(PANIC_NODES));
        assert_eq!(
            send(&mut b, &["INFO timeout_turn fast"]),
            vec!["ERROR bad INFO value 'fast' for timeout_turn"]
        );
    }

    #[test]
    fn turn_and_begin_decide_the_colour() {
        let mut b = brain();
        assert_eq!(
            send(&mut b, &["BEGIN"]),
            vec!["ERROR no game: send START first"]
        );
        send(&mut b, &["START 15", "INFO timeout_turn 0"]);
        let r = send(&mut b, &["TURN 7,7"]);
        assert_eq!(b.colour(), Some(Stone::White));
        let p = coords(&r[0]);
        assert_ne!(p, Pos::new(7, 7));
        assert_eq!(b.board().unwrap().stone_at(p), Some(Stone::White));
        assert_eq!(send(&mut b, &["RESTART"]), vec!["OK"]);
        assert_eq!(b.board().unwrap().stone_count(), 0);
        let r = send(&mut b, &["BEGIN"]);
        assert_eq!(b.colour(), Some(Stone::Black));
        assert_eq!(
            b.board().unwrap().stone_at(coords(&r[0])),
            Some(Stone::Black)
        );
    }

    #[test]
    fn errors_keep_the_game() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO timeout_turn 0"]);
        let r = send(&mut b, &["TURN 7,7"]);
        let mine = coords(&r[0]);
        let before = b.board().unwrap().clone();
        let r = send(
            &mut b,
            &[
                "TURN 7,7",
                "TURN 15,3",
                "TURN x,y",
                "hello there",
                "\u{fffd}\u{fffd}",
                "START 3",
            ],
        );
        assert!(r[0].starts_with("ERROR 7,7 is already occupied"), "{r:?}");
        assert!(
            r[1].starts_with("ERROR 15,3 is off the 15x15 board"),
            "{r:?}"
        );
        assert!(r[2].starts_with("ERROR bad coordinates"), "{r:?}");
        assert!(r[3].starts_with("UNKNOWN"), "{r:?}");
        assert!(r[4].starts_with("UNKNOWN"), "{r:?}");
        assert!(r[5].starts_with("ERROR unsupported board size"), "{r:?}");
        assert_eq!(b.board().unwrap(), &before);
        assert_eq!(b.board().unwrap().stone_at(mine), Some(Stone::White));
        let r = send(&mut b, &["TURN 0,0"]);
        assert_eq!(r.len(), 1);
        assert_eq!(b.board().unwrap().stone_count(), 4);
    }

    #[test]
    fn board_block_replays_in_order() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO rule 4", "INFO timeout_turn 0"]);
        // The opponent moved first: it is black, the brain white.
        let r = send(&mut b, &["BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"]);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(b.colour(), Some(Stone::White));
        let board = b.board().unwrap();
        let h: Vec<(Pos, Stone)> = board.history().iter().map(|m| (m.pos, m.stone)).collect();
        assert_eq!(h[0], (Pos::new(7, 7), Stone::Black));
        assert_eq!(h[1], (Pos::new(8, 8), Stone::White));
        assert_eq!(h[2], (Pos::new(6, 6), Stone::Black));
        assert_eq!(h[3].1, Stone::White);
        // Own stone first: the brain is black.
        let r = send(&mut b, &["BOARD", "7,7,1", "8,8,2", "DONE"]);
        assert_eq!(b.colour(), Some(Stone::Black));
        assert_eq!(
            b.board().unwrap().stone_at(coords(&r[0])),
            Some(Stone::Black)
        );
        // A bad block is an error and leaves the previous game alone.
        let before = b.board().unwrap().clone();
        let r = send(&mut b, &["BOARD", "7,7,1", "7,7,2", "DONE"]);
        assert_eq!(r, vec!["ERROR 7,7 is already occupied"]);
        let r = send(&mut b, &["BOARD", "1,1,1", "garbage", "DONE"]);
        assert!(r[0].starts_with("ERROR bad board line 'garbage'"), "{r:?}");
        assert_eq!(b.board().unwrap(), &before);
    }

    #[test]
    fn continuous_stones_alternate() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO timeout_turn 0"]);
        send(&mut b, &["BOARD", "7,7,3", "8,8,3", "6,6,2", "DONE"]);
        // 6,6 is the third stone, black's: the brain is white.
        assert_eq!(b.colour(), Some(Stone::White));
        let board = b.board().unwrap();
        assert_eq!(board.stone_at(Pos::new(7, 7)), Some(Stone::Black));
        assert_eq!(board.stone_at(Pos::new(8, 8)), Some(Stone::White));
        assert_eq!(board.stone_at(Pos::new(6, 6)), Some(Stone::Black));
    }

    #[test]
    fn takeback_removes_the_stone() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO timeout_turn 0"]);
        let r = send(&mut b, &["TURN 7,7"]);
        let mine = coords(&r[0]);
        let t = format!("TAKEBACK {},{}", mine.x(), mine.y());
        assert_eq!(send(&mut b, &[&t]), vec!["OK"]);
        assert_eq!(b.board().unwrap().stone_count(), 1);
        assert_eq!(b.board().unwrap().side_to_move(), Stone::White);
        assert_eq!(send(&mut b, &["TAKEBACK 7,7"]), vec!["OK"]);
        assert_eq!(b.board().unwrap().stone_count(), 0);
        assert_eq!(
            send(&mut b, &["TAKEBACK 7,7"]),
            vec!["ERROR no stone at 7,7 to take back"]
        );
    }

    #[test]
    fn rule_change_replays_the_game() {
        let mut b = brain();
        let mut out = Vec::new();
        b.handle_line("START 15", &mut out).unwrap();
        b.handle_line("INFO rule 2", &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("MESSAGE rule 2 read as renju"), "{text}");
        assert_eq!(b.board().unwrap().rule(), Rule::Renju);
        send(&mut b, &["INFO timeout_turn 0", "TURN 7,7", "INFO rule 1"]);
        assert_eq!(b.board().unwrap().rule(), Rule::Standard);
        assert_eq!(b.board().unwrap().history().len(), 2);
    }

    #[test]
    fn end_quits_even_inside_a_board_block() {
        let mut b = brain();
        let mut out = Vec::new();
        assert_eq!(b.handle_line("START 15", &mut out).unwrap(), Flow::Continue);
        assert_eq!(b.handle_line("board", &mut out).unwrap(), Flow::Continue);
        assert_eq!(b.handle_line("end\r\n", &mut out).unwrap(), Flow::Quit);
    }

    #[test]
    fn run_reads_until_end() {
        let mut b = brain();
        let input = b"about\r\nSTART 10\r\nEND\r\nSTART 15\r\n";
        let mut out = Vec::new();
        run(&mut b, &mut &input[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, format!("{}\nOK\n", about()));
        assert_eq!(b.board().unwrap().size(), 10);
    }

    #[test]
    fn parses_the_yixin_board_extensions() {
        assert_eq!(
            Command::parse("yxshowforbid"),
            Ok(Some(Command::YxShowForbid))
        );
        assert_eq!(
            Command::parse("YXHASHCLEAR\r\n"),
            Ok(Some(Command::YxHashClear))
        );
        assert_eq!(Command::parse("SWAP2BOARD"), Ok(Some(Command::Swap2Board)));
        assert_eq!(Command::parse("YXBOARD"), Ok(Some(Command::YxBoard)));
        assert_eq!(
            Command::parse("INFO MAX_NODE 5000"),
            Ok(Some(Command::Info("max_node".into(), "5000".into())))
        );
    }

    /// The messages of the last move, without time and speed (which vary run to run).
    fn search_signature(b: &mut Brain, lines: &[&str]) -> (String, Vec<String>) {
        let mut out = Vec::new();
        for l in lines {
            b.handle_line(l, &mut out).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        let reply = text.lines().last().unwrap_or_default().to_string();
        let messages = text
            .lines()
            .filter(|l| l.starts_with("MESSAGE"))
            .map(|l| {
                l.split_whitespace()
                    .filter(|w| !w.ends_with("ms") && !w.ends_with("k/s"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        (reply, messages)
    }

    #[test]
    fn max_node_and_max_depth_replace_the_clock() {
        let mut b = brain();
        send(
            &mut b,
            &["START 15", "INFO timeout_turn 5", "INFO max_node 2500"],
        );
        assert_eq!(b.limits(1000), Limits::nodes(2500));
        assert!(b.settings().is_reproducible());
        send(&mut b, &["INFO max_depth 4"]);
        assert_eq!(
            b.limits(0),
            Limits {
                nodes: Some(2500),
                depth: Some(4),
                ..Limits::default()
            }
        );
        send(&mut b, &["INFO max_node 0", "INFO max_depth -1"]);
        assert!(!b.settings().is_reproducible());
        assert_eq!(b.limits(0), Limits::nodes(PANIC_NODES));
        assert_eq!(
            send(&mut b, &["INFO max_node many"]),
            vec!["ERROR bad INFO value 'many' for max_node"]
        );
    }

    /// Under `max_node` the brain plays exactly what the engine plays with that node limit on
    /// one thread, whatever `thread_num` says, and replays itself move for move.
    #[test]
    fn node_limited_brain_plays_the_engines_moves() {
        for moves in ["h8 i9", "h8 i9 j8 g8 h10", "h8 h9 i8 g8 j8 k8 i7"] {
            let list = Pos::parse_list(moves, 15).unwrap();
            let board = Board::from_moves(15, Rule::Renju, &list).unwrap();
            let mut engine = Engine::new(Params::default(), 1, 1);
            let expected = engine
                .search(&board, &Limits::nodes(1500), None)
                .best
                .unwrap();
            let mut lines = vec![
                "START 15".to_string(),
                "INFO rule 4".into(),
                "INFO thread_num 4".into(),
                "INFO timeout_turn 1".into(),
                "INFO max_node 1500".into(),
                "BOARD".into(),
            ];
            // Owners from the side to move's view: its own stones are 1.
            let me = board.side_to_move();
            for r in board.history() {
                let who = if r.stone == me { 1 } else { 2 };
                lines.push(format!("{},{},{who}", r.pos.x(), r.pos.y()));
            }
            lines.push("DONE".into());
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let first = search_signature(&mut brain(), &lines);
            assert_eq!(coords(&first.0), expected, "{moves}");
            assert_eq!(search_signature(&mut brain(), &lines), first, "{moves}");
        }
    }

    #[test]
    fn hash_clear_makes_the_next_search_start_afresh() {
        let mut b = brain();
        let setup = ["START 15", "INFO max_node 3000", "INFO rule 4"];
        send(&mut b, &setup);
        let position = ["BOARD", "7,7,2", "8,8,1", "8,7,2", "DONE"];
        let fresh = search_signature(&mut b, &position);
        // Searched again over the filled table, the same position reads differently...
        let warm = search_signature(&mut b, &position);
        assert_ne!(
            warm.1, fresh.1,
            "the table made no difference: the test proves nothing"
        );
        // ...and after YXHASHCLEAR exactly as the first time. No reply to the command itself.
        assert!(send(&mut b, &["YXHASHCLEAR"]).is_empty());
        assert_eq!(search_signature(&mut b, &position), fresh);
    }

    #[test]
    fn show_forbid_lists_blacks_forbidden_points_as_rapfi_does() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO rule 4"]);
        // Black to move with double-threes at 7,7 (6,7 8,7 / 7,6 7,8), 4,9 (4,10 4,11 / the
        // split three 6,7 7,6) and 4,12 (2,12 3,12 / 4,10 4,11), listed row by row. Rapfi
        // 0.43 answers this very position with the same line.
        let black = ["6,7", "8,7", "7,6", "7,8", "2,12", "3,12", "4,11", "4,10"];
        let white = ["0,0", "0,2", "0,4", "0,14", "14,0", "14,2", "14,4", "14,6"];
        let mut lines = vec!["YXBOARD".to_string()];
        for (bl, wh) in black.iter().zip(white) {
            lines.push(format!("{bl},1"));
            lines.push(format!("{wh},2"));
        }
        lines.push("DONE".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        // YXBOARD sets up without a move.
        assert!(send(&mut b, &lines).is_empty());
        assert_eq!(b.board().unwrap().stone_count(), 16);
        assert_eq!(
            send(&mut b, &["YXSHOWFORBID"]),
            vec!["FORBID 070704090412."]
        );
        // White to move: nothing listed.
        send(&mut b, &["YXBOARD", "6,7,1", "8,7,2", "7,6,1", "DONE"]);
        assert_eq!(send(&mut b, &["YXSHOWFORBID"]), vec!["FORBID ."]);
        // Freestyle: no forbidden points.
        send(&mut b, &["INFO rule 0"]);
        send(&mut b, &lines);
        assert_eq!(send(&mut b, &["YXSHOWFORBID"]), vec!["FORBID ."]);
        let mut fresh = brain();
        assert_eq!(
            send(&mut fresh, &["YXSHOWFORBID"]),
            vec!["ERROR no game: send START first"]
        );
    }

    #[test]
    fn swap2board_answers_in_the_protocols_forms() {
        let mut b = brain();
        send(&mut b, &["START 15", "INFO max_node 2000"]);
        // Empty board: three stones.
        let r = send(&mut b, &["SWAP2BOARD", "DONE"]);
        let stones: Vec<Pos> = r[0].split(' ').map(coords).collect();
        assert_eq!(stones.len(), 3, "{r:?}");
        assert_eq!(b.board().unwrap().stone_count(), 3);
        // Three stones that favour black: the brain takes black.
        let r = send(&mut b, &["SWAP2BOARD", "7,7", "0,0", "8,7", "DONE"]);
        assert_eq!(r, vec!["SWAP"]);
        assert_eq!(b.colour(), Some(Stone::Black));
        // Five stones, white well placed: the brain stays white and plays the sixth stone.
        let r = send(
            &mut b,
            &["SWAP2BOARD", "0,0", "7,7", "14,14", "8,7", "0,14", "DONE"],
        );
        let p = coords(&r[0]);
        assert_eq!(b.board().unwrap().stone_at(p), Some(Stone::White));
        assert_eq!(b.colour(), Some(Stone::White));
        // Bad counts and lines are errors; the game goes on.
        let r = send(&mut b, &["SWAP2BOARD", "7,7", "8,8", "DONE"]);
        assert_eq!(
            r,
            vec!["ERROR SWAP2BOARD with 2 stones: swap2 asks with 0, 3 or 5"]
        );
        let r = send(&mut b, &["SWAP2BOARD", "7,7,1", "DONE"]);
        assert!(
            r[0].starts_with("ERROR bad SWAP2BOARD line '7,7,1'"),
            "{r:?}"
        );
        let r = send(&mut b, &["SWAP2BOARD", "7,7", "7,7", "8,8", "DONE"]);
        assert_eq!(r, vec!["ERROR 7,7 is already occupied"]);
    }

    #[test]
    fn fallback_is_legal_and_near() {
        let mut board =
            Board::from_moves(15, Rule::Renju, &Pos::parse_list("h8 a1", 15).unwrap()).unwrap();
        let p = fallback_move(&mut board).unwrap();
        assert!(board.is_legal(p));
        let near = |s: Pos| {
            (p.x() as isize - s.x() as isize)
                .abs()
                .max((p.y() as isize - s.y() as isize).abs())
                == 1
        };
        assert!(near(Pos::new(7, 7)) || near(Pos::new(0, 0)));
    }
}
