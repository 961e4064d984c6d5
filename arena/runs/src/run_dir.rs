//! The files of a run folder, and folders shared by the shards of one run.
//!
//! An unsharded run keeps `run.json`, `games.jsonl` and `summary.json`. Shard `i` of `n` keeps
//! `run-shard-i-of-n.json`, `games-shard-i-of-n.jsonl` and `summary-shard-i-of-n.json`, so the
//! shards of one run may share one folder (`--shard i/n --out SHARED`): each shard then reads
//! the others' records as they are appended ([`PeerReader`]) and stops scheduling when the
//! combined SPRT decides, and `summary`, `chart`, `export` and `merge` read the whole folder
//! ([`RunDir`]). Folders written by shards of older versions (`run.json` holding a shard) are
//! still read.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::config::{RunConfig, Schedule, Shard, RUN_FILE};
use crate::error::{ArenaError, Result};
use crate::summary::{Completion, GameLite, GameMap, SUMMARY_FILE};
use wuzi_games::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_games::GamesError;

/// The paths of one run's (or one shard's) files in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFiles {
    /// The configuration (`run.json` or `run-shard-i-of-n.json`).
    pub run: PathBuf,
    /// The records (`games.jsonl` or `games-shard-i-of-n.jsonl`).
    pub games: PathBuf,
    /// The summary (`summary.json` or `summary-shard-i-of-n.json`).
    pub summary: PathBuf,
}

/// `stem-shard-i-of-n.ext`, or `stem.ext` without a shard.
fn file_name(stem: &str, ext: &str, shard: Option<Shard>) -> String {
    match shard {
        Some(s) => format!("{stem}-shard-{}-of-{}.{ext}", s.index, s.count),
        None => format!("{stem}.{ext}"),
    }
}

impl RunFiles {
    /// The files of a run (`shard: None`) or of one shard in `dir`. A folder where an older
    /// version ran this shard alone (its `run.json` holds the shard) keeps those names.
    pub fn for_run(dir: &Path, shard: Option<Shard>) -> RunFiles {
        let legacy =
            shard.is_some() && RunConfig::load(&dir.join(RUN_FILE)).is_ok_and(|c| c.shard == shard);
        if shard.is_none() || legacy {
            return RunFiles {
                run: dir.join(RUN_FILE),
                games: dir.join(GAMES_FILE),
                summary: dir.join(SUMMARY_FILE),
            };
        }
        RunFiles {
            run: dir.join(file_name("run", "json", shard)),
            games: dir.join(file_name("games", "jsonl", shard)),
            summary: dir.join(file_name("summary", "json", shard)),
        }
    }
}

/// The folder of a run's protocol logs (`--log-io`), in the run folder.
pub const IO_DIR: &str = "io";

/// The protocol log of one external brain in one game, relative to the run folder:
/// `io/pair000012-g1-black-NAME.log` (global pair, game in the pair, colour, the player's name
/// with anything but letters, digits, `.`, `_` and `-` as `_`). One file per brain, so each
/// brain's player writes its own file; the global pair keeps shards sharing a folder apart.
pub fn io_log_name(pair: u64, game: u8, colour: wuzi_engine::Stone, name: &str) -> String {
    let colour = match colour {
        wuzi_engine::Stone::Black => "black",
        wuzi_engine::Stone::White => "white",
    };
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{IO_DIR}/pair{pair:06}-g{game}-{colour}-{name}.log")
}

/// Parses `run-shard-i-of-n.json` into the shard.
fn parse_shard_run_file(name: &str) -> Option<Shard> {
    let rest = name.strip_prefix("run-shard-")?.strip_suffix(".json")?;
    let (i, n) = rest.split_once("-of-")?;
    let (index, count) = (i.parse().ok()?, n.parse().ok()?);
    (index < count).then_some(Shard { index, count })
}

/// One run (or shard) found in a folder.
#[derive(Clone, Debug)]
pub struct DirEntry {
    /// Its configuration (with its shard, if any).
    pub config: RunConfig,
    /// Its files.
    pub files: RunFiles,
}

/// A run folder as `summary`, `chart`, `export` and `merge` read it: one unsharded run, one
/// shard, or several shards of one run side by side.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// The folder.
    pub dir: PathBuf,
    /// The runs found, in shard order.
    pub entries: Vec<DirEntry>,
}

