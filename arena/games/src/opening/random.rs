//! The seeded generator of balanced random openings (each judged near-even by a short search),
//! and the progress bar that follows it.

use std::collections::HashSet;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use wuzi_engine::{Board, Engine, Limits, Params, Pos, Rule};

use super::moves::{centre, Opening};
use crate::error::{GamesError, Result};

/// Settings of the random opening generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomSpec {
    /// How many openings to make.
    pub count: usize,
    /// Stones per opening (moves from the empty board, black first).
    pub stones: usize,
    /// Stones are placed within this Chebyshev distance of the centre.
    pub radius: usize,
    /// Largest accepted distance of the quick check search's score from the balance point,
    /// in the engine's evaluation units.
    pub max_score: i32,
    /// The balance point: the score, for the side to move, of an even position. `None`
    /// calibrates it as the median score of a seeded sample of candidates (see [`random`]).
    pub centre: Option<i32>,
    /// Node budget of the quick check search (default parameters, one thread).
    pub check_nodes: u64,
}

impl Default for RandomSpec {
    fn default() -> Self {
        RandomSpec {
            count: 100,
            stones: 3,
            radius: 3,
            max_score: 150,
            centre: None,
            check_nodes: 1500,
        }
    }
}

/// A uniform integer in `0..n` (n > 0) from the generator; the modulo bias is negligible for
/// the small ranges used here and the result only needs to be reproducible.
pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A drawn candidate: the position and its moves, `None` when the draw failed.
type Candidate = Option<(Board, Vec<Pos>)>;
/// A position's key (see [`Opening::canonical_key`]).
type Key = Vec<(u8, u8, u8)>;

/// Candidates of the random generator: random legal stones near the centre. Candidate `i` of
/// a stream is drawn from its own generator (the stream's key, ChaCha stream `i`), so every
/// candidate is a function of the seed and its index alone: they can be drawn and judged in
/// parallel and in batches of any size with the same result.
struct Candidates<'a> {
    cells: &'a [Pos],
    stones: usize,
    size: usize,
    rule: Rule,
    key: u64,
}

impl Candidates<'_> {
    /// Candidate `index`: `stones` moves alternating from black on random empty points of
    /// `cells`, never a five or a forbidden point; `None` when the draw failed.
    fn get(&self, index: u64) -> Result<Candidate> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.key);
        rng.set_stream(index);
        let mut board = Board::new(self.size, self.rule)?;
        let mut moves = Vec::with_capacity(self.stones);
        for _ in 0..self.stones {
            let side = board.side_to_move();
            let free: Vec<Pos> = self
                .cells
                .iter()
                .copied()
                .filter(|&p| board.is_empty_at(p) && !board.makes_five(p, side))
                .collect();
            if free.is_empty() {
                return Ok(None);
            }
            let p = free[below(&mut rng, free.len())];
            let rec = board.make(p)?;
            if rec.forbidden || rec.five {
                return Ok(None);
            }
            moves.push(p);
        }
        Ok((board.outcome().is_none()).then_some((board, moves)))
    }

    /// Candidates `from..from + n`, drawn in parallel, in index order.
    fn batch(&self, from: u64, n: usize) -> Result<Vec<Candidate>> {
        (from..from + n as u64)
            .into_par_iter()
            .map(|i| self.get(i))
            .collect()
    }
}

/// The quick check search of every board, in parallel (one engine per worker): the score for
/// the side to move, `None` for a forced win. A search under a node limit on a cleared table
/// is a function of the board, so the result does not depend on the number of threads.
fn judge_all(boards: &[&Board], check_nodes: u64) -> Vec<Option<i32>> {
    let limits = Limits::nodes(check_nodes.max(1));
    boards
        .par_iter()
        .map_init(
            || Engine::new(Params::default(), 1, 1),
            |engine, board| {
                engine.new_game();
                let r = engine.search(board, &limits, None);
                r.mate.is_none().then_some(r.score)
            },
        )
        .collect()
}

/// Consecutive draws of already-known openings after which [`random`] decides the
/// candidates are exhausted.
const EXHAUSTED_DRAWS: usize = 100_000;

/// Candidates drawn and judged per parallel round of [`random`]: enough to keep every core
/// busy, few enough that a request for a handful of openings judges few extra candidates.
const BATCH_MIN: usize = 16;
/// See [`BATCH_MIN`].
const BATCH_MAX: usize = 256;

/// `count` balanced random openings, the same for the same seed and settings (see
/// [`random_with`]).
pub fn random(spec: &RandomSpec, size: usize, rule: Rule, seed: u64) -> Result<Vec<Opening>> {
    random_with(spec, size, rule, seed, &mut |_, _| {})
}

