//! Threat-space solvers: VCF (victory by continuous fours) and VCT (fours and threes).
//!
//! Both are depth-first searches with node budgets. The attacker plays only forcing moves;
//! after a four the defender's reply is forced (and if renju black cannot make it because
//! the point is forbidden, the attacker wins). After a three the defender may block on
//! any point where the attacker would make a four, or counter with a four of its own.
//! Black's forbidden points are respected on both sides.

use crate::board::{pos_of, Board};
use crate::eval::Threat;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::stone::Stone;

/// Which solver.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ThreatKind {
    /// Fours only.
    Vcf,
    /// Fours and threes.
    Vct,
}

/// A proven win: the attacker's moves and the forced or tried replies, from the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// The winning line, attacker first, alternating.
    pub line: Vec<Pos>,
    /// Nodes (moves made) spent.
    pub nodes: u64,
}

/// Searches for a forced win by the side to move within `budget` nodes and `max_depth`
/// attacker moves. Returns the line if one is proven.
pub fn solve(
    board: &mut Board,
    kind: ThreatKind,
    max_depth: u32,
    budget: u64,
) -> Option<ThreatWin> {
    let mut nodes = 0;
    solve_counting(board, kind, max_depth, budget, &mut nodes)
}

/// As [`solve`], adding the nodes spent (proven or not) to `nodes`.
pub fn solve_counting(
    board: &mut Board,
    kind: ThreatKind,
    max_depth: u32,
    budget: u64,
    nodes: &mut u64,
) -> Option<ThreatWin> {
    let mut s = Solver {
        attacker: board.side_to_move(),
        board,
        kind,
        nodes: 0,
        budget,
        line: Vec::new(),
        fail: vec![(0u64, 0u32); 1 << 13],
    };
    // Deepen gradually so that short wins are found first and budgets are spent well.
    let step = if kind == ThreatKind::Vcf {
        max_depth
    } else {
        1
    };
    let mut d = step.min(max_depth);
    let result = loop {
        s.line.clear();
        if s.attack(d) {
            let mut line = std::mem::take(&mut s.line);
            line.reverse();
            break Some(ThreatWin {
                line,
                nodes: s.nodes,
            });
        }
        if s.nodes >= s.budget || d >= max_depth {
            break None;
        }
        d = (d + step).min(max_depth);
    };
    *nodes += s.nodes;
    result
}

struct Solver<'a> {
    board: &'a mut Board,
    attacker: Stone,
    kind: ThreatKind,
    nodes: u64,
    budget: u64,
    /// The winning line, collected in reverse while unwinding.
    line: Vec<Pos>,
    /// Hashes (mixed with depth) of attacker nodes already proven not to win.
    fail: Vec<(u64, u32)>,
}

