//! The referee's adjudication (issue 21): a VCF proof ends a game with its line, renju-exact;
//! resign and draw rules end it when both players' scores agree.

use wuzi_engine::{Pos, Rule, Stone};
use wuzi_games::adjudication::{DrawRule, ProofRule, ResignRule};
use wuzi_games::referee::{play_game, GameResult, GameSettings, Reason};
use wuzi_players::{
    GameStart, MoveReply, MoveRequest, Player, PlayerError, PlayerLimits, Scripted,
};

fn pos(s: &str) -> Vec<Pos> {
    Pos::parse_list(s, 20).expect("valid")
}

fn nodes() -> PlayerLimits {
    PlayerLimits {
        nodes: Some(300),
        ..PlayerLimits::default()
    }
}

/// Plays `black` and `white` scripts from the empty board with adjudication by proof.
fn proven(rule: Rule, black: &str, white: &str) -> GameResult {
    let settings = GameSettings {
        rule,
        adjudicate: Some(ProofRule { nodes: 10_000 }),
        ..GameSettings::default()
    };
    let mut b = Scripted::new("b", pos(black));
    let mut w = Scripted::new("w", pos(white));
    let l = nodes();
    play_game(&settings, &[], [&mut b, &mut w], [&l, &l], 0).expect("ok")
}

#[test]
fn a_proven_vcf_ends_the_game_with_its_line() {
    // After 12 moves black has k8: a four on row 8 (g8 blocked) and on column k (k12
    // blocked; k6 keeps k7 from making an open four earlier) at once. Freestyle: a win,
    // proven before black plays it.
    let black = "h8 i8 j8 k9 k10 k11 o1";
    let white = "g8 k12 k6 a3 a5 a7 o3";
    let r = proven(Rule::Freestyle, black, white);
    assert_eq!(
        (r.winner, r.reason, r.moves.len()),
        (Some(Stone::Black), Reason::Adjudicated, 12),
        "{r:?}"
    );
    let detail = r.detail.as_deref().unwrap_or("");
    assert!(
        detail.starts_with("vcf for black in 3 moves: k8 "),
        "{detail}"
    );
    // Renju: k8 is a forbidden double-four, there is no proof, and the game goes on (to
    // the end of the scripts).
    let r = proven(Rule::Renju, black, white);
    assert_eq!(
        (r.winner, r.reason),
        (Some(Stone::White), Reason::NoMove),
        "{r:?}"
    );
}

#[test]
fn renju_white_is_proven_to_win_when_black_cannot_block() {
    // White g4 g5 g6 (g3 black) plays g7; black's only block g8 is a double-three
    // (g8 h8 i8 and g8 h9 i10): forbidden, so the four wins. Proven with white to move.
    let black = "h8 i8 h9 g3 i10";
    let white = "g4 g5 g6 a15 g7 g8";
    let r = proven(Rule::Renju, black, white);
    assert_eq!(
        (r.winner, r.reason, r.moves.len()),
        (Some(Stone::White), Reason::Adjudicated, 9),
        "{r:?}"
    );
    assert_eq!(
        r.detail.as_deref(),
        Some("vcf for white in 2 moves: g7 g8 (3 nodes)")
    );
    // Freestyle: black simply blocks at g8; no proof there.
    let r = proven(Rule::Freestyle, black, white);
    assert_ne!(r.reason, Reason::Adjudicated, "{r:?}");
}

/// A scripted player that reports a score with each move.
struct Scoring {
    moves: Vec<Pos>,
    scores: Vec<Option<i32>>,
    next: usize,
}
impl Scoring {
    fn new(moves: &str, scores: &[Option<i32>]) -> Scoring {
        Scoring {
            moves: pos(moves),
            scores: scores.to_vec(),
            next: 0,
        }
    }
}
impl Player for Scoring {
    fn name(&self) -> &str {
        "scoring"
    }
    fn new_game(&mut self, _: &GameStart) -> Result<(), PlayerError> {
        Ok(())
    }
    fn play(&mut self, _: &MoveRequest<'_>) -> Result<MoveReply, PlayerError> {
        let i = self.next;
        self.next += 1;
        Ok(MoveReply {
            mv: self.moves.get(i).copied(),
            score: self.scores.get(i).copied().flatten(),
            ..MoveReply::default()
        })
    }
}

fn scored(settings: &GameSettings, black: &[Option<i32>], white: &[Option<i32>]) -> GameResult {
    let mut b = Scoring::new("a1 a3 a5 a7 a9 a11 a13 a15", black);
    let mut w = Scoring::new("o1 o3 o5 o7 o9 o11 o13 o15", white);
    let l = nodes();
    play_game(settings, &[], [&mut b, &mut w], [&l, &l], 0).expect("ok")
}

#[test]
fn resign_when_both_players_agree_for_count_moves_each() {
    let settings = GameSettings {
        resign: Some(ResignRule {
            count: 3,
            score: 500,
        }),
        ..GameSettings::default()
    };
    let (lost, won) = ([Some(-600); 8], [Some(700); 8]);
    let r = scored(&settings, &lost, &won);
    assert_eq!(
        (r.winner, r.reason, r.moves.len()),
        (Some(Stone::White), Reason::Resign, 6),
        "{r:?}"
    );
    assert!(
        r.detail
            .as_deref()
            .unwrap_or("")
            .starts_with("black resigns"),
        "{r:?}"
    );
    // Black reports the loss from move 2 on only: three agreeing moves each end it later.
    let late = [
        Some(0),
        Some(-600),
        Some(-600),
        Some(-600),
        Some(-600),
        None,
        None,
        None,
    ];
    let r = scored(&settings, &late, &won);
    assert_eq!((r.reason, r.moves.len()), (Reason::Resign, 7), "{r:?}");
    // The winner does not agree (+400): played to the end of the scripts.
    let r = scored(&settings, &lost, &[Some(400); 8]);
    assert_eq!(r.reason, Reason::NoMove, "{r:?}");
    // No scores at all (a brain that reports none): never adjudicated.
    let r = scored(&settings, &[None; 8], &[None; 8]);
    assert_eq!(r.reason, Reason::NoMove, "{r:?}");
}

#[test]
fn draw_when_both_players_report_small_scores() {
    let mut settings = GameSettings {
        draw: Some(DrawRule {
            count: 2,
            score: 10,
            from_move: 0,
        }),
        ..GameSettings::default()
    };
    let r = scored(&settings, &[Some(5); 8], &[Some(-10); 8]);
    assert_eq!(
        (r.winner, r.reason, r.moves.len()),
        (None, Reason::DrawAgreed, 4),
        "{r:?}"
    );
    assert!(
        r.detail.as_deref().unwrap_or("").starts_with("draw: "),
        "{r:?}"
    );
    // Not before move 9 (opening included): then the last four moves decide.
    settings.draw = Some(DrawRule {
        count: 2,
        score: 10,
        from_move: 9,
    });
    let r = scored(&settings, &[Some(5); 8], &[Some(-10); 8]);
    assert_eq!((r.reason, r.moves.len()), (Reason::DrawAgreed, 9), "{r:?}");
    // One player sees more than 10: no draw.
    settings.draw = Some(DrawRule {
        count: 2,
        score: 10,
        from_move: 0,
    });
    let r = scored(&settings, &[Some(5); 8], &[Some(30); 8]);
    assert_eq!(r.reason, Reason::NoMove, "{r:?}");
}
