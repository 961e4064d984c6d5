//! The games a report's viewer shows: every game of a run up to a limit (then a sample), each
//! with its moves in the project's notation, what the players reported per move, and renju
//! black's forbidden points for every position where black is to move, computed here by the
//! engine's rule code rather than by the page's script.

use rayon::prelude::*;
use serde::Serialize;
use wuzi_engine::{Board, Pos, Rule, Stone};

use wuzi_games::record::GameRecord;
use wuzi_games::referee::Reason;
use wuzi_runs::config::RunConfig;

/// Most games embedded in a report by default; larger runs get a sample (every game stays one
/// `wuzi-arena export` away, and `--max-games 0` embeds them all).
pub const DEFAULT_MAX_GAMES: usize = 2000;

/// One game as the viewer's script reads it (short keys: a report may hold thousands).
#[derive(Clone, Debug, Serialize)]
pub struct ViewerGame {
    /// Position in the viewer's list (0-based; shown 1-based).
    pub k: usize,
    /// Global pair index.
    pub pair: u64,
    /// Game in the pair (0: the matchup's first player has black).
    pub g: u8,
    /// Matchup, `A vs B`.
    pub mu: String,
    /// Opening id.
    pub op: String,
    /// Opening length in moves.
    pub ol: usize,
    /// Black's name.
    pub b: String,
    /// White's name.
    pub w: String,
    /// Black's parameters that differ from the defaults, `k=v ...`.
    pub bp: String,
    /// White's parameters that differ from the defaults.
    pub wp: String,
    /// Limits sent to black (an external brain), as sent.
    pub bg: Option<String>,
    /// Limits sent to white.
    pub wg: Option<String>,
    /// Black's protocol notes (lines an external brain sent that were not understood, ...).
    pub bn: Vec<String>,
    /// White's protocol notes.
    pub wn: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub res: String,
    /// End reason.
    pub why: String,
    /// Details of a loss by crash, timeout or illegal move.
    pub det: Option<String>,
    /// All moves from the empty board, opening included, space separated (`h8 h9 i10`).
    pub mv: String,
    /// Nodes per move after the opening.
    pub n: Vec<Option<u64>>,
    /// Wall time per move after the opening, ms.
    pub t: Vec<u64>,
    /// Depth per move after the opening.
    pub d: Vec<Option<i32>>,
    /// Score per move after the opening (mover's view).
    pub s: Vec<Option<i32>>,
    /// `(ply, points)`: black's forbidden points in the position after `ply` moves, for the
    /// plies where black is to move and some point is forbidden.
    pub f: Vec<(usize, String)>,
    /// The game's seed, as text (JavaScript numbers hold 53 bits).
    pub seed: String,
    /// Wall time of the game, ms.
    pub ms: u64,
    /// The game's protocol logs (`--log-io`) that exist, relative to the run folder: black's,
    /// then white's. Absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub io: Vec<String>,
    /// The analyst's view of the game (`wuzi-arena analyze`), when the run folder has one;
    /// absent otherwise, so reports without analysis embed what they always did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub an: Option<GameAnalysis>,
}

/// One game's analysis as the viewer's script reads it (short keys, like [`ViewerGame`];
/// filled by [`crate::analysis`]); index `i` of each list is the move at ply `f + i`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GameAnalysis {
    /// Ply of the first move analysed.
    pub f: usize,
    /// The analyst's move in the position before each move (`null` when it gave none).
    pub b: Vec<Option<String>>,
    /// The analyst's score of the position before each move, mover's view.
    pub s: Vec<Option<i32>>,
    /// The mover's score after each move.
    pub a: Vec<Option<i32>>,
    /// The ply of the decisive mistake, when the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<usize>,
}

/// Everything the viewer needs.
#[derive(Clone, Debug, Serialize)]
pub struct ViewerData {
    /// Board side.
    pub size: usize,
    /// Rule name.
    pub rule: String,
    /// Games in the run.
    pub total: usize,
    /// Games embedded.
    pub shown: usize,
    /// What the list holds (all games, or which sample).
    pub note: String,
    /// The games, in (pair, game) order.
    pub games: Vec<ViewerGame>,
}

