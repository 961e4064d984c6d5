//! The Gomocup brain: the game, the manager's settings and a search engine, driven one
//! input line at a time. Setting positions up is in `brain/position.rs`, answering with a
//! move in `brain/answer.rs`.

mod answer;
mod position;

use super::about::about;
use super::board_line::Owner;
use super::command::Command;
use super::error::ProtocolError;
use super::memory::hash_for_memory;
use super::reply::{finish, reply, Failure};
use super::rule_bits::rule_from_bits;
use super::settings::Settings;
use crate::board::Board;
use crate::limits::Limits;
use crate::params::Params;
use crate::rule::Rule;
use crate::search::Engine;
use crate::stone::Stone;
use std::io::{self, Write};
use std::time::Instant;

/// What to do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `END` was received: exit.
    Quit,
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

    /// The engine's parameters in force (the command line's, then any `INFO NAME VALUE`).
    pub fn params(&self) -> &Params {
        self.engine.params()
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
        self.settings.limits(elapsed_ms)
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
            // One of the engine's tunables, under the name `wuzi params` prints (the arena's
            // `params = "info"` channel, Yixin-Board style): set it for the games to come.
            name if Params::spec(name).is_some() => self.set_param(name, value)?,
            // Other keys (evaluate, ...) are informational: ignore them, as the protocol asks.
            _ => {}
        }
        Ok(())
    }

    /// `INFO NAME VALUE` for a tunable parameter: range-checked, then in force (the table,
    /// whose scores the old value produced, is cleared).
    fn set_param(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        let bad = |message: String| ProtocolError::BadParam {
            name: name.to_string(),
            message,
        };
        let v = value
            .trim()
            .parse::<i64>()
            .map_err(|_| bad(format!("'{value}' is not an integer")))?;
        let mut params = self.engine.params().clone();
        params.set(name, v).map_err(|e| bad(e.to_string()))?;
        if params != *self.engine.params() {
            self.engine.set_params(params);
        }
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

    fn limits_after(&self, received: Instant) -> Limits {
        self.limits(received.elapsed().as_millis() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::parse_pair;
    use super::super::settings::{PANIC_NODES, QUICK_NODES, UNLIMITED_MS};
    use super::*;
    use crate::pos::Pos;

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

    /// Issue 23: the arena's `params = "info"` channel sets every tunable by its name; a value
    /// the engine does not take is an `ERROR` naming the parameter, and other keys stay ignored.
    #[test]
    fn info_sets_tunable_parameters_by_name() {
        let mut b = brain();
        let d = Params::default();
        let (defence, tempo) = (d.defence + 7, d.tempo + 3);
        let lines = [
            "START 15".to_string(),
            format!("INFO defence {defence}"),
            format!("INFO tempo {tempo}"),
            "INFO evaluate 1".to_string(),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(send(&mut b, &lines), ["OK"]);
        assert_eq!((b.params().defence, b.params().tempo), (defence, tempo));
        let mut expected = d.clone();
        expected.set("defence", i64::from(defence)).unwrap();
        expected.set("tempo", i64::from(tempo)).unwrap();
        assert_eq!(*b.params(), expected, "nothing else changed");
        let r = send(&mut b, &["INFO defence 100000"]);
        assert!(
            r.len() == 1 && r[0].starts_with("ERROR parameter defence:") && r[0].contains("range"),
            "{r:?}"
        );
        let r = send(&mut b, &["INFO defence many"]);
        assert_eq!(r, ["ERROR parameter defence: 'many' is not an integer"]);
        assert_eq!(
            b.params().defence,
            defence,
            "a refused value changes nothing"
        );
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
}
