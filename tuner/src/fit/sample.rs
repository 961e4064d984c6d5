//! Positions for the fit, from arena records: replay every game, keep quiet positions after the
//! opening, label them with the game's result, deduplicate, balance the colours, split.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use wuzi_arena::config::{mix64, RunConfig, RUN_FILE};
use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_arena::referee::Reason;
use wuzi_arena::run::load_run_records;
use wuzi_arena::ArenaError;
use wuzi_engine::eval::{EvalFeatures, Threat};
use wuzi_engine::{Board, Rule, Stone};

use super::error::FitError;

/// How positions are chosen.
#[derive(Clone, Debug, Serialize)]
pub struct SampleOptions {
    /// Plies after the opening's stones before positions are taken.
    pub skip_plies: usize,
    /// Keep as many positions with white to move as with black to move.
    pub balance: bool,
    /// Share of the games (whole pairs) held out for validation, 0 to 0.9.
    pub validation: f64,
    /// At most this many positions (a seeded subsample), if set.
    pub max_positions: Option<usize>,
    /// Seed of the split, the colour balance and the subsample.
    pub seed: u64,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            skip_plies: 2,
            balance: true,
            validation: 0.1,
            max_positions: None,
            seed: 1,
        }
    }
}

/// One position of the sample.
#[derive(Clone, Debug)]
pub struct Position {
    /// What the evaluation counts (side to move included).
    pub features: EvalFeatures,
    /// The game result from the side to move's view (1 win, 0.5 draw, 0 loss), averaged
    /// over the games in which the position occurred.
    pub result: f64,
    /// The mover's search score for this position, if a recorded game gave one.
    pub score: Option<i32>,
    /// Held out for validation.
    pub validation: bool,
}

/// A records source as read.
#[derive(Clone, Debug, Serialize)]
pub struct SourceInfo {
    /// The run directory.
    pub path: PathBuf,
    /// Games in its records.
    pub games: usize,
    /// The last line of `games.jsonl` was cut off (an interrupted run) and was ignored.
    pub truncated: bool,
}

/// Counts of what the sampler kept and dropped.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SampleStats {
    /// Games read.
    pub games: usize,
    /// Games not used: ended by a crash, time-out, illegal move or missing move (their
    /// result says nothing about the positions).
    pub games_skipped: usize,
    /// Positions after the opening and the skipped plies.
    pub candidates: usize,
    /// Dropped: the side to move can make five at once.
    pub win_now: usize,
    /// Dropped: the opponent threatens five (the side to move must block).
    pub must_block: usize,
    /// Dropped as repeats of a position already taken (their results are averaged in).
    pub duplicates: usize,
    /// Dropped to balance the colours.
    pub balance_dropped: usize,
    /// Dropped by the `max_positions` cap.
    pub cap_dropped: usize,
    /// Positions with black to move.
    pub black_to_move: usize,
    /// Positions with white to move.
    pub white_to_move: usize,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub validation: usize,
}

/// The positions of one fit.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The rule of every game.
    pub rule: Rule,
    /// The board size of every game.
    pub size: usize,
    /// The positions, in record order.
    pub positions: Vec<Position>,
    /// What was read.
    pub sources: Vec<SourceInfo>,
    /// What was kept and dropped.
    pub stats: SampleStats,
}

/// The run directory of a `--records` path: the directory itself, or the directory of a
/// `games.jsonl`.
fn run_dir(path: &Path) -> Result<PathBuf, FitError> {
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else if path.file_name().is_some_and(|n| n == GAMES_FILE) && path.exists() {
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    } else {
        return Err(FitError::Source {
            path: path.to_path_buf(),
            message: format!(
                "not found; give an arena run directory (with {RUN_FILE} and {GAMES_FILE}) or its {GAMES_FILE}"
            ),
        });
    };
    if !dir.join(RUN_FILE).is_file() {
        return Err(FitError::Source {
            path: path.to_path_buf(),
            message: format!(
                "no {RUN_FILE} here; the records of an arena run (`wuzi-arena match --out DIR`, \
                 a shard or a merged run) are needed to know the rule and board size"
            ),
        });
    }
    if !dir.join(GAMES_FILE).is_file() {
        return Err(FitError::Source {
            path: path.to_path_buf(),
            message: format!("no {GAMES_FILE} here (the run has no finished game)"),
        });
    }
    Ok(dir)
}

