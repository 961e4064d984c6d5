//! The position of a command: a move list, or stones placed directly.

use anyhow::{Context, Result};
use clap::Args;
use wuzi_engine::board::Board;
use wuzi_engine::pos::Pos;
use wuzi_engine::rule::Rule;
use wuzi_engine::stone::Stone;

/// A position given as a move list or as stones placed directly.
#[derive(Args, Clone)]
pub struct PositionArgs {
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Moves in play order from the empty board, black first (`h8 i9 j10` or `h8i9j10`).
    #[arg(long, conflicts_with_all = ["black", "white"])]
    moves: Option<String>,
    /// Black stones placed directly.
    #[arg(long)]
    black: Option<String>,
    /// White stones placed directly.
    #[arg(long)]
    white: Option<String>,
    /// Side to move, where the stone counts do not decide it.
    #[arg(long)]
    to_move: Option<Stone>,
}

impl PositionArgs {
    /// The board these arguments describe.
    pub fn board(&self) -> Result<Board> {
        let list = |s: &Option<String>| -> Result<Vec<Pos>> {
            Ok(match s {
                Some(s) => Pos::parse_list(s, self.size)?,
                None => Vec::new(),
            })
        };
        let mut b = if let Some(m) = &self.moves {
            let mut b = Board::new(self.size, self.rule)?;
            for (i, p) in Pos::parse_list(m, self.size)?.into_iter().enumerate() {
                b.make(p).with_context(|| format!("move {} ({p})", i + 1))?;
            }
            b
        } else {
            Board::from_stones(
                self.size,
                self.rule,
                &list(&self.black)?,
                &list(&self.white)?,
            )?
        };
        if let Some(s) = self.to_move {
            b.set_side_to_move(s);
        }
        Ok(b)
    }
}