/// Fills each game's [`ViewerGame::io`] with the protocol logs found in the run folder `dir`
/// (links relative to it, where `report.html` goes by default).
pub fn link_io_logs(data: &mut ViewerData, dir: &std::path::Path) {
    if !dir.join(wuzi_runs::run_dir::IO_DIR).is_dir() {
        return;
    }
    for g in &mut data.games {
        for (colour, name) in [(Stone::Black, &g.b), (Stone::White, &g.w)] {
            let rel = wuzi_runs::run_dir::io_log_name(g.pair, g.g, colour, name);
            if dir.join(&rel).is_file() {
                g.io.push(rel);
            }
        }
    }
}

/// Which records to embed (indices into `records`, which are in (pair, game) order): all when
/// there are at most `max` (or `max` is 0); otherwise every game that did not end by a five
/// (up to a quarter of `max`: they are what one looks at first), then evenly spaced games to
/// fill the rest, in record order.
pub fn select_games(records: &[GameRecord], max: usize) -> Vec<usize> {
    if max == 0 || records.len() <= max {
        return (0..records.len()).collect();
    }
    let mut chosen = vec![false; records.len()];
    let mut count = 0;
    for (i, r) in records.iter().enumerate() {
        if count >= max / 4 {
            break;
        }
        if r.reason != Reason::Five {
            chosen[i] = true;
            count += 1;
        }
    }
    let rest = max - count;
    let free: Vec<usize> = (0..records.len()).filter(|&i| !chosen[i]).collect();
    for j in 0..rest.min(free.len()) {
        // Evenly spaced over the games not yet chosen, first and last included.
        let idx = if rest > 1 {
            j * (free.len() - 1) / (rest - 1)
        } else {
            0
        };
        chosen[free[idx]] = true;
    }
    (0..records.len()).filter(|&i| chosen[i]).collect()
}

/// Black's forbidden points after each ply where black is to move (renju only), as
/// `(ply, "a1 b2")` for the non-empty ones. Stops quietly at a move the board refuses (a
/// damaged record): the positions before it are still shown.
pub fn forbidden_by_ply(size: usize, rule: Rule, moves: &[Pos]) -> Vec<(usize, String)> {
    if rule != Rule::Renju {
        return Vec::new();
    }
    let Ok(mut board) = Board::new(size, rule) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ply in 0..=moves.len() {
        if ply % 2 == 0 && ply >= 4 {
            // Black to move (black moves first). No position with fewer than two black stones
            // can hold a forbidden point; three are needed, but this keeps the rule obvious.
            let f = board.forbidden_points();
            if !f.is_empty() {
                out.push((ply, Pos::format_list(&f)));
            }
        }
        if ply == moves.len() || board.make(moves[ply]).is_err() {
            break;
        }
    }
    out
}

