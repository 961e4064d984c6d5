//! One move of the game record.

use crate::pos::Pos;
use crate::stone::Stone;

/// One move of the game record, with what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Where the stone went.
    pub pos: Pos,
    /// Who played it.
    pub stone: Stone,
    /// It made a winning five.
    pub five: bool,
    /// It was a forbidden move for renju black.
    pub forbidden: bool,
}
