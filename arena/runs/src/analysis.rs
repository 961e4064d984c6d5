//! Analysis of a run's games by any player (the analyst): every position before a played move
//! is searched, and `analysis.jsonl` keeps, per move, the analyst's best move and score from
//! the mover's view, the score after the move played and the mover's loss.
//!
//! One JSON object a line, one line per move played after the opening (wrapped here):
//! ```text
//! {"pair":3,"game":1,"ply":12,"mover":"base","colour":"white","played":"h9",
//!  "best":"j10","score":35,"after":-20,"loss":55,"analyst":"default,nodes=20000"}
//! ```
//! - `ply`: index of the move from the empty board (0 is black's first stone; move number
//!   `ply + 1`).
//! - `score`: the analyst's score of the position before the move, for the mover; `mate`
//!   (when the score is a proven result) the distance in plies, positive for a win, negative
//!   for a loss ([`wuzi_engine::score::mate_distance`]).
//! - `after`: the mover's score after the move played: the analyst's score of the next
//!   position, negated (the next query serves both moves). A move that makes five scores
//!   `MATE`, a renju foul `-MATE`, a full board 0. `after_mate` as `mate`.
//! - `loss = max(0, score - after)`, and 0 when the move played is the analyst's own: how
//!   much the mover gave away by the analyst's measure (search noise can make `after`
//!   exceed `score`; that is not a gain).
//! - `error` / `after_error`: the analyst failed on the position before / after the move
//!   (crash, time-out, illegal or no answer); the values it would have given are absent.
//!
//! The analyst is a player spec like any other (an in-process engine with `nodes=`, an
//! external or registry brain), asked through the [`Player`] trait with a new game per
//! position, so an engine's answers do not depend on the order positions are searched in.
//! A failure ends nothing: it is recorded and the analysis goes on (an external brain is
//! restarted by its next game).
//!
//! Games are analysed in parallel; the rows of a game are appended in one write when the game
//! is done, so after a kill the file holds whole games plus at most a part of one, which the
//! next run drops (and re-analyses). A finished analysis is rewritten sorted by game and ply,
//! so it does not depend on the order games finished in.
//!
//! [`summary`] turns the rows into mistakes per player and decisive mistakes; [`export`]
//! writes the decisive positions as a tactics suite.

pub mod export;
pub mod summary;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use wuzi_engine::score::{mate_distance, MATE};
use wuzi_engine::{Board, Clock, Outcome, Pos, Stone};
use wuzi_games::record::{read_records, GameRecord};
use wuzi_games::GamesError;
use wuzi_players::player::{GameStart, MoveRequest, PlayerError};
use wuzi_players::{Player, PlayerSpec};

use crate::config::RunConfig;
use crate::error::{ArenaError, Result};
use crate::replay::GameId;
use crate::run_dir::RunDir;

/// Name of the analysis file in a run folder.
pub const ANALYSIS_FILE: &str = "analysis.jsonl";

/// The analyst's view of one move played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisRow {
    /// Global pair of the game.
    pub pair: u64,
    /// Game in the pair (0 or 1).
    pub game: u8,
    /// Index of the move from the empty board.
    pub ply: usize,
    /// The mover's name.
    pub mover: String,
    /// The mover's colour.
    pub colour: Stone,
    /// The move played.
    #[serde(with = "pos_text")]
    pub played: Pos,
    /// The analyst's move in the position before.
    #[serde(
        default,
        with = "opt_pos_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub best: Option<Pos>,
    /// The analyst's score of the position before, for the mover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Plies to a proven result of `score` (positive: the mover wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The mover's score after the move played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<i32>,
    /// Plies to a proven result of `after` (positive: the mover wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_mate: Option<i32>,
    /// `max(0, score - after)`, 0 for the analyst's own move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<i32>,
    /// The analyst failed on the position before the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The analyst failed on the position after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_error: Option<String>,
    /// The analyst's spec, as given: one file holds one analyst's view.
    pub analyst: String,
}

impl AnalysisRow {
    /// The game the row belongs to.
    pub fn id(&self) -> GameId {
        GameId {
            pair: self.pair,
            game: self.game,
        }
    }
}