fn params_text(params: &std::collections::BTreeMap<String, i32>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The viewer's data for a run's records (in (pair, game) order), embedding at most `max`
/// games (0: all). `export_hint` names the command that gives every game.
pub fn viewer_data(
    config: &RunConfig,
    records: &[GameRecord],
    max: usize,
    export_hint: &str,
) -> ViewerData {
    let chosen = select_games(records, max);
    let size = config.game.size;
    let rule = config.game.rule;
    let games: Vec<ViewerGame> = chosen
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            let r = &records[i];
            let all = r.all_moves();
            let mu = config
                .matchups
                .get(r.matchup)
                .map_or_else(String::new, |m| {
                    format!(
                        "{} vs {}",
                        config.players[m.first].name, config.players[m.second].name
                    )
                });
            ViewerGame {
                k,
                pair: r.pair,
                g: r.game,
                mu,
                op: r.opening.opening.id.clone(),
                ol: r.opening.opening.moves.len(),
                b: r.black.name.clone(),
                w: r.white.name.clone(),
                bp: params_text(&r.black.params),
                wp: params_text(&r.white.params),
                bg: r.black.given.clone(),
                wg: r.white.given.clone(),
                bn: r.black.notes.clone(),
                wn: r.white.notes.clone(),
                res: r.result.clone(),
                why: r.reason.to_string(),
                det: r.detail.clone(),
                mv: Pos::format_list(&all),
                n: r.moves.iter().map(|m| m.nodes).collect(),
                t: r.moves.iter().map(|m| m.ms).collect(),
                d: r.moves.iter().map(|m| m.depth).collect(),
                s: r.moves.iter().map(|m| m.score).collect(),
                f: forbidden_by_ply(size, rule, &all),
                seed: r.seed.to_string(),
                ms: r.time_ms,
                io: Vec::new(),
                an: None,
            }
        })
        .collect();
    let note = if games.len() == records.len() {
        format!("All {} games of the run.", records.len())
    } else {
        format!(
            "{} of {} games: every game that did not end with a five (up to {}), then evenly \
             spaced games. Statistics and tables above count all games; every game: {export_hint}.",
            games.len(),
            records.len(),
            max / 4
        )
    };
    ViewerData {
        size,
        rule: rule.to_string(),
        total: records.len(),
        shown: games.len(),
        note,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_points_follow_the_engine_per_ply() {
        // Black g8 h8 (with white far away) then i9 i10: the double-three point i8 (the
        // README's example) is forbidden once black has g8 h8 i9 i10 and is to move.
        let moves = Pos::parse_list("g8 a1 h8 a3 i9 a5 i10 a7", 15).unwrap();
        let f = forbidden_by_ply(15, Rule::Renju, &moves);
        assert_eq!(f.last().map(|(p, s)| (*p, s.as_str())), Some((8, "i8")));
        assert!(f.iter().all(|(p, _)| p % 2 == 0));
        assert!(forbidden_by_ply(15, Rule::Freestyle, &moves).is_empty());
        // An occupied point (a damaged record) stops the computation without a panic.
        let bad = Pos::parse_list("h8 h8 i9", 15).unwrap();
        assert!(forbidden_by_ply(15, Rule::Renju, &bad).is_empty());
    }

    fn record(pair: u64) -> GameRecord {
        use wuzi_games::record::{OpeningRef, RecordPlayer};
        GameRecord {
            matchup: 0,
            pair,
            game: 0,
            seed: pair,
            rule: None,
            size: None,
            opening: OpeningRef {
                index: 0,
                opening: wuzi_games::opening::Opening {
                    id: "o".into(),
                    moves: Pos::parse_list("h8", 15).unwrap(),
                },
            },
            black: RecordPlayer {
                name: "a".into(),
                params: Default::default(),
                given: None,
                given_params: None,
                notes: Vec::new(),
            },
            white: RecordPlayer {
                name: "b".into(),
                params: Default::default(),
                given: None,
                given_params: None,
                notes: Vec::new(),
            },
            moves: Vec::new(),
            winner: None,
            result: "1/2-1/2".into(),
            reason: Reason::Five,
            detail: None,
            time_ms: 0,
        }
    }

    #[test]
    fn sampling_keeps_odd_endings_and_spreads_the_rest() {
        let mut records = Vec::new();
        for i in 0..100u64 {
            let mut r = record(i);
            r.reason = if i % 10 == 3 {
                Reason::MoveCap
            } else {
                Reason::Five
            };
            records.push(r);
        }
        assert_eq!(select_games(&records, 0).len(), 100);
        assert_eq!(select_games(&records, 100).len(), 100);
        let s = select_games(&records, 20);
        assert_eq!(s.len(), 20);
        // A quarter of 20: the first five move-cap games.
        let odd: Vec<usize> = s
            .iter()
            .copied()
            .filter(|&i| records[i].reason != Reason::Five)
            .collect();
        assert_eq!(odd, vec![3, 13, 23, 33, 43]);
        assert!(s.contains(&0) && s.contains(&99));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }
}
