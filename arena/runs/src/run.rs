//! The runner: plays a run's games on a rayon pool, writes records, follows the SPRT, resumes
//! interrupted runs and merges shards.
//!
//! Workers take games from one queue in (global pair, game) order and send finished games to
//! the calling thread, which appends each record to `games.jsonl` at once and counts pairs in
//! pair order (see [`crate::summary`]). When a matchup's SPRT decides, its remaining games are
//! not started; games already running finish and are recorded but not counted. Because every
//! game is a pure function of (configuration, pair, game) and counting follows pair order, the
//! statistics do not depend on the number of workers.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

pub use crate::atomic::write_atomic;
use crate::config::{RunConfig, Schedule, RUN_FILE};
use crate::error::{ArenaError, Result};
use crate::run_dir::{io_log_name, load_records_file, PeerReader, RunDir, RunFiles};
use crate::summary::{
    ms_per_move, summarize_tallies, tally_all, Completion, GameLite, GameMap, Summary, Tally,
    Timing,
};
pub use crate::summary::{write_summary, write_summary_to, SUMMARY_FILE};
use wuzi_games::record::{GameRecord, OpeningRef, RecordPlayer, RecordWriter, GAMES_FILE};
use wuzi_games::referee::{play_game_unless, Reason};
use wuzi_players::Player;

/// Players kept alive per worker between games (each owns an engine and its hash table).
pub const PLAYER_CACHE: usize = 4;

/// How to run (what does not change the results).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games played at once (worker threads).
    pub concurrency: usize,
    /// Directory for `run.json`, `games.jsonl` and `summary.json`; `None` keeps nothing.
    pub out: Option<PathBuf>,
    /// Continue the run recorded in `out` instead of refusing to overwrite it.
    pub resume: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: default_concurrency(),
            out: None,
            resume: false,
        }
    }
}

/// The number of logical cores.
pub fn default_concurrency() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What the observer sees after each game.
pub struct Progress<'a> {
    /// The run.
    pub config: &'a RunConfig,
    /// Games finished (resumed ones included) of those this process plans.
    pub done: u64,
    /// Games this process plans (all pairs of its shard, both games).
    pub total: u64,
    /// Per-matchup counts so far (pairs in order).
    pub tallies: &'a [Tally],
    /// The game just finished (`None` for the first call).
    pub last: Option<&'a GameRecord>,
    /// Time since the session started.
    pub elapsed: std::time::Duration,
    /// Games played in this session.
    pub played: u64,
}

/// The result of [`run`].
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Statistics (with the session's timing).
    pub summary: Summary,
    /// Games played in this session.
    pub games_played: u64,
    /// Games taken from the records of an earlier session.
    pub games_resumed: u64,
    /// Some matchup stopped early on an SPRT decision.
    pub stopped_early: bool,
    /// A signal stopped the session before the run was complete (see [`crate::interrupt`]):
    /// the summary covers the games finished, and `wuzi-arena resume` continues.
    pub interrupted: bool,
    /// A shard sharing its folder with other shards of the run: the statistics of all their
    /// games at the end of this session (what `merge` computes once every shard is done).
    pub combined: Option<Summary>,
    /// The other shards seen in the shared folder.
    pub peers: Vec<crate::config::Shard>,
}

#[derive(Clone, Copy, Debug)]
struct Job {
    g: u64,
    game: u8,
}

/// Reads a run directory's records (the files of `config`'s shard, see [`RunFiles`]), checking
/// they belong to `config`. Truncated last lines are cut off the file when `repair` is set.
/// Returns the records (first copy of each game).
pub fn load_run_records(config: &RunConfig, dir: &Path, repair: bool) -> Result<Vec<GameRecord>> {
    load_records_file(config, &RunFiles::for_run(dir, config.shard).games, repair)
}