mod pos_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use wuzi_engine::Pos;

    pub fn serialize<S: Serializer>(p: &Pos, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(p)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

mod opt_pos_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use wuzi_engine::Pos;

    pub fn serialize<S: Serializer>(p: &Option<Pos>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.collect_str(p),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Pos>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| t.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The analyst, parsed (registry brains resolved) by the caller.
    pub analyst: PlayerSpec,
    /// The analyst's spec as given, stored in every row.
    pub analyst_text: String,
    /// Only these games (none: every game).
    pub games: Vec<GameId>,
    /// Only games this player played.
    pub player: Option<String>,
    /// The analysis file (default: `analysis.jsonl` in the run folder).
    pub out: Option<PathBuf>,
    /// Games analysed at once (0: all cores).
    pub concurrency: usize,
}

/// Games and positions done so far, for a progress bar.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalysisProgress {
    /// Positions searched so far (this run).
    pub positions: u64,
    /// Positions to search (this run).
    pub total_positions: u64,
    /// Games finished (including those already in the file).
    pub games: usize,
    /// Selected games.
    pub total_games: usize,
}

/// What [`analyse`] did.
#[derive(Clone, Debug)]
pub struct AnalysisOutcome {
    /// The run's configuration.
    pub config: RunConfig,
    /// The selected games' records, in (pair, game) order.
    pub records: Vec<GameRecord>,
    /// The rows of the selected games that are complete, in (pair, game, ply) order.
    pub rows: Vec<AnalysisRow>,
    /// The analysis file.
    pub path: PathBuf,
    /// The analyst's spec as given.
    pub analyst: String,
    /// Games that were already complete in the file and not analysed again.
    pub resumed: usize,
    /// Positions where the analyst failed (this run).
    pub failures: u64,
    /// A signal stopped the analysis: finished games are in the file, the rest is not.
    pub interrupted: bool,
}

/// The records of `dir` selected by `games` and `player`, with the run's configuration.
///
/// Errors (each naming the problem): no run folder, a records file ending in an incomplete
/// line (a run still going or cut off: resume it first), an unknown game id, a player that
/// played no game.
pub fn select_games(
    dir: &Path,
    games: &[GameId],
    player: Option<&str>,
) -> Result<(RunConfig, Vec<GameRecord>)> {
    let run_dir = RunDir::open(dir)?;
    for e in &run_dir.entries {
        if read_records(&e.files.games)?.truncated {
            return Err(ArenaError::Config(format!(
                "{} ends in an incomplete line (a run in progress or cut off while writing); \
                 finish it with `wuzi-arena resume {}` before analysing",
                e.files.games.display(),
                dir.display()
            )));
        }
    }
    let config = run_dir.config();
    let mut records = run_dir.records()?;
    records.sort_by_key(GameRecord::key);
    if !games.is_empty() {
        let known: BTreeSet<(u64, u8)> = records.iter().map(GameRecord::key).collect();
        if let Some(id) = games.iter().find(|id| !known.contains(&(id.pair, id.game))) {
            // find_game's message says why (out of the run, not played yet, truncated).
            crate::replay::find_game(dir, *id)?;
            return Err(ArenaError::Config(format!(
                "no game {id} in {}",
                dir.display()
            )));
        }
        let wanted: BTreeSet<(u64, u8)> = games.iter().map(|g| (g.pair, g.game)).collect();
        records.retain(|r| wanted.contains(&r.key()));
    }
    if let Some(name) = player {
        records.retain(|r| r.black.name == name || r.white.name == name);
        if records.is_empty() {
            let names: Vec<&str> = config.players.iter().map(|p| p.name.as_str()).collect();
            return Err(ArenaError::Config(format!(
                "no selected game was played by '{name}' (players: {})",
                names.join(", ")
            )));
        }
    }
    Ok((config, records))
}

