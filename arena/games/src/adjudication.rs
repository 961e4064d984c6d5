//! Ending a game early: by proof (the engine's VCF solver) or by the players' own scores
//! (resign and draw rules, as c-gomoku-cli and fastchess offer them).
//!
//! A proof is exact: the solver follows the rule (renju black's forbidden points for both
//! attacker and defender, exactly five where the rule asks for it), so a game it ends is
//! lost for the defender whatever it plays. Score rules are trust in the players: they
//! only save time where both players agree.
//!
//! Pure functions on a board or on a list of scores; the referee calls them after each move.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wuzi_engine::threat::{self, ThreatKind};
use wuzi_engine::{Board, Stone};

/// Node budget of `--adjudicate vcf` without `:NODES`: the engine's own default root VCF
/// budget (`vcf_nodes`), so a proof costs at most what one root check of a player costs. A
/// position without a VCF usually fails in far fewer nodes (only fours are tried).
pub const DEFAULT_VCF_NODES: u64 = 20_000;

/// Deepest VCF tried, in attacker moves: the engine's own root VCF depth.
const VCF_DEPTH: u32 = 40;

/// Adjudication by proof: after each move the side to move is searched for a VCF (victory by
/// continuous fours) within `nodes`; a proven one ends the game as its win.
///
/// Written and read as the option's text, `vcf:NODES`, so run.json shows what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofRule {
    /// Node budget of each VCF search.
    pub nodes: u64,
}

impl FromStr for ProofRule {
    type Err = String;

    /// `vcf` or `vcf:NODES` (NODES at least 1).
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad adjudication '{s}': expected vcf or vcf:NODES (e.g. vcf:20000)");
        let (kind, nodes) = match s.trim().split_once(':') {
            Some((k, n)) => (k, Some(n)),
            None => (s.trim(), None),
        };
        if !kind.eq_ignore_ascii_case("vcf") {
            return Err(bad());
        }
        let nodes = match nodes {
            None => DEFAULT_VCF_NODES,
            Some(n) => match n.trim().parse::<u64>() {
                Ok(n) if n > 0 => n,
                _ => return Err(bad()),
            },
        };
        Ok(ProofRule { nodes })
    }
}

impl fmt::Display for ProofRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vcf:{}", self.nodes)
    }
}

