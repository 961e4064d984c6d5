//! Benchmarks of renju forbidden-point detection and make/undo.
//!
//! Positions are middle games of 24 to 40 stones from fixed move lists: each starts from one
//! of the 26 canonical openings and goes on with moves of a simple tactical player (attack and
//! defend threes and fours), so the stones form the clustered, contested shapes of real games.
//! `double_threes` has several double-three candidates (points with two open threes), some of
//! which need the recursive RIF 9.3 check.
//!
//! Run with `cargo bench -p wuzi-engine --bench forbidden`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use wuzi_engine::{Board, Pattern, Pos, Rule, Stone};

/// (name, move list): all positions are black to move, no game is over.
const POSITIONS: [(&str, &str); 4] = [
    (
        // Opening 8I Rangetsu (h8 i9 i6), 26 stones: 4 double-three candidates, 4 forbidden points.
        "double_threes_26",
        "h8 i9 i6 l6 k7 l9 k9 l7 k8 k6 l8 m8 j5 k10 n7 i12 j11 i11 i10 n6 j6 m9 m6 g8 i5 h4",
    ),
    (
        // Opening 2D Keigetsu (h8 h9 i10), 32 stones: one forbidden point.
        "midgame_32",
        "h8 h9 i10 i8 g10 j10 g9 i7 g12 g11 h11 f13 k8 j9 i12 f9 j12 h12 i13 i9 k9 i11 k10 k7 \
         j8 i6 i5 h7 j7 k11 j13 k14",
    ),
    (
        // Opening 1I Chosei (h8 i9 j10), 40 stones, two forbidden points.
        "midgame_40",
        "h8 i9 j10 j8 g11 k7 h10 m5 l6 h7 k10 i10 i11 i7 j7 k9 h6 i8 i6 l9 g6 f6 h9 h11 l10 \
         m9 j9 n9 o9 n10 f8 g9 g7 i5 e9 d10 d8 l8 j6 f10",
    ),
    (
        // Opening 10I Myojo (h8 i9 h6), 24 stones: two forbidden points.
        "midgame_24",
        "h8 i9 h6 h5 i7 k5 g5 f4 j8 k9 g9 j6 f10 e11 g8 i8 g7 g6 f7 j9 h7 j7 l9 h9",
    ),
];

fn board(moves: &str) -> Board {
    let moves = Pos::parse_list(moves, 15).expect("valid move list");
    let b = Board::from_moves(15, Rule::Renju, &moves).expect("legal move list");
    assert!(b.outcome().is_none(), "position is over: {moves:?}");
    assert_eq!(b.side_to_move(), Stone::Black);
    b
}

/// Points with two or more open-three line patterns for black.
fn double_three_candidates(b: &Board) -> usize {
    b.points()
        .filter(|&p| {
            b.is_empty_at(p)
                && (0..4)
                    .filter(|&d| b.pattern(p, Stone::Black, d) == Pattern::F3)
                    .count()
                    >= 2
        })
        .count()
}

fn forbidden_scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("forbidden_points");
    for (name, moves) in POSITIONS {
        let mut b = board(moves);
        eprintln!(
            "{name}: {} stones, forbidden [{}], {} double-three candidates",
            b.stone_count(),
            Pos::format_list(&b.forbidden_points()),
            double_three_candidates(&b)
        );
        group.bench_function(name, |bench| {
            bench.iter(|| black_box(&mut b).forbidden_points())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("legal_moves");
    for (name, moves) in POSITIONS {
        let mut b = board(moves);
        group.bench_function(name, |bench| bench.iter(|| black_box(&mut b).legal_moves()));
    }
    group.finish();
}

fn make_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_undo");
    // One make and one undo on every empty point within two of the stones, in turn.
    for (name, moves) in POSITIONS {
        let mut b = board(moves);
        let targets: Vec<Pos> = b
            .points()
            .filter(|&p| {
                b.is_empty_at(p)
                    && b.points().any(|q| {
                        b.stone_at(q).is_some()
                            && q.x().abs_diff(p.x()) <= 2
                            && q.y().abs_diff(p.y()) <= 2
                    })
            })
            .collect();
        let mut i = 0;
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let p = targets[i % targets.len()];
                i += 1;
                let rec = b.make(black_box(p)).expect("empty");
                b.undo();
                rec
            })
        });
    }
    // A whole game record played and taken back: 40 makes and 40 undos.
    let moves = Pos::parse_list(POSITIONS[2].1, 15).unwrap();
    group.bench_function("play_and_undo_40_moves", |bench| {
        bench.iter_batched_ref(
            || Board::new(15, Rule::Renju).unwrap(),
            |b| {
                for &m in &moves {
                    b.make(m).expect("empty");
                }
                while b.undo().is_some() {}
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, forbidden_scan, make_undo);
criterion_main!(benches);
