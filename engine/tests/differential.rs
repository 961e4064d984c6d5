//! Differential test of renju forbidden points against an independent implementation: the
//! `figrid-board` crate's `renju::is_forbidden` (crates.io, its own line scans and recursive
//! threes, sharing no code with wuzi).
//!
//! Positions are reproducible (a fixed-seed generator): random legal games of 10 to 60 moves
//! (every position from move 10 on is compared) and random stone scatters near the centre,
//! from sparse to dense and from balanced to black-heavy (which is where double-fours,
//! overlines and recursive double-threes appear). Every empty point of every position is
//! compared. The default run takes a few seconds; `cargo test -p wuzi-engine --test
//! differential -- --ignored` runs a sweep a hundred times larger.
//!
//! figrid's board is fixed at 15x15 (without its `board20` feature), so only 15x15 is compared.
//!
//! Interpretation: both sides follow the RIF wording that a three whose only straight-four
//! point also makes a five is not a three (figrid: a completion counts only when its
//! classification is `Foul::None`, and a five is `Foul::Five`), so no class of positions
//! needs to be filtered out.

use figrid_board::{renju, to_idx, BitBoard, BOARD_SIZE};
use std::collections::BTreeSet;
use wuzi_engine::{Board, Pattern, Pos, Rule, Stone};

const N: usize = 15;

/// SplitMix64: a tiny, fixed, dependency-free generator so that runs are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// figrid's cell index of a point: row-major with row = y, column = x.
fn fig_idx(p: Pos) -> usize {
    to_idx(p.y(), p.x())
}

/// The forbidden points according to figrid-board.
fn oracle_forbidden(b: &Board) -> BTreeSet<Pos> {
    let (mut black, mut white) = (BitBoard::EMPTY, BitBoard::EMPTY);
    for p in b.points() {
        match b.stone_at(p) {
            Some(Stone::Black) => black.set(fig_idx(p)),
            Some(Stone::White) => white.set(fig_idx(p)),
            None => {}
        }
    }
    b.points()
        .filter(|&p| b.is_empty_at(p) && renju::is_forbidden(&black, &white, fig_idx(p)))
        .collect()
}

/// One disagreement: the position and the points on which the two sides differ.
struct Disagreement {
    origin: String,
    black: Vec<Pos>,
    white: Vec<Pos>,
    only_wuzi: Vec<Pos>,
    only_oracle: Vec<Pos>,
    diagram: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.origin)?;
        writeln!(f, "black: {}", Pos::format_list(&self.black))?;
        writeln!(f, "white: {}", Pos::format_list(&self.white))?;
        writeln!(
            f,
            "forbidden for wuzi only: [{}]; for figrid only: [{}]",
            Pos::format_list(&self.only_wuzi),
            Pos::format_list(&self.only_oracle)
        )?;
        write!(f, "{}", self.diagram)
    }
}

/// Tallies of one sweep.
#[derive(Default)]
struct Sweep {
    positions: usize,
    points: usize,
    forbidden: usize,
    with_forbidden: usize,
    /// Points with two or more open-three line patterns and nothing stronger: the ones whose
    /// verdict needs the recursive double-three decision.
    candidates: usize,
    /// Candidates that are legal after all (a three is not real, possibly through recursion).
    legal_candidates: usize,
    disagreements: Vec<Disagreement>,
}

