//! Mistakes per player and the decisive mistake of each lost game, from analysis rows.
//!
//! Definitions (scores from the mover's view, see [`super`]):
//! - **lost**: a score at or below `-MATE_BOUND`, a loss the analyst proved.
//! - **mistake**: a move other than the analyst's whose position before was not lost (the
//!   analyst's score) and after which the mover is lost (`after`): it crossed from "not
//!   lost" to "lost".
//! - **blunder**: a move whose `loss` is at least the blunder threshold (`--blunder`, default
//!   [`DEFAULT_BLUNDER`], about what the engine gives for making an open four). Most mistakes
//!   are blunders too; blunders also count big drops that stay short of a proven loss.
//! - **decisive mistake** of a lost game: the last mistake of the loser, the last move at
//!   which the loser could still hold by the analyst. A lost game has none when the analyst
//!   never proved the loss (a shallow analyst, a loss on time or by a crash) or the loser was
//!   lost from the first move after the opening: it counts as *undecided*.
//! - **phase** of a move by its number (`ply + 1`): opening 1 to [`OPENING_END`], middle up to
//!   [`MIDDLE_END`], end after that.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use wuzi_engine::score::{score_text, MATE_BOUND};
use wuzi_engine::{Pos, Stone};
use wuzi_games::record::GameRecord;

use super::AnalysisRow;

/// Name of the summary file beside `analysis.jsonl`.
pub const SUMMARY_FILE: &str = "analysis-summary.json";
/// Where the summary of the analysis file `analysis` goes: `analysis-summary.json` beside
/// the default `analysis.jsonl`, `NAME-summary.json` beside any other `NAME.jsonl`, so that
/// two analyses in one folder keep their own.
pub fn summary_path(analysis: &Path) -> PathBuf {
    if analysis
        .file_name()
        .is_some_and(|n| n == super::ANALYSIS_FILE)
    {
        return analysis.with_file_name(SUMMARY_FILE);
    }
    let stem = analysis
        .file_stem()
        .map_or("analysis".into(), |s| s.to_string_lossy().into_owned());
    analysis.with_file_name(format!("{stem}-summary.json"))
}

/// Default blunder threshold, in engine score units.
pub const DEFAULT_BLUNDER: i32 = 1000;
/// Last move number of the opening phase.
pub const OPENING_END: usize = 12;
/// Last move number of the middle game.
pub const MIDDLE_END: usize = 30;

/// Part of a game, by move number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Moves 1 to [`OPENING_END`].
    Opening,
    /// Moves up to [`MIDDLE_END`].
    Middle,
    /// Later moves.
    End,
}

impl Phase {
    /// The phase of the move at `ply` (0-based from the empty board).
    pub fn of(ply: usize) -> Phase {
        match ply + 1 {
            n if n <= OPENING_END => Phase::Opening,
            n if n <= MIDDLE_END => Phase::Middle,
            _ => Phase::End,
        }
    }

    /// `opening`, `middle` or `end`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middle => "middle",
            Phase::End => "end",
        }
    }
}

/// Is `score` a proven loss for its side?
pub fn is_lost(score: i32) -> bool {
    score <= -MATE_BOUND
}

/// Did the move cross from "not lost" to "lost"? The analyst's own move never does: when it
/// finds its move lost only one ply later, the position was lost before, unseen.
pub fn is_mistake(row: &AnalysisRow) -> bool {
    row.best != Some(row.played)
        && row.score.is_some_and(|s| !is_lost(s))
        && row.after.is_some_and(is_lost)
}

/// The decisive mistake of a lost game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisive {
    /// Global pair.
    pub pair: u64,
    /// Game in the pair.
    pub game: u8,
    /// Index of the move from the empty board.
    pub ply: usize,
    /// The loser.
    pub player: String,
    /// The loser's colour.
    pub colour: Stone,
    /// The game's opening id.
    pub opening: String,
    /// The move's phase.
    pub phase: Phase,
    /// The move played.
    pub played: String,
    /// The analyst's move, if it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The analyst's score before the move (mover's view).
    pub score: i32,
    /// The mover's score after it.
    pub after: i32,
    /// The position before the move: every move from the empty board.
    pub position: String,
}

/// One player's mistakes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerAnalysis {
    /// The player.
    pub name: String,
    /// Moves analysed.
    pub moves: u64,
    /// Moves where the analyst failed on the position before.
    pub failed: u64,
    /// Moves that crossed from not lost to lost.
    pub mistakes: u64,
    /// Moves that lost at least the blunder threshold.
    pub blunders: u64,
    /// Games lost.
    pub lost_games: u64,
    /// Lost games with a decisive mistake found.
    pub decisive: u64,
    /// Lost games without one.
    pub undecided: u64,
    /// Decisive mistakes by the loser's colour (`black`, `white`).
    pub by_colour: BTreeMap<String, u64>,
    /// Decisive mistakes by phase (`opening`, `middle`, `end`).
    pub by_phase: BTreeMap<String, u64>,
    /// Decisive mistakes by opening id.
    pub by_opening: BTreeMap<String, u64>,
}

impl PlayerAnalysis {
    /// The counts of the mistakes table, in its column order: moves, failed, mistakes,
    /// blunders, lost games, decisive, undecided, decisive as black and as white, in the
    /// opening, middle and end (the text summary and the report show the same columns).
    pub fn table_counts(&self) -> [u64; 12] {
        let n = |m: &BTreeMap<String, u64>, k: &str| m.get(k).copied().unwrap_or(0);
        [
            self.moves,
            self.failed,
            self.mistakes,
            self.blunders,
            self.lost_games,
            self.decisive,
            self.undecided,
            n(&self.by_colour, "black"),
            n(&self.by_colour, "white"),
            n(&self.by_phase, "opening"),
            n(&self.by_phase, "middle"),
            n(&self.by_phase, "end"),
        ]
    }
}

