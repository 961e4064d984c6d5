//! Game records: one JSON object a line in `games.jsonl`, appended and flushed as each game
//! ends, read back for `--resume`, `merge`, summaries and charts; PSQ and move-list export
//! (SGF export is in [`crate::sgf`]).
//!
//! A line looks like (wrapped here):
//! ```text
//! {"matchup":0,"pair":3,"game":1,"seed":1234,"rule":"renju","size":15,
//!  "opening":{"index":17,"id":"2D/s4","moves":"h8 h9 g10"},
//!  "black":{"name":"base","params":{}},"white":{"name":"new","params":{"defence":60}},
//!  "moves":[{"m":"g9","ms":21,"nodes":2000,"depth":4,"score":-35}, ...],
//!  "winner":"white","result":"0-1","reason":"five","time_ms":812}
//! ```
//! `ms` and `time_ms` are wall-clock timings; everything else is reproducible under node or
//! depth limits ([`GameRecord::without_timing`] drops the timings for comparisons).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wuzi_engine::{Pos, Rule, Stone};

use crate::error::{GamesError, Result};
use crate::opening::Opening;
use crate::referee::{GameResult, Reason};
use wuzi_stats::Outcome;

/// Name of the records file in a run directory.
pub const GAMES_FILE: &str = "games.jsonl";

/// The opening of a recorded game: its index in the run's opening list, id and moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRef {
    /// Index in the run's opening list (`run.json`).
    pub index: usize,
    /// The opening.
    #[serde(flatten)]
    pub opening: Opening,
}

/// A player as recorded with a game: name and parameters that differ from the defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordPlayer {
    /// Name.
    pub name: String,
    /// Parameters that differ from the defaults (empty for non-engine players).
    pub params: BTreeMap<String, i32>,
    /// The limits an external brain was given, as sent (`INFO timeout_turn 200; INFO
    /// max_node 5000`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given: Option<String>,
    /// The parameter values an external brain was given through its channel, and how
    /// (`{"via": "info", "values": {"defence": "60"}, "sent": "INFO defence 60"}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given_params: Option<wuzi_players::GivenParams>,
    /// Protocol notes of an external brain in this game: lines it sent that were not
    /// understood (noise, `ERROR`s), a missing `OK`, ... (at most
    /// [`wuzi_players::external::MAX_NOTES`], then a count).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One move played after the opening, with what the player reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEntry {
    /// The move, in notation.
    #[serde(rename = "m", serialize_with = "ser_pos", deserialize_with = "de_pos")]
    pub mv: Pos,
    /// Wall time in ms.
    pub ms: u64,
    /// Nodes searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Depth reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    /// Score for the mover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
}

fn ser_pos<S: Serializer>(p: &Pos, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(p)
}

fn de_pos<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Pos, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index of the matchup (pair of players) in the run.
    pub matchup: usize,
    /// Global pair index (pairs of all matchups interleaved; what shards split).
    pub pair: u64,
    /// 0: the matchup's first player has black; 1: colours swapped.
    pub game: u8,
    /// Seed handed to the players, derived from the run seed, pair and game.
    pub seed: u64,
    /// The rule the game was played under (absent in records written before it was kept:
    /// those are read under the run's `run.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// The board side the game was played on (absent in older records, as `rule`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// The opening.
    pub opening: OpeningRef,
    /// Black player.
    pub black: RecordPlayer,
    /// White player.
    pub white: RecordPlayer,
    /// Moves after the opening.
    pub moves: Vec<MoveEntry>,
    /// Winning colour, `null` for a draw.
    pub winner: Option<Stone>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub reason: Reason,
    /// Details of a loss by crash, illegal move or timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Wall time of the game in ms.
    pub time_ms: u64,
}

