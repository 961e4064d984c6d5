//! The swap2 opening rule for `SWAP2BOARD` (Gomocup's extension, also Rapfi's and Yixin-Board's).
//!
//! The manager sends the stones placed so far, alternately black and white from black:
//! - **none**: the brain is the tentative first player and places three stones (black, white,
//!   black), answering `x1,y1 x2,y2 x3,y3`;
//! - **three**: the brain is the second player and chooses: `SWAP` (it takes black and the
//!   opponent plays white's fourth stone), a move `x,y` (it stays white and plays the fourth
//!   stone), or two stones `x4,y4 x5,y5` (a white and a black one; the opponent then chooses);
//! - **five**: the brain is the first player again and chooses `SWAP` (it takes black) or plays
//!   white's sixth stone `x,y`.
//!
//! Every decision is the engine's own judgement of the position: a main search with the
//! move's limits, and small fixed-node searches to compare candidate stones, so with a node
//! limit the answers are reproducible.

use crate::board::Board;
use crate::limits::Limits;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::search::Engine;
use crate::search::Info;
use crate::stone::Stone;

/// A score (for white, to move) within this margin of 0 counts as balanced: with three stones the
/// brain then places two more rather than choose a colour. About an open three's worth.
pub const BALANCE_MARGIN: i32 = 100;
/// Nodes of each small search that compares candidate stones.
pub const CANDIDATE_NODES: u64 = 1_500;
/// Fewest nodes per candidate when a node limit is shared out among the candidates.
const MIN_CANDIDATE_NODES: u64 = 200;

/// The brain's answer to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Stones placed: the first three on an empty board, or the fourth and fifth.
    Place(Vec<Pos>),
    /// Take black; the opponent plays the next (white) stone.
    Swap,
    /// Stay white and play this stone.
    Move(Pos),
}

impl Swap2Answer {
    /// The reply line: `x,y x,y x,y`, `SWAP` or `x,y`.
    pub fn text(&self) -> String {
        let xy = |p: &Pos| format!("{},{}", p.x(), p.y());
        match self {
            Swap2Answer::Place(stones) => stones.iter().map(xy).collect::<Vec<_>>().join(" "),
            Swap2Answer::Swap => "SWAP".to_string(),
            Swap2Answer::Move(p) => xy(p),
        }
    }
}

/// Decides on a swap2 position `board` (its stones placed alternately from black) with `limits`
/// for the main search; `None` when the stone count is not 0, 3 or 5.
pub fn decide(engine: &mut Engine, board: &Board, limits: &Limits) -> Option<Swap2Answer> {
    let budget = candidate_nodes(limits);
    let mut b = board.clone();
    match board.stone_count() {
        0 => Some(Swap2Answer::Place(opening(
            engine,
            board.size(),
            board.rule(),
            budget,
        ))),
        3 => {
            b.set_side_to_move(Stone::White);
            let (best, score) = search_white(engine, &b, limits);
            let Some(fourth) = best else {
                return Some(Swap2Answer::Swap);
            };
            if score < -BALANCE_MARGIN {
                return Some(Swap2Answer::Swap);
            }
            if score > BALANCE_MARGIN {
                return Some(Swap2Answer::Move(fourth));
            }
            b.make(fourth).expect("legal");
            match balancing_stone(engine, &mut b, budget) {
                Some(fifth) => Some(Swap2Answer::Place(vec![fourth, fifth])),
                None => Some(Swap2Answer::Move(fourth)),
            }
        }
        5 => match search_white(engine, &b, limits) {
            (Some(p), score) if score >= 0 => Some(Swap2Answer::Move(p)),
            _ => Some(Swap2Answer::Swap),
        },
        _ => None,
    }
}

/// Nodes per candidate search: a share of the node limit, else [`CANDIDATE_NODES`].
fn candidate_nodes(limits: &Limits) -> u64 {
    match limits.nodes {
        Some(n) => (n / 8).clamp(MIN_CANDIDATE_NODES, CANDIDATE_NODES),
        None => CANDIDATE_NODES,
    }
}

/// Searches `board` (white to move) under `limits`: the best move and white's score. The score
/// is the last completed iteration's (a search stopped inside an iteration reports 0 in its
/// result, which would read as "balanced"), or the result's for forced and solved positions.
fn search_white(engine: &mut Engine, board: &Board, limits: &Limits) -> (Option<Pos>, i32) {
    let mut b = board.clone();
    b.set_side_to_move(Stone::White);
    let mut last = None;
    let r = engine.search(&b, limits, Some(&mut |i: &Info| last = Some(i.score)));
    let score = match (r.source, last) {
        ("search", Some(s)) => s,
        _ => r.score,
    };
    (r.best.filter(|&p| b.is_legal(p)), score)
}

/// White's score (white to move) of `board` after a small search.
fn white_score(engine: &mut Engine, board: &Board, nodes: u64) -> i32 {
    search_white(engine, board, &Limits::nodes(nodes)).1
}