impl Serialize for ProofRule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ProofRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A win found by [`prove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The side that wins (the side to move when it was found).
    pub winner: Stone,
    /// The winning line, the winner's moves and the forced replies alternating, in the
    /// project's notation (`h8 i9 ...`).
    pub line: String,
    /// Moves in the line.
    pub plies: usize,
    /// Solver nodes spent.
    pub nodes: u64,
}

impl Proof {
    /// The record's detail: `vcf for black in 5 moves: h8 i9 ... (1234 nodes)`.
    pub fn detail(&self) -> String {
        format!(
            "vcf for {} in {} moves: {} ({} nodes)",
            self.winner, self.plies, self.line, self.nodes
        )
    }
}

/// Searches the side to move of `board` for a VCF within `rule.nodes`. The board is given
/// back as it came (the solver makes and takes back its moves).
pub fn prove(board: &mut Board, rule: ProofRule) -> Option<Proof> {
    let winner = board.side_to_move();
    let win = threat::solve(board, ThreatKind::Vcf, VCF_DEPTH, rule.nodes)?;
    let line = win
        .line
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    Some(Proof {
        winner,
        line,
        plies: win.line.len(),
        nodes: win.nodes,
    })
}

/// `--resign COUNT SCORE`: the game is lost for a player when, over the last `count` moves
/// of each player, every score it reported is at most `-score` and every score its opponent
/// reported is at least `+score` (both engines agree; fastchess's `twosided`). A move without
/// a score breaks the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Moves of each player that must agree.
    pub count: u32,
    /// Score threshold, in the players' units (wuzi's: about 100 per pawn-like unit, mates
    /// near 30000).
    pub score: i32,
}

/// `--draw COUNT SCORE [FROM_MOVE]`: the game is drawn when, over the last `count` moves of
/// each player, every reported score is within `score` of zero, once at least `from_move`
/// moves (opening included) have been played. A move without a score breaks the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Moves of each player that must agree.
    pub count: u32,
    /// Largest score distance from zero.
    pub score: i32,
    /// Earliest game length (opening included) at which a draw is adjudicated.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_move: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The last `2 * count` scores of `scores` (oldest first), or `None` when there are fewer or
/// one is missing.
fn window(scores: &[Option<i32>], count: u32) -> Option<Vec<i32>> {
    let n = 2 * count as usize;
    if count == 0 || scores.len() < n {
        return None;
    }
    scores[scores.len() - n..].iter().copied().collect()
}

/// The winner by [`ResignRule`], given the scores of the moves played (oldest first, each
/// from its mover's view) and the colour of the last mover.
pub fn resign_winner(rule: ResignRule, scores: &[Option<i32>], last: Stone) -> Option<Stone> {
    let w = window(scores, rule.count)?;
    // From the end: the last mover's scores at even distances, its opponent's at odd ones.
    let (mine, theirs): (Vec<_>, Vec<_>) =
        w.iter().rev().enumerate().partition(|(i, _)| i % 2 == 0);
    let all = |v: &[(usize, &i32)], f: &dyn Fn(i32) -> bool| v.iter().all(|(_, s)| f(**s));
    let (up, down) = (|s: i32| s >= rule.score, |s: i32| s <= -rule.score);
    if all(&mine, &up) && all(&theirs, &down) {
        Some(last)
    } else if all(&mine, &down) && all(&theirs, &up) {
        Some(last.opp())
    } else {
        None
    }
}

/// Does [`DrawRule`] hold, given the scores of the moves played (oldest first) and the game's
/// length so far (opening included)?
pub fn draw_agreed(rule: DrawRule, scores: &[Option<i32>], game_len: usize) -> bool {
    game_len >= rule.from_move
        && window(scores, rule.count).is_some_and(|w| w.iter().all(|s| s.abs() <= rule.score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_engine::{Pos, Rule};

    #[test]
    fn proof_rule_text_round_trips_and_refuses_other_text() {
        assert_eq!(
            "vcf".parse(),
            Ok(ProofRule {
                nodes: DEFAULT_VCF_NODES
            })
        );
        assert_eq!("VCF:500".parse(), Ok(ProofRule { nodes: 500 }));
        assert_eq!(ProofRule { nodes: 500 }.to_string(), "vcf:500");
        for bad in ["foo", "vcf:", "vcf:0", "vcf:x", "vct:100", ""] {
            let e = bad.parse::<ProofRule>().expect_err(bad);
            assert!(e.contains("expected vcf or vcf:NODES"), "{e}");
        }
        let json = serde_json::to_string(&ProofRule { nodes: 7 }).expect("serializes");
        assert_eq!(json, r#""vcf:7""#);
        assert_eq!(
            serde_json::from_str::<ProofRule>(&json).ok(),
            Some(ProofRule { nodes: 7 })
        );
    }

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_moves(15, rule, &Pos::parse_list(moves, 15).expect("moves")).expect("legal")
    }

    /// Black h8 i8 j8 (g8 blocked) and k9 k10 k11 (k12 blocked): k8 makes two fours at once.
    const DOUBLE_FOUR: &str = "h8 g8 i8 k12 j8 a1 k9 a3 k10 a5 k11 a7";

    #[test]
    fn a_vcf_is_proven_for_the_side_to_move_and_the_board_is_unchanged() {
        let mut b = board(Rule::Freestyle, DOUBLE_FOUR);
        assert_eq!(b.side_to_move(), Stone::Black);
        let hash = b.hash();
        let p = prove(&mut b, ProofRule { nodes: 10_000 }).expect("a vcf");
        assert_eq!((p.winner, p.plies), (Stone::Black, 3), "{p:?}");
        assert!(p.line.starts_with("k8 "), "{p:?}");
        assert!(
            p.detail().starts_with("vcf for black in 3 moves: k8 "),
            "{}",
            p.detail()
        );
        assert_eq!(b.hash(), hash);
        // A quiet position: nothing to prove.
        let mut b = board(Rule::Renju, "h8 h9");
        assert_eq!(prove(&mut b, ProofRule { nodes: 10_000 }), None);
    }

    #[test]
    fn renju_black_gets_no_proof_through_a_forbidden_point() {
        // The double-four at k8 is forbidden for renju black, and the other fours (k7, l8)
        // are blocked at once: no win.
        let mut b = board(Rule::Renju, DOUBLE_FOUR);
        assert_eq!(prove(&mut b, ProofRule { nodes: 10_000 }), None);
        // Black four h8 i8 j8 k8 with g8 blocked: the five point l8 would be an overline (m8
        // is black), so renju black has no five there; in freestyle it wins at once.
        let moves = "h8 g8 i8 a1 j8 a3 k8 a5 m8 a7";
        let mut renju = board(Rule::Renju, moves);
        let r = prove(&mut renju, ProofRule { nodes: 10_000 });
        assert!(
            r.as_ref().is_none_or(|p| !p.line.starts_with("l8")),
            "{r:?}"
        );
        let mut free = board(Rule::Freestyle, moves);
        let p = prove(&mut free, ProofRule { nodes: 10_000 }).expect("five");
        assert_eq!(p.line, "l8");
    }

    #[test]
    fn resign_needs_both_players_to_agree_for_count_moves_each() {
        let rule = ResignRule {
            count: 2,
            score: 500,
        };
        // Oldest first; the last mover is white: white +600, +700; black -600, -800.
        let s = [Some(0), Some(-600), Some(600), Some(-800), Some(700)];
        assert_eq!(resign_winner(rule, &s, Stone::White), Some(Stone::White));
        // The same scores with black the last mover: black wins.
        assert_eq!(resign_winner(rule, &s, Stone::Black), Some(Stone::Black));
        // One side alone is not enough: the winner only thinks +400.
        let s = [Some(-600), Some(400), Some(-800), Some(700)];
        assert_eq!(resign_winner(rule, &s, Stone::White), None);
        // A missing score breaks the run; too few moves decide nothing.
        let s = [Some(-600), None, Some(-800), Some(700)];
        assert_eq!(resign_winner(rule, &s, Stone::White), None);
        assert_eq!(
            resign_winner(rule, &[Some(-900), Some(900)], Stone::White),
            None
        );
    }

    #[test]
    fn draw_needs_small_scores_from_both_after_from_move() {
        let rule = DrawRule {
            count: 2,
            score: 20,
            from_move: 0,
        };
        let s = [Some(500), Some(-10), Some(5), Some(20), Some(-20)];
        assert!(draw_agreed(rule, &s, 30));
        assert!(
            !draw_agreed(rule, &s[..4], 30),
            "a score of 500 in the window"
        );
        assert!(!draw_agreed(rule, &[Some(0), None, Some(0), Some(0)], 30));
        let late = DrawRule {
            from_move: 40,
            ..rule
        };
        assert!(!draw_agreed(late, &s, 39));
        assert!(draw_agreed(late, &s, 40));
    }
}
