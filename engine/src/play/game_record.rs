//! A game as a file: a move list or Piskvork's PSQ format, read and written.

use super::game_file_error::GameFileError;
use crate::board::Board;
use crate::pos::Pos;
use crate::rule::Rule;

/// A game read from a file: board size, rule if the file names one, and moves with the
/// milliseconds each took (0 when not recorded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Board side.
    pub size: usize,
    /// The rule, if the file states it (PSQ files do not).
    pub rule: Option<Rule>,
    /// Moves in play order, black first, with their thinking times in milliseconds.
    pub moves: Vec<(Pos, u64)>,
}

impl GameRecord {
    /// Parses a game in either format: PSQ (first line `Piskvorky NxN, ...`) or a move list
    /// (`#` comment lines, optionally `# rule R size N`, then moves in notation).
    /// `default_size` is the size of a move list without a `size`.
    pub fn parse(text: &str, default_size: usize) -> Result<GameRecord, GameFileError> {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if first
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("piskvorky")
        {
            Self::parse_psq(text)
        } else {
            Self::parse_move_list(text, default_size)
        }
    }

    fn parse_psq(text: &str) -> Result<GameRecord, GameFileError> {
        let mut lines = text
            .lines()
            .enumerate()
            .skip_while(|(_, l)| l.trim().is_empty());
        let (i, header) = lines.next().expect("a header was found");
        let syntax = |line: usize, message: String| GameFileError::Syntax {
            line: line + 1,
            message,
        };
        let dims = header
            .split(|c: char| c.is_whitespace() || c == ',')
            .find(|w| w.contains('x'))
            .and_then(|w| w.split_once('x'))
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)));
        let size = match dims {
            Some((w, h))
                if w == h && (crate::pos::MIN_SIZE..=crate::pos::MAX_SIZE).contains(&w) =>
            {
                w
            }
            Some((w, h)) => {
                return Err(syntax(
                    i,
                    format!("unsupported board {w}x{h} (square 5 to 20 only)"),
                ))
            }
            None => return Err(syntax(i, format!("bad PSQ header '{header}'"))),
        };
        let mut moves = Vec::new();
        for (i, line) in lines {
            let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
            let nums: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
            // Moves are `x,y,ms`; the first other line starts the trailer.
            let Some(nums) = nums.filter(|n| n.len() == 3) else {
                break;
            };
            let (x, y) = (nums[0], nums[1]);
            if x < 1 || y < 1 || x > size as i64 || y > size as i64 {
                return Err(syntax(
                    i,
                    format!("{x},{y} is off the {size}x{size} board (PSQ counts from 1)"),
                ));
            }
            moves.push((
                Pos::new(x as usize - 1, y as usize - 1),
                nums[2].max(0) as u64,
            ));
        }
        Ok(GameRecord {
            size,
            rule: None,
            moves,
        })
    }

    fn parse_move_list(text: &str, default_size: usize) -> Result<GameRecord, GameFileError> {
        let mut size = default_size;
        let mut rule = None;
        let mut moves = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let syntax = |message: String| GameFileError::Syntax {
                line: i + 1,
                message,
            };
            let line = line.trim();
            if let Some(comment) = line.strip_prefix('#') {
                let words: Vec<&str> = comment.split_whitespace().collect();
                for pair in words.windows(2) {
                    match pair[0].to_ascii_lowercase().as_str() {
                        "rule" => rule = Some(pair[1].parse::<Rule>().map_err(syntax)?),
                        "size" => {
                            size = pair[1]
                                .parse::<usize>()
                                .ok()
                                .filter(|n| {
                                    (crate::pos::MIN_SIZE..=crate::pos::MAX_SIZE).contains(n)
                                })
                                .ok_or_else(|| {
                                    syntax(format!("bad size '{}' (5 to 20)", pair[1]))
                                })?;
                        }
                        _ => {}
                    }
                }
                continue;
            }
            if !moves.is_empty() || !line.is_empty() {
                let list = Pos::parse_list(line, size).map_err(|e| syntax(e.to_string()))?;
                moves.extend(list.into_iter().map(|p| (p, 0)));
            }
        }
        Ok(GameRecord { size, rule, moves })
    }

    /// Plays the record out on an empty board under `rule`, checking every move.
    pub fn replay(&self, rule: Rule) -> Result<Board, GameFileError> {
        let mut b = Board::new(self.size, rule).map_err(|e| GameFileError::Syntax {
            line: 1,
            message: e.to_string(),
        })?;
        for (i, &(p, _)) in self.moves.iter().enumerate() {
            if let Some(o) = b.outcome() {
                return Err(GameFileError::MovesAfterEnd {
                    number: i,
                    outcome: o.to_string(),
                });
            }
            b.make(p).map_err(|error| GameFileError::Move {
                number: i + 1,
                pos: p.to_string(),
                error,
            })?;
        }
        Ok(b)
    }
}

/// The game as a move list file: `# rule R size N`, then the moves in notation.
pub fn move_list_text(board: &Board) -> String {
    let moves: Vec<Pos> = board.history().iter().map(|r| r.pos).collect();
    let mut s = format!("# rule {} size {}\n", board.rule(), board.size());
    for chunk in moves.chunks(10) {
        s.push_str(&Pos::format_list(chunk));
        s.push('\n');
    }
    s
}

/// The game in Piskvork's PSQ format: the header, `x,y,ms` lines with 1-based coordinates,
/// then a trailer with the players' names and `-1`.
pub fn psq_text(board: &Board, times: &[u64], black: &str, white: &str) -> String {
    let n = board.size();
    let mut s = format!("Piskvorky {n}x{n}, 11:11, 0\n");
    for (i, r) in board.history().iter().enumerate() {
        let ms = times.get(i).copied().unwrap_or(0);
        s.push_str(&format!("{},{},{ms}\n", r.pos.x() + 1, r.pos.y() + 1));
    }
    s.push_str(&format!("{black}\n{white}\n-1\n"));
    s
}