impl Sweep {
    fn compare(&mut self, b: &mut Board, origin: impl FnOnce() -> String) {
        let ours: BTreeSet<Pos> = b.forbidden_points().into_iter().collect();
        let theirs = oracle_forbidden(b);
        // is_forbidden must agree with forbidden_points point by point.
        for p in b.points().collect::<Vec<_>>() {
            assert_eq!(
                b.is_forbidden(p),
                ours.contains(&p),
                "is_forbidden({p}) disagrees with forbidden_points\n{}",
                b.diagram(&[p])
            );
        }
        self.positions += 1;
        self.points += b.size() * b.size() - b.stone_count();
        self.forbidden += ours.len();
        self.with_forbidden += usize::from(!ours.is_empty());
        for p in b.points().filter(|&p| b.is_empty_at(p)) {
            let pats: Vec<Pattern> = (0..4).map(|d| b.pattern(p, Stone::Black, d)).collect();
            let threes = pats.iter().filter(|&&v| v == Pattern::F3).count();
            if threes >= 2
                && pats
                    .iter()
                    .all(|&v| v <= Pattern::F3 && v != Pattern::Overline)
            {
                self.candidates += 1;
                self.legal_candidates += usize::from(!ours.contains(&p));
            }
        }
        if ours != theirs {
            let marks: Vec<Pos> = ours.symmetric_difference(&theirs).copied().collect();
            self.disagreements.push(Disagreement {
                origin: origin(),
                black: b.stones_of(Stone::Black),
                white: b.stones_of(Stone::White),
                only_wuzi: ours.difference(&theirs).copied().collect(),
                only_oracle: theirs.difference(&ours).copied().collect(),
                diagram: b.diagram(&marks),
            });
        }
    }

    fn finish(self, what: &str) {
        eprintln!(
            "{what}: {} positions, {} empty points compared, {} forbidden points in {} positions, \
             {} double-three candidates ({} legal), {} disagreements",
            self.positions,
            self.points,
            self.forbidden,
            self.with_forbidden,
            self.candidates,
            self.legal_candidates,
            self.disagreements.len()
        );
        if !self.disagreements.is_empty() {
            for d in self.disagreements.iter().take(10) {
                eprintln!("{d}");
            }
            panic!(
                "{what}: wuzi and figrid-board disagree on {} positions (first ones above)",
                self.disagreements.len()
            );
        }
        assert!(
            self.with_forbidden > 0,
            "{what}: no forbidden point was ever tested"
        );
    }
}

/// Random legal renju games of 10 to 60 moves: black plays only points wuzi calls legal, both
/// sides mostly play next to existing stones. Every position from move 10 on is compared. A
/// game that ends (five) stops there.
fn sweep_games(seed: u64, games: usize) -> Sweep {
    let mut rng = Rng(seed);
    let mut sweep = Sweep::default();
    for g in 0..games {
        let len = rng.range(10, 60);
        let mut b = Board::new(N, Rule::Renju).unwrap();
        b.make(Pos::new(7, 7)).unwrap();
        while b.stone_count() < len && b.outcome().is_none() {
            let legal = b.legal_moves();
            let near: Vec<Pos> = legal
                .iter()
                .copied()
                .filter(|&p| near_stone(&b, p, if rng.chance(3, 4) { 1 } else { 2 }))
                .collect();
            let pool = if near.is_empty() { &legal } else { &near };
            let p = pool[rng.range(0, pool.len() - 1)];
            b.make(p).unwrap();
            if b.stone_count() >= 10 && b.outcome().is_none() {
                let moves: Vec<Pos> = b.history().iter().map(|r| r.pos).collect();
                sweep.compare(&mut b, || {
                    format!(
                        "game {g} (seed {seed:#x}), moves: {}",
                        Pos::format_list(&moves)
                    )
                });
            }
        }
    }
    sweep
}

/// Is there a stone within Chebyshev distance `r` of `p`?
fn near_stone(b: &Board, p: Pos, r: usize) -> bool {
    (p.y().saturating_sub(r)..=(p.y() + r).min(N - 1)).any(|y| {
        (p.x().saturating_sub(r)..=(p.x() + r).min(N - 1))
            .any(|x| b.stone_at(Pos::new(x, y)).is_some())
    })
}

/// Random scatters in a square window around the centre: radius 2 to 7, density 15% to 85%,
/// black share 50% to 90%.
fn sweep_scatters(seed: u64, positions: usize) -> Sweep {
    let mut rng = Rng(seed);
    let mut sweep = Sweep::default();
    for i in 0..positions {
        let r = rng.range(2, 7);
        let density = rng.range(15, 85) as u64;
        let black_share = rng.range(50, 90) as u64;
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for y in 7 - r..=7 + r {
            for x in 7 - r..=7 + r {
                if rng.chance(density, 100) {
                    if rng.chance(black_share, 100) {
                        black.push(Pos::new(x, y));
                    } else {
                        white.push(Pos::new(x, y));
                    }
                }
            }
        }
        let mut b = Board::from_stones(N, Rule::Renju, &black, &white).unwrap();
        sweep.compare(&mut b, || {
            format!("scatter {i} (seed {seed:#x}, radius {r}, density {density}%, black {black_share}%)")
        });
    }
    sweep
}

