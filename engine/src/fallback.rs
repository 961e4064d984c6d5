//! The move of last resort, when the search offers no legal one.

use crate::board::Board;
use crate::pos::Pos;

/// A legal move for the side to move when the search offered none that is legal: the
/// legal point nearest to the stones (then to the centre). `None` if no point is legal.
pub fn fallback_move(board: &mut Board) -> Option<Pos> {
    let stones: Vec<Pos> = board
        .points()
        .filter(|&p| board.stone_at(p).is_some())
        .collect();
    let c = (board.size() as isize - 1) / 2;
    let dist =
        |a: Pos, x: isize, y: isize| (a.x() as isize - x).abs().max((a.y() as isize - y).abs());
    board.legal_moves().into_iter().min_by_key(|&p| {
        let near = stones
            .iter()
            .map(|&s| dist(p, s.x() as isize, s.y() as isize))
            .min()
            .unwrap_or(0);
        (near, dist(p, c, c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    #[test]
    fn fallback_is_legal_and_near() {
        let mut board =
            Board::from_moves(15, Rule::Renju, &Pos::parse_list("h8 a1", 15).unwrap()).unwrap();
        let p = fallback_move(&mut board).unwrap();
        assert!(board.is_legal(p));
        let near = |s: Pos| {
            (p.x() as isize - s.x() as isize)
                .abs()
                .max((p.y() as isize - s.y() as isize).abs())
                == 1
        };
        assert!(near(Pos::new(7, 7)) || near(Pos::new(0, 0)));
    }
}
