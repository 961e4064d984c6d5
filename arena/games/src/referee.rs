//! The referee: plays one game between two [`Player`]s on its own board and decides it.
//!
//! The referee never trusts a player. It keeps its own [`Board`] and checks every answer:
//! a move must be on the board and on an empty point; a renju black move on a forbidden point
//! loses (the board records it and [`Board::outcome`] reports it); five wins as the rule says
//! (exactly five where the rule asks for it, so an overline is no win in standard and a foul
//! for renju black); a full board or the move cap is a draw. A player that crashes (returns an
//! error or panics), answers no move, or overruns its clock loses, and the reason is recorded.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use wuzi_engine::Clock;
use wuzi_engine::{Board, Outcome, Pos, Rule, Stone, WinReason};

use crate::adjudication::{self, DrawRule, ProofRule, ResignRule};
use wuzi_players::{GameStart, MoveRequest, Player, PlayerError, PlayerLimits, PlayerReport};

/// Black's legal moves are checked for a draw once at most this many points are empty.
const NO_LEGAL_MOVE_CHECK: usize = 24;

/// Board, rule and adjudication settings shared by every game of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Board side (5 to 20).
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Draw when this many moves (opening included) have been played; `None`: only a full
    /// board draws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_moves: Option<usize>,
    /// Grace allowed beyond a move time or an empty game clock before a time loss, in ms.
    pub time_margin_ms: u64,
    /// `--adjudicate vcf[:NODES]`: end the game when the side to move has a proven VCF.
    /// Absent from run.json when off, so runs without it read and write as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate: Option<ProofRule>,
    /// `--resign COUNT SCORE`: end the game when both players' scores agree it is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// `--draw COUNT SCORE [FROM_MOVE]`: draw when both players' scores stay near zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            size: 15,
            rule: Rule::Renju,
            max_moves: None,
            time_margin_ms: 100,
            adjudicate: None,
            resign: None,
            draw: None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Five in a row (as the rule counts it).
    Five,
    /// Renju black played a forbidden move (overline, double-four, double-three).
    Forbidden,
    /// A player overran its move time or game clock.
    Timeout,
    /// A player failed (error or panic).
    Crash,
    /// A player answered an occupied or off-board point, or something that is not a move.
    Illegal,
    /// A player gave no move.
    NoMove,
    /// The board is full: draw.
    FullBoard,
    /// The move cap was reached: draw.
    MoveCap,
    /// The side to move had a proven win (`--adjudicate vcf`); the detail holds the line.
    Adjudicated,
    /// Both players' scores agreed one side is lost (`--resign`).
    Resign,
    /// Both players' scores stayed near zero (`--draw`): draw.
    DrawAgreed,
}

impl Reason {
    /// All reasons, in a fixed order for tables.
    pub const ALL: [Reason; 11] = [
        Reason::Five,
        Reason::Forbidden,
        Reason::Timeout,
        Reason::Crash,
        Reason::Illegal,
        Reason::NoMove,
        Reason::FullBoard,
        Reason::MoveCap,
        Reason::Adjudicated,
        Reason::Resign,
        Reason::DrawAgreed,
    ];

    /// The name used in records: `five`, `forbidden`, `timeout`, `crash`, `illegal`,
    /// `no-move`, `full-board`, `move-cap`, `adjudicated`, `resign`, `draw-agreed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Forbidden => "forbidden",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::Illegal => "illegal",
            Reason::NoMove => "no-move",
            Reason::FullBoard => "full-board",
            Reason::MoveCap => "move-cap",
            Reason::Adjudicated => "adjudicated",
            Reason::Resign => "resign",
            Reason::DrawAgreed => "draw-agreed",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move played by a player (opening moves are not included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Pos,
    /// Wall time the player took, in ms.
    pub ms: u64,
    /// Nodes searched, if the player says.
    pub nodes: Option<u64>,
    /// Depth reached, if the player says.
    pub depth: Option<i32>,
    /// Score for the mover, if the player says.
    pub score: Option<i32>,
}

/// The referee's verdict on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winning colour; `None` for a draw.
    pub winner: Option<Stone>,
    /// Why the game ended.
    pub reason: Reason,
    /// Details for losses by crash, illegal move or timeout (what was answered, how late).
    pub detail: Option<String>,
    /// The moves played after the opening.
    pub moves: Vec<PlayedMove>,
    /// Total wall time of the game in ms.
    pub time_ms: u64,
    /// What each player (black first) adds to the record: limits it was given, notes.
    pub reports: [PlayerReport; 2],
}

