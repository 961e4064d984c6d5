//! Playing in a terminal: a human (or two, or none) against the engine.
//!
//! [`Game::run`] reads commands from any [`BufRead`] and writes to any [`Write`], so the
//! whole loop is testable with scripted input. Commands: a move in notation (`h8`, `H8`),
//! `undo`, `hint`, `save FILE`, `load FILE`, `help` and `quit`. Games are saved as a move
//! list (`# rule renju size 15` then `h8 i9 ...`) or, for a `.psq` file name, in Piskvork's
//! PSQ format; `load` reads either.

mod game_file_error;
mod game_record;
mod humans;
mod limit_text;

pub use game_file_error::GameFileError;
pub use game_record::{move_list_text, psq_text, GameRecord};
pub use humans::Humans;
pub use limit_text::parse_limits;

use crate::board::Board;
use crate::fallback::fallback_move;
use crate::limits::Limits;
use crate::pos::Pos;
use crate::score::score_text;
use crate::search::Engine;
use crate::search::{info_line, Info};
use crate::stone::Stone;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::time::Instant;

const HELP: &str = "commands: a move such as h8, undo, hint, save FILE (FILE.psq for PSQ), \
load FILE, help, quit";

/// An interactive game: the board, the engine, who is human, and the engine's limits.
pub struct Game {
    board: Board,
    times: Vec<u64>,
    engine: Engine,
    humans: Humans,
    limits: Limits,
}