/// Scatters of black stones along the lines through a few centres, with a little white: these
/// make crossings of threes and fours, so nested double-three decisions, far more often than
/// uniform scatters.
fn sweep_line_clusters(seed: u64, positions: usize) -> Sweep {
    const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut rng = Rng(seed);
    let mut sweep = Sweep::default();
    for i in 0..positions {
        let mut b = Board::new(N, Rule::Renju).unwrap();
        let centres = rng.range(1, 4);
        for _ in 0..centres {
            let (cx, cy) = (rng.range(3, 11) as isize, rng.range(3, 11) as isize);
            for (dx, dy) in DIRS {
                for k in -5isize..=5 {
                    if k == 0 || !rng.chance(2, 7) {
                        continue;
                    }
                    let (x, y) = (cx + k * dx, cy + k * dy);
                    if !(0..N as isize).contains(&x) || !(0..N as isize).contains(&y) {
                        continue;
                    }
                    let p = Pos::new(x as usize, y as usize);
                    if b.is_empty_at(p) {
                        let s = if rng.chance(5, 6) {
                            Stone::Black
                        } else {
                            Stone::White
                        };
                        b.place(p, s).unwrap();
                    }
                }
            }
        }
        sweep.compare(&mut b, || {
            format!("line cluster {i} (seed {seed:#x}, {centres} centres)")
        });
    }
    sweep
}

#[test]
fn oracle_is_fifteen_by_fifteen() {
    assert_eq!(BOARD_SIZE, N);
}

#[test]
fn forbidden_points_agree_in_random_games() {
    sweep_games(0x5EED_0001, 600).finish("random games");
}

#[test]
fn forbidden_points_agree_in_scatters() {
    sweep_scatters(0x5EED_0002, 6_000).finish("scatters");
}

#[test]
fn forbidden_points_agree_in_line_clusters() {
    sweep_line_clusters(0x5EED_0003, 6_000).finish("line clusters");
}

#[test]
#[ignore = "large sweep, about six minutes: run with --ignored"]
fn forbidden_points_agree_large_sweep() {
    sweep_games(0xB16_0001, 20_000).finish("random games (large)");
    sweep_scatters(0xB16_0002, 200_000).finish("scatters (large)");
    sweep_line_clusters(0xB16_0003, 200_000).finish("line clusters (large)");
}

/// The two positions of `shared/data/forbidden/realcore.jsonl` where a three's straight-four
/// point also makes a five elsewhere (realcore_23 and realcore_24). realcore counts such a
/// three; rules.md (RIF wording, Gomocup referee, Rapfi) does not, and neither does figrid:
/// both implementations give the verdicts of rules.md, so this interpretation needs no filter.
#[test]
fn five_making_straight_four_points_do_not_count() {
    for (black, white, point, forbidden) in [
        (
            "f12 g10 g12 h10 h11 h8 h9",
            "a1 a2 h7 o1 o14 o15 o2",
            "i12",
            false,
        ),
        (
            "f12 f7 g10 g11 h6 h7 h8 i10 i12 j9 k9",
            "f8 g12 g6 h11 h5 i7 k12 k8",
            "h9",
            true,
        ),
    ] {
        let mut b = Board::from_stones(
            N,
            Rule::Renju,
            &Pos::parse_list(black, N).unwrap(),
            &Pos::parse_list(white, N).unwrap(),
        )
        .unwrap();
        let p = Pos::parse(point, N).unwrap();
        assert_eq!(b.is_forbidden(p), forbidden, "wuzi on {point}");
        assert_eq!(
            oracle_forbidden(&b).contains(&p),
            forbidden,
            "figrid on {point}"
        );
        let mut sweep = Sweep::default();
        sweep.compare(&mut b, || format!("realcore position with {point}"));
        assert!(sweep.disagreements.is_empty(), "{}", sweep.disagreements[0]);
    }
}
