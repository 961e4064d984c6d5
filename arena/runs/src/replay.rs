//! Replaying one recorded game: its two players are rebuilt from the run's `run.json` (specs,
//! parameters, limits) and play the game again through the referee, from the record's opening
//! with the record's seed, as the runner played it; then the two games are compared move by
//! move.
//!
//! A game is named by its global pair and game index, `PAIR.GAME` (`3.1`: pair 3, colours
//! swapped), the numbers the report's viewer shows as "pair / game" and move-list exports as
//! "pair 3 game 1". Under node or depth limits a game is a pure function of the configuration,
//! the seed and the build, so a replay that differs points at non-determinism or at a change
//! of the engine; under time limits divergence is expected, and the first divergent move shows
//! where.

use std::path::Path;

use wuzi_engine::Pos;
use wuzi_games::record::{read_records, GameRecord, MoveEntry};
use wuzi_games::referee::{play_game_unless, GameResult, PlayedMove};

use crate::config::{RunConfig, Schedule};
use crate::error::{ArenaError, Result};
use crate::run_dir::{check_record, RunDir};

/// A game of a run: its global pair and its index in the pair (0: the matchup's first player
/// has black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId {
    /// Global pair index.
    pub pair: u64,
    /// 0 or 1.
    pub game: u8,
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.pair, self.game)
    }
}

impl std::str::FromStr for GameId {
    type Err = String;
    /// `PAIR.GAME`; `PAIR:GAME` and `PAIR/GAME` (as the report writes "pair / game") too.
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let bad = || format!("bad game id '{s}': expected PAIR.GAME, e.g. 3.1 (pair 3, game 1)");
        let (pair, game) = s.split_once(['.', ':', '/']).ok_or_else(bad)?;
        let pair = pair.trim().parse().map_err(|_| bad())?;
        let game = match game.trim() {
            "0" => 0,
            "1" => 1,
            _ => return Err(bad()),
        };
        Ok(GameId { pair, game })
    }
}

impl GameId {
    /// The id of a recorded game.
    pub fn of(record: &GameRecord) -> GameId {
        GameId {
            pair: record.pair,
            game: record.game,
        }
    }
}

/// Finds game `id` in the run folder `dir` (a run, a shard, or shards sharing the folder) and
/// returns it with the configuration it was played under.
///
/// Errors name the problem: no `run.json` (not a run folder), a corrupt line, a record that
/// does not belong to the run, a game that is not there (saying when the records file ends in
/// an incomplete line, which may have been that game, and which games there are).
pub fn find_game(dir: &Path, id: GameId) -> Result<(RunConfig, GameRecord)> {
    let run_dir = RunDir::open(dir)?;
    let mut truncated = Vec::new();
    let mut count = 0usize;
    for entry in &run_dir.entries {
        let file = read_records(&entry.files.games)?;
        if file.truncated {
            truncated.push(entry.files.games.display().to_string());
        }
        count += file.records.len();
        if let Some((line, record)) = file
            .records
            .into_iter()
            .enumerate()
            .find(|(_, r)| GameId::of(r) == id)
        {
            let schedule = Schedule::new(&entry.config);
            check_record(
                &entry.config,
                &schedule,
                &record,
                &entry.files.games,
                line + 1,
            )?;
            return Ok((entry.config.clone(), record));
        }
    }
    let config = run_dir.config();
    let mut message = format!(
        "{}: no game {id} (pair {}, game {})",
        dir.display(),
        id.pair,
        id.game
    );
    if id.pair >= config.total_pairs() || id.game > 1 {
        message.push_str(&format!(
            "; the run has pairs 0 to {} and games 0 and 1",
            config.total_pairs().saturating_sub(1)
        ));
    } else {
        message.push_str(&format!(
            "; {count} game(s) are recorded, this one is not (yet)"
        ));
    }
    if !truncated.is_empty() {
        message.push_str(&format!(
            "; {} ends in an incomplete line (a run cut off while writing), which is not read",
            truncated.join(", ")
        ));
    }
    Err(ArenaError::Config(message))
}

