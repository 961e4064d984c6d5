//! A board as text: diagrams to read and to print.

use super::error::BoardError;
use super::Board;
use crate::pos::Pos;
use crate::rule::Rule;
use std::fmt::Write as _;

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board({} {}x{}, {} to move)\n{}",
            self.rule,
            self.size,
            self.size,
            self.side,
            self.diagram(&[])
        )
    }
}

impl Board {
    /// A board from diagram rows, highest row first (`X` black, `O` white, `.` or `+` empty;
    /// spaces and a leading row number are ignored).
    pub fn from_diagram(rule: Rule, rows: &[&str]) -> Result<Board, BoardError> {
        let size = rows.len();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row
                .trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if cells.len() != size {
                return Err(BoardError::Diagram(format!(
                    "row {} has {} cells, expected {size}",
                    size - r,
                    cells.len()
                )));
            }
            let y = size - 1 - r;
            for (x, c) in cells.into_iter().enumerate() {
                match c {
                    'X' | 'x' | 'B' | 'b' => black.push(Pos::new(x, y)),
                    'O' | 'o' | 'W' | 'w' => white.push(Pos::new(x, y)),
                    '.' | '+' | '-' | '*' => {}
                    _ => {
                        return Err(BoardError::Diagram(format!(
                            "unknown character '{c}' in row {}",
                            size - r
                        )))
                    }
                }
            }
        }
        Board::from_stones(size, rule, &black, &white)
    }

    /// A diagram, highest row first, column letters underneath; `marks` are shown as `*`.
    pub fn diagram(&self, marks: &[Pos]) -> String {
        let mut s = String::new();
        let last = self.last_move();
        for y in (0..self.size).rev() {
            let _ = write!(s, "{:>2}", y + 1);
            for x in 0..self.size {
                let p = Pos::new(x, y);
                let c = match self.stone_at(p) {
                    Some(st) => st.symbol(),
                    None if marks.contains(&p) => '*',
                    None => '.',
                };
                let sep = if Some(p) == last {
                    '['
                } else if x > 0 && Some(Pos::new(x - 1, y)) == last {
                    ']'
                } else {
                    ' '
                };
                s.push(sep);
                s.push(c);
            }
            if Some(Pos::new(self.size - 1, y)) == last {
                s.push(']');
            }
            s.push('\n');
        }
        s.push_str("  ");
        for x in 0..self.size {
            s.push(' ');
            s.push((b'a' + x as u8) as char);
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stone::Stone;

    fn moves(s: &str) -> Vec<Pos> {
        Pos::parse_list(s, 15).unwrap()
    }

    #[test]
    fn diagram_round_trips() {
        let b = Board::from_moves(15, Rule::Renju, &moves("h8 i9 j10")).unwrap();
        let d = b.diagram(&[]);
        let rows: Vec<&str> = d.lines().take(15).collect();
        let c = Board::from_diagram(
            Rule::Renju,
            &rows
                .iter()
                .map(|r| r.replace(['[', ']'], " "))
                .collect::<Vec<_>>()
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(c.stones_of(Stone::Black), b.stones_of(Stone::Black));
        assert_eq!(c.stones_of(Stone::White), b.stones_of(Stone::White));
        assert!(d.starts_with("15"));
        assert!(d.trim_end().ends_with("a b c d e f g h i j k l m n o"));
    }
}
