//! One opening as a list of moves, its board symmetries and keys, and the removal of openings
//! that repeat a position; where Gomocup offsets from the centre land.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wuzi_engine::{Board, Pos, Rule};

/// One opening: an identifier and the moves from the empty board, black first.
///
/// Serialized as `{"id": "1D/s3", "moves": "h8 h9 h10"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Opening {
    /// Where it comes from: `1D` (renju table), `1D/s3` (its image under symmetry 3),
    /// `file.txt:12` (line 12 of a file), `r17` (random opening 17).
    pub id: String,
    /// Moves in play order.
    #[serde(serialize_with = "ser_moves", deserialize_with = "de_moves")]
    pub moves: Vec<Pos>,
}

impl Opening {
    /// The moves as `h8 h9 h10`.
    pub fn notation(&self) -> String {
        Pos::format_list(&self.moves)
    }

    /// The same opening under board symmetry `sym` (see [`Pos::transform`]).
    pub fn transformed(&self, sym: u8, size: usize) -> Opening {
        Opening {
            id: if sym == 0 {
                self.id.clone()
            } else {
                format!("{}/s{sym}", self.id)
            },
            moves: self.moves.iter().map(|p| p.transform(sym, size)).collect(),
        }
    }

    /// The position's key under board symmetry `sym`: the sorted list of `(y, x, colour)`
    /// stones. Move order within a colour does not matter.
    fn key_under(&self, sym: u8, size: usize) -> Vec<(u8, u8, u8)> {
        let mut v: Vec<(u8, u8, u8)> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let q = p.transform(sym, size);
                (q.y() as u8, q.x() as u8, (i % 2) as u8)
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// The position's key: equal keys mean the same stones of the same colours.
    pub fn position_key(&self, size: usize) -> Vec<(u8, u8, u8)> {
        self.key_under(0, size)
    }

    /// The position's canonical key: the smallest key over the 8 symmetries. Equal keys mean
    /// the same position up to a board symmetry.
    pub fn canonical_key(&self, size: usize) -> Vec<(u8, u8, u8)> {
        (0..8u8)
            .map(|sym| self.key_under(sym, size))
            .min()
            .unwrap_or_default()
    }

    /// Replays the opening on an empty board: every move must be on the board, on an empty
    /// point, not forbidden (renju black) and must not end the game.
    pub fn check(&self, size: usize, rule: Rule) -> std::result::Result<Board, String> {
        let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
        for (i, &p) in self.moves.iter().enumerate() {
            if board.outcome().is_some() {
                return Err(format!("the game is over before move {} ({p})", i + 1));
            }
            let rec = board
                .make(p)
                .map_err(|e| format!("move {} ({p}): {e}", i + 1))?;
            if rec.forbidden {
                return Err(format!(
                    "move {} ({p}) is a forbidden move for black",
                    i + 1
                ));
            }
            if rec.five {
                return Err(format!("move {} ({p}) makes five", i + 1));
            }
        }
        if board.outcome().is_some() {
            return Err("the opening fills the board".to_string());
        }
        Ok(board)
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id, self.notation())
    }
}

fn ser_moves<S: Serializer>(moves: &[Pos], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&Pos::format_list(moves))
}

fn de_moves<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Pos>, D::Error> {
    let text = String::deserialize(d)?;
    // Notation is checked against the largest board; the run checks the real size.
    Pos::parse_list(&text, wuzi_engine::pos::MAX_SIZE).map_err(serde::de::Error::custom)
}

/// The centre `(size/2, size/2)` (integer division), the origin of Gomocup offsets.
pub fn centre(size: usize) -> (i32, i32) {
    ((size / 2) as i32, (size / 2) as i32)
}

/// The point at offset `(dx, dy)` from the centre, if it lies on the board.
pub fn from_offset(size: usize, dx: i32, dy: i32) -> Option<Pos> {
    let (cx, cy) = centre(size);
    let (x, y) = (cx + dx, cy + dy);
    let size = size.min(wuzi_engine::pos::MAX_SIZE);
    (x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
        .then(|| Pos::new(x as usize, y as usize))
}

/// Every opening followed by its images under the 7 other symmetries (ids `id/s1` ..
/// `id/s7`). Duplicates are not removed here; see [`dedupe`].
pub fn with_symmetries(openings: &[Opening], size: usize) -> Vec<Opening> {
    openings
        .iter()
        .flat_map(|o| (0..8).map(move |sym| o.transformed(sym, size)))
        .collect()
}

/// Keeps the first opening of every position: an opening whose stones (and colours) are those
/// of an earlier one is a duplicate, whatever the move order, such as an opening's symmetric
/// image that coincides with the opening itself. Returns the kept openings (in their original
/// order) and how many were removed.
pub fn dedupe(openings: &[Opening], size: usize) -> (Vec<Opening>, usize) {
    let mut seen = HashSet::new();
    let kept: Vec<Opening> = openings
        .iter()
        .filter(|o| seen.insert(o.position_key(size)))
        .cloned()
        .collect();
    let removed = openings.len() - kept.len();
    (kept, removed)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_serializes_as_notation() {
        let o = Opening {
            id: "1D".into(),
            moves: Pos::parse_list("h8 h9 h10", 15).expect("valid"),
        };
        let json = serde_json::to_string(&o).expect("serializes");
        assert_eq!(json, r#"{"id":"1D","moves":"h8 h9 h10"}"#);
        let back: Opening = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, o);
    }
}