impl RunDir {
    /// Lists the runs in `dir`. An error when there is none, or when the shards found belong
    /// to different runs or different shard counts (naming the file).
    pub fn open(dir: &Path) -> Result<RunDir> {
        let not_a_run = || {
            ArenaError::Config(format!(
                "{}: no {RUN_FILE} or run-shard-I-of-N.json here (not a run directory)",
                dir.display()
            ))
        };
        let listing = match std::fs::read_dir(dir) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_a_run()),
            Err(e) => return Err(ArenaError::io(dir, e)),
        };
        let mut shards: Vec<Shard> = listing
            .filter_map(|e| e.ok())
            .filter_map(|e| parse_shard_run_file(&e.file_name().to_string_lossy()))
            .collect();
        shards.sort_by_key(|s| (s.count, s.index));
        let mut entries = Vec::new();
        let legacy = dir.join(RUN_FILE);
        if legacy.exists() {
            let config = load_valid(&legacy)?;
            entries.push(DirEntry {
                files: RunFiles::for_run(dir, config.shard),
                config,
            });
        }
        for s in shards {
            let files = RunFiles::for_run(dir, Some(s));
            if files.run == legacy {
                continue;
            }
            let config = load_valid(&files.run)?;
            if config.shard != Some(s) {
                return Err(ArenaError::Mismatch(format!(
                    "{} holds shard {} instead of {s}",
                    files.run.display(),
                    config.shard.map_or("none".into(), |x| x.to_string())
                )));
            }
            entries.push(DirEntry { config, files });
        }
        let Some(first) = entries.first() else {
            return Err(not_a_run());
        };
        let base = first.config.unsharded();
        let count = first.config.shard.map(|s| s.count);
        for e in &entries[1..] {
            if e.config.shard.is_none() || first.config.shard.is_none() {
                return Err(ArenaError::Mismatch(format!(
                    "{} holds an unsharded run and shards; keep them in separate folders",
                    dir.display()
                )));
            }
            if e.config.unsharded() != base {
                return Err(ArenaError::Mismatch(format!(
                    "{} belongs to a different run than {}",
                    e.files.run.display(),
                    first.files.run.display()
                )));
            }
            if e.config.shard.map(|s| s.count) != count {
                return Err(ArenaError::Mismatch(format!(
                    "{} splits the run into a different number of shards than {}",
                    e.files.run.display(),
                    first.files.run.display()
                )));
            }
        }
        let mut seen = std::collections::HashSet::new();
        entries.retain(|e| seen.insert(e.config.shard));
        Ok(RunDir {
            dir: dir.to_path_buf(),
            entries,
        })
    }

    /// The configuration the folder's records are counted with: the run's own, a lone shard's,
    /// or the unsharded one when several shards share the folder (what `merge` writes).
    pub fn config(&self) -> RunConfig {
        match self.entries.as_slice() {
            [one] => one.config.clone(),
            many => many[0].config.unsharded(),
        }
    }

    /// Shards of the run that have no files here (empty for an unsharded run or a lone shard).
    pub fn missing_shards(&self) -> Vec<Shard> {
        if self.entries.len() < 2 {
            return Vec::new();
        }
        let count = self.entries[0].config.shard.map_or(1, |s| s.count);
        (0..count)
            .map(|index| Shard { index, count })
            .filter(|s| !self.entries.iter().any(|e| e.config.shard == Some(*s)))
            .collect()
    }

    /// Pairs not finished yet before the last finished pair of their matchup (shards still
    /// running, or one that stopped), in matchups whose SPRT has not decided on the finished
    /// pairs in order: until they are finished, the counts (and the SPRT state) of a shared
    /// folder may still change, as pairs are counted in pair order.
    pub fn unfinished_gaps(&self, games: &GameMap) -> u64 {
        let config = self.config();
        (0..config.matchups.len())
            .map(|m| {
                let pair = |local: u64| {
                    let g = config.global_pair(m, local);
                    games.get(&(g, 0)).zip(games.get(&(g, 1)))
                };
                // The runner's count: finished pairs in order up to the first unfinished one.
                let mut tally = crate::summary::Tally::default();
                for local in 0..config.pairs {
                    match pair(local) {
                        Some((a, b)) => {
                            if tally.add_pair(a, b, config.sprt.as_ref()) {
                                return 0; // decided: later pairs do not count
                            }
                        }
                        None => break,
                    }
                }
                match (0..config.pairs).rev().find(|&l| pair(l).is_some()) {
                    Some(last) => (0..last).filter(|&l| pair(l).is_none()).count() as u64,
                    None => 0,
                }
            })
            .sum()
    }

    /// The command that continues the folder's run: `wuzi-arena resume DIR`, with
    /// `--shard I/N` to fill in when several shards share the folder.
    pub fn resume_command(&self) -> String {
        match self.entries.as_slice() {
            [_] => resume_command(&self.dir, None),
            many => format!(
                "{} --shard I/{} (for each unfinished shard I)",
                resume_command(&self.dir, None),
                many[0].config.shard.map_or(1, |s| s.count)
            ),
        }
    }

    /// How far the recorded summary says the run got, when it describes exactly these
    /// games: a summary written by an interrupted session says so, which the records alone
    /// cannot tell (they only show that games are missing).
    pub fn recorded_completion(&self, games_finished: u64) -> Option<Completion> {
        let [one] = self.entries.as_slice() else {
            return None;
        };
        let text = std::fs::read_to_string(&one.files.summary).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        (v.get("games_finished")?.as_u64()? == games_finished)
            .then(|| serde_json::from_value(v.get("completion")?.clone()).ok())
            .flatten()
    }

    /// Every record of the folder (first copy of each game), each checked against its shard's
    /// configuration. An incomplete last line (a run in progress) is ignored.
    pub fn records(&self) -> Result<Vec<GameRecord>> {
        let mut keys = std::collections::HashSet::new();
        let mut out = Vec::new();
        for e in &self.entries {
            for r in load_records_file(&e.config, &e.files.games, false)? {
                if keys.insert(r.key()) {
                    out.push(r);
                }
            }
        }
        Ok(out)
    }

    /// The folder's finished games, reduced for the statistics.
    pub fn games(&self) -> Result<GameMap> {
        Ok(self
            .records()?
            .iter()
            .map(|r| (r.key(), GameLite::from_record(r)))
            .collect())
    }
}

