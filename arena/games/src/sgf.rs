//! SGF export (FF\[4\], `GM[4]` = gomoku/renju) of game records, for viewers and databases
//! that read SGF (Renlib-style tools, Sabaki, ...).
//!
//! One game tree a game:
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[wuzi-arena]SZ[15]RU[renju]PB[base]PW[new]RE[W+]
//!  GN[pair 3 game 1]C[white wins: five ...]
//!  ;B[hh]C[opening 2D/s4, move 1 of 3];W[hg]...;B[gf]C[score -35, nodes 2000, depth 4, 21 ms]...)
//! ```
//! - Points are SGF points: column letter then row letter, both from `a`, with the origin at
//!   the **top left**. The project's notation counts rows from the bottom (`h8` is x 7, y 7;
//!   row 1 at the bottom, see the rules spec), so the SGF row letter is `size - 1 - y`.
//! - The opening is written as ordinary `B[]`/`W[]` moves, not as `AB`/`AW` setup: setup
//!   stones are a set and lose the order, and in renju the order (who played which stone,
//!   and which was last) is part of the position; every SGF viewer also steps through moves.
//!   Their comments say they are the opening.
//! - `RE` is `B+`, `W+` or `0` (draw), with `T` (time) or `F` (forfeit: a crash, an
//!   illegal or forbidden move, no move) after the `+` when the game was not won by a five;
//!   the reason in words is in the root comment.
//! - Each played move carries what the player reported (score from the mover's view, nodes,
//!   depth, time) as a `C[]` comment.

use std::fmt::Write as _;

use wuzi_engine::{Pos, Rule, Stone};

use crate::record::GameRecord;
use crate::referee::Reason;

/// `text` as an SGF text value: `\` and `]` escaped with a backslash (the two characters
/// that would otherwise end or break the value).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF point of `p` on a `size` board: column letter, then row letter counted from the
/// top (`h8` on 15x15 is `hh`, `a1` is `ao`).
pub fn sgf_point(p: Pos, size: usize) -> String {
    let letter = |i: usize| (b'a' + i as u8) as char;
    let mut s = String::with_capacity(2);
    s.push(letter(p.x()));
    s.push(letter(size - 1 - p.y()));
    s
}

/// The `RE` value: `B+`, `W+`, `0`, with `T` for a time loss, `F` for a forfeit and `R` for a
/// resignation (`--resign`).
fn result_value(record: &GameRecord) -> String {
    let Some(winner) = record.winner else {
        return "0".to_string();
    };
    let side = match winner {
        Stone::Black => "B",
        Stone::White => "W",
    };
    let how = match record.reason {
        Reason::Five => "",
        Reason::Timeout => "T",
        Reason::Resign => "R",
        // A proof has no SGF code; the root comment gives it.
        Reason::Adjudicated => "",
        Reason::Forbidden | Reason::Crash | Reason::Illegal | Reason::NoMove => "F",
        // A draw reason with a winner does not happen; say nothing more rather than lie.
        Reason::FullBoard | Reason::MoveCap | Reason::DrawAgreed => "",
    };
    format!("{side}+{how}")
}

/// The result in words for the root comment: `white wins: five`, `draw: full-board`.
fn result_words(record: &GameRecord) -> String {
    let mut s = match record.winner {
        Some(Stone::Black) => format!("black wins: {}", record.reason),
        Some(Stone::White) => format!("white wins: {}", record.reason),
        None => format!("draw: {}", record.reason),
    };
    if let Some(detail) = &record.detail {
        let _ = write!(s, " ({detail})");
    }
    s
}

/// A game record as one SGF game tree (`(;FF[4]GM[4]...)` and a newline) for a board of
/// `size` under `rule`, which the record does not hold (they are the run's).
pub fn to_sgf(record: &GameRecord, size: usize, rule: Rule) -> String {
    let mut s = String::new();
    let opening = &record.opening.opening;
    let _ = write!(
        s,
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi-arena:{}]SZ[{size}]RU[{rule}]",
        env!("CARGO_PKG_VERSION")
    );
    let _ = write!(
        s,
        "PB[{}]PW[{}]RE[{}]GN[pair {} game {}]",
        escape_text(&record.black.name),
        escape_text(&record.white.name),
        result_value(record),
        record.pair,
        record.game
    );
    let params = |p: &std::collections::BTreeMap<String, i32>| -> String {
        p.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut root = format!(
        "{}; {} moves; opening {} ({} moves, played as the first moves); seed {}",
        result_words(record),
        opening.moves.len() + record.moves.len(),
        opening.id,
        opening.moves.len(),
        record.seed
    );
    for (colour, p) in [("black", &record.black), ("white", &record.white)] {
        if !p.params.is_empty() {
            let _ = write!(root, "; {colour} {}: {}", p.name, params(&p.params));
        }
    }
    let _ = writeln!(s, "C[{}]", escape_text(&root));
    let colour = |ply: usize| if ply % 2 == 0 { 'B' } else { 'W' };
    for (i, &p) in opening.moves.iter().enumerate() {
        let _ = write!(
            s,
            ";{}[{}]C[{}]",
            colour(i),
            sgf_point(p, size),
            escape_text(&format!(
                "opening {}, move {} of {}",
                opening.id,
                i + 1,
                opening.moves.len()
            ))
        );
    }
    for (j, m) in record.moves.iter().enumerate() {
        let ply = opening.moves.len() + j;
        let mut note = Vec::new();
        if let Some(score) = m.score {
            note.push(format!("score {score}"));
        }
        if let Some(nodes) = m.nodes {
            note.push(format!("nodes {nodes}"));
        }
        if let Some(depth) = m.depth {
            note.push(format!("depth {depth}"));
        }
        note.push(format!("{} ms", m.ms));
        let _ = write!(
            s,
            "\n;{}[{}]C[{}]",
            colour(ply),
            sgf_point(m.mv, size),
            escape_text(&note.join(", "))
        );
    }
    s.push_str(")\n");
    s
}

/// File name of a game's SGF export: `pair000003-g1.sgf`.
pub fn sgf_file_name(record: &GameRecord) -> String {
    format!("pair{:06}-g{}.sgf", record.pair, record.game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_count_rows_from_the_top() {
        let p = |t: &str| Pos::parse(t, 15).expect("valid");
        assert_eq!(sgf_point(p("h8"), 15), "hh");
        assert_eq!(sgf_point(p("a1"), 15), "ao");
        assert_eq!(sgf_point(p("a15"), 15), "aa");
        assert_eq!(sgf_point(p("o1"), 15), "oo");
        assert_eq!(sgf_point(Pos::new(0, 0), 19), "as");
    }

    #[test]
    fn text_escapes_bracket_and_backslash() {
        assert_eq!(escape_text(r"a]b\c"), r"a\]b\\c");
        assert_eq!(escape_text("plain [text]"), r"plain [text\]");
    }
}
