//! `--adjudicate`, `--resign` and `--draw` into a run's game settings.

use anyhow::{bail, Result};
use wuzi_arena::adjudication::{DrawRule, ResignRule};
use wuzi_arena::referee::GameSettings;

use super::args::AdjudicationArgs;

/// Sets the adjudication rules of `game` from the options; a count of 0 or a resign score of
/// 0 is refused (it would end every game at once).
pub(crate) fn apply(args: &AdjudicationArgs, game: &mut GameSettings) -> Result<()> {
    game.adjudicate = args.adjudicate;
    game.resign = match args.resign.as_deref() {
        None => None,
        Some(&[count, score]) => {
            if count == 0 || score == 0 {
                bail!("--resign COUNT SCORE: both must be at least 1, got {count} {score}");
            }
            Some(ResignRule {
                count,
                score: score_value(score, "--resign")?,
            })
        }
        Some(v) => bail!("--resign takes COUNT SCORE, got {v:?}"),
    };
    game.draw = match args.draw.as_deref() {
        None => None,
        Some(&[count, score, ref from @ ..]) => {
            if count == 0 {
                bail!("--draw COUNT SCORE [FROM_MOVE]: COUNT must be at least 1");
            }
            Some(DrawRule {
                count,
                score: score_value(score, "--draw")?,
                from_move: from.first().map_or(0, |&m| m as usize),
            })
        }
        Some(v) => bail!("--draw takes COUNT SCORE [FROM_MOVE], got {v:?}"),
    };
    Ok(())
}

fn score_value(score: u32, option: &str) -> Result<i32> {
    i32::try_from(score).or_else(|_| bail!("{option}: SCORE {score} is too large"))
}