impl Game {
    /// A game from `board` (usually empty; its moves count as played in 0 ms).
    pub fn new(board: Board, engine: Engine, humans: Humans, limits: Limits) -> Game {
        let times = vec![0; board.history().len()];
        Game {
            board,
            times,
            engine,
            humans,
            limits,
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Milliseconds each move took, in play order.
    pub fn times(&self) -> &[u64] {
        &self.times
    }

    fn player_name(&self, s: Stone) -> &'static str {
        if self.humans.plays(s) {
            "human"
        } else {
            "wuzi"
        }
    }

    /// Saves the game: PSQ if the name ends in `.psq`, a move list otherwise.
    pub fn save(&self, path: &Path) -> Result<(), GameFileError> {
        let is_psq = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("psq"));
        let text = if is_psq {
            psq_text(
                &self.board,
                &self.times,
                self.player_name(Stone::Black),
                self.player_name(Stone::White),
            )
        } else {
            move_list_text(&self.board)
        };
        std::fs::write(path, text).map_err(|e| GameFileError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Loads a game in either format, replacing the current one only if it is valid.
    pub fn load(&mut self, path: &Path) -> Result<(), GameFileError> {
        let text = std::fs::read_to_string(path).map_err(|e| GameFileError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let record = GameRecord::parse(&text, self.board.size())?;
        let board = record.replay(record.rule.unwrap_or(self.board.rule()))?;
        self.times = record.moves.iter().map(|&(_, ms)| ms).collect();
        self.board = board;
        self.engine.new_game();
        Ok(())
    }

    /// Plays until `quit`, the end of the input, or (with no human) the end of the game.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "wuzi {}: {} on {n}x{n}, human plays {}. {HELP}",
            env!("CARGO_PKG_VERSION"),
            self.board.rule(),
            self.humans,
            n = self.board.size()
        )?;
        let mut redraw = true;
        loop {
            if redraw {
                self.show(out)?;
            }
            redraw = true;
            let outcome = self.board.outcome();
            if let Some(o) = outcome {
                writeln!(out, "game over: {o}")?;
                if self.humans == Humans::None {
                    return Ok(());
                }
            } else if !self.humans.plays(self.board.side_to_move()) {
                if self.engine_move(out)? {
                    continue;
                }
                writeln!(out, "the game cannot go on: no legal move for the engine")?;
                return Ok(());
            }
            if outcome.is_some() {
                write!(out, "game over (undo, save, load or quit)> ")?;
            } else {
                write!(out, "{} to move> ", self.board.side_to_move())?;
            }
            out.flush()?;
            let started = Instant::now();
            let mut line = Vec::new();
            if input.read_until(b'\n', &mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let line = String::from_utf8_lossy(&line);
            let line = line.trim();
            let (word, arg) = match line.split_once(char::is_whitespace) {
                Some((w, a)) => (w, a.trim()),
                None => (line, ""),
            };
            match word.to_ascii_lowercase().as_str() {
                "" => redraw = false,
                "quit" | "exit" | "q" => return Ok(()),
                "help" | "?" => {
                    writeln!(out, "{HELP}")?;
                    redraw = false;
                }
                "undo" => self.undo(out)?,
                "hint" => {
                    redraw = false;
                    if outcome.is_some() {
                        writeln!(out, "the game is over: no hint")?;
                    } else {
                        let (p, score) = self.think(out)?;
                        match p {
                            Some(p) => writeln!(out, "hint: {p} (score {})", score_text(score))?,
                            None => writeln!(out, "no legal move")?,
                        }
                    }
                }
                "save" | "load" if arg.is_empty() => {
                    writeln!(out, "{word} needs a file name, e.g. {word} game.txt")?;
                    redraw = false;
                }
                "save" => {
                    redraw = false;
                    match self.save(Path::new(arg)) {
                        Ok(()) => {
                            writeln!(out, "saved {} moves to {arg}", self.board.history().len())?
                        }
                        Err(e) => writeln!(out, "cannot save: {e}")?,
                    }
                }
                "load" => match self.load(Path::new(arg)) {
                    Ok(()) => writeln!(
                        out,
                        "loaded {} moves from {arg} ({} on {n}x{n})",
                        self.board.history().len(),
                        self.board.rule(),
                        n = self.board.size()
                    )?,
                    Err(e) => {
                        writeln!(out, "cannot load {arg}: {e}")?;
                        redraw = false;
                    }
                },
                _ => {
                    redraw = false;
                    if outcome.is_some() {
                        writeln!(
                            out,
                            "the game is over: type undo, save FILE, load FILE or quit"
                        )?;
                        continue;
                    }
                    let ms = started.elapsed().as_millis() as u64;
                    match self.human_move(line, ms) {
                        Ok(()) => redraw = true,
                        Err(msg) => writeln!(out, "{msg}")?,
                    }
                }
            }
        }
    }

    fn human_move(&mut self, text: &str, ms: u64) -> Result<(), String> {
        let p = Pos::parse(text, self.board.size()).map_err(|e| match e {
            crate::pos::NotationError::BadToken(_) => {
                format!("don't understand '{text}': type a move such as h8, or help")
            }
            e => e.to_string(),
        })?;
        if self.board.stone_at(p).is_some() {
            return Err(format!("{p} is already occupied"));
        }
        if self.board.side_to_move() == Stone::Black && self.board.is_forbidden(p) {
            return Err(format!(
                "{p} is forbidden for black (renju: overline, double-four or double-three); choose another point"
            ));
        }
        self.board.make(p).map_err(|e| e.to_string())?;
        self.times.push(ms);
        Ok(())
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.board.history().is_empty() {
            return writeln!(out, "nothing to undo");
        }
        let mut taken = Vec::new();
        while let Some(p) = self.board.undo() {
            self.times.pop();
            taken.push(p);
            // Against the engine, take back its reply too, so the human is to move again.
            if self.humans.plays(self.board.side_to_move()) || self.board.history().is_empty() {
                break;
            }
        }
        taken.reverse();
        writeln!(out, "took back {}", Pos::format_list(&taken))
    }

    /// Searches the position, printing the thinking lines; returns the move (checked legal)
    /// and its score.
    fn think(&mut self, out: &mut dyn Write) -> io::Result<(Option<Pos>, i32)> {
        let mut failed = None;
        let mut on_info = |i: &Info| {
            if failed.is_none() {
                if let Err(e) = writeln!(out, "  {}", info_line(i)).and_then(|_| out.flush()) {
                    failed = Some(e);
                }
            }
        };
        let r = self
            .engine
            .search(&self.board, &self.limits, Some(&mut on_info));
        if let Some(e) = failed {
            return Err(e);
        }
        let best = match r.best {
            Some(p) if self.board.is_legal(p) => Some(p),
            _ => fallback_move(&mut self.board),
        };
        writeln!(
            out,
            "  {} score {} depth {}-{} nodes {} time {}ms pv {}",
            r.source,
            score_text(r.score),
            r.depth,
            r.seldepth,
            r.nodes,
            r.time_ms,
            Pos::format_list(&r.pv)
        )?;
        Ok((best, r.score))
    }

    /// Plays the engine's move; false if it has none.
    fn engine_move(&mut self, out: &mut dyn Write) -> io::Result<bool> {
        let side = self.board.side_to_move();
        writeln!(out, "wuzi ({side}) is thinking...")?;
        let started = Instant::now();
        let (p, _) = self.think(out)?;
        let Some(p) = p else {
            return Ok(false);
        };
        self.board.make(p).expect("legal move");
        self.times.push(started.elapsed().as_millis() as u64);
        writeln!(out, "wuzi ({side}) plays {p}")?;
        Ok(true)
    }

    fn show(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let forbidden = self.board.forbidden_points();
        write!(out, "\n{}", self.board.diagram(&forbidden))?;
        let mut notes = Vec::new();
        if let Some(r) = self.board.history().last() {
            notes.push(format!(
                "move {}: {} played [{}]",
                self.board.history().len(),
                r.stone,
                r.pos
            ));
        }
        if !forbidden.is_empty() {
            notes.push(format!(
                "* forbidden for black: {}",
                Pos::format_list(&forbidden)
            ));
        }
        if !notes.is_empty() {
            writeln!(out, "{}", notes.join("; "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::rule::Rule;

    fn game(rule: Rule, humans: Humans) -> Game {
        let board = Board::new(15, rule).unwrap();
        Game::new(
            board,
            Engine::new(Params::default(), 1, 1),
            humans,
            Limits::nodes(2000),
        )
    }

    fn play(g: &mut Game, script: &str) -> String {
        let mut out = Vec::new();
        g.run(&mut script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("wuzi-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn human_moves_and_engine_replies() {
        let mut g = game(Rule::Renju, Humans::Black);
        let out = play(&mut g, "h8\nquit\n");
        assert_eq!(g.board().history().len(), 2);
        assert_eq!(g.board().history()[0].pos, Pos::new(7, 7));
        let reply = g.board().history()[1].pos;
        assert!(
            out.contains(&format!("wuzi (white) plays {reply}")),
            "{out}"
        );
        assert!(out.contains("depth"), "thinking line missing: {out}");
        assert!(out.contains("[h8]"), "last move not marked: {out}");
    }

    #[test]
    fn engine_plays_first_for_white_human() {
        let mut g = game(Rule::Freestyle, Humans::White);
        let out = play(&mut g, "");
        assert_eq!(g.board().history().len(), 1);
        assert!(out.contains("wuzi (black) plays"), "{out}");
        assert!(out.trim_end().ends_with("white to move>"), "{out}");
    }

    #[test]
    fn bad_input_gets_clear_messages() {
        let mut g = game(Rule::Renju, Humans::Both);
        let out = play(
            &mut g,
            "h8\nh8\nz9\np8\nh99\nblah blah\n\nsave\nload /nonexistent/wuzi/file\nhelp\nquit\n",
        );
        assert_eq!(g.board().history().len(), 1);
        assert!(out.contains("h8 is already occupied"), "{out}");
        assert!(out.contains("don't understand 'z9'"), "{out}");
        assert!(out.contains("'p8' is off the 15x15 board"), "{out}");
        assert!(out.contains("don't understand 'blah blah'"), "{out}");
        assert!(out.contains("save needs a file name"), "{out}");
        assert!(out.contains("cannot load /nonexistent/wuzi/file"), "{out}");
        assert!(out.contains("commands: a move such as h8"), "{out}");
    }

    #[test]
    fn forbidden_points_are_marked_and_refused() {
        // Black to move with a double-three at h8 (g8 i8 / h7 h9 open).
        let moves = "g8 a1 i8 a3 h7 a5 h9 a15";
        let board =
            Board::from_moves(15, Rule::Renju, &Pos::parse_list(moves, 15).unwrap()).unwrap();
        let mut g = Game::new(
            board,
            Engine::new(Params::default(), 1, 1),
            Humans::Both,
            Limits::nodes(1000),
        );
        let out = play(&mut g, "h8\nquit\n");
        assert!(out.contains("* forbidden for black: h8"), "{out}");
        assert!(out.contains("h8 is forbidden for black"), "{out}");
        assert_eq!(g.board().history().len(), 8);
        let diagram_row = out.lines().find(|l| l.starts_with(" 8")).unwrap();
        assert!(diagram_row.contains('*'), "{diagram_row}");
    }

    #[test]
    fn undo_takes_back_the_engine_reply_too() {
        let mut g = game(Rule::Standard, Humans::Black);
        let out = play(&mut g, "h8\nundo\nquit\n");
        assert!(g.board().history().is_empty(), "{out}");
        assert!(out.contains("took back h8 "), "{out}");
        let mut g = game(Rule::Standard, Humans::Both);
        let out = play(&mut g, "h8\ni9\nundo\nquit\n");
        assert_eq!(g.board().history().len(), 1);
        assert!(out.contains("took back i9"), "{out}");
        let out = play(&mut g, "undo\nundo\nquit\n");
        assert!(out.contains("nothing to undo"), "{out}");
    }

    #[test]
    fn hint_suggests_a_legal_move() {
        let mut g = game(Rule::Freestyle, Humans::Both);
        let out = play(&mut g, "h8\nhint\nquit\n");
        let line = out.lines().find(|l| l.starts_with("hint: ")).expect(&out);
        let p = Pos::parse(line[6..].split_whitespace().next().unwrap(), 15).unwrap();
        assert_ne!(p, Pos::new(7, 7));
        assert_eq!(g.board().history().len(), 1);
    }

    #[test]
    fn save_and_load_both_formats() {
        let mut g = game(Rule::Renju, Humans::Both);
        let list = tmp("game.txt");
        let psq = tmp("game.psq");
        let script = format!(
            "h8\ni9\nj10\nsave {}\nsave {}\nquit\n",
            list.display(),
            psq.display()
        );
        let out = play(&mut g, &script);
        assert!(out.contains("saved 3 moves"), "{out}");
        let text = std::fs::read_to_string(&list).unwrap();
        assert_eq!(text, "# rule renju size 15\nh8 i9 j10\n");
        let text = std::fs::read_to_string(&psq).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert!(lines[1].starts_with("8,8,"), "{text}");
        assert!(lines[2].starts_with("9,9,"), "{text}");
        assert!(lines[3].starts_with("10,10,"), "{text}");
        assert_eq!(&lines[4..], ["human", "human", "-1"]);

        for file in [&list, &psq] {
            let mut h = game(Rule::Renju, Humans::Both);
            let out = play(&mut h, &format!("load {}\nquit\n", file.display()));
            assert!(out.contains("loaded 3 moves"), "{out}");
            let moves: Vec<Pos> = h.board().history().iter().map(|r| r.pos).collect();
            assert_eq!(Pos::format_list(&moves), "h8 i9 j10");
            assert_eq!(h.board().rule(), Rule::Renju);
        }
    }

    #[test]
    fn game_files_are_checked() {
        assert!(matches!(
            GameRecord::parse("h8 h8", 15).unwrap().replay(Rule::Renju),
            Err(GameFileError::Move { number: 2, .. })
        ));
        let five = "a1 a15 b1 b15 c1 c15 d1 d15 e1 o8";
        assert!(matches!(
            GameRecord::parse(five, 15).unwrap().replay(Rule::Freestyle),
            Err(GameFileError::MovesAfterEnd { number: 9, .. })
        ));
        assert!(matches!(
            GameRecord::parse("Piskvorky 15x20, 11:11, 0\n1,1,0\n", 15),
            Err(GameFileError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            GameRecord::parse("Piskvorky 15x15, 11:11, 0\n16,1,0\n", 15),
            Err(GameFileError::Syntax { line: 2, .. })
        ));
        let r = GameRecord::parse(
            "\nPiskvorky 20x20, 11:11, 0\n10,10,5\n11,10,7\nA\nB\n-1\n",
            15,
        )
        .unwrap();
        assert_eq!(r.size, 20);
        assert_eq!(r.moves, vec![(Pos::new(9, 9), 5), (Pos::new(10, 9), 7)]);
        let r = GameRecord::parse("# rule freestyle size 9\nh8i9\n", 15).unwrap();
        assert_eq!((r.size, r.rule), (9, Some(Rule::Freestyle)));
        assert!(GameRecord::parse("# size 30\n", 15).is_err());
        assert!(GameRecord::parse("hello", 15).is_err());
    }

    #[test]
    fn engine_against_itself_finishes() {
        let mut g = Game::new(
            Board::new(9, Rule::Freestyle).unwrap(),
            Engine::new(Params::default(), 1, 1),
            Humans::None,
            Limits::nodes(500),
        );
        let out = play(&mut g, "");
        let o = g.board().outcome().expect("the game ends");
        assert!(out.contains(&format!("game over: {o}")), "{out}");
    }
}