/// Where a replay first differs from the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Index of the move from the empty board (0-based; the opening's moves come first).
    pub ply: usize,
    /// The recorded move there, `None` when the recorded game had ended.
    pub recorded: Option<MoveEntry>,
    /// The replayed move there, `None` when the replayed game had ended.
    pub replayed: Option<PlayedMove>,
}

/// A game played again and compared with its record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The record.
    pub record: GameRecord,
    /// The game as played again.
    pub replayed: GameResult,
    /// The first move that differs; `None` when every move is the same.
    pub divergence: Option<Divergence>,
    /// The first move (index from the empty board) where the moves agree but what the player
    /// reported (score, nodes, depth) does not: a sign of a different build even when the
    /// moves are the same.
    pub first_report_difference: Option<usize>,
}

impl Replay {
    /// Same moves and the same result (winner and reason): the game was reproduced.
    pub fn identical(&self) -> bool {
        self.divergence.is_none()
            && self.replayed.winner == self.record.winner
            && self.replayed.reason == self.record.reason
    }

    /// All moves of the replayed game from the empty board.
    pub fn replayed_moves(&self) -> Vec<Pos> {
        let mut v = self.record.opening.opening.moves.clone();
        v.extend(self.replayed.moves.iter().map(|m| m.mv));
        v
    }
}

/// Compares a record's moves with a replay's: the first differing move, and the first move
/// that agrees but whose report (score, nodes, depth; not the wall time) does not.
pub fn compare(
    record: &GameRecord,
    replayed: &[PlayedMove],
) -> (Option<Divergence>, Option<usize>) {
    let opening = record.opening.opening.moves.len();
    let mut report_difference = None;
    for i in 0..record.moves.len().max(replayed.len()) {
        let (a, b) = (record.moves.get(i), replayed.get(i));
        match (a, b) {
            (Some(a), Some(b)) if a.mv == b.mv => {
                if report_difference.is_none()
                    && (a.score, a.nodes, a.depth) != (b.score, b.nodes, b.depth)
                {
                    report_difference = Some(opening + i);
                }
            }
            _ => {
                return (
                    Some(Divergence {
                        ply: opening + i,
                        recorded: a.cloned(),
                        replayed: b.cloned(),
                    }),
                    report_difference,
                )
            }
        }
    }
    (None, report_difference)
}

/// Plays `record` again with the players and settings of `config` (the run it belongs to):
/// the same players (by the colours of its matchup and game), limits, board, rule, opening and
/// seed, through the referee the runner uses. A Ctrl-C (see [`crate::interrupt`]) abandons it
/// with an error.
pub fn replay(config: &RunConfig, record: &GameRecord) -> Result<Replay> {
    // A record from `find_game` is checked against the run; one built by hand may not be.
    if record.matchup >= config.matchups.len() {
        return Err(ArenaError::Config(format!(
            "game {}: matchup {} is not in the run",
            GameId::of(record),
            record.matchup
        )));
    }
    let [bi, wi] = config.colours(record.matchup, record.game);
    let (bs, ws) = (&config.players[bi], &config.players[wi]);
    let mut black = bs.build()?;
    let mut white = ws.build()?;
    let result = play_game_unless(
        &config.game,
        &record.opening.opening.moves,
        [black.as_mut(), white.as_mut()],
        [&bs.limits, &ws.limits],
        record.seed,
        &crate::interrupt::requested,
    )?
    .ok_or_else(|| ArenaError::Config("replay interrupted".into()))?;
    let (divergence, first_report_difference) = compare(record, &result.moves);
    Ok(Replay {
        record: record.clone(),
        replayed: result,
        divergence,
        first_report_difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_parse_in_the_forms_shown() {
        let id = |s: &str| s.parse::<GameId>();
        assert_eq!(id("3.1"), Ok(GameId { pair: 3, game: 1 }));
        assert_eq!(id("12:0"), Ok(GameId { pair: 12, game: 0 }));
        assert_eq!(id("7 / 1"), Ok(GameId { pair: 7, game: 1 }));
        assert_eq!(GameId { pair: 3, game: 1 }.to_string(), "3.1");
        for bad in ["3", "3.2", "x.1", "", "-1.0"] {
            let e = id(bad).unwrap_err();
            assert!(e.contains("PAIR.GAME"), "{bad}: {e}");
        }
    }
}
