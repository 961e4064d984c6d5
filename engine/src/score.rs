//! Search scores: the mate scale shared by every player kind.

/// Score of a win now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this are forced results.
pub const MATE_BOUND: i32 = 29_000;
/// Static evaluations are clamped to this.
pub const EVAL_LIMIT: i32 = 20_000;

/// Plies to mate for a score, if it is a forced result.
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Text for a score: a number, or `win N` / `loss N` plies for forced results.
pub fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m > 0 => format!("win{m}"),
        Some(m) => format!("loss{}", -m),
        None => score.to_string(),
    }
}