/// Plays (or continues) a run. `observer` is called once before the first game and after
/// every game, on the calling thread.
///
/// A shard whose `--out` folder also holds other shards of the same run (see
/// [`crate::run_dir`]) reads their records after each of its games and counts the combined
/// pairs in pair order, as [`merge`] does, stopping at the first pair after which the SPRT
/// decides: pairs are counted only once all pairs before them are finished, whichever shard
/// plays them, so the decision is the one `merge` reaches whatever the shards' speeds.
///
/// Returns once every external brain of the run has exited (they are sent `END` as their
/// players are dropped, and killed after their grace), so no brain outlives the run.
pub fn run(
    config: &RunConfig,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<RunOutcome> {
    let outcome = play_run(config, opts, observer);
    wuzi_players::external::wait_for_exits();
    outcome
}

/// [`run`] without the wait for external brains' exits.
fn play_run(
    config: &RunConfig,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<RunOutcome> {
    config.validate()?;
    let start = Instant::now();
    let schedule = Schedule::new(config);
    let mut games = GameMap::new();
    let mut writer = None;
    let mut peers = None;
    let files = opts
        .out
        .as_ref()
        .map(|dir| RunFiles::for_run(dir, config.shard));

    if let (Some(dir), Some(files)) = (&opts.out, &files) {
        std::fs::create_dir_all(dir).map_err(|e| ArenaError::io(dir, e))?;
        let run_file = &files.run;
        if config.shard.is_none() && has_shard_files(dir) {
            return Err(ArenaError::Config(format!(
                "{} holds the shards of a run; choose another --out",
                dir.display()
            )));
        }
        if run_file.exists() {
            if !opts.resume {
                return Err(ArenaError::Config(format!(
                    "{} already holds a run{}: add --resume to continue it, or choose another --out",
                    dir.display(),
                    config.shard.map(|s| format!(" (shard {s})")).unwrap_or_default()
                )));
            }
            let old = RunConfig::load(run_file)?;
            if &old != config {
                let mut changed = old.differences(config);
                if changed.is_empty() {
                    changed.push("players, openings, pairs, seed, limits or shard".into());
                }
                return Err(ArenaError::Mismatch(format!(
                    "{} was written by a different run configuration (in the run -> now): {}; \
                     resume with the run's options or choose another --out",
                    run_file.display(),
                    changed.join("; ")
                )));
            }
            for r in load_records_file(config, &files.games, true)? {
                if !config.plays(r.pair) {
                    return Err(ArenaError::Mismatch(format!(
                        "{}: pair {} belongs to another shard",
                        files.games.display(),
                        r.pair
                    )));
                }
                games.insert(r.key(), GameLite::from_record(&r));
            }
        } else {
            if config.shard.is_some() && dir.join(RUN_FILE).exists() {
                return Err(ArenaError::Config(format!(
                    "{} holds another run ({}); choose another --out",
                    dir.display(),
                    dir.join(RUN_FILE).display()
                )));
            }
            config.save(run_file)?;
        }
        if let Some(p) = PeerReader::new(config, dir) {
            p.check_folder()?;
            peers = Some(p);
        }
        writer = Some(RecordWriter::append(&files.games)?);
    }
    let resumed = games.len() as u64;

    let m_count = config.matchups.len();
    // This process's own pairs, in order (all pairs without a shard); the SPRT stops matchups
    // here only when this process sees every pair.
    let own_sprt = if config.shard.is_none() {
        config.sprt
    } else {
        None
    };
    let mut tallies = vec![Tally::default(); m_count];
    let mut next = vec![0u64; m_count];
    let stopped: Vec<AtomicBool> = (0..m_count).map(|_| AtomicBool::new(false)).collect();
    let advance = |m: usize, tallies: &mut [Tally], next: &mut [u64], games: &GameMap| {
        while next[m] < config.pairs && tallies[m].decision.is_none() {
            let g = config.global_pair(m, next[m]);
            if !config.plays(g) {
                next[m] += 1;
                continue;
            }
            match (games.get(&(g, 0)), games.get(&(g, 1))) {
                (Some(a), Some(b)) => {
                    if tallies[m].add_pair(a, b, own_sprt.as_ref()) {
                        stopped[m].store(true, Ordering::SeqCst);
                    }
                    next[m] += 1;
                }
                _ => break,
            }
        }
    };
    for m in 0..m_count {
        advance(m, &mut tallies, &mut next, &games);
    }
    // A shard in a shared folder: every shard's games, counted in pair order with the SPRT.
    let mut all = games.clone();
    let mut combined = vec![Tally::default(); m_count];
    let mut combined_next = vec![0u64; m_count];
    let advance_combined = |tallies: &mut [Tally], next: &mut [u64], all: &GameMap| {
        for m in 0..m_count {
            while next[m] < config.pairs && tallies[m].decision.is_none() {
                let g = config.global_pair(m, next[m]);
                match (all.get(&(g, 0)), all.get(&(g, 1))) {
                    (Some(a), Some(b)) => {
                        if tallies[m].add_pair(a, b, config.sprt.as_ref()) {
                            stopped[m].store(true, Ordering::SeqCst);
                        }
                        next[m] += 1;
                    }
                    _ => break,
                }
            }
        }
    };
    let mut poll_peers = |all: &mut GameMap| -> Result<bool> {
        let Some(p) = peers.as_mut() else {
            return Ok(false);
        };
        let mut new = Vec::new();
        p.poll(&mut new)?;
        for r in &new {
            all.entry(r.key())
                .or_insert_with(|| GameLite::from_record(r));
        }
        Ok(p.any())
    };
    let mut shared = poll_peers(&mut all)?;
    if shared {
        advance_combined(&mut combined, &mut combined_next, &all);
    }

    let total: u64 = (0..config.total_pairs())
        .filter(|&g| config.plays(g))
        .count() as u64
        * 2;
    let jobs: VecDeque<Job> = (0..config.total_pairs())
        .filter(|&g| config.plays(g))
        .flat_map(|g| [0u8, 1].map(|game| Job { g, game }))
        .filter(|j| !games.contains_key(&(j.g, j.game)))
        .collect();
    let queue = Mutex::new(jobs);
    let abort = AtomicBool::new(false);
    crate::interrupt::games_started();
    let mut played = 0u64;
    let mut failure: Option<ArenaError> = None;

    observer(&Progress {
        config,
        done: games.len() as u64,
        total,
        tallies: if shared { &combined } else { &tallies },
        last: None,
        elapsed: start.elapsed(),
        played,
    });

    let concurrency = opts.concurrency.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .stack_size(64 << 20)
        .thread_name(|i| format!("arena-{i}"))
        .build()
        .map_err(|e| ArenaError::Config(format!("cannot start {concurrency} workers: {e}")))?;

    let (tx, rx) = mpsc::channel::<Result<GameRecord>>();
    pool.in_place_scope(|scope| {
        for _ in 0..concurrency {
            let tx = tx.clone();
            let (queue, abort, stopped, schedule) = (&queue, &abort, &stopped, &schedule);
            let io_dir = opts.out.as_deref().filter(|_| config.log_io);
            scope.spawn(move |_| {
                let mut cache: Vec<(usize, Box<dyn Player>)> = Vec::new();
                loop {
                    let job = {
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        loop {
                            match q.pop_front() {
                                None => break None,
                                Some(_)
                                    if abort.load(Ordering::SeqCst)
                                        || crate::interrupt::requested() =>
                                {
                                    continue
                                }
                                Some(j) if stopped[config.locate(j.g).0].load(Ordering::SeqCst) => {
                                    continue
                                }
                                Some(j) => break Some(j),
                            }
                        }
                    };
                    let Some(job) = job else { break };
                    // A game dropped by an interrupt is not sent: it is replayed on resume.
                    let result = match play_job(config, schedule, job, &mut cache, io_dir) {
                        Ok(None) => continue,
                        Ok(Some(r)) => Ok(r),
                        Err(e) => Err(e),
                    };
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            let record = match msg {
                Ok(r) => r,
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            if let Some(w) = writer.as_mut() {
                if let Err(e) = w.write(&record) {
                    abort.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e.into());
                    continue;
                }
            }
            played += 1;
            let lite = GameLite::from_record(&record);
            all.insert(record.key(), lite.clone());
            games.insert(record.key(), lite);
            advance(record.matchup, &mut tallies, &mut next, &games);
            match poll_peers(&mut all) {
                Ok(s) => shared = s,
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                    continue;
                }
            }
            if shared {
                advance_combined(&mut combined, &mut combined_next, &all);
            }
            observer(&Progress {
                config,
                done: games.len() as u64,
                total,
                tallies: if shared { &combined } else { &tallies },
                last: Some(&record),
                elapsed: start.elapsed(),
                played,
            });
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }

    let final_tallies = tally_all(config, &games);
    let mut summary = summarize_tallies(config, &final_tallies, games.len() as u64);
    let interrupted = crate::interrupt::requested() && summary.completion != Completion::Finished;
    if interrupted {
        summary.completion = Completion::Interrupted;
    }
    let elapsed = start.elapsed().as_secs_f64();
    summary.timing = Some(Timing {
        elapsed_s: elapsed,
        games_played: played,
        games_resumed: resumed,
        games_per_s: if elapsed > 0.0 {
            played as f64 / elapsed
        } else {
            0.0
        },
        concurrency,
        ms_per_move: ms_per_move(config, &final_tallies),
    });
    if let Some(files) = &files {
        write_summary_to(&summary, &files.summary)?;
    }
    let combined = shared.then(|| crate::summary::summarize(&config.unsharded(), &all));
    Ok(RunOutcome {
        summary,
        combined,
        peers: peers.map(|p| p.seen()).unwrap_or_default(),
        games_played: played,
        games_resumed: resumed,
        stopped_early: stopped.iter().any(|s| s.load(Ordering::SeqCst)),
        interrupted,
    })
}

/// Does `dir` hold shard run files (`run-shard-i-of-n.json`)?
fn has_shard_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|l| {
        l.filter_map(|e| e.ok())
            .any(|e| e.file_name().to_string_lossy().starts_with("run-shard-"))
    })
}

/// Takes player `index` out of the worker's cache, or builds it.
fn take_player(
    config: &RunConfig,
    cache: &mut Vec<(usize, Box<dyn Player>)>,
    index: usize,
) -> Result<Box<dyn Player>> {
    match cache.iter().position(|(i, _)| *i == index) {
        Some(k) => Ok(cache.remove(k).1),
        None => Ok(config.players[index].build()?),
    }
}

/// Plays one game of the schedule with the worker's players; `None` when an interrupt
/// stopped it (the players go back to the cache: they were told the game ended).
fn play_job(
    config: &RunConfig,
    schedule: &Schedule,
    job: Job,
    cache: &mut Vec<(usize, Box<dyn Player>)>,
    io_dir: Option<&Path>,
) -> Result<Option<GameRecord>> {
    let (matchup, local) = config.locate(job.g);
    let opening_index = schedule.opening(local);
    let opening = &config.openings[opening_index];
    let [bi, wi] = config.colours(matchup, job.game);
    let mut black = take_player(config, cache, bi)?;
    let mut white = take_player(config, cache, wi)?;
    let seed = config.game_seed(job.g, job.game);
    let (bs, ws) = (&config.players[bi], &config.players[wi]);
    if let Some(dir) = io_dir {
        for (player, spec, colour) in [
            (&mut black, bs, wuzi_engine::Stone::Black),
            (&mut white, ws, wuzi_engine::Stone::White),
        ] {
            player.log_io_to(&dir.join(io_log_name(job.g, job.game, colour, &spec.name)));
        }
    }
    let result = play_game_unless(
        &config.game,
        &opening.moves,
        [black.as_mut(), white.as_mut()],
        [&bs.limits, &ws.limits],
        seed,
        &crate::interrupt::requested,
    )?;
    let Some(result) = result else {
        cache.push((bi, black));
        cache.push((wi, white));
        return Ok(None);
    };
    // A brain that refused its parameters cannot play this run: stop it (the games already
    // recorded are kept) rather than score it a loss every game.
    if let Some(why) = result.reports.iter().find_map(|r| r.rejected.as_ref()) {
        return Err(ArenaError::Config(format!(
            "{why} (this game is not recorded; the games recorded so far are kept: fix the \
             parameters and resume)"
        )));
    }
    // A crashed player may be in any state: build it afresh for the next game.
    let crashed = (result.reason == Reason::Crash)
        .then(|| result.winner.map(|w| w.opp()))
        .flatten();
    for (index, player, colour) in [
        (bi, black, wuzi_engine::Stone::Black),
        (wi, white, wuzi_engine::Stone::White),
    ] {
        if crashed != Some(colour) {
            cache.push((index, player));
        }
    }
    while cache.len() > PLAYER_CACHE {
        cache.remove(0);
    }
    let rp = |i: usize| RecordPlayer {
        name: config.players[i].name.clone(),
        params: config.players[i].params_diff(),
        given: None,
        given_params: None,
        notes: Vec::new(),
    };
    Ok(Some(
        GameRecord::new(
            matchup,
            job.g,
            job.game,
            seed,
            OpeningRef {
                index: opening_index,
                opening: opening.clone(),
            },
            rp(bi),
            rp(wi),
            &result,
        )
        .played_on(config.game.rule, config.game.size),
    ))
}

/// Combines the run directories of the shards of one run into `out` (`run.json` without
/// shard, `games.jsonl` sorted by pair and game, `summary.json`). A directory may hold one
/// shard or several (a shared folder). Every shard `0..n` must be present exactly once. The
/// statistics equal those of the same run played in one process.
pub fn merge(shard_dirs: &[PathBuf], out: &Path) -> Result<Summary> {
    if shard_dirs.is_empty() {
        return Err(ArenaError::Config(
            "merge needs at least one shard directory".into(),
        ));
    }
    let mut base: Option<(RunConfig, PathBuf)> = None;
    let mut seen_shards = HashMap::new();
    let mut records: Vec<GameRecord> = Vec::new();
    let mut keys = std::collections::HashSet::new();
    for dir in shard_dirs {
        let run_dir = RunDir::open(dir)?;
        for entry in &run_dir.entries {
            let config = &entry.config;
            let unsharded = config.unsharded();
            match &base {
                None => base = Some((unsharded.clone(), entry.files.run.clone())),
                Some((b, first)) if *b != unsharded => {
                    return Err(ArenaError::Mismatch(format!(
                        "{} is a shard of a different run than {}",
                        entry.files.run.display(),
                        first.display()
                    )))
                }
                Some(_) => {}
            }
            let (index, count) = config.shard.map_or((0, 1), |s| (s.index, s.count));
            if let Some(prev) = seen_shards.insert(index, (count, entry.files.run.clone())) {
                return Err(ArenaError::Mismatch(format!(
                    "{} and {} are both shard {index}",
                    prev.1.display(),
                    entry.files.run.display()
                )));
            }
            for r in load_records_file(config, &entry.files.games, false)? {
                if keys.insert(r.key()) {
                    records.push(r);
                }
            }
        }
    }
    let config = base.expect("one shard at least").0;
    let counts: std::collections::HashSet<u64> = seen_shards.values().map(|(c, _)| *c).collect();
    let count = match counts.into_iter().collect::<Vec<_>>().as_slice() {
        [c] => *c,
        _ => {
            return Err(ArenaError::Mismatch(
                "shards were split into different counts".into(),
            ))
        }
    };
    let missing: Vec<String> = (0..count)
        .filter(|i| !seen_shards.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(ArenaError::Mismatch(format!(
            "missing shard(s): {}",
            missing.join(", ")
        )));
    }
    records.sort_by_key(GameRecord::key);
    std::fs::create_dir_all(out).map_err(|e| ArenaError::io(out, e))?;
    let games_path = out.join(GAMES_FILE);
    if games_path.exists() || out.join(RUN_FILE).exists() || has_shard_files(out) {
        return Err(ArenaError::Config(format!(
            "{} already holds a run; merge into an empty directory",
            out.display()
        )));
    }
    config.save(&out.join(RUN_FILE))?;
    let mut w = RecordWriter::append(&games_path)?;
    for r in &records {
        w.write(r)?;
    }
    let games: GameMap = records
        .iter()
        .map(|r| (r.key(), GameLite::from_record(r)))
        .collect();
    let summary = crate::summary::summarize(&config, &games);
    write_summary(&summary, out)?;
    Ok(summary)
}

/// Recomputes the summary of a run directory from its records: one run, one shard, or the
/// shards of one run sharing the folder (then the same statistics as `merge`; shards not in
/// the folder are simply not counted, see [`RunDir::missing_shards`]).
///
/// A run whose games are not all there is [`Completion::Incomplete`], or
/// [`Completion::Interrupted`] when its `summary.json` was written by an interrupted session
/// with these very games.
pub fn summarize_dir(dir: &Path) -> Result<Summary> {
    let run_dir = RunDir::open(dir)?;
    let mut summary = crate::summary::summarize(&run_dir.config(), &run_dir.games()?);
    if summary.completion == Completion::Incomplete
        && run_dir.recorded_completion(summary.games_finished) == Some(Completion::Interrupted)
    {
        summary.completion = Completion::Interrupted;
    }
    Ok(summary)
}
