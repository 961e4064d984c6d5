//! SGF export read back by an independent parser (`sgf-parse`): a game played here by two
//! node-limited engines comes back with its size, rule, players, result and every move, on
//! the right points (SGF rows count from the top, the project's from the bottom).

use std::collections::BTreeMap;

use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfNode};
use wuzi_engine::{Params, Pos, Rule, Stone};
use wuzi_games::opening::renju26;
use wuzi_games::record::{GameRecord, OpeningRef, RecordPlayer};
use wuzi_games::referee::{play_game, GameSettings};
use wuzi_games::sgf::to_sgf;
use wuzi_players::{PlayerLimits, PlayerSpec};

/// One renju game at 300 nodes a move; the names hold the characters SGF text must escape.
fn played_game() -> GameRecord {
    let limits = PlayerLimits {
        nodes: Some(300),
        ..PlayerLimits::default()
    };
    let specs = [
        PlayerSpec::engine("black]one", &Params::default(), limits.clone()),
        PlayerSpec::engine(r"white\two", &Params::default(), limits),
    ];
    let mut black = specs[0].build().expect("builds");
    let mut white = specs[1].build().expect("builds");
    let settings = GameSettings::default();
    let opening = renju26(15).expect("openings")[5].clone();
    let result = play_game(
        &settings,
        &opening.moves,
        [black.as_mut(), white.as_mut()],
        [&specs[0].limits, &specs[1].limits],
        7,
    )
    .expect("plays");
    let player = |s: &PlayerSpec| RecordPlayer {
        name: s.name.clone(),
        params: BTreeMap::new(),
        given: None,
        given_params: None,
        notes: Vec::new(),
    };
    GameRecord::new(
        0,
        4,
        1,
        7,
        OpeningRef { index: 5, opening },
        player(&specs[0]),
        player(&specs[1]),
        &result,
    )
}

/// A text property's value as the parser's lexer unescaped it (`.text`: its `Display`
/// unescapes a second time, turning `white\two` into `whitetwo`).
fn text(node: &SgfNode<Prop>, id: &str) -> Option<String> {
    match node.get_property(id)? {
        Prop::PB(t) | Prop::PW(t) | Prop::RE(t) | Prop::RU(t) | Prop::GN(t) => Some(t.text.clone()),
        Prop::C(t) => Some(t.text.clone()),
        other => panic!("{id}: unexpected {other:?}"),
    }
}

/// SGF point (column, row from the top) back to the project's position.
fn pos_of(point: &str, size: usize) -> Pos {
    let b = point.as_bytes();
    assert_eq!(b.len(), 2, "{point}");
    Pos::new((b[0] - b'a') as usize, size - 1 - (b[1] - b'a') as usize)
}

#[test]
fn exported_game_reads_back_with_an_independent_parser() {
    let record = played_game();
    let sgf = to_sgf(&record, 15, Rule::Renju);
    let trees = sgf_parse::parse(&sgf).expect("the SGF parses");
    assert_eq!(trees.len(), 1);
    let GameTree::Unknown(root) = &trees[0] else {
        panic!("GM[4] is not go: {sgf}");
    };
    root.validate().expect("valid SGF nodes");
    assert!(
        matches!(root.get_property("GM"), Some(Prop::GM(4))),
        "{sgf}"
    );
    assert!(
        matches!(root.get_property("FF"), Some(Prop::FF(4))),
        "{sgf}"
    );
    assert!(
        matches!(root.get_property("SZ"), Some(Prop::SZ((15, 15)))),
        "{sgf}"
    );
    assert_eq!(text(root, "RU").as_deref(), Some("renju"));
    // Escaped on the way out, unescaped by the parser: the names come back as they were.
    assert_eq!(text(root, "PB").as_deref(), Some("black]one"));
    assert_eq!(text(root, "PW").as_deref(), Some(r"white\two"));
    let re = text(root, "RE").expect("RE");
    match record.winner {
        Some(Stone::Black) => assert!(re.starts_with("B+"), "{re}"),
        Some(Stone::White) => assert!(re.starts_with("W+"), "{re}"),
        None => assert_eq!(re, "0"),
    }
    let comment = text(root, "C").expect("root comment");
    assert!(comment.contains(record.reason.as_str()), "{comment}");

    // Every move, opening included, in order and colour, with the played moves' reports.
    let all = record.all_moves();
    let opening_len = record.opening.opening.moves.len();
    let nodes: Vec<&SgfNode<Prop>> = root.main_variation().skip(1).collect();
    assert_eq!(nodes.len(), all.len(), "{sgf}");
    for (ply, (node, &expected)) in nodes.iter().zip(&all).enumerate() {
        let (colour, point) = match node.get_move() {
            Some(Prop::B(p)) => (Stone::Black, p),
            Some(Prop::W(p)) => (Stone::White, p),
            other => panic!("ply {ply}: no move but {other:?}"),
        };
        let wanted = if ply % 2 == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        assert_eq!(colour, wanted, "ply {ply}");
        assert_eq!(pos_of(point, 15), expected, "ply {ply}");
        let c = text(node, "C").expect("comment");
        if ply < opening_len {
            assert!(c.starts_with("opening"), "{c}");
        } else {
            let m = &record.moves[ply - opening_len];
            if let Some(score) = m.score {
                assert!(c.contains(&format!("score {score}")), "{c}");
            }
            if let Some(n) = m.nodes {
                assert!(c.contains(&format!("nodes {n}")), "{c}");
            }
        }
    }
}

#[test]
fn a_draw_is_zero_and_the_size_is_the_boards() {
    let mut record = played_game();
    record.winner = None;
    record.result = "1/2-1/2".into();
    record.reason = wuzi_games::referee::Reason::MoveCap;
    let sgf = to_sgf(&record, 15, Rule::Standard);
    let trees = sgf_parse::parse(&sgf).expect("parses");
    let GameTree::Unknown(root) = &trees[0] else {
        panic!("not GM[4]");
    };
    assert_eq!(text(root, "RE").as_deref(), Some("0"));
    assert_eq!(text(root, "RU").as_deref(), Some("standard"));
    assert!(text(root, "C").expect("C").contains("draw: move-cap"));
}