/// `count` balanced random openings, the same for the same seed and settings, whatever the
/// number of threads; `progress(made, count)` is called as they are found.
///
/// Each candidate places `stones` moves, alternating from black, on random empty points within
/// `radius` of the centre, never a five or (renju) a forbidden point. A quick search
/// (`check_nodes` nodes, default parameters) then judges it: it is rejected when the search
/// finds a forced win for either side (in freestyle this rejects openings where the side to
/// move simply wins) or a score more than `max_score` from the balance point, and when it
/// repeats an opening already kept or a symmetric image of one. Candidates are drawn and
/// judged in parallel batches but accepted in index order, so the openings of `count` N are
/// the first N of any larger count: a run that needs fewer openings builds only those.
///
/// The balance point is not simply 0: the engine's scores of early positions carry a
/// side-to-move bias that depends on the stone count (after three renju stones white's score
/// is around +1000 in almost every position). Unless `centre` fixes it, the balance point is the
/// median score of a seeded sample of 64 candidates, so "balanced" means "close to the typical
/// position of this many stones".
pub fn random_with(
    spec: &RandomSpec,
    size: usize,
    rule: Rule,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Opening>> {
    let fail = |message: String| GamesError::Opening {
        source_name: "random".into(),
        line: None,
        message,
    };
    if spec.stones == 0 || spec.count == 0 {
        return Err(fail(
            "need at least one opening of at least one stone".into(),
        ));
    }
    let (cx, cy) = centre(size);
    let r = spec.radius as i32;
    let cells: Vec<Pos> = (-r..=r)
        .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
        .filter_map(|(dx, dy)| {
            let (x, y) = (cx + dx, cy + dy);
            (x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
                .then(|| Pos::new(x as usize, y as usize))
        })
        .collect();
    if cells.len() < spec.stones + 1 {
        return Err(fail(format!(
            "radius {} holds only {} points for {} stones",
            spec.radius,
            cells.len(),
            spec.stones
        )));
    }
    let candidates = |stream: u64| Candidates {
        cells: &cells,
        stones: spec.stones,
        size,
        rule,
        key: seed ^ stream,
    };
    let batch_size = |wanted: usize| {
        (wanted * 2).clamp(BATCH_MIN.max(2 * rayon::current_num_threads()), BATCH_MAX)
    };
    progress(0, spec.count);

    let centre = match spec.centre {
        Some(c) => c,
        None => {
            // The first 64 judged scores among the sample's first 1000 candidates.
            const SAMPLE: usize = 64;
            const SAMPLE_DRAWS: u64 = 1000;
            let sample = candidates(0x6361_6C69_6272_6174);
            let mut scores = Vec::new();
            let mut next = 0u64;
            while scores.len() < SAMPLE && next < SAMPLE_DRAWS {
                let n = (batch_size(SAMPLE - scores.len()) as u64).min(SAMPLE_DRAWS - next);
                let drawn = sample.batch(next, n as usize)?;
                next += n;
                let boards: Vec<&Board> = drawn.iter().flatten().map(|(b, _)| b).collect();
                for score in judge_all(&boards, spec.check_nodes) {
                    if scores.len() < SAMPLE {
                        scores.extend(score);
                    }
                }
            }
            scores.sort_unstable();
            scores.get(scores.len() / 2).copied().unwrap_or(0)
        }
    };

    let draw = candidates(0x6F70_656E_696E_6773);
    let mut seen = HashSet::new();
    // Openings the check rejected: each distinct opening is searched once. Without it a
    // request near the number of distinct balanced openings (e.g. `random:4000` of 3 stones
    // within radius 3) searched the same rejected positions again and again, for hours.
    let mut rejected = HashSet::new();
    let mut out = Vec::new();
    let max_attempts = spec.count.saturating_mul(500).max(5_000);
    let mut attempts = 0;
    // Draws since the last opening not drawn before: the generator has run out of distinct
    // openings long before this many (each distinct 3-stone opening is hit about once in a
    // few thousand draws), so the search ends with its error instead of drawing on.
    let mut stale = 0;
    let mut next = 0u64;
    while out.len() < spec.count {
        let drawn = draw.batch(next, batch_size(spec.count - out.len()))?;
        next += drawn.len() as u64;
        // Judge each new position of the batch once, in parallel; then walk the batch in
        // index order as a sequential generator would.
        let keyed: Vec<Option<(Board, Opening, Key)>> = drawn
            .into_iter()
            .map(|c| {
                c.map(|(board, moves)| {
                    let opening = Opening {
                        id: String::new(),
                        moves,
                    };
                    let key = opening.canonical_key(size);
                    (board, opening, key)
                })
            })
            .collect();
        let mut fresh = HashSet::new();
        let to_judge: Vec<&(Board, Opening, Key)> = keyed
            .iter()
            .flatten()
            .filter(|(_, _, key)| {
                !seen.contains(key) && !rejected.contains(key) && fresh.insert(key.clone())
            })
            .collect();
        let boards: Vec<&Board> = to_judge.iter().map(|(b, _, _)| b).collect();
        let verdicts: std::collections::HashMap<&Key, Option<i32>> = to_judge
            .iter()
            .map(|(_, _, key)| key)
            .zip(judge_all(&boards, spec.check_nodes))
            .collect();
        for candidate in &keyed {
            if out.len() == spec.count {
                break;
            }
            attempts += 1;
            stale += 1;
            if attempts > max_attempts || stale > EXHAUSTED_DRAWS {
                return Err(fail(format!(
                    "found only {} of {} balanced openings in {attempts} attempts \
                     ({} distinct openings judged, balance point {centre}); raise the score \
                     bound (--random-max-score) or the radius (--random-radius)",
                    out.len(),
                    spec.count,
                    out.len() + rejected.len()
                )));
            }
            let Some((_, opening, key)) = candidate else {
                continue;
            };
            if seen.contains(key) || rejected.contains(key) {
                continue;
            }
            stale = 0;
            match verdicts.get(key).copied().flatten() {
                Some(score) if (score - centre).abs() <= spec.max_score => {}
                _ => {
                    rejected.insert(key.clone());
                    continue;
                }
            }
            seen.insert(key.clone());
            out.push(Opening {
                id: format!("r{}", out.len()),
                moves: opening.moves.clone(),
            });
        }
        progress(out.len(), spec.count);
    }
    Ok(out)
}

/// A progress bar on stderr for building `what` (random openings take seconds to minutes):
/// hidden when `quiet` or when stderr is not a terminal. Feed it from a `progress(done, total)`
/// callback with [`show_progress`]; clear it with `finish_and_clear`.
pub fn progress_bar(quiet: bool, what: &str) -> indicatif::ProgressBar {
    crate::progress::bar(
        quiet,
        &format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what}, eta {{eta}}"),
    )
}

/// Moves `bar` to `done` of `total`.
pub fn show_progress(bar: &indicatif::ProgressBar, done: usize, total: usize) {
    bar.set_length(total as u64);
    bar.set_position(done as u64);
}
#[cfg(test)]
mod tests {
    use super::super::source::Source;
    use super::*;

    #[test]
    fn random_openings_are_reproducible_and_balanced() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let spec = RandomSpec {
                count: 6,
                ..RandomSpec::default()
            };
            let a = random(&spec, 15, rule, 7).expect("generates");
            let b = random(&spec, 15, rule, 7).expect("generates");
            let c = random(&spec, 15, rule, 8).expect("generates");
            assert_eq!(a, b);
            assert_ne!(a, c);
            assert_eq!(a.len(), 6);
            let classes: HashSet<_> = a.iter().map(|o| o.canonical_key(15)).collect();
            assert_eq!(classes.len(), 6);
            let mut scores = Vec::new();
            for o in &a {
                assert_eq!(o.moves.len(), 3);
                let board = o.check(15, rule).expect("legal");
                let r = Engine::new(Params::default(), 1, 1).search(
                    &board,
                    &Limits::nodes(spec.check_nodes),
                    None,
                );
                assert!(r.mate.is_none(), "{o}: {r:?}");
                scores.push(r.score);
                for p in &o.moves {
                    assert!(p.x().abs_diff(7) <= 3 && p.y().abs_diff(7) <= 3, "{o}");
                }
            }
            // All within 2 * max_score of each other (each within max_score of the centre).
            let (lo, hi) = (scores.iter().min(), scores.iter().max());
            assert!(
                hi.zip(lo).is_some_and(|(h, l)| h - l <= 2 * spec.max_score),
                "{rule}: {scores:?}"
            );
        }
        // A fixed centre far from any real score finds nothing, with a clear error.
        let spec = RandomSpec {
            count: 2,
            centre: Some(-20_000),
            max_score: 1,
            check_nodes: 20,
            ..RandomSpec::default()
        };
        let e = random(&spec, 15, Rule::Freestyle, 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("balanced openings"), "{e}");
    }

    #[test]
    fn random_openings_do_not_depend_on_threads_and_fewer_are_a_prefix() {
        let spec = RandomSpec {
            count: 8,
            check_nodes: 300,
            ..RandomSpec::default()
        };
        let on = |threads: usize, spec: &RandomSpec| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| random(spec, 15, Rule::Renju, 3).expect("generates"))
        };
        let one = on(1, &spec);
        assert_eq!(on(3, &spec), one);
        // A run of 3 pairs builds 3 openings: the first 3 of the 8.
        let few = RandomSpec {
            count: 3,
            ..spec.clone()
        };
        assert_eq!(on(2, &few), one[..3]);
        let (list, name, _) = Source::Random(spec)
            .load_with(15, Rule::Renju, 3, Some(3), &mut |_, _| {})
            .expect("loads");
        assert_eq!(list, one[..3]);
        assert!(name.contains("3 of 8 openings, one per pair"), "{name}");
        // Progress reports reach the count.
        let mut last = (0, 0);
        random_with(&few, 15, Rule::Renju, 3, &mut |done, total| {
            last = (done, total)
        })
        .expect("generates");
        assert_eq!(last, (3, 3));
    }
}