impl Solver<'_> {
    fn legal_for(&mut self, idx: usize, stone: Stone) -> bool {
        !(stone == Stone::Black
            && self.board.rule() == Rule::Renju
            && self.board.forbidden_idx(idx))
    }

    /// Empty cells where `stone` gets a class accepted by `pred`, ascending.
    fn cells(&self, stone: Stone, pred: impl Fn(Threat) -> bool) -> Vec<usize> {
        let mut out = Vec::new();
        for t in Threat::ALL {
            if t != Threat::None && pred(t) && self.board.threat_count(stone, t) > 0 {
                out.extend(self.board.cells_with(stone, t));
            }
        }
        out.sort_unstable();
        out
    }

    fn play(&mut self, idx: usize) {
        self.nodes += 1;
        self.board.make_idx(idx);
    }

    fn unplay(&mut self) {
        self.board.undo();
    }

    /// Table slot and key of the current position. A failure proven with `depth` forcing
    /// moves left also holds for fewer, so entries keep the deepest failure.
    fn fail_slot(&self) -> (usize, u64) {
        let h = self.board.hash();
        ((h as usize) & (self.fail.len() - 1), h | 1)
    }

    /// Attacker to move: can it force a win within `depth` more forcing moves? On success
    /// the winning line (reversed) is appended to `line`; on failure `line` is unchanged.
    fn attack(&mut self, depth: u32) -> bool {
        let start = self.line.len();
        let won = self.attack_inner(depth);
        if !won {
            self.line.truncate(start);
        }
        won
    }

    fn attack_inner(&mut self, depth: u32) -> bool {
        let a = self.attacker;
        let d = a.opp();
        if self.board.threat_count(a, Threat::Five) > 0 {
            let five = self.cells(a, |t| t == Threat::Five)[0];
            self.line.push(pos_of(five));
            return true;
        }
        let d_fives = self.board.threat_count(d, Threat::Five);
        if d_fives >= 2 {
            return false;
        }
        if d_fives == 1 {
            // The attacker must block the defender's four; only a block that is itself
            // forcing keeps the initiative, which `defend` decides.
            let block = self.cells(d, |t| t == Threat::Five)[0];
            if !self.legal_for(block, a) || self.nodes >= self.budget {
                return false;
            }
            self.play(block);
            let won = self.defend(depth);
            self.unplay();
            if won {
                self.line.push(pos_of(block));
            }
            return won;
        }
        if depth == 0 || self.nodes >= self.budget {
            return false;
        }
        let (slot, key) = self.fail_slot();
        if self.fail[slot].0 == key && self.fail[slot].1 >= depth {
            return false;
        }
        // An open four (or double four) that is legal wins outright.
        for idx in self.cells(a, |t| t == Threat::OpenFour) {
            if self.legal_for(idx, a) {
                self.play(idx);
                let won = self.defend(depth - 1);
                self.unplay();
                if won {
                    self.line.push(pos_of(idx));
                    return true;
                }
            }
        }
        let mut moves: Vec<(i32, usize)> = self
            .cells(a, |t| match self.kind {
                ThreatKind::Vcf => matches!(t, Threat::Four | Threat::FourThree),
                ThreatKind::Vct => matches!(
                    t,
                    Threat::Four | Threat::FourThree | Threat::Three | Threat::DoubleThree
                ),
            })
            .into_iter()
            .map(|i| {
                let t = self.board.threat_idx(i, a.index());
                let bonus = match t {
                    Threat::FourThree => 1 << 20,
                    Threat::DoubleThree => 1 << 19,
                    Threat::Four => 1 << 18,
                    _ => 0,
                };
                (
                    -(bonus
                        + self.board.value_idx(i, a.index())
                        + self.board.value_idx(i, d.index())),
                    i,
                )
            })
            .collect();
        moves.sort_unstable();
        for (_, idx) in moves {
            if !self.legal_for(idx, a) {
                continue;
            }
            self.play(idx);
            let won = self.defend(depth - 1);
            self.unplay();
            if won {
                self.line.push(pos_of(idx));
                return true;
            }
            if self.nodes >= self.budget {
                return false;
            }
        }
        self.fail[slot] = (key, depth);
        false
    }

    /// Defender to move after an attacker's threat: does the attacker still win? Appends
    /// the line against the first defence on success, leaves `line` unchanged on failure.
    fn defend(&mut self, depth: u32) -> bool {
        let start = self.line.len();
        let won = self.defend_inner(depth);
        if !won {
            self.line.truncate(start);
        }
        won
    }

    fn defend_inner(&mut self, depth: u32) -> bool {
        let a = self.attacker;
        let d = a.opp();
        if self.board.threat_count(d, Threat::Five) > 0 {
            return false;
        }
        let a_fives = self.board.threat_count(a, Threat::Five);
        if a_fives >= 2 {
            let f = self.cells(a, |t| t == Threat::Five);
            self.line.push(pos_of(f[1]));
            self.line.push(pos_of(f[0]));
            return true;
        }
        if a_fives == 1 {
            let block = self.cells(a, |t| t == Threat::Five)[0];
            if !self.legal_for(block, d) {
                // Renju: black cannot block on a forbidden point; the five comes next.
                self.line.push(pos_of(block));
                return true;
            }
            self.play(block);
            let won = self.attack(depth);
            self.unplay();
            if won {
                self.line.push(pos_of(block));
            }
            return won;
        }
        if self.kind == ThreatKind::Vcf {
            return false;
        }
        // A three: the attacker threatens an open four. Is that threat real?
        let open_fours = self.cells(a, |t| t == Threat::OpenFour);
        if open_fours.is_empty() || !open_fours.clone().into_iter().any(|i| self.legal_for(i, a)) {
            return false;
        }
        // Renju: a point where black's own move would be forbidden (double-four, overline) can
        // still be white's real defence, so offer those too.
        let mut defences = self.cells(a, |t| t.is_four() || t == Threat::Forbidden);
        defences.extend(self.cells(d, Threat::is_four));
        defences.sort_unstable();
        defences.dedup();
        let mut first = None;
        for idx in defences {
            if !self.legal_for(idx, d) {
                continue;
            }
            if self.nodes >= self.budget {
                return false;
            }
            self.play(idx);
            let len = self.line.len();
            let won = self.attack(depth);
            self.unplay();
            if !won {
                self.line.truncate(len);
                return false;
            }
            if first.is_none() {
                first = Some(idx);
                // Keep the line of the first refuted defence as the shown variation.
                self.line.push(pos_of(idx));
            } else {
                self.line.truncate(len);
            }
        }
        if first.is_none() {
            // No legal defence at all: the open four comes next.
            self.line.push(pos_of(open_fours[0]));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: Rule, black: &str, white: &str, to_move: Stone) -> Board {
        let mut b = Board::from_stones(
            15,
            rule,
            &Pos::parse_list(black, 15).unwrap(),
            &Pos::parse_list(white, 15).unwrap(),
        )
        .unwrap();
        b.set_side_to_move(to_move);
        b
    }

    #[test]
    fn finds_a_simple_vcf() {
        // Black: four-three by fours: h8 i8 j8 (blocked left) and a vertical pair.
        let mut b = board(
            Rule::Freestyle,
            "h8 i8 j8 l10 l11 l12",
            "g8 a1 c3 e1 a5 o15",
            Stone::Black,
        );
        let w = solve(&mut b, ThreatKind::Vcf, 20, 100_000).expect("vcf");
        assert!(w.line.len() >= 3, "{:?}", w.line);
        assert_eq!(b.stone_count(), 12);
    }

    #[test]
    fn no_vcf_in_a_quiet_position() {
        let mut b = board(Rule::Renju, "h8 i9", "h9 i8", Stone::Black);
        assert!(solve(&mut b, ThreatKind::Vcf, 20, 100_000).is_none());
        assert!(solve(&mut b, ThreatKind::Vct, 6, 100_000).is_none());
    }

    #[test]
    fn open_three_plus_three_is_a_vct() {
        // Two open twos crossing on a free point: a double three for white wins by VCT.
        let mut b = board(Rule::Renju, "a1 a3 a5 c1 c3", "g8 h8 j10 j11", Stone::White);
        let w = solve(&mut b, ThreatKind::Vct, 6, 200_000);
        assert!(w.is_some());
    }
}
