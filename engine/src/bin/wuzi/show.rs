//! `wuzi show`: a diagram of a position, and the outcome if the game is over.

use super::position_args::PositionArgs;
use anyhow::Result;
use clap::Args;

// Options of `wuzi show`.
#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pos: PositionArgs,
}

/// Prints the diagram and the outcome or the side to move.
pub fn run(a: ShowArgs) -> Result<()> {
    let b = a.pos.board()?;
    print!("{}", b.diagram(&[]));
    match b.outcome() {
        Some(o) => println!("game over: {o}"),
        None => println!("rule {}, {} to move", b.rule(), b.side_to_move()),
    }
    Ok(())
}
