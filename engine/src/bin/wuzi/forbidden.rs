//! `wuzi forbidden`: a position and black's forbidden points.

use super::position_args::PositionArgs;
use anyhow::Result;
use clap::Args;
use wuzi_engine::pos::Pos;

// Options of `wuzi forbidden` (a plain comment: a doc comment would be clap's help text).
#[derive(Args)]
pub struct ForbiddenArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print `{"forbidden": [...]}` instead of a diagram.
    #[arg(long)]
    json: bool,
}

/// Prints the diagram with the forbidden points marked, or them as JSON.
pub fn run(a: ForbiddenArgs) -> Result<()> {
    let mut b = a.pos.board()?;
    let f = b.forbidden_points();
    if a.json {
        let v: Vec<String> = f.iter().map(|p| p.to_string()).collect();
        println!("{}", serde_json::json!({ "forbidden": v }));
    } else {
        print!("{}", b.diagram(&f));
        println!("rule {}, {} to move", b.rule(), b.side_to_move());
        println!(
            "forbidden for black: {}",
            if f.is_empty() {
                "none".to_string()
            } else {
                Pos::format_list(&f)
            }
        );
    }
    Ok(())
}