/// A position before dedupe.
struct Candidate {
    hash: u64,
    features: EvalFeatures,
    result: f64,
    score: Option<i32>,
    /// Source index and pair: the split is by whole pairs.
    group: u64,
}

/// What one game gives.
#[derive(Default)]
struct GameYield {
    candidates: Vec<Candidate>,
    total: usize,
    win_now: usize,
    must_block: usize,
    skipped: bool,
}

fn replay(
    r: &GameRecord,
    size: usize,
    rule: Rule,
    skip_plies: usize,
    group: u64,
    path: &Path,
) -> Result<GameYield, FitError> {
    let mut out = GameYield::default();
    if matches!(
        r.reason,
        Reason::Timeout | Reason::Crash | Reason::Illegal | Reason::NoMove
    ) {
        out.skipped = true;
        return Ok(out);
    }
    let bad = |message: String| FitError::Replay {
        path: path.join(GAMES_FILE),
        pair: r.pair,
        game: r.game,
        message,
    };
    let moves = r.all_moves();
    let opening = r.opening.opening.moves.len();
    let mut b = Board::new(size, rule).map_err(|e| bad(e.to_string()))?;
    for (i, &m) in moves.iter().enumerate() {
        if b.outcome().is_some() {
            return Err(bad(format!(
                "move {} ({m}) after the end of the game",
                i + 1
            )));
        }
        if i >= opening + skip_plies {
            out.total += 1;
            let me = b.side_to_move();
            if b.threat_count(me, Threat::Five) > 0 {
                out.win_now += 1;
            } else if b.threat_count(me.opp(), Threat::Five) > 0 {
                out.must_block += 1;
            } else {
                let result = match r.winner {
                    None => 0.5,
                    Some(w) if w == me => 1.0,
                    Some(_) => 0.0,
                };
                out.candidates.push(Candidate {
                    hash: b.hash(),
                    features: b.eval_features(),
                    result,
                    score: r.moves.get(i - opening).and_then(|e| e.score),
                    group,
                });
            }
        }
        b.make(m)
            .map_err(|e| bad(format!("move {} ({m}): {e}", i + 1)))?;
    }
    Ok(out)
}

/// A seeded uniform value in [0, 1) for `key`.
fn unit(seed: u64, key: u64) -> f64 {
    (mix64(seed ^ mix64(key)) >> 11) as f64 / (1u64 << 53) as f64
}

