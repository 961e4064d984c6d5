//! Move generation: candidates near stones, gated by threats, ordered by pattern value.

use crate::board::{Board, CELLS, DIR_STEP, PAD, STRIDE};
use crate::eval::Threat;
use crate::params::Params;
use crate::rule::Rule;
use crate::stone::Stone;

const MAX_MOVES: usize = 400;

/// A list of (cell, ordering score), read best first. Workers keep one per ply and reuse
/// its allocation.
///
/// The order is made lazily: [`MoveList::pick`] selects the next best move when it is first
/// read, because most nodes search only a few of their moves (a cut-off or the move-count
/// limit). Moves are ranked by score, ties by cell index, a total order, so the sequence is
/// exactly that of a full sort.
#[derive(Default)]
pub(super) struct MoveList {
    moves: Vec<(u16, i32)>,
    /// Moves `..ordered` are in their final places.
    ordered: usize,
}

impl MoveList {
    pub(super) fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(MAX_MOVES),
            ordered: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.moves.clear();
        self.ordered = 0;
    }

    #[inline]
    fn push(&mut self, m: usize, score: i32) {
        self.moves.push((m as u16, score));
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The `i`-th best move, ordering the list up to it first.
    #[inline]
    pub(super) fn pick(&mut self, i: usize) -> (usize, i32) {
        while self.ordered <= i {
            let k = self.ordered;
            let mut best = k;
            for j in k + 1..self.moves.len() {
                if ranks_before(self.moves[j], self.moves[best]) {
                    best = j;
                }
            }
            self.moves.swap(k, best);
            self.ordered += 1;
        }
        self.get(i)
    }

    /// A move already read with [`MoveList::pick`].
    #[inline]
    pub(super) fn get(&self, i: usize) -> (usize, i32) {
        debug_assert!(i < self.ordered, "read before it was picked");
        let (m, s) = self.moves[i];
        (m as usize, s)
    }
}

/// Higher score first; ties broken by cell index so the order never depends on anything but
/// the position.
#[inline]
fn ranks_before(a: (u16, i32), b: (u16, i32)) -> bool {
    a.1 > b.1 || (a.1 == b.1 && a.0 < b.0)
}

#[inline]
fn needs_check(board: &Board, stone: Stone, t: Threat) -> bool {
    stone == Stone::Black
        && board.rule() == Rule::Renju
        && matches!(
            t,
            Threat::DoubleThree | Threat::FourThree | Threat::OpenFour | Threat::Forbidden
        )
}

/// Is a move by `stone` on the empty `idx` legal?
#[inline]
fn legal(board: &mut Board, idx: usize, stone: Stone) -> bool {
    let t = board.threat_idx(idx, stone.index());
    if t == Threat::Forbidden && stone == Stone::Black && board.rule() == Rule::Renju {
        return false;
    }
    !needs_check(board, stone, t) || !board.forbidden_idx(idx)
}

/// Does `stone` threaten to make an open four (or double four) with a legal move?
fn threatens_open_four(board: &mut Board, stone: Stone) -> bool {
    if board.threat_count(stone, Threat::OpenFour) == 0 {
        return false;
    }
    if !(stone == Stone::Black && board.rule() == Rule::Renju) {
        return true;
    }
    for_each_cell(board.size(), |i| board.threat_idx(i, 0) == Threat::OpenFour)
        .into_iter()
        .any(|i| !board.forbidden_idx(i))
}

fn for_each_cell(n: usize, mut pred: impl FnMut(usize) -> bool) -> Vec<usize> {
    let mut out = Vec::new();
    for y in 0..n {
        let row = (y + PAD) * STRIDE + PAD;
        for i in row..row + n {
            if pred(i) {
                out.push(i);
            }
        }
    }
    out
}

/// Ordering score of a quiet candidate: own value (attack) plus the opponent's (defence),
/// with the decisive classes first.
#[inline]
fn order_score(board: &Board, idx: usize, me: Stone) -> i32 {
    let op = me.opp();
    let tm = board.threat_idx(idx, me.index());
    let to = board.threat_idx(idx, op.index());
    let class = match (tm, to) {
        (Threat::OpenFour, _) => 1 << 24,
        (Threat::FourThree, _) => 1 << 23,
        (_, Threat::OpenFour | Threat::FourThree) => 1 << 22,
        (Threat::DoubleThree, _) => 1 << 21,
        _ => 0,
    };
    class + board.value_idx(idx, me.index()) + board.value_idx(idx, op.index())
}

