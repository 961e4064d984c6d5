//! Board coordinates, move notation and board symmetries.

use std::cmp::Ordering;
use std::fmt;
use thiserror::Error;

/// Largest supported board side.
pub const MAX_SIZE: usize = 20;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;

/// A point: column `x` and row `y`, both 0-based (`h8` is x 7, y 7).
///
/// Ordered by row, then column, which is how point lists are printed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pos {
    x: u8,
    y: u8,
}

/// A malformed coordinate or move list.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// A token that is not a point such as `h8`.
    #[error("bad move '{0}': expected a column letter a-t and a row number, like h8")]
    BadToken(String),
    /// A point outside a board of the given size.
    #[error("move '{token}' is off the {size}x{size} board")]
    OffBoard {
        /// The offending token.
        token: String,
        /// The board side.
        size: usize,
    },
}

impl Pos {
    /// The point at column `x`, row `y`. Panics if either is 20 or more.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos {
            x: x as u8,
            y: y as u8,
        }
    }

    /// The point at column `x`, row `y`, or `None` when either is 20 or more.
    #[inline]
    pub const fn try_new(x: usize, y: usize) -> Option<Pos> {
        if x < MAX_SIZE && y < MAX_SIZE {
            Some(Pos::new(x, y))
        } else {
            None
        }
    }

    /// Column, 0-based.
    #[inline]
    pub const fn x(self) -> usize {
        self.x as usize
    }

    /// Row, 0-based (row 1 in notation is y 0).
    #[inline]
    pub const fn y(self) -> usize {
        self.y as usize
    }

    /// Is the point on a board of side `size`?
    #[inline]
    pub const fn on_board(self, size: usize) -> bool {
        self.x() < size && self.y() < size
    }

    /// The image of this point under one of the 8 symmetries of a `size` board
    /// (`sym` 0 is the identity; 1-3 rotations; 4-7 reflections).
    pub fn transform(self, sym: u8, size: usize) -> Pos {
        let (x, y) = (self.x(), self.y());
        let m = size - 1;
        let (x, y) = match sym & 7 {
            0 => (x, y),
            1 => (m - y, x),
            2 => (m - x, m - y),
            3 => (y, m - x),
            4 => (m - x, y),
            5 => (x, m - y),
            6 => (y, x),
            _ => (m - y, m - x),
        };
        Pos::new(x, y)
    }

    /// Parses one point such as `h8` or `H8`, checking it lies on a `size` board.
    pub fn parse(token: &str, size: usize) -> Result<Pos, NotationError> {
        let p: Pos = token.parse()?;
        if p.on_board(size) {
            Ok(p)
        } else {
            Err(NotationError::OffBoard {
                token: token.to_string(),
                size,
            })
        }
    }

    /// Parses a move list `h8 i9 j10`, with or without spaces or commas (`h8i9j10`).
    pub fn parse_list(text: &str, size: usize) -> Result<Vec<Pos>, NotationError> {
        let mut out = Vec::new();
        for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            let mut rest = word;
            while !rest.is_empty() {
                // A token is one letter followed by the digits that follow it.
                let first_len = rest.chars().next().map_or(1, char::len_utf8);
                let digits = rest[first_len..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(rest.len(), |i| i + first_len);
                let (tok, tail) = rest.split_at(digits.max(first_len));
                out.push(Pos::parse(tok, size)?);
                rest = tail;
            }
        }
        Ok(out)
    }

    /// Formats a list of points as `h8 i9 j10`.
    pub fn format_list(points: &[Pos]) -> String {
        points
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl std::str::FromStr for Pos {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::BadToken(s.to_string());
        let mut chars = s.chars();
        let col = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !col.is_ascii_lowercase() {
            return Err(bad());
        }
        let x = (col as u8 - b'a') as usize;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: usize = digits.parse().map_err(|_| bad())?;
        if x >= MAX_SIZE {
            return Err(bad());
        }
        if row == 0 || row > MAX_SIZE {
            return Err(NotationError::OffBoard {
                token: s.to_string(),
                size: MAX_SIZE,
            });
        }
        Ok(Pos::new(x, row - 1))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

impl Ord for Pos {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Pos {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_h8() {
        let p: Pos = "h8".parse().unwrap();
        assert_eq!((p.x(), p.y()), (7, 7));
        assert_eq!("H8".parse::<Pos>().unwrap(), p);
        assert_eq!(p.to_string(), "h8");
    }

    #[test]
    fn lists_with_and_without_spaces() {
        let a = Pos::parse_list("h8 i9 j10", 15).unwrap();
        let b = Pos::parse_list("h8i9j10", 15).unwrap();
        let c = Pos::parse_list("H8,I9, J10", 15).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(Pos::format_list(&a), "h8 i9 j10");
    }

    #[test]
    fn errors_name_the_bad_token() {
        let e = Pos::parse_list("h8 z9", 15).unwrap_err();
        assert!(e.to_string().contains("z9"), "{e}");
        let e = Pos::parse_list("h8 p8", 15).unwrap_err();
        assert!(e.to_string().contains("p8"), "{e}");
        let e = Pos::parse_list("h8 8h", 15).unwrap_err();
        assert!(e.to_string().contains('8'), "{e}");
        assert!(Pos::parse("t20", 20).is_ok());
        assert!(Pos::parse("h0", 20).is_err());
    }

    #[test]
    fn symmetries_are_a_group_of_eight() {
        let p = Pos::new(2, 5);
        let images: std::collections::HashSet<Pos> = (0..8).map(|s| p.transform(s, 15)).collect();
        assert_eq!(images.len(), 8);
        for s in 0..8 {
            assert!(p.transform(s, 15).on_board(15));
        }
        assert_eq!(Pos::new(7, 7).transform(3, 15), Pos::new(7, 7));
    }

    #[test]
    fn try_new_rejects_large_coordinates() {
        assert_eq!(Pos::try_new(19, 19), Some(Pos::new(19, 19)));
        assert_eq!(Pos::try_new(20, 0), None);
        assert_eq!(Pos::try_new(0, 20), None);
    }

    #[test]
    fn sorted_by_row_then_column() {
        let mut v = Pos::parse_list("a2 b1 a1", 15).unwrap();
        v.sort();
        assert_eq!(Pos::format_list(&v), "a1 b1 a2");
    }
}