impl GameRecord {
    /// Builds the record of a finished game.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        matchup: usize,
        pair: u64,
        game: u8,
        seed: u64,
        opening: OpeningRef,
        mut black: RecordPlayer,
        mut white: RecordPlayer,
        result: &GameResult,
    ) -> GameRecord {
        for (player, report) in [&mut black, &mut white].into_iter().zip(&result.reports) {
            if report.given.is_some() {
                player.given.clone_from(&report.given);
            }
            if report.params.is_some() {
                player.given_params.clone_from(&report.params);
            }
            player.notes.extend(report.notes.iter().cloned());
        }
        GameRecord {
            matchup,
            pair,
            game,
            seed,
            rule: None,
            size: None,
            opening,
            black,
            white,
            moves: result
                .moves
                .iter()
                .map(|m| MoveEntry {
                    mv: m.mv,
                    ms: m.ms,
                    nodes: m.nodes,
                    depth: m.depth,
                    score: m.score,
                })
                .collect(),
            winner: result.winner,
            result: result.score_text().to_string(),
            reason: result.reason,
            detail: result.detail.clone(),
            time_ms: result.time_ms,
        }
    }

    /// The record marked with the rule and board side it was played under, so a reader can
    /// tell it from a game of another rule or size (the runner marks every game it plays).
    pub fn played_on(mut self, rule: Rule, size: usize) -> GameRecord {
        self.rule = Some(rule);
        self.size = Some(size);
        self
    }

    /// Whether the record was played on `rule` and `size`: `Err` says what it was played
    /// on instead. A record without the marks (written before they were kept) agrees.
    pub fn check_board(&self, rule: Rule, size: usize) -> std::result::Result<(), String> {
        let (r, n) = (self.rule.unwrap_or(rule), self.size.unwrap_or(size));
        if (r, n) == (rule, size) {
            Ok(())
        } else {
            Err(format!(
                "pair {} game {} was played under {r} on {n}x{n}, not {rule} on {size}x{size}",
                self.pair, self.game
            ))
        }
    }

    /// The record with every wall-clock timing set to zero, for comparing runs.
    /// Time-out details also depend on timing and are dropped.
    pub fn without_timing(&self) -> GameRecord {
        let mut r = self.clone();
        r.time_ms = 0;
        for m in &mut r.moves {
            m.ms = 0;
        }
        if r.reason == Reason::Timeout {
            r.detail = None;
        }
        r
    }

    /// The game's key: (global pair, game).
    pub fn key(&self) -> (u64, u8) {
        (self.pair, self.game)
    }

    /// All moves from the empty board: opening then played moves.
    pub fn all_moves(&self) -> Vec<Pos> {
        let mut v = self.opening.opening.moves.clone();
        v.extend(self.moves.iter().map(|m| m.mv));
        v
    }

    /// The result from the point of view of the matchup's first player (black in game 0).
    pub fn outcome_for_first(&self) -> Outcome {
        let first = if self.game == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        match self.winner {
            None => Outcome::Draw,
            Some(w) if w == first => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }

    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("records serialize")
    }
}

/// Appends records to a `games.jsonl`, one line each, flushed to the OS as it is written so an
/// interrupted run loses at most the line being written.
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

impl RecordWriter {
    /// Opens (creating if needed) `path` for appending.
    pub fn append(path: &Path) -> Result<RecordWriter> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| GamesError::io(path, e))?;
        Ok(RecordWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Writes one record as a line and flushes it.
    pub fn write(&mut self, record: &GameRecord) -> Result<()> {
        let mut line = record.to_line();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| GamesError::io(&self.path, e))
    }
}

/// The content of a records file.
#[derive(Clone, Debug, Default)]
pub struct RecordsFile {
    /// The complete records, in file order.
    pub records: Vec<GameRecord>,
    /// Length in bytes of the complete lines (where appending may resume).
    pub valid_len: u64,
    /// An incomplete last line was found (and ignored).
    pub truncated: bool,
}

/// Reads a records file. A last line without its newline is an interrupted write: it is
/// ignored and reported in [`RecordsFile::truncated`]. Any other unreadable line is an error
/// naming the line. A missing file reads as empty.
pub fn read_records(path: &Path) -> Result<RecordsFile> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(RecordsFile::default()),
        Err(e) => return Err(GamesError::io(path, e)),
    };
    let mut out = RecordsFile::default();
    let mut offset = 0usize;
    for (i, chunk) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !chunk.ends_with(b"\n") {
            out.truncated = true;
            break;
        }
        let bad = |message: String| GamesError::Record {
            path: path.to_path_buf(),
            line: i + 1,
            message,
        };
        let text = std::str::from_utf8(chunk).map_err(|e| bad(e.to_string()))?;
        if !text.trim().is_empty() {
            let rec: GameRecord = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
            out.records.push(rec);
        }
        offset += chunk.len();
    }
    out.valid_len = offset as u64;
    Ok(out)
}

/// Cuts a records file back to its complete lines (after [`read_records`] reported a
/// truncated last line), so appending starts on a fresh line.
pub fn truncate_to(path: &Path, len: u64) -> Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| GamesError::io(path, e))?;
    file.set_len(len).map_err(|e| GamesError::io(path, e))
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// Piskvork PSQ, one file per game.
    Psq,
    /// Move lists, one line per game, readable back as an opening file.
    Moves,
    /// SGF (FF[4], GM[4]), one file per game: see [`crate::sgf`].
    Sgf,
}

impl std::str::FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "psq" => Ok(ExportFormat::Psq),
            "moves" | "txt" => Ok(ExportFormat::Moves),
            "sgf" => Ok(ExportFormat::Sgf),
            _ => Err(format!("unknown export format '{s}' (psq, moves or sgf)")),
        }
    }
}

/// A game as a Piskvork PSQ file: `Piskvorky NxN, 11:11, 0`, one `x,y,ms` line a move with
/// 1-based coordinates (opening moves with 0 ms), then the black and white player names and a
/// result line (`1-0 five`).
pub fn to_psq(record: &GameRecord, size: usize) -> String {
    let mut s = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for p in &record.opening.opening.moves {
        s.push_str(&format!("{},{},0\n", p.x() + 1, p.y() + 1));
    }
    for m in &record.moves {
        s.push_str(&format!("{},{},{}\n", m.mv.x() + 1, m.mv.y() + 1, m.ms));
    }
    s.push_str(&format!("{}\n{}\n", record.black.name, record.white.name));
    s.push_str(&format!("{} {}\n", record.result, record.reason));
    s
}

