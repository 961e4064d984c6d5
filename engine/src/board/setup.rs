//! Boards built other than move by move from the empty board: from a move list, from stones
//! placed directly, and under a board symmetry.

use super::error::BoardError;
use super::Board;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::stone::Stone;

impl Board {
    /// A board after playing `moves` in order from the empty board, black first.
    /// Moves after a finished game are still placed (the caller decides what that means).
    pub fn from_moves(size: usize, rule: Rule, moves: &[Pos]) -> Result<Board, BoardError> {
        let mut b = Board::new(size, rule)?;
        for &m in moves {
            b.make(m)?;
        }
        Ok(b)
    }

    /// A board with stones placed directly (any counts) and no move history. The side to
    /// move is black when the counts are equal, white otherwise; change it with
    /// [`Board::set_side_to_move`].
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Pos],
        white: &[Pos],
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(size, rule)?;
        for &p in black {
            b.place(p, Stone::Black)?;
        }
        for &p in white {
            b.place(p, Stone::White)?;
        }
        b.set_side_to_move(if black.len() == white.len() {
            Stone::Black
        } else {
            Stone::White
        });
        Ok(b)
    }

    /// The position under board symmetry `sym` (see [`Pos::transform`]), history included.
    pub fn transformed(&self, sym: u8) -> Board {
        let mut b = Board::new(self.size, self.rule).expect("same size");
        let n = self.size;
        let played: std::collections::HashSet<Pos> = self.history.iter().map(|r| r.pos).collect();
        for p in self.points() {
            if let Some(s) = self.stone_at(p) {
                if !played.contains(&p) {
                    b.place(p.transform(sym, n), s).expect("empty");
                }
            }
        }
        let first = self.history.first().map_or(self.side, |r| r.stone);
        b.set_side_to_move(first);
        for r in &self.history {
            b.set_side_to_move(r.stone);
            b.make(r.pos.transform(sym, n)).expect("empty");
        }
        b.set_side_to_move(self.side);
        b
    }
}