/// Moves of an interior node: all legal candidates near stones, or only fours and defences
/// when the opponent threatens an open four.
pub(super) fn generate(
    board: &mut Board,
    killers: [u16; 2],
    history: &[[i32; CELLS]],
    list: &mut MoveList,
    tt_move: usize,
) {
    let me = board.side_to_move();
    let op = me.opp();
    let n = board.size();
    let gated = threatens_open_four(board, op);
    for y in 0..n {
        let row = (y + PAD) * STRIDE + PAD;
        for i in row..row + n {
            if board.cell_raw(i) != 0 || !board.is_near(i) {
                continue;
            }
            if gated
                && !board.threat_idx(i, me.index()).is_four()
                && board.threat_idx(i, op.index()) < Threat::Four
            {
                continue;
            }
            if !legal(board, i, me) {
                continue;
            }
            let mut s = order_score(board, i, me);
            if i == tt_move {
                s += 1 << 28;
            } else if i as u16 == killers[0] {
                s += 3000;
            } else if i as u16 == killers[1] {
                s += 2000;
            }
            s += history[me.index()][i] / 8;
            list.push(i, s);
        }
    }
}

/// Own four-making moves (for VCF quiescence), best first.
/// With `near` = 0 all of them; otherwise only those on the four lines through `near`
/// within 4 cells.
pub(super) fn fours(board: &mut Board, list: &mut MoveList, near: usize) {
    let me = board.side_to_move();
    let mut consider = |board: &mut Board, i: usize| {
        let t = board.threat_idx(i, me.index());
        if board.cell_raw(i) == 0
            && matches!(t, Threat::Four | Threat::FourThree)
            && legal(board, i, me)
        {
            let s = order_score(board, i, me);
            list.push(i, s);
        }
    };
    if near == 0 {
        let n = board.size();
        for y in 0..n {
            let row = (y + PAD) * STRIDE + PAD;
            for i in row..row + n {
                consider(board, i);
            }
        }
    } else {
        for step in DIR_STEP {
            for k in 1..=4isize {
                consider(board, (near as isize + k * step) as usize);
                consider(board, (near as isize - k * step) as usize);
            }
        }
    }
}

/// All legal root moves, best first (the centre on an empty board).
pub(super) fn root_moves(board: &mut Board, params: &Params) -> Vec<(usize, i32)> {
    let n = board.size();
    let me = board.side_to_move();
    if board.stone_count() == 0 {
        let c = (n / 2 + PAD) * STRIDE + n / 2 + PAD;
        return vec![(c, 0)];
    }
    let gated = threatens_open_four(board, me.opp());
    let mut out = Vec::new();
    for y in 0..n {
        let row = (y + PAD) * STRIDE + PAD;
        for i in row..row + n {
            if board.cell_raw(i) != 0 || !board.is_near(i) {
                continue;
            }
            if gated
                && !board.threat_idx(i, me.index()).is_four()
                && board.threat_idx(i, me.opp().index()) < Threat::Four
            {
                continue;
            }
            if legal(board, i, me) {
                out.push((i, order_score(board, i, me)));
            }
        }
    }
    if out.is_empty() {
        // Nothing near the stones is legal: fall back to any legal point.
        if let Some(i) = any_legal(board) {
            out.push((i, 0));
        }
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let _ = params;
    out
}

/// Some legal move for the side to move, preferring points near stones.
pub(super) fn any_legal(board: &mut Board) -> Option<usize> {
    let me = board.side_to_move();
    let n = board.size();
    let mut far = None;
    for y in 0..n {
        let row = (y + PAD) * STRIDE + PAD;
        for i in row..row + n {
            if board.cell_raw(i) == 0 && legal(board, i, me) {
                if board.is_near(i) || board.stone_count() == 0 {
                    return Some(i);
                }
                far.get_or_insert(i);
            }
        }
    }
    far
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Lazy ordering is not a change: picking reads the moves in exactly the order of a
        /// full sort (score descending, ties by cell), however the reads are interleaved.
        #[test]
        fn pick_reads_the_full_sort_order(
            moves in proptest::collection::vec((0u16..225, -5i32..5), 0..60),
            peek in 0usize..60,
        ) {
            let mut list = MoveList::new();
            for &(m, s) in &moves {
                list.push(m as usize, s);
            }
            let mut sorted = moves.clone();
            sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            // An early deep read (as a singular test does) must not disturb the sequence.
            if peek < list.len() {
                list.pick(peek);
            }
            for (i, &(m, s)) in sorted.iter().enumerate() {
                prop_assert_eq!(list.pick(i), (m as usize, s));
            }
        }
    }
}
