//! The brain's answers that search: its move, `SWAP2BOARD`, and `YXSHOWFORBID`.

use super::Brain;
use crate::fallback::fallback_move;
use crate::pos::Pos;
use crate::protocol::board_line::Owner;
use crate::protocol::error::ProtocolError;
use crate::protocol::reply::{reply, Failure};
use crate::protocol::swap2;
use crate::score::score_text;
use crate::search::{info_line, Info};
use crate::stone::Stone;
use std::io::Write;
use std::time::Instant;

impl Brain {
    /// `YXSHOWFORBID`: `FORBID ` then each forbidden point as two-digit x and y, then `.`;
    /// black's forbidden points when black is to move under renju, none otherwise (as Rapfi).
    pub(super) fn show_forbid(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
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
    pub(super) fn swap2(
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
    pub(super) fn answer(&mut self, received: Instant, out: &mut dyn Write) -> Result<(), Failure> {
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
}