/// The analyst's answer for one position, from the side to move's view.
#[derive(Clone, Debug)]
enum Eval {
    /// Searched: the analyst's move and score, if it gave one.
    Searched { best: Pos, score: Option<i32> },
    /// The game is over here (five, foul, full board): the score of the side to move.
    Over(i32),
    /// The analyst failed.
    Failed(String),
}

/// The score of the side to move in a finished position.
fn over_score(board: &Board) -> Option<i32> {
    match board.outcome()? {
        Outcome::Draw => Some(0),
        Outcome::Win { winner, .. } => Some(if winner == board.side_to_move() {
            MATE
        } else {
            -MATE
        }),
    }
}

/// Asks the analyst for the position `board` (reached by `moves`).
fn ask(
    analyst: &mut dyn Player,
    spec: &PlayerSpec,
    board: &mut Board,
    moves: &[Pos],
    seed: u64,
) -> Eval {
    if let Some(s) = over_score(board) {
        return Eval::Over(s);
    }
    let start = GameStart {
        size: board.size(),
        rule: board.rule(),
        color: board.side_to_move(),
        seed,
    };
    let lim = &spec.limits;
    // A clock makes external brains wait only so long: a hanging analyst times out.
    let clock = (lim.game_ms.is_some() || lim.move_ms.is_some()).then(|| Clock {
        time_left_ms: lim.game_ms.unwrap_or(u64::MAX / 4),
        increment_ms: lim.inc_ms,
        turn_ms: lim.move_ms,
    });
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        analyst.new_game(&start)?;
        let request = MoveRequest {
            board,
            moves,
            clock,
        };
        analyst.play(&request)
    }));
    analyst.end_game();
    let reply = match answer {
        Ok(Ok(reply)) => reply,
        Ok(Err(e)) => return Eval::Failed(e.to_string()),
        Err(_) => return Eval::Failed(PlayerError::Crash("panic".into()).to_string()),
    };
    match reply.mv {
        None => Eval::Failed("no move".into()),
        Some(mv) if !board.is_legal(mv) => Eval::Failed(format!("illegal answer: {mv}")),
        Some(best) => Eval::Searched {
            best,
            score: reply.score,
        },
    }
}

/// The rows of one game, or `None` when a signal stopped it. `tick` is called per position.
fn analyse_game(
    analyst: &mut dyn Player,
    options: &AnalysisOptions,
    config: &RunConfig,
    record: &GameRecord,
    tick: &(dyn Fn() + Sync),
) -> Result<Option<Vec<AnalysisRow>>> {
    let (size, rule) = (config.game.size, config.game.rule);
    let opening = &record.opening.opening.moves;
    let all = record.all_moves();
    let mut board = Board::from_moves(size, rule, opening)?;
    // evals[i]: the position before played move i; evals[n]: the position after the last.
    let mut evals = Vec::with_capacity(record.moves.len() + 1);
    for i in 0..=record.moves.len() {
        if crate::interrupt::requested() {
            return Ok(None);
        }
        let ply = opening.len() + i;
        evals.push(ask(
            analyst,
            &options.analyst,
            &mut board,
            &all[..ply],
            record.seed,
        ));
        tick();
        if let Some(m) = record.moves.get(i) {
            board.make(m.mv)?;
        }
    }
    let mut rows = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let ply = opening.len() + i;
        let colour = if ply % 2 == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        let mover = match colour {
            Stone::Black => &record.black.name,
            Stone::White => &record.white.name,
        };
        let (best, score, error) = match &evals[i] {
            Eval::Searched { best, score } => (Some(*best), *score, None),
            Eval::Over(s) => (None, Some(*s), None),
            Eval::Failed(e) => (None, None, Some(e.clone())),
        };
        let (after, after_error) = match &evals[i + 1] {
            Eval::Searched { score, .. } => (score.map(|s| -s), None),
            Eval::Over(s) => (Some(-s), None),
            Eval::Failed(e) => (None, Some(e.clone())),
        };
        let loss = match (score, after) {
            _ if best == Some(m.mv) => score.map(|_| 0),
            (Some(s), Some(a)) => Some((s - a).max(0)),
            _ => None,
        };
        rows.push(AnalysisRow {
            pair: record.pair,
            game: record.game,
            ply,
            mover: mover.clone(),
            colour,
            played: m.mv,
            best,
            score,
            mate: score.and_then(mate_distance),
            after,
            after_mate: after.and_then(mate_distance),
            loss,
            error,
            after_error,
            analyst: options.analyst_text.clone(),
        });
    }
    Ok(Some(rows))
}