/// Three opening stones: black in the centre, white next to it (straight or diagonal), and the
/// black stone within two points of the centre that leaves the most balanced position.
fn opening(engine: &mut Engine, size: usize, rule: Rule, nodes: u64) -> Vec<Pos> {
    let c = size / 2;
    let centre = Pos::new(c, c);
    let mut best: Option<(i32, Vec<Pos>)> = None;
    for white in [Pos::new(c + 1, c), Pos::new(c + 1, c + 1)] {
        for y in c - 2..=c + 2 {
            for x in c - 2..=c + 2 {
                let third = Pos::new(x, y);
                if third == centre || third == white {
                    continue;
                }
                let stones = [centre, white, third];
                let Ok(b) = Board::from_moves(size, rule, &stones) else {
                    continue;
                };
                let score = white_score(engine, &b, nodes).abs();
                if best.as_ref().is_none_or(|(s, _)| score < *s) {
                    best = Some((score, stones.to_vec()));
                }
            }
        }
    }
    best.map(|(_, s)| s)
        .unwrap_or_else(|| vec![centre, Pos::new(c + 1, c), Pos::new(c, c + 1)])
}

/// The black stone (black to move on `board`) within two points of the stones that leaves the
/// most balanced position for white to move.
fn balancing_stone(engine: &mut Engine, board: &mut Board, nodes: u64) -> Option<Pos> {
    board.set_side_to_move(Stone::Black);
    let stones: Vec<Pos> = board.history().iter().map(|r| r.pos).collect();
    let near = |p: Pos| {
        stones.iter().any(|s| {
            (p.x() as isize - s.x() as isize).abs() <= 2
                && (p.y() as isize - s.y() as isize).abs() <= 2
        })
    };
    let candidates: Vec<Pos> = board
        .legal_moves()
        .into_iter()
        .filter(|&p| near(p))
        .collect();
    let mut best: Option<(i32, Pos)> = None;
    for p in candidates {
        if board.makes_five(p, Stone::Black) {
            continue;
        }
        board.make(p).expect("legal");
        let score = white_score(engine, board, nodes).abs();
        board.undo();
        board.set_side_to_move(Stone::Black);
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, p));
        }
    }
    best.map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;

    fn engine() -> Engine {
        Engine::new(Params::default(), 4, 1)
    }

    fn board(moves: &str) -> Board {
        Board::from_moves(15, Rule::Freestyle, &Pos::parse_list(moves, 15).unwrap()).unwrap()
    }

    #[test]
    fn answers_print_as_the_protocol_says() {
        let p = |x, y| Pos::new(x, y);
        assert_eq!(
            Swap2Answer::Place(vec![p(7, 7), p(8, 7), p(9, 9)]).text(),
            "7,7 8,7 9,9"
        );
        assert_eq!(Swap2Answer::Swap.text(), "SWAP");
        assert_eq!(Swap2Answer::Move(p(8, 8)).text(), "8,8");
    }

    #[test]
    fn empty_board_gets_three_balanced_stones() {
        let a = decide(&mut engine(), &board(""), &Limits::nodes(3000)).unwrap();
        let Swap2Answer::Place(stones) = &a else {
            panic!("{a:?}")
        };
        assert_eq!(stones.len(), 3);
        let b = Board::from_moves(15, Rule::Freestyle, stones).expect("distinct points");
        let c = Pos::new(7, 7);
        assert_eq!(stones[0], c);
        assert!(stones
            .iter()
            .all(|p| p.x().abs_diff(7) <= 2 && p.y().abs_diff(7) <= 2));
        // The most balanced of the candidates by the searches that compared them (375 nodes
        // each from a 3,000-node limit): far from the worst candidates (about 2,000 for black)
        // and from a won position. A deeper search of the same stones says little more: at
        // 1,500 nodes the scores of these candidates are barely correlated with those at 375.
        let budget = candidate_nodes(&Limits::nodes(3000));
        assert!(white_score(&mut engine(), &b, budget).abs() < 1000);
        // Reproducible under a node limit.
        assert_eq!(
            decide(&mut engine(), &board(""), &Limits::nodes(3000)),
            Some(a)
        );
    }

    #[test]
    fn three_stones_swap_move_or_place_two_by_the_score() {
        let a = decide(&mut engine(), &board("h8 a1 i8"), &Limits::nodes(3000)).unwrap();
        // Black's two connected stones against a white stone in the corner favour black
        // (white's score about -560 at these nodes).
        assert_eq!(a, Swap2Answer::Swap, "{a:?}");
        // A quiet, balanced three-stone opening: white plays or places two more stones, all
        // legal, empty and distinct.
        let quiet = board("h8 i8 j10");
        let a = decide(&mut engine(), &quiet, &Limits::nodes(3000)).unwrap();
        match &a {
            Swap2Answer::Swap => {}
            Swap2Answer::Move(p) => assert!(quiet.is_empty_at(*p)),
            Swap2Answer::Place(s) => {
                assert_eq!(s.len(), 2);
                let mut all: Vec<Pos> = quiet.history().iter().map(|r| r.pos).collect();
                all.extend(s);
                Board::from_moves(15, Rule::Freestyle, &all).expect("legal stones");
            }
        }
    }

    #[test]
    fn five_stones_swap_or_play_white() {
        // Black has an open three against two white stones in the corner: take black.
        let a = decide(
            &mut engine(),
            &board("h8 a1 i8 a3 j8"),
            &Limits::nodes(2000),
        )
        .unwrap();
        assert_eq!(a, Swap2Answer::Swap);
        // Black's stones scattered, white's together: stay white and play.
        let a = decide(
            &mut engine(),
            &board("a1 h8 o15 i8 a15"),
            &Limits::nodes(2000),
        )
        .unwrap();
        assert!(matches!(a, Swap2Answer::Move(_)), "{a:?}");
        for n in ["h8", "h8 i8", "h8 i8 j8 k8"] {
            assert_eq!(
                decide(&mut engine(), &board(n), &Limits::nodes(500)),
                None,
                "{n}"
            );
        }
    }
}