/// Reads a run file and checks it, an error naming the file either way (a `run.json` edited
/// by hand into a run that cannot be is refused as such).
fn load_valid(path: &Path) -> Result<RunConfig> {
    let config = RunConfig::load(path)?;
    config
        .validate()
        .map_err(|e| ArenaError::Config(format!("{}: {e}", path.display())))?;
    Ok(config)
}

/// The command that continues a run (or `shard` of it) in `dir`:
/// `wuzi-arena resume DIR [--shard I/N]`.
pub fn resume_command(dir: &Path, shard: Option<Shard>) -> String {
    let mut cmd = format!("wuzi-arena resume {}", shell_word(&dir.to_string_lossy()));
    if let Some(s) = shard {
        cmd.push_str(&format!(" --shard {s}"));
    }
    cmd
}

/// `word` as one shell word: as it is when it needs no quoting, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// This process's command line as `program` followed by its arguments, one line a shell reads
/// back the same: the command to run again that the binaries print after an interrupt.
pub fn this_command(program: &str) -> String {
    std::iter::once(program.to_string())
        .chain(std::env::args().skip(1).map(|a| shell_word(&a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks that a record belongs to `config` (rule and board, matchup, pair, opening, players).
pub fn check_record(
    config: &RunConfig,
    schedule: &Schedule,
    r: &GameRecord,
    path: &Path,
    line: usize,
) -> Result<()> {
    // The same error as a records file that does not parse (one message form for both).
    let bad = |message: String| -> ArenaError {
        GamesError::Record {
            path: path.to_path_buf(),
            line,
            message,
        }
        .into()
    };
    // A game of another rule or board (a records file copied between runs) would replay,
    // analyse and export as nonsense: refuse it by name.
    r.check_board(config.game.rule, config.game.size)
        .map_err(|e| bad(format!("{e} as this run's run.json says")))?;
    if r.pair >= config.total_pairs() || r.game > 1 {
        return Err(bad(format!(
            "pair {} game {} is not part of this run",
            r.pair, r.game
        )));
    }
    let (m, local) = config.locate(r.pair);
    if m != r.matchup {
        return Err(bad(format!(
            "pair {} belongs to matchup {m}, not {}",
            r.pair, r.matchup
        )));
    }
    let opening = schedule.opening(local);
    if r.opening.index != opening || r.opening.opening.moves != config.openings[opening].moves {
        return Err(bad(format!(
            "pair {} should play opening {}",
            r.pair, config.openings[opening].id
        )));
    }
    // A record edited into a game that cannot have been played is refused, not half-read:
    // its result must be its winner's, its stones on the board and on distinct points.
    let result = wuzi_games::referee::result_text(r.winner);
    if r.result != result {
        return Err(bad(format!(
            "pair {} game {}: result '{}' where the winner says {result}",
            r.pair, r.game, r.result
        )));
    }
    let size = config.game.size;
    let mut taken = std::collections::HashSet::new();
    for (i, p) in r.all_moves().into_iter().enumerate() {
        if p.x() >= size || p.y() >= size || !taken.insert(p) {
            return Err(bad(format!(
                "pair {} game {}: stone {} at {p} is off the {size}x{size} board or on an \
                 occupied point",
                r.pair,
                r.game,
                i + 1
            )));
        }
    }
    let [b, w] = config.colours(m, r.game);
    if r.black.name != config.players[b].name || r.white.name != config.players[w].name {
        return Err(bad(format!(
            "pair {} game {}: players {} and {} instead of {} and {}",
            r.pair,
            r.game,
            r.black.name,
            r.white.name,
            config.players[b].name,
            config.players[w].name
        )));
    }
    Ok(())
}

/// Reads a records file (missing: empty), checking each record belongs to `config`; cuts an
/// incomplete last line off the file when `repair` is set. Returns the first copy of each game.
pub fn load_records_file(config: &RunConfig, path: &Path, repair: bool) -> Result<Vec<GameRecord>> {
    let file = read_records(path)?;
    if file.truncated && repair {
        wuzi_games::record::truncate_to(path, file.valid_len)?;
    }
    let schedule = Schedule::new(config);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (i, r) in file.records.into_iter().enumerate() {
        check_record(config, &schedule, &r, path, i + 1)?;
        if seen.insert(r.key()) {
            out.push(r);
        }
    }
    Ok(out)
}

/// A peer shard's records file, read incrementally.
#[derive(Debug)]
struct PeerFile {
    config: RunConfig,
    schedule: Schedule,
    games: PathBuf,
    /// Bytes of complete lines already read.
    offset: u64,
    /// Lines read (for error messages).
    lines: usize,
}

/// Follows the records of the other shards of a run in a shared folder, reading only what was
/// appended since the last call. A peer is taken into account once its run file exists; a
/// run file of another run or shard count in the folder is an error naming it.
#[derive(Debug)]
pub struct PeerReader {
    dir: PathBuf,
    own: Shard,
    base: RunConfig,
    peers: BTreeMap<u64, PeerFile>,
}

impl PeerReader {
    /// Follows the peers of `config`'s shard in `dir`.
    pub fn new(config: &RunConfig, dir: &Path) -> Option<PeerReader> {
        Some(PeerReader {
            dir: dir.to_path_buf(),
            own: config.shard?,
            base: config.unsharded(),
            peers: BTreeMap::new(),
        })
    }

    /// Has any peer shard been seen?
    pub fn any(&self) -> bool {
        !self.peers.is_empty()
    }

    /// The peer shards seen so far.
    pub fn seen(&self) -> Vec<Shard> {
        self.peers.values().filter_map(|p| p.config.shard).collect()
    }

    /// Checks that no run file of a different run or shard count is in the folder.
    pub fn check_folder(&self) -> Result<()> {
        let listing = std::fs::read_dir(&self.dir).map_err(|e| ArenaError::io(&self.dir, e))?;
        for e in listing.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            let other = if let Some(s) = parse_shard_run_file(&name) {
                if s == self.own {
                    continue;
                }
                let c = RunConfig::load(&path)?;
                (s.count != self.own.count || c.unsharded() != self.base).then_some(path)
            } else if name == RUN_FILE {
                let c = RunConfig::load(&path)?;
                (c.shard != Some(self.own)).then_some(path)
            } else {
                None
            };
            if let Some(path) = other {
                return Err(ArenaError::Mismatch(format!(
                    "{} belongs to another run (or splits it into other shards) than shard {}; \
                     give each run its own --out folder",
                    path.display(),
                    self.own
                )));
            }
        }
        Ok(())
    }

    /// Appends to `out` the peers' records written since the last call.
    pub fn poll(&mut self, out: &mut Vec<GameRecord>) -> Result<()> {
        for index in 0..self.own.count {
            if index == self.own.index {
                continue;
            }
            if !self.peers.contains_key(&index) {
                let shard = Shard {
                    index,
                    count: self.own.count,
                };
                let files = RunFiles::for_run(&self.dir, Some(shard));
                if files.run == self.dir.join(RUN_FILE) || !files.run.exists() {
                    continue;
                }
                let config = RunConfig::load(&files.run)?;
                if config.unsharded() != self.base || config.shard != Some(shard) {
                    return Err(ArenaError::Mismatch(format!(
                        "{} belongs to another run than shard {}; give each run its own --out \
                         folder",
                        files.run.display(),
                        self.own
                    )));
                }
                self.peers.insert(
                    index,
                    PeerFile {
                        schedule: Schedule::new(&config),
                        config,
                        games: files.games,
                        offset: 0,
                        lines: 0,
                    },
                );
            }
            let peer = self.peers.get_mut(&index).expect("inserted");
            read_new_lines(peer, out)?;
        }
        Ok(())
    }
}

/// Reads the complete lines appended to a peer's records file since `peer.offset`.
fn read_new_lines(peer: &mut PeerFile, out: &mut Vec<GameRecord>) -> Result<()> {
    let path = &peer.games;
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(ArenaError::io(path, e)),
    };
    let len = file.metadata().map_err(|e| ArenaError::io(path, e))?.len();
    if len < peer.offset {
        // The peer resumed and cut an incomplete line we had not read: nothing complete lost.
        peer.offset = len;
        return Ok(());
    }
    if len == peer.offset {
        return Ok(());
    }
    file.seek(SeekFrom::Start(peer.offset))
        .map_err(|e| ArenaError::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(len - peer.offset)
        .read_to_end(&mut bytes)
        .map_err(|e| ArenaError::io(path, e))?;
    for chunk in bytes.split_inclusive(|&b| b == b'\n') {
        if !chunk.ends_with(b"\n") {
            break;
        }
        peer.offset += chunk.len() as u64;
        peer.lines += 1;
        let line = peer.lines;
        let bad = |message: String| -> ArenaError {
            GamesError::Record {
                path: path.clone(),
                line,
                message,
            }
            .into()
        };
        let text = std::str::from_utf8(chunk).map_err(|e| bad(e.to_string()))?;
        if text.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        check_record(&peer.config, &peer.schedule, &r, path, line)?;
        if !peer.config.plays(r.pair) {
            return Err(bad(format!(
                "pair {} does not belong to shard {}",
                r.pair,
                peer.config.shard.expect("a shard")
            )));
        }
        out.push(r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_file_names_round_trip() {
        let s = Shard { index: 2, count: 3 };
        let f = RunFiles::for_run(Path::new("/nonexistent"), Some(s));
        assert_eq!(f.run, Path::new("/nonexistent/run-shard-2-of-3.json"));
        assert_eq!(f.games, Path::new("/nonexistent/games-shard-2-of-3.jsonl"));
        assert_eq!(
            f.summary,
            Path::new("/nonexistent/summary-shard-2-of-3.json")
        );
        assert_eq!(parse_shard_run_file("run-shard-2-of-3.json"), Some(s));
        assert_eq!(parse_shard_run_file("run-shard-3-of-3.json"), None);
        assert_eq!(parse_shard_run_file("run-shard-x-of-3.json"), None);
        let plain = RunFiles::for_run(Path::new("/nonexistent"), None);
        assert_eq!(plain.games, Path::new("/nonexistent/games.jsonl"));
    }
}