/// A game as one move-list line: `h8 h9 h10 ... # 1-0 five; black A, white B; pair 3 game 1;
/// opening 1D/s3`. The part before `#` reads back as an opening.
pub fn to_move_line(record: &GameRecord) -> String {
    format!(
        "{} # {} {}; black {}, white {}; pair {} game {}; opening {}",
        Pos::format_list(&record.all_moves()),
        record.result,
        record.reason,
        record.black.name,
        record.white.name,
        record.pair,
        record.game,
        record.opening.opening.id
    )
}

/// File name of a game's PSQ export: `pair000003-g1.psq`.
pub fn psq_file_name(record: &GameRecord) -> String {
    format!("pair{:06}-g{}.psq", record.pair, record.game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::PlayedMove;

    fn sample(pair: u64, game: u8) -> GameRecord {
        let result = GameResult {
            winner: Some(Stone::Black),
            reason: Reason::Five,
            detail: None,
            moves: vec![
                PlayedMove {
                    mv: Pos::new(6, 9),
                    ms: 12,
                    nodes: Some(300),
                    depth: Some(3),
                    score: Some(-20),
                },
                PlayedMove {
                    mv: Pos::new(0, 0),
                    ms: 3,
                    nodes: None,
                    depth: None,
                    score: None,
                },
            ],
            time_ms: 20,
            reports: Default::default(),
        };
        GameRecord::new(
            0,
            pair,
            game,
            99,
            OpeningRef {
                index: 2,
                opening: Opening {
                    id: "1D".into(),
                    moves: Pos::parse_list("h8 h9 h10", 15).expect("valid"),
                },
            },
            RecordPlayer {
                name: "a".into(),
                params: BTreeMap::new(),
                given: None,
                given_params: None,
                notes: Vec::new(),
            },
            RecordPlayer {
                name: "b".into(),
                params: [("defence".to_string(), 20)].into_iter().collect(),
                given: None,
                given_params: None,
                notes: Vec::new(),
            },
            &result,
        )
    }

    #[test]
    fn json_line_round_trip() {
        let r = sample(3, 1);
        let line = r.to_line();
        assert!(line.contains(r#""moves":[{"m":"g10","ms":12,"nodes":300,"depth":3,"score":-20},{"m":"a1","ms":3}]"#), "{line}");
        assert!(
            line.contains(r#""opening":{"index":2,"id":"1D","moves":"h8 h9 h10"}"#),
            "{line}"
        );
        assert!(
            line.contains(r#""winner":"black","result":"1-0","reason":"five""#),
            "{line}"
        );
        let back: GameRecord = serde_json::from_str(&line).expect("parses");
        assert_eq!(back, r);
        assert_eq!(r.outcome_for_first(), Outcome::Loss);
        assert_eq!(sample(3, 0).outcome_for_first(), Outcome::Win);
        assert_eq!(r.without_timing().moves[0].ms, 0);
    }

    #[test]
    fn truncated_last_line_is_ignored_and_cut() {
        let dir = std::env::temp_dir().join(format!("wuzi-arena-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(GAMES_FILE);
        let _ = std::fs::remove_file(&path);
        let mut w = RecordWriter::append(&path).expect("opens");
        w.write(&sample(0, 0)).expect("writes");
        w.write(&sample(0, 1)).expect("writes");
        let full = std::fs::read(&path).expect("reads");
        let first_len = full.iter().position(|&b| b == b'\n').expect("line") + 1;
        // Cut the second line in the middle.
        std::fs::write(&path, &full[..first_len + 30]).expect("writes");
        let f = read_records(&path).expect("reads");
        assert_eq!(f.records.len(), 1);
        assert!(f.truncated);
        assert_eq!(f.valid_len, first_len as u64);
        truncate_to(&path, f.valid_len).expect("truncates");
        let mut w = RecordWriter::append(&path).expect("opens");
        w.write(&sample(0, 1)).expect("writes");
        let f = read_records(&path).expect("reads");
        assert_eq!(f.records, vec![sample(0, 0), sample(0, 1)]);
        assert!(!f.truncated);
        // A corrupt line in the middle is an error naming it.
        std::fs::write(
            &path,
            "{\"x\":1}\n".to_string() + &sample(1, 0).to_line() + "\n",
        )
        .expect("writes");
        let e = read_records(&path).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        std::fs::remove_dir_all(&dir).expect("cleans up");
    }

    #[test]
    fn psq_and_move_line() {
        let r = sample(3, 1);
        let psq = to_psq(&r, 15);
        let lines: Vec<&str> = psq.lines().collect();
        assert_eq!(
            lines,
            [
                "Piskvorky 15x15, 11:11, 0",
                "8,8,0",
                "8,9,0",
                "8,10,0",
                "7,10,12",
                "1,1,3",
                "a",
                "b",
                "1-0 five"
            ]
        );
        let line = to_move_line(&r);
        assert!(
            line.starts_with("h8 h9 h10 g10 a1 # 1-0 five; black a, white b"),
            "{line}"
        );
        assert_eq!(psq_file_name(&r), "pair000003-g1.psq");
    }
}