/// What `analysis-summary.json` holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisSummary {
    /// The analyst's spec.
    pub analyst: String,
    /// The blunder threshold used.
    pub blunder: i32,
    /// Games summarised.
    pub games: usize,
    /// Per player, in order of first appearance.
    pub players: Vec<PlayerAnalysis>,
    /// The decisive mistakes, by game.
    pub decisive: Vec<Decisive>,
}

/// Summarises `rows` (complete analyses of `records`' games).
pub fn summarise(
    records: &[GameRecord],
    rows: &[AnalysisRow],
    analyst: &str,
    blunder: i32,
) -> AnalysisSummary {
    let mut players: Vec<PlayerAnalysis> = Vec::new();
    let mut index = BTreeMap::new();
    let mut slot = |name: &str, players: &mut Vec<PlayerAnalysis>| -> usize {
        *index.entry(name.to_string()).or_insert_with(|| {
            players.push(PlayerAnalysis {
                name: name.to_string(),
                ..PlayerAnalysis::default()
            });
            players.len() - 1
        })
    };
    let mut by_game: BTreeMap<(u64, u8), Vec<&AnalysisRow>> = BTreeMap::new();
    for r in rows {
        by_game.entry((r.pair, r.game)).or_default().push(r);
    }
    let mut decisive = Vec::new();
    for record in records {
        for name in [&record.black.name, &record.white.name] {
            slot(name, &mut players);
        }
        let game_rows = by_game.get(&record.key()).map_or(&[][..], Vec::as_slice);
        for r in game_rows {
            let i = slot(&r.mover, &mut players);
            let p = &mut players[i];
            p.moves += 1;
            p.failed += u64::from(r.error.is_some());
            p.mistakes += u64::from(is_mistake(r));
            p.blunders += u64::from(r.loss.is_some_and(|l| l >= blunder));
        }
        let Some(winner) = record.winner else {
            continue;
        };
        let loser_colour = winner.opp();
        let loser = match loser_colour {
            Stone::Black => &record.black.name,
            Stone::White => &record.white.name,
        };
        let i = slot(loser, &mut players);
        players[i].lost_games += 1;
        let last = game_rows
            .iter()
            .rev()
            .find(|r| r.colour == loser_colour && is_mistake(r));
        let Some(r) = last else {
            players[i].undecided += 1;
            continue;
        };
        let d = Decisive {
            pair: r.pair,
            game: r.game,
            ply: r.ply,
            player: loser.clone(),
            colour: loser_colour,
            opening: record.opening.opening.id.clone(),
            phase: Phase::of(r.ply),
            played: r.played.to_string(),
            best: r.best.map(|b| b.to_string()),
            score: r.score.unwrap_or_default(),
            after: r.after.unwrap_or_default(),
            position: Pos::format_list(&record.all_moves()[..r.ply]),
        };
        let p = &mut players[i];
        p.decisive += 1;
        *p.by_colour.entry(loser_colour.to_string()).or_default() += 1;
        *p.by_phase.entry(d.phase.name().to_string()).or_default() += 1;
        *p.by_opening.entry(d.opening.clone()).or_default() += 1;
        decisive.push(d);
    }
    AnalysisSummary {
        analyst: analyst.to_string(),
        blunder,
        games: records.len(),
        players,
        decisive,
    }
}

impl AnalysisSummary {
    /// The summary as text: a table per player, then the decisive mistakes.
    pub fn render(&self) -> String {
        let mut out = format!(
            "analysis by {}: {} game(s); mistake: not lost -> lost; blunder: loss >= {}\n",
            self.analyst, self.games, self.blunder
        );
        out.push_str(&format!(
            "{:<16} {:>6} {:>6} {:>8} {:>8} {:>5} {:>8} {:>9} {:>5} {:>5} {:>7} {:>6} {:>4}\n",
            "player",
            "moves",
            "failed",
            "mistakes",
            "blunders",
            "lost",
            "decisive",
            "undecided",
            "black",
            "white",
            "opening",
            "middle",
            "end"
        ));
        for p in &self.players {
            let c = p.table_counts();
            out.push_str(&format!(
                "{:<16} {:>6} {:>6} {:>8} {:>8} {:>5} {:>8} {:>9} {:>5} {:>5} {:>7} {:>6} {:>4}\n",
                p.name, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]
            ));
        }
        if !self.decisive.is_empty() {
            out.push_str("decisive mistakes:\n");
        }
        for d in &self.decisive {
            out.push_str(&format!(
                "  game {}.{} move {} ({} {}, {}, opening {}): played {}, analyst {} \
                 (score {} -> {})\n",
                d.pair,
                d.game,
                d.ply + 1,
                d.colour,
                d.player,
                d.phase.name(),
                d.opening,
                d.played,
                d.best.as_deref().unwrap_or("-"),
                score_text(d.score),
                score_text(d.after)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_by_move_number() {
        assert_eq!(Phase::of(0), Phase::Opening);
        assert_eq!(Phase::of(OPENING_END - 1), Phase::Opening);
        assert_eq!(Phase::of(OPENING_END), Phase::Middle);
        assert_eq!(Phase::of(MIDDLE_END - 1), Phase::Middle);
        assert_eq!(Phase::of(MIDDLE_END), Phase::End);
    }
}
