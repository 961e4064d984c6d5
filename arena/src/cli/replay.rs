//! `wuzi-arena replay DIR --game PAIR.GAME`: plays a recorded game again with its players and
//! limits and says whether it came out the same. Exit status: 0 identical (same moves, same
//! result), 1 diverged (the first divergent move is printed), 2 error (no run folder, unknown
//! game, unreadable records).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use wuzi_arena::record::MoveEntry;
use wuzi_arena::referee::PlayedMove;
use wuzi_arena::replay::{find_game, replay, Divergence, GameId, Replay};
use wuzi_engine::Board;

use super::outcome::Diverged;

/// Prints `text` and a newline on standard output; a closed pipe (`| head`) is not an error,
/// and the exit status still tells identical from diverged.
fn say(text: &str) {
    wuzi_arena::outln!("{text}");
}

/// What a player reported with a move: `score -35, nodes 2000, depth 4`.
fn report(score: Option<i32>, nodes: Option<u64>, depth: Option<i32>) -> String {
    let mut parts = Vec::new();
    if let Some(s) = score {
        parts.push(format!("score {s}"));
    }
    if let Some(n) = nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(d) = depth {
        parts.push(format!("depth {d}"));
    }
    if parts.is_empty() {
        "nothing reported".into()
    } else {
        parts.join(", ")
    }
}

fn recorded_text(m: &Option<MoveEntry>) -> String {
    match m {
        Some(m) => format!("{} ({})", m.mv, report(m.score, m.nodes, m.depth)),
        None => "none (the recorded game had ended)".into(),
    }
}

fn replayed_text(m: &Option<PlayedMove>) -> String {
    match m {
        Some(m) => format!("{} ({})", m.mv, report(m.score, m.nodes, m.depth)),
        None => "none (the replayed game had ended)".into(),
    }
}

fn colour_of(ply: usize) -> &'static str {
    if ply % 2 == 0 {
        "black"
    } else {
        "white"
    }
}

/// The replayed game's boards: after the opening, then after each move played, as the
/// engine draws them (highest row first, the last move in brackets).
fn boards(r: &Replay, size: usize, rule: wuzi_engine::Rule) -> String {
    let mut out = String::new();
    let opening = &r.record.opening.opening;
    let Ok(mut board) = Board::from_moves(size, rule, &opening.moves) else {
        return "(the opening does not fit the board)\n".into();
    };
    let _ = writeln!(out, "after the opening {}", opening.id);
    out.push_str(&board.diagram(&[]));
    for (i, m) in r.replayed.moves.iter().enumerate() {
        let ply = opening.moves.len() + i;
        // A renju foul is recorded by the board; anything it refuses ends the drawing.
        if let Err(e) = board.make(m.mv) {
            let _ = writeln!(out, "move {}: {} refused by the board: {e}", ply + 1, m.mv);
            break;
        }
        let _ = writeln!(
            out,
            "\nmove {} {} {} ({})",
            ply + 1,
            colour_of(ply),
            m.mv,
            report(m.score, m.nodes, m.depth)
        );
        out.push_str(&board.diagram(&[]));
    }
    out
}

/// `wuzi-arena replay DIR --game ID [--show]`.
pub(crate) fn replay_command(dir: &Path, id: GameId, show: bool) -> Result<()> {
    let (config, record) = find_game(dir, id)?;
    let [bi, wi] = config.colours(record.matchup, record.game);
    let (bs, ws) = (&config.players[bi], &config.players[wi]);
    let deterministic = bs.limits.is_deterministic() && ws.limits.is_deterministic();
    say(&format!(
        "replaying game {id} (pair {}, game {}): black {} ({}), white {} ({}); opening {}; \
         seed {}; {} {}x{}",
        id.pair,
        id.game,
        bs.name,
        bs.limits.describe(),
        ws.name,
        ws.limits.describe(),
        record.opening.opening.id,
        record.seed,
        config.game.rule,
        config.game.size,
        config.game.size
    ));
    let r = replay(&config, &record)?;
    if show {
        say(&boards(&r, config.game.size, config.game.rule));
    }
    let total = |moves: usize| record.opening.opening.moves.len() + moves;
    let recorded_end = format!(
        "{} {} after {} moves",
        record.result,
        record.reason,
        total(record.moves.len())
    );
    let replayed_end = format!(
        "{} {} after {} moves",
        r.replayed.score_text(),
        r.replayed.reason,
        total(r.replayed.moves.len())
    );
    if r.identical() {
        say(&format!(
            "identical: {} moves, same result ({recorded_end})",
            total(record.moves.len()),
        ));
        if let Some(ply) = r.first_report_difference {
            say(&format!(
                "note: the players' reports (score, nodes, depth) differ from move {} on, \
                 although the moves are the same: another build?",
                ply + 1
            ));
        }
        return Ok(());
    }
    match &r.divergence {
        Some(Divergence {
            ply,
            recorded,
            replayed,
        }) => say(&format!(
            "diverged at move {} ({} to move): recorded {}, replayed {}",
            ply + 1,
            colour_of(*ply),
            recorded_text(recorded),
            replayed_text(replayed)
        )),
        None => say("same moves, different result"),
    }
    say(&format!(
        "recorded: {recorded_end}; replayed: {replayed_end}"
    ));
    if let Some(detail) = &r.replayed.detail {
        say(&format!("replayed detail: {detail}"));
    }
    say(if deterministic {
        "both players are node- or depth-limited, so the game should have been the same: \
         the build, the players' parameters or the engine's determinism changed"
    } else {
        "a player is time-limited: replays of timed games diverge as timing varies"
    });
    Err(Diverged.into())
}