impl GameResult {
    fn loss(loser: Stone, reason: Reason, detail: String, moves: Vec<PlayedMove>) -> GameResult {
        GameResult {
            winner: Some(loser.opp()),
            reason,
            detail: Some(detail),
            moves,
            time_ms: 0,
            reports: Default::default(),
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` (black's score first).
    pub fn score_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

/// The result text of a game that `winner` won (`None`: a draw): `1-0`, `0-1` or `1/2-1/2`.
pub fn result_text(winner: Option<Stone>) -> &'static str {
    match winner {
        Some(Stone::Black) => "1-0",
        Some(Stone::White) => "0-1",
        None => "1/2-1/2",
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// Plays one game from `opening` (moves from the empty board, assumed legal: see
/// [`crate::opening::Opening::check`]). `players` and `limits` are indexed by colour, black
/// first. `seed` is handed to the players in [`GameStart`].
///
/// An opening the board rejects gives an error; everything a player does wrong is a loss.
pub fn play_game(
    settings: &GameSettings,
    opening: &[Pos],
    players: [&mut dyn Player; 2],
    limits: [&PlayerLimits; 2],
    seed: u64,
) -> Result<GameResult, wuzi_engine::BoardError> {
    let result = play_game_unless(settings, opening, players, limits, seed, &|| false)?;
    Ok(result.expect("a game that is never stopped ends with a result"))
}

/// [`play_game`], abandoned between two moves once `stop` returns true (an interrupted run,
/// see `wuzi_runs::interrupt`): `Ok(None)`, and the players are told the game ended.
pub fn play_game_unless(
    settings: &GameSettings,
    opening: &[Pos],
    players: [&mut dyn Player; 2],
    limits: [&PlayerLimits; 2],
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameResult>, wuzi_engine::BoardError> {
    let start = Instant::now();
    let mut players = players;
    let result = referee(settings, opening, &mut players, limits, seed, stop)?;
    for p in players.iter_mut() {
        p.end_game();
    }
    let Some(mut result) = result else {
        return Ok(None);
    };
    for (p, report) in players.iter_mut().zip(result.reports.iter_mut()) {
        *report = p.report();
    }
    add_last_lines(&mut result, &players);
    result.time_ms = start.elapsed().as_millis() as u64;
    Ok(Some(result))
}

/// A loss by a failure (crash, time, illegal or no move) of an external brain quotes the last
/// protocol lines it exchanged, so the record says what was said even without `--log-io`.
fn add_last_lines(result: &mut GameResult, players: &[&mut dyn Player; 2]) {
    use Reason::{Crash, Illegal, NoMove, Timeout};
    let failed = matches!(result.reason, Crash | Timeout | Illegal | NoMove);
    let loser = result.winner.filter(|_| failed).map(|w| w.opp().index());
    if let Some(k) = loser.filter(|&k| !result.reports[k].last_lines.is_empty()) {
        let (name, lines) = (players[k].name(), result.reports[k].last_lines.join("\n"));
        let detail = result.detail.get_or_insert_with(String::new);
        detail.push_str(&format!(
            "\nlast lines with {name} (> sent, < received):\n{lines}"
        ));
    }
}

fn referee(
    settings: &GameSettings,
    opening: &[Pos],
    players: &mut [&mut dyn Player; 2],
    limits: [&PlayerLimits; 2],
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameResult>, wuzi_engine::BoardError> {
    let mut board = Board::from_moves(settings.size, settings.rule, opening)?;
    let mut history: Vec<Pos> = opening.to_vec();
    let mut moves: Vec<PlayedMove> = Vec::new();

    for color in Stone::ALL {
        let start = GameStart {
            size: settings.size,
            rule: settings.rule,
            color,
            seed,
        };
        let player = &mut players[color.index()];
        match catch_unwind(AssertUnwindSafe(|| player.new_game(&start))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return Ok(Some(GameResult::loss(
                    color,
                    Reason::Crash,
                    e.to_string(),
                    moves,
                )))
            }
            Err(p) => {
                return Ok(Some(GameResult::loss(
                    color,
                    Reason::Crash,
                    format!("panic in new_game: {}", panic_message(p)),
                    moves,
                )))
            }
        }
    }

    let margin = settings.time_margin_ms as i64;
    let mut time_left: [Option<i64>; 2] = [
        limits[0].game_ms.map(|t| t as i64),
        limits[1].game_ms.map(|t| t as i64),
    ];

    let result = loop {
        if let Some(outcome) = board.outcome() {
            break match outcome {
                Outcome::Win { winner, reason } => GameResult {
                    winner: Some(winner),
                    reason: match reason {
                        WinReason::Five => Reason::Five,
                        WinReason::Forbidden => Reason::Forbidden,
                    },
                    detail: None,
                    moves,
                    time_ms: 0,
                    reports: Default::default(),
                },
                Outcome::Draw => GameResult {
                    winner: None,
                    reason: Reason::FullBoard,
                    detail: None,
                    moves,
                    time_ms: 0,
                    reports: Default::default(),
                },
            };
        }
        if settings.max_moves.is_some_and(|cap| history.len() >= cap) {
            break GameResult {
                winner: None,
                reason: Reason::MoveCap,
                detail: None,
                moves,
                time_ms: 0,
                reports: Default::default(),
            };
        }
        let side = board.side_to_move();
        // Renju: when every empty point is forbidden for black, black cannot move and the
        // game is drawn, like a full board (RIF lets a player pass; the protocol cannot). Only
        // a nearly full board can get there, so the check costs nothing earlier.
        let empty = settings.size * settings.size - board.stone_count();
        if side == Stone::Black
            && settings.rule == Rule::Renju
            && empty <= NO_LEGAL_MOVE_CHECK
            && board.legal_moves().is_empty()
        {
            break GameResult {
                winner: None,
                reason: Reason::FullBoard,
                detail: Some(format!(
                    "black has no legal move: all {empty} empty points are forbidden"
                )),
                moves,
                time_ms: 0,
                reports: Default::default(),
            };
        }
        if let Some(r) = adjudicate(settings, &mut board, history.len(), &mut moves) {
            break r;
        }
        if stop() {
            return Ok(None);
        }
        let lim = limits[side.index()];
        let clock = (lim.game_ms.is_some() || lim.move_ms.is_some()).then(|| Clock {
            time_left_ms: time_left[side.index()].map_or(u64::MAX / 4, |t| t.max(0) as u64),
            increment_ms: lim.inc_ms,
            turn_ms: lim.move_ms,
        });
        let request = MoveRequest {
            board: &board,
            moves: &history,
            clock,
        };
        let player = &mut players[side.index()];
        let t0 = Instant::now();
        let answer = catch_unwind(AssertUnwindSafe(|| player.play(&request)));
        // An external brain's settle gap and set-up are not its thinking time.
        let ms = (t0.elapsed().as_millis() as u64).saturating_sub(player.unclocked_ms());

        // A player that gave up waiting says best why (what its brain sent instead).
        if let Ok(Err(PlayerError::Timeout(m))) = &answer {
            break GameResult::loss(side, Reason::Timeout, m.clone(), moves);
        }
        // Time first: a late move loses even when it would have won.
        if let Some(left) = &mut time_left[side.index()] {
            *left -= ms as i64;
            if *left < -margin {
                let detail = format!("game clock overrun by {} ms", -*left);
                break GameResult::loss(side, Reason::Timeout, detail, moves);
            }
            *left += lim.inc_ms as i64;
        }
        if let Some(turn) = lim.move_ms {
            if ms as i64 > turn as i64 + margin {
                let detail = format!("move took {ms} ms, limit {turn} ms");
                break GameResult::loss(side, Reason::Timeout, detail, moves);
            }
        }

        let reply = match answer {
            Ok(Ok(reply)) => reply,
            Ok(Err(PlayerError::Illegal(m))) => {
                break GameResult::loss(side, Reason::Illegal, m, moves)
            }
            Ok(Err(PlayerError::Timeout(m))) => {
                break GameResult::loss(side, Reason::Timeout, m, moves)
            }
            Ok(Err(PlayerError::Crash(m))) => {
                break GameResult::loss(side, Reason::Crash, m, moves)
            }
            Err(p) => {
                let detail = format!("panic: {}", panic_message(p));
                break GameResult::loss(side, Reason::Crash, detail, moves);
            }
        };
        let Some(mv) = reply.mv else {
            break GameResult::loss(side, Reason::NoMove, "no move".into(), moves);
        };
        if let Err(e) = board.make(mv) {
            break GameResult::loss(side, Reason::Illegal, e.to_string(), moves);
        }
        history.push(mv);
        moves.push(PlayedMove {
            mv,
            ms,
            nodes: reply.nodes,
            depth: reply.depth,
            score: reply.score,
        });
    };
    Ok(Some(result))
}

/// The adjudication rules of `settings` on the position after the last move, a proof first
/// (it is exact), then resign, then draw; the game's result if one ends it. `moves` is taken
/// only when a result is returned.
fn adjudicate(
    settings: &GameSettings,
    board: &mut Board,
    game_len: usize,
    moves: &mut Vec<PlayedMove>,
) -> Option<GameResult> {
    let end = |winner, reason, detail, moves| GameResult {
        winner,
        reason,
        detail: Some(detail),
        moves,
        time_ms: 0,
        reports: Default::default(),
    };
    if let Some(rule) = settings.adjudicate {
        if let Some(proof) = adjudication::prove(board, rule) {
            let detail = proof.detail();
            return Some(end(
                Some(proof.winner),
                Reason::Adjudicated,
                detail,
                std::mem::take(moves),
            ));
        }
    }
    if settings.resign.is_none() && settings.draw.is_none() {
        return None;
    }
    let scores: Vec<Option<i32>> = moves.iter().map(|m| m.score).collect();
    let last = board.side_to_move().opp();
    if let Some(rule) = settings.resign {
        if let Some(winner) = adjudication::resign_winner(rule, &scores, last) {
            let detail = format!(
                "{} resigns: scores beyond {} for {} moves of each player",
                winner.opp(),
                rule.score,
                rule.count
            );
            return Some(end(
                Some(winner),
                Reason::Resign,
                detail,
                std::mem::take(moves),
            ));
        }
    }
    if let Some(rule) = settings.draw {
        if adjudication::draw_agreed(rule, &scores, game_len) {
            let detail = format!(
                "draw: scores within {} of zero for {} moves of each player",
                rule.score, rule.count
            );
            return Some(end(None, Reason::DrawAgreed, detail, std::mem::take(moves)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_engine::{Engine, Params};
    use wuzi_players::{EnginePlayer, MoveReply, Scripted};

    fn pos(s: &str) -> Vec<Pos> {
        Pos::parse_list(s, 20).expect("valid")
    }

    #[test]
    fn a_stopped_game_is_abandoned_between_moves_without_a_result() {
        let settings = GameSettings::default();
        let mut b = Scripted::new("b", pos("h8 h9 h10 h11 h12"));
        let mut w = Scripted::new("w", pos("a1 a2 a3 a4"));
        let l = nodes();
        // The stop comes after three moves: the game is dropped, not decided.
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let r = play_game_unless(&settings, &[], [&mut b, &mut w], [&l, &l], 0, &stop);
        assert_eq!(r.expect("no board error"), None);
        assert_eq!(asked.get(), 4);
        // Never stopped: the same game is played out.
        let mut b = Scripted::new("b", pos("h8 h9 h10 h11 h12"));
        let mut w = Scripted::new("w", pos("a1 a2 a3 a4"));
        let r = play_game_unless(&settings, &[], [&mut b, &mut w], [&l, &l], 0, &|| false)
            .expect("no board error")
            .expect("a result");
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Five));
    }

    fn nodes() -> PlayerLimits {
        PlayerLimits {
            nodes: Some(300),
            ..PlayerLimits::default()
        }
    }

    /// Plays a scripted game: `black` and `white` move lists after `opening`.
    fn scripted(rule: Rule, size: usize, opening: &str, black: &str, white: &str) -> GameResult {
        let settings = GameSettings {
            size,
            rule,
            ..GameSettings::default()
        };
        let mut b = Scripted::new("b", pos(black));
        let mut w = Scripted::new("w", pos(white));
        let l = nodes();
        play_game(&settings, &pos(opening), [&mut b, &mut w], [&l, &l], 0).expect("opening")
    }

    #[test]
    fn five_wins() {
        let r = scripted(Rule::Renju, 15, "", "h8 i8 j8 k8 l8", "a1 a2 a3 a4");
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Five));
        assert_eq!(r.moves.len(), 9);
        assert_eq!(r.score_text(), "1-0");
        let r = scripted(Rule::Renju, 15, "h8", "a1 a2 a3 a4", "b1 b2 b3 b4 b5");
        assert_eq!((r.winner, r.reason), (Some(Stone::White), Reason::Five));
    }

    #[test]
    fn renju_black_overline_is_a_foul_white_overline_wins() {
        // Black has h8 i8 k8 l8 m8 and fills j8: six in a row.
        let black = "h8 i8 k8 l8 m8 j8";
        let white = "a1 a3 a5 a7 a9";
        let r = scripted(Rule::Renju, 15, "", black, white);
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::White), Reason::Forbidden)
        );
        // Freestyle: the same overline wins for black.
        let r = scripted(Rule::Freestyle, 15, "", black, white);
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Five));
        // Standard: no win, the game goes on and white completes its five.
        let r = scripted(
            Rule::Standard,
            15,
            "",
            "h8 i8 k8 l8 m8 j8 o1",
            "a1 a2 a3 a4 c9 a5",
        );
        assert_eq!((r.winner, r.reason), (Some(Stone::White), Reason::Five));
        assert_eq!(r.moves.len(), 12);
        // Renju white: an overline wins.
        let r = scripted(
            Rule::Renju,
            15,
            "",
            "a1 a3 a5 a7 a9 a11 a13",
            "h8 i8 k8 l8 m8 j8",
        );
        assert_eq!((r.winner, r.reason), (Some(Stone::White), Reason::Five));
    }

    #[test]
    fn renju_double_three_and_double_four_lose() {
        // Double-three: black stones h8 i8 (row 8) and g9 g10 (column g) make two open threes
        // at g8.
        let r = scripted(Rule::Renju, 15, "", "h8 i8 g9 g10 g8", "a1 a3 a5 a7");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::White), Reason::Forbidden)
        );
        // Freestyle: the same move is fine; the game continues until the scripts run out.
        let r = scripted(Rule::Freestyle, 15, "", "h8 i8 g9 g10 g8", "a1 a3 a5 a7 a9");
        assert_eq!((r.winner, r.reason), (Some(Stone::White), Reason::NoMove));
        // Double-four on one line: X.XXX.X, the last stone the centre one.
        let r = scripted(Rule::Renju, 15, "", "d8 f8 h8 j8 g8", "a1 a3 a5 a7 a9");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::White), Reason::Forbidden)
        );
        // Five beats the foul: h8 makes exactly five in its row and two fours (column h,
        // diagonal h8-k11), which without the five would be a forbidden double-four.
        let r = scripted(
            Rule::Renju,
            15,
            "",
            "d8 e8 f8 g8 h10 h11 h12 i9 j10 k11 h8",
            "a1 a3 a5 a7 a9 a11 a13 a15 c1 c3",
        );
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Five));
    }

    #[test]
    fn illegal_and_missing_moves_lose() {
        let r = scripted(Rule::Renju, 15, "h8", "", "h8");
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Illegal));
        assert!(
            r.detail.as_deref().unwrap_or("").contains("occupied"),
            "{r:?}"
        );
        let r = scripted(Rule::Renju, 15, "h8", "", "p16");
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::Illegal));
        assert!(
            r.detail.as_deref().unwrap_or("").contains("off the 15x15"),
            "{r:?}"
        );
        let r = scripted(Rule::Renju, 15, "h8", "", "");
        assert_eq!((r.winner, r.reason), (Some(Stone::Black), Reason::NoMove));
    }

    /// Regression: self-play at 500 nodes (detuned.toml, random opening `e6 i8 i10`, pair 359)
    /// reached a board whose one empty point was forbidden for black; black was scored
    /// as losing for making no move. It is a draw, like a full board.
    #[test]
    fn renju_black_without_legal_move_draws() {
        let white =
            "h9 k10 k8 f10 k7 j7 k6 h6 m9 l7 j10 m11 n6 j5 m8 j6 l12 j4 i5 m5 f8 l6 n4 g3 k4 \
            m4 g6 k12 o2 l3 g9 k2 o6 f12 m2 l2 i2 m3 k1 e8 f5 f4 h7 c12 e5 i3 e7 d10 d5 c6 h2 c5 \
            f11 j13 i11 f13 b8 a6 a10 e9 b3 k13 c7 a8 k11 a7 m13 l13 o9 a4 c3 f3 k15 l14 h13 n12 \
            m12 j15 i15 f2 e2 e11 e13 g12 d15 h1 o13 b15 d1 b12 n7 c14 a15 b1 e1 o1 c2 d3 n3 f7 n8 \
            b10 b11 n11 a13 c13 a14 e14 f15 o15 n15";
        let black =
            "g10 j9 h10 j8 k9 i7 l5 l9 l8 m7 l10 o5 k5 i4 n9 l11 i6 j3 n5 k3 g7 m6 o3 h4 g8 \
            l4 m10 o4 l1 g11 h5 o7 i9 f9 n1 n2 j2 m1 d7 g4 e4 e10 d11 f6 g5 d8 d9 d6 b6 h11 i1 b5 \
            i12 i13 b7 f14 c8 b9 c9 b4 c11 c10 e12 j14 k14 a9 n14 n13 n10 a5 c4 h12 e3 h14 j12 o11 \
            o12 m14 h15 f1 g2 d12 d13 i14 g1 o14 b2 l15 e15 b14 d2 a11 a1 c1 j1 a2 a3 h3 d4 h8 o8 \
            o10 j11 a12 b13 g13 d14 c15 g15 m15";
        let r = scripted(Rule::Renju, 15, "e6 i8 i10", black, white);
        assert_eq!((r.winner, r.reason), (None, Reason::FullBoard), "{r:?}");
        assert_eq!(r.moves.len(), 221);
        assert!(
            r.detail.as_deref().unwrap_or("").contains("no legal move"),
            "{r:?}"
        );
        // Freestyle has no forbidden points: black plays the last point.
        let r = scripted(Rule::Freestyle, 15, "e6 i8 i10", black, white);
        assert_ne!(r.reason, Reason::FullBoard, "{r:?}");
    }

    #[test]
    fn full_board_and_move_cap_draw() {
        // 5x5 freestyle, filled from a colouring without five in a row (pairs of colours
        // shifted by two each row): 13 black and 12 white cells.
        let colour = |x: usize, y: usize| (x + 2 * y) % 4 < 2;
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                if colour(x, y) {
                    blacks.push(Pos::new(x, y));
                } else {
                    whites.push(Pos::new(x, y));
                }
            }
        }
        // The colouring has 13 of one kind; black moves first so black takes the larger set.
        if blacks.len() < whites.len() {
            std::mem::swap(&mut blacks, &mut whites);
        }
        assert_eq!((blacks.len(), whites.len()), (13, 12));
        let settings = GameSettings {
            size: 5,
            rule: Rule::Freestyle,
            ..GameSettings::default()
        };
        let mut b = Scripted::new("b", blacks);
        let mut w = Scripted::new("w", whites);
        let l = nodes();
        let r = play_game(&settings, &[], [&mut b, &mut w], [&l, &l], 0).expect("ok");
        assert_eq!((r.winner, r.reason), (None, Reason::FullBoard), "{r:?}");
        assert_eq!(r.moves.len(), 25);
        assert_eq!(r.score_text(), "1/2-1/2");

        let settings = GameSettings {
            max_moves: Some(6),
            ..GameSettings::default()
        };
        let mut b = Scripted::new("b", pos("a1 a3 a5"));
        let mut w = Scripted::new("w", pos("o1 o3 o5"));
        let r = play_game(&settings, &pos("h8 h9"), [&mut b, &mut w], [&l, &l], 0).expect("ok");
        assert_eq!((r.winner, r.reason), (None, Reason::MoveCap));
        assert_eq!(r.moves.len(), 4);
    }

    struct Faulty(u8);
    impl Player for Faulty {
        fn name(&self) -> &str {
            "faulty"
        }
        fn new_game(&mut self, _: &GameStart) -> Result<(), PlayerError> {
            Ok(())
        }
        fn play(&mut self, _: &MoveRequest<'_>) -> Result<MoveReply, PlayerError> {
            match self.0 {
                0 => Err(PlayerError::Crash("pipe closed".into())),
                1 => Err(PlayerError::Illegal("'xyz'".into())),
                _ => panic!("bug in player"),
            }
        }
    }

    #[test]
    fn crashes_and_panics_lose() {
        let settings = GameSettings::default();
        let l = nodes();
        for (kind, reason) in [(0, Reason::Crash), (1, Reason::Illegal), (2, Reason::Crash)] {
            let mut b = Scripted::new("b", pos("h8 a1"));
            let mut w = Faulty(kind);
            let r = play_game(&settings, &[], [&mut b, &mut w], [&l, &l], 0).expect("ok");
            assert_eq!((r.winner, r.reason), (Some(Stone::Black), reason), "{r:?}");
            assert_eq!(r.moves.len(), 1);
        }
    }

    #[test]
    fn slow_players_lose_on_time() {
        let settings = GameSettings {
            time_margin_ms: 5,
            ..GameSettings::default()
        };
        let fast = nodes();
        let clock = PlayerLimits {
            game_ms: Some(60),
            inc_ms: 0,
            ..PlayerLimits::default()
        };
        let mut b = Scripted::new("b", pos("a1 a3 a5 a7 a9"));
        let mut w = Scripted::new("w", pos("o1 o3 o5 o7 o9")).with_delay(30);
        let r = play_game(&settings, &[], [&mut b, &mut w], [&fast, &clock], 0).expect("ok");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Stone::Black), Reason::Timeout),
            "{r:?}"
        );
        assert!(r.moves.len() >= 3 && r.moves.len() <= 5, "{r:?}");

        let per_move = PlayerLimits {
            move_ms: Some(10),
            ..PlayerLimits::default()
        };
        let mut b = Scripted::new("b", pos("a1 a3")).with_delay(40);
        let mut w = Scripted::new("w", pos("o1 o3"));
        let r = play_game(&settings, &[], [&mut b, &mut w], [&per_move, &fast], 0).expect("ok");
        assert_eq!((r.winner, r.reason), (Some(Stone::White), Reason::Timeout));
        assert!(r.moves.is_empty());
    }

    #[test]
    fn engines_finish_a_game_with_node_counts() {
        let settings = GameSettings::default();
        let l = nodes();
        let mut a = EnginePlayer::new("a", Engine::new(Params::default(), 1, 1), l.clone());
        let mut b = EnginePlayer::new("b", Engine::new(Params::default(), 1, 1), l.clone());
        let r = play_game(&settings, &pos("h8 h9 h10"), [&mut a, &mut b], [&l, &l], 0).expect("ok");
        assert!(
            matches!(r.reason, Reason::Five | Reason::FullBoard),
            "{r:?}"
        );
        assert!(
            r.moves
                .iter()
                .all(|m| m.nodes.is_some_and(|n| n <= 300 + 64)),
            "{r:?}"
        );
        // The same game again: identical moves (node limits are deterministic).
        let r2 =
            play_game(&settings, &pos("h8 h9 h10"), [&mut a, &mut b], [&l, &l], 0).expect("ok");
        let mv = |r: &GameResult| r.moves.iter().map(|m| (m.mv, m.nodes)).collect::<Vec<_>>();
        assert_eq!(mv(&r), mv(&r2));
    }
}