/// The rows of an analysis file, and how long its complete lines are. An incomplete last line
/// (a kill while writing) is left out; any other bad line is an error naming it.
pub fn read_rows(path: &Path) -> Result<(Vec<AnalysisRow>, u64, bool)> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0, false)),
        Err(e) => return Err(ArenaError::io(path, e)),
    };
    let mut rows = Vec::new();
    let mut valid = 0usize;
    for (i, chunk) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !chunk.ends_with(b"\n") {
            return Ok((rows, valid as u64, true));
        }
        let text = String::from_utf8_lossy(chunk);
        if !text.trim().is_empty() {
            let row = serde_json::from_str(&text).map_err(|e| GamesError::Record {
                path: path.to_path_buf(),
                line: i + 1,
                message: e.to_string(),
            })?;
            rows.push(row);
        }
        valid += chunk.len();
    }
    Ok((rows, valid as u64, false))
}

/// Does `rows` (one game's) cover every move of `record`, once each?
fn complete(record: &GameRecord, rows: &[&AnalysisRow]) -> bool {
    let first = record.opening.opening.moves.len();
    let plies: BTreeSet<usize> = rows.iter().map(|r| r.ply).collect();
    plies.len() == rows.len() && plies == (first..first + record.moves.len()).collect()
}

fn lines(rows: &[AnalysisRow]) -> String {
    let mut text = String::new();
    for r in rows {
        text.push_str(&serde_json::to_string(r).expect("rows serialize"));
        text.push('\n');
    }
    text
}

