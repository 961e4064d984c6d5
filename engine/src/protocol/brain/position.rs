//! Setting the brain's position: the opponent's moves, takebacks, a change of rule, and
//! `BOARD`/`YXBOARD`/`SWAP2BOARD` blocks, kept as moves in play order.

use super::{BlockKind, Brain, Flow};
use crate::board::Board;
use crate::pos::Pos;
use crate::protocol::board_line::{parse_board_line, Owner};
use crate::protocol::command::parse_pair;
use crate::protocol::error::ProtocolError;
use crate::protocol::reply::{finish, Failure};
use crate::rule::Rule;
use crate::stone::Stone;
use std::io::{self, Write};
use std::time::Instant;

impl Brain {
    /// Changes the rule, replaying the game under it.
    pub(super) fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(b) = &self.board {
            self.board = Some(replay(b, rule, None));
        }
    }

    /// Checks that x,y is an empty point of the current board.
    pub(super) fn empty_point(&self, x: usize, y: usize) -> Result<Pos, ProtocolError> {
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

    pub(super) fn opponent_move(&mut self, x: usize, y: usize) -> Result<(), Failure> {
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

    pub(super) fn takeback(&mut self, x: usize, y: usize) -> Result<(), Failure> {
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

    pub(super) fn board_block_line(
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
    pub(super) fn set_up(&mut self, stones: &[(usize, usize, Owner)]) -> Result<(), Failure> {
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