/// Indices `0..n` in a seeded random order.
fn shuffled(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

/// Keeps `keep` of the indices in `idx` (seeded choice), in their original order.
fn subsample(idx: &[usize], keep: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut chosen: Vec<usize> = shuffled(idx.len(), rng)
        .into_iter()
        .take(keep)
        .map(|k| idx[k])
        .collect();
    chosen.sort_unstable();
    chosen
}

/// Reads the records of every path, checks that they share rule and size, and samples the
/// positions. `progress(done, total)` is called as games are replayed.
pub fn sample(
    paths: &[PathBuf],
    opts: &SampleOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Sample, FitError> {
    if paths.is_empty() {
        return Err(FitError::Options(
            "give at least one --records directory".into(),
        ));
    }
    if !(0.0..=0.9).contains(&opts.validation) {
        return Err(FitError::Options(format!(
            "--validation {} is outside 0..=0.9",
            opts.validation
        )));
    }
    let mut sources = Vec::new();
    let mut runs: Vec<(PathBuf, Vec<GameRecord>)> = Vec::new();
    let mut first: Option<(PathBuf, Rule, usize)> = None;
    for path in paths {
        let dir = run_dir(path)?;
        let config = RunConfig::load(&dir.join(RUN_FILE))?;
        let (rule, size) = (config.game.rule, config.game.size);
        match &first {
            None => first = Some((dir.clone(), rule, size)),
            Some((f, r0, s0)) if (*r0, *s0) != (rule, size) => {
                return Err(FitError::Mismatch {
                    path: dir,
                    found: format!("{rule} {size}x{size}"),
                    first: f.clone(),
                    expected: format!("{r0} {s0}x{s0}"),
                })
            }
            Some(_) => {}
        }
        // The arena's reader: a cut-off last line is an interrupted run (ignored, reported);
        // a damaged line elsewhere is an error naming file and line.
        let truncated = read_records(&dir.join(GAMES_FILE))
            .map_err(ArenaError::from)?
            .truncated;
        let records = load_run_records(&config, &dir, false)?;
        sources.push(SourceInfo {
            path: dir.clone(),
            games: records.len(),
            truncated,
        });
        runs.push((dir, records));
    }
    let (_, rule, size) = first.expect("one source at least");
    let total: usize = runs.iter().map(|(_, r)| r.len()).sum();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut stats = SampleStats {
        games: total,
        ..SampleStats::default()
    };
    let mut candidates = Vec::new();
    for (src, (dir, records)) in runs.iter().enumerate() {
        let yields: Vec<Result<GameYield, FitError>> = records
            .par_iter()
            .map(|r| {
                let group = ((src as u64) << 48) ^ r.pair;
                let y = replay(r, size, rule, opts.skip_plies, group, dir);
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(n, total);
                y
            })
            .collect();
        for y in yields {
            let y = y?;
            stats.games_skipped += usize::from(y.skipped);
            stats.candidates += y.total;
            stats.win_now += y.win_now;
            stats.must_block += y.must_block;
            candidates.extend(y.candidates);
        }
    }
    // Dedupe by position hash (side to move included), averaging the results.
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut merged: Vec<(Candidate, f64, u32)> = Vec::new();
    for c in candidates {
        match index.get(&c.hash) {
            Some(&k) => {
                let m = &mut merged[k];
                m.1 += c.result;
                m.2 += 1;
                if m.0.score.is_none() {
                    m.0.score = c.score;
                }
                stats.duplicates += 1;
            }
            None => {
                index.insert(c.hash, merged.len());
                let r = c.result;
                merged.push((c, r, 1));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(mix64(opts.seed ^ 0xF17));
    let mut keep: Vec<usize> = (0..merged.len()).collect();
    if opts.balance {
        let (black, white): (Vec<usize>, Vec<usize>) = keep
            .iter()
            .partition(|&&k| merged[k].0.features.side == Stone::Black);
        let n = black.len().min(white.len());
        let (big, small) = if black.len() > n {
            (black, white)
        } else {
            (white, black)
        };
        stats.balance_dropped = big.len() - n;
        keep = subsample(&big, n, &mut rng);
        keep.extend(small);
        keep.sort_unstable();
    }
    if let Some(cap) = opts.max_positions {
        if keep.len() > cap {
            stats.cap_dropped = keep.len() - cap;
            keep = subsample(&keep, cap, &mut rng);
        }
    }
    let positions: Vec<Position> = keep
        .into_iter()
        .map(|k| {
            let (c, sum, n) = &merged[k];
            Position {
                features: c.features.clone(),
                result: sum / f64::from(*n),
                score: c.score,
                validation: unit(opts.seed, c.group) < opts.validation,
            }
        })
        .collect();
    stats.black_to_move = positions
        .iter()
        .filter(|p| p.features.side == Stone::Black)
        .count();
    stats.white_to_move = positions.len() - stats.black_to_move;
    stats.validation = positions.iter().filter(|p| p.validation).count();
    stats.train = positions.len() - stats.validation;
    if stats.train == 0 {
        return Err(FitError::EmptySample(format!(
            "{} games, {} positions after the opening, {} where the side to move wins at once, \
             {} where it must block a four, {} repeats, {} dropped for colour balance, {} held \
             out for validation (use more or longer games, or a smaller --skip-plies)",
            stats.games,
            stats.candidates,
            stats.win_now,
            stats.must_block,
            stats.duplicates,
            stats.balance_dropped,
            stats.validation
        )));
    }
    Ok(Sample {
        rule,
        size,
        positions,
        sources,
        stats,
    })
}