/// Analyses the selected games of the run in `dir` into the analysis file, resuming what the
/// file already holds (games whose rows are complete are kept and not searched again; a part
/// of a game is dropped and the game searched again). `progress` is called as positions are
/// searched.
///
/// Errors: those of [`select_games`], an analyst that cannot be built, an analysis file made
/// by another analyst or holding games the run does not have, unwritable files.
pub fn analyse(
    dir: &Path,
    options: &AnalysisOptions,
    progress: &(dyn Fn(AnalysisProgress) + Sync),
) -> Result<AnalysisOutcome> {
    let (config, records) = select_games(dir, &options.games, options.player.as_deref())?;
    // Build once up front so that a bad spec is an error before anything is written.
    drop(options.analyst.build()?);
    let path = options
        .out
        .clone()
        .unwrap_or_else(|| dir.join(ANALYSIS_FILE));
    let all_records: BTreeMap<(u64, u8), GameRecord> = RunDir::open(dir)?
        .records()?
        .into_iter()
        .map(|r| (r.key(), r))
        .collect();

    let (old, valid_len, truncated) = read_rows(&path)?;
    if let Some(r) = old.iter().find(|r| r.analyst != options.analyst_text) {
        return Err(ArenaError::Mismatch(format!(
            "{} holds the analysis of analyst '{}', not '{}'; give another --out",
            path.display(),
            r.analyst,
            options.analyst_text
        )));
    }
    let mut by_game: BTreeMap<(u64, u8), Vec<&AnalysisRow>> = BTreeMap::new();
    for r in &old {
        by_game.entry((r.pair, r.game)).or_default().push(r);
    }
    let mut done = BTreeSet::new();
    for (key, rows) in &by_game {
        let Some(record) = all_records.get(key) else {
            return Err(ArenaError::Mismatch(format!(
                "{} holds game {} that is not in the run in {}",
                path.display(),
                rows[0].id(),
                dir.display()
            )));
        };
        if complete(record, rows) {
            done.insert(*key);
        }
    }
    let kept: Vec<AnalysisRow> = old
        .iter()
        .filter(|r| done.contains(&(r.pair, r.game)))
        .cloned()
        .collect();
    if kept.len() != old.len() {
        // Parts of games cut off by a kill: dropped, the games are searched again.
        crate::atomic::write_atomic(&path, lines(&kept).as_bytes())?;
    } else if truncated {
        wuzi_games::record::truncate_to(&path, valid_len)?;
    }

    let todo: Vec<&GameRecord> = records
        .iter()
        .filter(|r| !done.contains(&r.key()))
        .collect();
    let resumed = records.len() - todo.len();
    let total_positions: u64 = todo.iter().map(|r| r.moves.len() as u64 + 1).sum();
    let state = Mutex::new(AnalysisProgress {
        positions: 0,
        total_positions,
        games: resumed,
        total_games: records.len(),
    });
    progress(*state.lock().expect("progress lock"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| ArenaError::io(&path, e))?;
    let file = Mutex::new(file);
    let failures = Mutex::new(0u64);
    crate::interrupt::games_started();
    let threads = if options.concurrency == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.concurrency
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ArenaError::Config(format!("cannot start {threads} workers: {e}")))?;
    let results: Vec<Result<bool>> = pool.install(|| {
        todo.par_iter()
            .map(|record| {
                let mut analyst = options.analyst.build()?;
                let tick = || {
                    let mut s = state.lock().expect("progress lock");
                    s.positions += 1;
                    progress(*s);
                };
                let Some(rows) = analyse_game(analyst.as_mut(), options, &config, record, &tick)?
                else {
                    return Ok(false);
                };
                let failed = rows.iter().filter(|r| r.error.is_some()).count() as u64
                    + u64::from(rows.last().is_some_and(|r| r.after_error.is_some()));
                *failures.lock().expect("failures lock") += failed;
                // One write per game: a kill leaves whole games and at most a part of one.
                let mut f = file.lock().expect("file lock");
                f.write_all(lines(&rows).as_bytes())
                    .and_then(|()| f.flush())
                    .map_err(|e| ArenaError::io(&path, e))?;
                drop(f);
                let mut s = state.lock().expect("progress lock");
                s.games += 1;
                progress(*s);
                Ok(true)
            })
            .collect()
    });
    let mut interrupted = false;
    for r in results {
        interrupted |= !r?;
    }
    drop(file);

    let (rows, _, _) = read_rows(&path)?;
    let mut rows = rows;
    rows.sort_by_key(|r| (r.pair, r.game, r.ply));
    if !interrupted {
        // Sorted, the file does not depend on the order games finished in.
        crate::atomic::write_atomic(&path, lines(&rows).as_bytes())?;
    }
    let selected: BTreeSet<(u64, u8)> = records.iter().map(GameRecord::key).collect();
    rows.retain(|r| selected.contains(&(r.pair, r.game)));
    Ok(AnalysisOutcome {
        config,
        records,
        rows,
        path,
        analyst: options.analyst_text.clone(),
        resumed,
        failures: failures.into_inner().expect("failures lock"),
        interrupted,
    })
}

impl AnalysisOutcome {
    /// The summary of the selected games (see [`summary`]), written (whole) beside the
    /// analysis file; returns it with its path.
    pub fn write_summary(&self, blunder: i32) -> Result<(summary::AnalysisSummary, PathBuf)> {
        let s = summary::summarise(&self.records, &self.rows, &self.analyst, blunder);
        let path = summary::summary_path(&self.path);
        let json = serde_json::to_string_pretty(&s).expect("summaries serialize") + "\n";
        crate::atomic::write_atomic(&path, json.as_bytes())?;
        Ok((s, path))
    }

    /// Writes (whole) the decisive positions of `summary` to `file` as a tactics suite (see
    /// [`export`]), with the analyst's node limit as each case's budget.
    pub fn export_positions(
        &self,
        summary: &summary::AnalysisSummary,
        analyst: &PlayerSpec,
        file: &Path,
    ) -> Result<()> {
        let text = export::suite_text(
            &summary.decisive,
            self.config.game.rule,
            self.config.game.size,
            &summary.analyst,
            analyst.limits.nodes,
        );
        crate::atomic::write_atomic(file, text.as_bytes())
    }
}
