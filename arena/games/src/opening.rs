//! Openings: the 26 canonical renju openings in their 8 board symmetries, Gomocup offset files,
//! move-list files and a seeded generator of balanced random openings.
//!
//! An opening is a list of moves from the empty board, black first. Every opening is played
//! as a game pair with colours swapped (see `harness.md`, "Game pairs"). An opening list keeps
//! each position once ([`dedupe`]): expanding an opening into its 8 symmetric images gives
//! fewer than 8 positions when the opening lies on a mirror axis, and the duplicates go.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wuzi_engine::{Board, Engine, Limits, Params, Pos, Rule};

use crate::error::{GamesError, Result};

/// A row of [`RENJU26`]: id, romaji name, offsets of the three stones.
pub type RenjuOpening = (&'static str, &'static str, [(i32, i32); 3]);

/// The 26 canonical renju openings (RIF numbering): id, romaji name and the offsets of the
/// three stones from the centre (`x` right, `y` up), black, white, black. Transcribed from
/// `shared/data/openings/renju26.csv` (a unit test checks the two agree when it is present).
pub const RENJU26: [RenjuOpening; 26] = [
    ("1D", "Kansei", [(0, 0), (0, 1), (0, 2)]),
    ("2D", "Keigetsu", [(0, 0), (0, 1), (1, 2)]),
    ("3D", "Sosei", [(0, 0), (0, 1), (2, 2)]),
    ("4D", "Kagetsu", [(0, 0), (0, 1), (1, 1)]),
    ("5D", "Zangetsu", [(0, 0), (0, 1), (2, 1)]),
    ("6D", "Ugetsu", [(0, 0), (0, 1), (1, 0)]),
    ("7D", "Kinsei", [(0, 0), (0, 1), (2, 0)]),
    ("8D", "Shogetsu", [(0, 0), (0, 1), (0, -1)]),
    ("9D", "Kyugetsu", [(0, 0), (0, 1), (1, -1)]),
    ("10D", "Shingetsu", [(0, 0), (0, 1), (2, -1)]),
    ("11D", "Zuisei", [(0, 0), (0, 1), (0, -2)]),
    ("12D", "Sangetsu", [(0, 0), (0, 1), (1, -2)]),
    ("13D", "Yusei", [(0, 0), (0, 1), (2, -2)]),
    ("1I", "Chosei", [(0, 0), (1, 1), (2, 2)]),
    ("2I", "Kyogetsu", [(0, 0), (1, 1), (2, 1)]),
    ("3I", "Kosei", [(0, 0), (1, 1), (2, 0)]),
    ("4I", "Suigetsu", [(0, 0), (1, 1), (2, -1)]),
    ("5I", "Ryusei", [(0, 0), (1, 1), (2, -2)]),
    ("6I", "Ungetsu", [(0, 0), (1, 1), (1, 0)]),
    ("7I", "Hogetsu", [(0, 0), (1, 1), (1, -1)]),
    ("8I", "Rangetsu", [(0, 0), (1, 1), (1, -2)]),
    ("9I", "Gingetsu", [(0, 0), (1, 1), (0, -1)]),
    ("10I", "Myojo", [(0, 0), (1, 1), (0, -2)]),
    ("11I", "Shagetsu", [(0, 0), (1, 1), (-1, -1)]),
    ("12I", "Meigetsu", [(0, 0), (1, 1), (-1, -2)]),
    ("13I", "Suisei", [(0, 0), (1, 1), (-2, -2)]),
];

/// One opening: an identifier and the moves from the empty board, black first.
///
/// Serialized as `{"id": "1D/s3", "moves": "h8 h9 h10"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Opening {
    /// Where it comes from: `1D` (renju table), `1D/s3` (its image under symmetry 3),
    /// `file.txt:12` (line 12 of a file), `r17` (random opening 17).
    pub id: String,
    /// Moves in play order.
    #[serde(serialize_with = "ser_moves", deserialize_with = "de_moves")]
    pub moves: Vec<Pos>,
}

impl Opening {
    /// The moves as `h8 h9 h10`.
    pub fn notation(&self) -> String {
        Pos::format_list(&self.moves)
    }

    /// The same opening under board symmetry `sym` (see [`Pos::transform`]).
    pub fn transformed(&self, sym: u8, size: usize) -> Opening {
        Opening {
            id: if sym == 0 {
                self.id.clone()
            } else {
                format!("{}/s{sym}", self.id)
            },
            moves: self.moves.iter().map(|p| p.transform(sym, size)).collect(),
        }
    }

    /// The position's key under board symmetry `sym`: the sorted list of `(y, x, colour)`
    /// stones. Move order within a colour does not matter.
    fn key_under(&self, sym: u8, size: usize) -> Vec<(u8, u8, u8)> {
        let mut v: Vec<(u8, u8, u8)> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let q = p.transform(sym, size);
                (q.y() as u8, q.x() as u8, (i % 2) as u8)
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// The position's key: equal keys mean the same stones of the same colours.
    pub fn position_key(&self, size: usize) -> Vec<(u8, u8, u8)> {
        self.key_under(0, size)
    }

    /// The position's canonical key: the smallest key over the 8 symmetries. Equal keys mean
    /// the same position up to a board symmetry.
    pub fn canonical_key(&self, size: usize) -> Vec<(u8, u8, u8)> {
        (0..8u8)
            .map(|sym| self.key_under(sym, size))
            .min()
            .unwrap_or_default()
    }

    /// Replays the opening on an empty board: every move must be on the board, on an empty
    /// point, not forbidden (renju black) and must not end the game.
    pub fn check(&self, size: usize, rule: Rule) -> std::result::Result<Board, String> {
        let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
        for (i, &p) in self.moves.iter().enumerate() {
            if board.outcome().is_some() {
                return Err(format!("the game is over before move {} ({p})", i + 1));
            }
            let rec = board
                .make(p)
                .map_err(|e| format!("move {} ({p}): {e}", i + 1))?;
            if rec.forbidden {
                return Err(format!(
                    "move {} ({p}) is a forbidden move for black",
                    i + 1
                ));
            }
            if rec.five {
                return Err(format!("move {} ({p}) makes five", i + 1));
            }
        }
        if board.outcome().is_some() {
            return Err("the opening fills the board".to_string());
        }
        Ok(board)
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id, self.notation())
    }
}

fn ser_moves<S: Serializer>(moves: &[Pos], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&Pos::format_list(moves))
}

fn de_moves<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Pos>, D::Error> {
    let text = String::deserialize(d)?;
    // Notation is checked against the largest board; the run checks the real size.
    Pos::parse_list(&text, wuzi_engine::pos::MAX_SIZE).map_err(serde::de::Error::custom)
}

/// The centre `(size/2, size/2)` (integer division), the origin of Gomocup offsets.
pub fn centre(size: usize) -> (i32, i32) {
    ((size / 2) as i32, (size / 2) as i32)
}

/// The point at offset `(dx, dy)` from the centre, if it lies on the board.
pub fn from_offset(size: usize, dx: i32, dy: i32) -> Option<Pos> {
    let (cx, cy) = centre(size);
    let (x, y) = (cx + dx, cy + dy);
    let size = size.min(wuzi_engine::pos::MAX_SIZE);
    (x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
        .then(|| Pos::new(x as usize, y as usize))
}

/// The 26 renju openings as listed (one symmetry each), centred on a `size` board.
pub fn renju26_base(size: usize) -> Result<Vec<Opening>> {
    RENJU26
        .iter()
        .map(|(id, _, offsets)| {
            let moves = offsets
                .iter()
                .map(|&(dx, dy)| from_offset(size, dx, dy))
                .collect::<Option<Vec<Pos>>>()
                .ok_or_else(|| GamesError::Opening {
                    source_name: "renju26".into(),
                    line: None,
                    message: format!("opening {id} does not fit a {size}x{size} board"),
                })?;
            Ok(Opening {
                id: (*id).to_string(),
                moves,
            })
        })
        .collect()
}

/// The 26 renju openings in all 8 board symmetries, symmetric duplicates removed (184 on an
/// odd-sized board: the 6 openings with a mirror axis have 4 distinct images, the others 8).
pub fn renju26(size: usize) -> Result<Vec<Opening>> {
    Ok(dedupe(&with_symmetries(&renju26_base(size)?, size), size).0)
}

/// Every opening followed by its images under the 7 other symmetries (ids `id/s1` ..
/// `id/s7`). Duplicates are not removed here; see [`dedupe`].
pub fn with_symmetries(openings: &[Opening], size: usize) -> Vec<Opening> {
    openings
        .iter()
        .flat_map(|o| (0..8).map(move |sym| o.transformed(sym, size)))
        .collect()
}

/// Keeps the first opening of every position: an opening whose stones (and colours) are those
/// of an earlier one is a duplicate, whatever the move order, such as an opening's symmetric
/// image that coincides with the opening itself. Returns the kept openings (in their original
/// order) and how many were removed.
pub fn dedupe(openings: &[Opening], size: usize) -> (Vec<Opening>, usize) {
    let mut seen = HashSet::new();
    let kept: Vec<Opening> = openings
        .iter()
        .filter(|o| seen.insert(o.position_key(size)))
        .cloned()
        .collect();
    let removed = openings.len() - kept.len();
    (kept, removed)
}

/// Format of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    /// Gomocup: `dx,dy, dx,dy, ...` offsets from the centre, one opening a line.
    Gomocup,
    /// Move lists in notation: `h8 i9 j10` (or `h8i9j10`), one opening a line.
    Moves,
}

impl std::str::FromStr for FileFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "gomocup" | "offsets" => Ok(FileFormat::Gomocup),
            "moves" | "movelist" | "move-list" => Ok(FileFormat::Moves),
            _ => Err(format!("unknown opening format '{s}' (gomocup or moves)")),
        }
    }
}

/// The content of a line with a `#` comment removed and surrounding space trimmed.
fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// Guesses a file's format from its first opening line: only digits, signs, commas and
/// spaces means Gomocup offsets; anything else is a move list.
pub fn detect_format(text: &str) -> FileFormat {
    let first = text.lines().map(strip_comment).find(|l| !l.is_empty());
    match first {
        Some(l)
            if l.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | ',' | ' ' | '\t')) =>
        {
            FileFormat::Gomocup
        }
        _ => FileFormat::Moves,
    }
}

/// Parses an opening file's text. `name` names the source in errors and opening ids
/// (`name:line`). Blank lines and `#` comments are skipped; `format` `None` detects it.
pub fn parse_text(
    text: &str,
    name: &str,
    size: usize,
    format: Option<FileFormat>,
) -> Result<Vec<Opening>> {
    let format = format.unwrap_or_else(|| detect_format(text));
    let err = |line: usize, message: String| GamesError::Opening {
        source_name: name.to_string(),
        line: Some(line),
        message,
    };
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        if line.is_empty() {
            continue;
        }
        let moves = match format {
            FileFormat::Moves => {
                Pos::parse_list(line, size).map_err(|e| err(i + 1, e.to_string()))?
            }
            FileFormat::Gomocup => {
                let numbers = line
                    .split([',', ' ', '\t'])
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        t.parse::<i32>()
                            .map_err(|_| err(i + 1, format!("'{t}' is not an integer offset")))
                    })
                    .collect::<Result<Vec<i32>>>()?;
                if numbers.len() % 2 != 0 {
                    return Err(err(
                        i + 1,
                        format!("{} numbers: offsets come in dx,dy pairs", numbers.len()),
                    ));
                }
                numbers
                    .chunks(2)
                    .map(|c| {
                        from_offset(size, c[0], c[1]).ok_or_else(|| {
                            err(
                                i + 1,
                                format!("offset {},{} is off the {size}x{size} board", c[0], c[1]),
                            )
                        })
                    })
                    .collect::<Result<Vec<Pos>>>()?
            }
        };
        if moves.is_empty() {
            return Err(err(i + 1, "no moves".into()));
        }
        out.push(Opening {
            id: format!("{name}:{}", i + 1),
            moves,
        });
    }
    if out.is_empty() {
        return Err(GamesError::Opening {
            source_name: name.to_string(),
            line: None,
            message: "no openings in the file".into(),
        });
    }
    Ok(out)
}

/// Reads and parses an opening file (see [`parse_text`]); ids use the file name.
pub fn load_file(path: &Path, size: usize, format: Option<FileFormat>) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).map_err(|e| GamesError::io(path, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_text(&text, &name, size, format).map_err(|e| match e {
        GamesError::Opening { line, message, .. } => GamesError::Opening {
            source_name: path.display().to_string(),
            line,
            message,
        },
        e => e,
    })
}

/// Checks every opening with [`Opening::check`]; the first bad one is an error.
pub fn check_all(openings: &[Opening], size: usize, rule: Rule, source: &str) -> Result<()> {
    for o in openings {
        o.check(size, rule).map_err(|m| GamesError::Opening {
            source_name: source.to_string(),
            line: None,
            message: format!("opening {}: {m}", o.id),
        })?;
    }
    Ok(())
}

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
    use std::io::IsTerminal;
    let target = if quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressDrawTarget::hidden()
    } else {
        indicatif::ProgressDrawTarget::stderr()
    };
    let bar = indicatif::ProgressBar::with_draw_target(Some(0), target);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what}, eta {{eta}}"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Moves `bar` to `done` of `total`.
pub fn show_progress(bar: &indicatif::ProgressBar, done: usize, total: usize) {
    bar.set_length(total as u64);
    bar.set_position(done as u64);
}

/// Where a run's openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The 26 renju openings in all 8 symmetries (deduplicated).
    Renju26,
    /// Seeded random balanced openings.
    Random(RandomSpec),
    /// An opening file (Gomocup offsets or move lists).
    File {
        /// The file.
        path: std::path::PathBuf,
        /// Its format; `None` detects it.
        format: Option<FileFormat>,
        /// Also play every opening's 7 other symmetric images.
        symmetries: bool,
    },
}

impl Source {
    /// Parses the CLI form: `renju26`, `random`, `random:N`, `random:N:STONES` or a file path.
    pub fn parse(text: &str, format: Option<FileFormat>, symmetries: bool) -> Result<Source> {
        let lower = text.to_ascii_lowercase();
        if lower == "renju26" || lower == "renju" {
            return Ok(Source::Renju26);
        }
        if lower == "random" || lower.starts_with("random:") {
            let mut spec = RandomSpec::default();
            let mut parts = lower.split(':').skip(1);
            let bad = |what: &str, t: &str| GamesError::Opening {
                source_name: text.to_string(),
                line: None,
                message: format!("{what} '{t}' is not a positive integer (random:COUNT:STONES)"),
            };
            if let Some(c) = parts.next() {
                spec.count = c.parse().map_err(|_| bad("count", c))?;
            }
            if let Some(s) = parts.next() {
                spec.stones = s.parse().map_err(|_| bad("stones", s))?;
            }
            return Ok(Source::Random(spec));
        }
        Ok(Source::File {
            path: text.into(),
            format,
            symmetries,
        })
    }

    /// Loads the openings: generated, read and expanded, then deduplicated ([`dedupe`]) and
    /// checked on a `size` board under `rule`. Returns the openings, a one-line description of
    /// the source and the number of symmetric duplicates removed.
    pub fn load(
        &self,
        size: usize,
        rule: Rule,
        seed: u64,
    ) -> Result<(Vec<Opening>, String, usize)> {
        self.load_with(size, rule, seed, None, &mut |_, _| {})
    }

    /// [`Source::load`] for a run of at most `pairs` pairs per matchup, which plays at most
    /// `pairs` openings: random openings are generated only that far (the first `pairs` of the
    /// requested count, see [`random_with`]); `progress(made, wanted)` follows their generation.
    /// Other sources are cheap to read and are loaded whole.
    pub fn load_with(
        &self,
        size: usize,
        rule: Rule,
        seed: u64,
        pairs: Option<u64>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(Vec<Opening>, String, usize)> {
        if !(wuzi_engine::pos::MIN_SIZE..=wuzi_engine::pos::MAX_SIZE).contains(&size) {
            return Err(GamesError::Config(format!(
                "board size {size} is not supported (5 to 20)"
            )));
        }
        let (list, name) = match self {
            Source::Renju26 => (
                with_symmetries(&renju26_base(size)?, size),
                "renju26 (8 symmetries)".to_string(),
            ),
            Source::Random(spec) => {
                let needed = pairs.map_or(spec.count, |p| {
                    spec.count.min(usize::try_from(p).unwrap_or(usize::MAX))
                });
                let built = RandomSpec {
                    count: needed,
                    ..spec.clone()
                };
                let count = if needed < spec.count {
                    format!("{needed} of {} openings, one per pair,", spec.count)
                } else {
                    format!("{} openings", spec.count)
                };
                (
                    random_with(&built, size, rule, seed, progress)?,
                    format!(
                    "random ({count} of {} stones, radius {}, score within {} of {}, seed {seed})",
                    spec.stones,
                    spec.radius,
                    spec.max_score,
                    spec.centre.map_or("the median".to_string(), |c| c.to_string())
                ),
                )
            }
            Source::File {
                path,
                format,
                symmetries,
            } => {
                let base = load_file(path, size, *format)?;
                let list = if *symmetries {
                    with_symmetries(&base, size)
                } else {
                    base
                };
                let suffix = if *symmetries { " (8 symmetries)" } else { "" };
                (list, format!("{}{suffix}", path.display()))
            }
        };
        let (kept, removed) = dedupe(&list, size);
        check_all(&kept, size, rule, &name)?;
        Ok((kept, name, removed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renju26_has_184_distinct_positions() {
        let base = renju26_base(15).expect("fits");
        assert_eq!(base.len(), 26);
        assert_eq!(base[0].notation(), "h8 h9 h10");
        assert_eq!(base[25].notation(), "h8 i9 f6");
        let all = with_symmetries(&base, 15);
        assert_eq!(all.len(), 208);
        let (kept, removed) = dedupe(&all, 15);
        // 1D, 8D, 11D, 1I, 11I and 13I lie on a mirror axis: 4 images each.
        assert_eq!(kept.len(), 6 * 4 + 20 * 8);
        assert_eq!(removed, 24);
        assert_eq!(renju26(15).expect("fits"), kept);
        // Every kept position is distinct; up to symmetry they are the 26 openings.
        let keys: HashSet<_> = kept.iter().map(|o| o.position_key(15)).collect();
        assert_eq!(keys.len(), kept.len());
        let classes: HashSet<_> = kept.iter().map(|o| o.canonical_key(15)).collect();
        assert_eq!(classes.len(), 26);
        // 1D (h8 h9 h10) lies on the vertical axis: its mirror image is itself.
        assert_eq!(all[4].notation(), "h8 h9 h10");
        assert!(kept.iter().all(|o| o.id != "1D/s4"));
        for o in &kept {
            o.check(15, Rule::Renju).expect("legal");
            assert_eq!(o.moves[0], Pos::new(7, 7), "{o}");
        }
    }

    #[test]
    fn duplicate_positions_in_a_file_are_removed() {
        // Line 4 repeats line 1 with the black stones in the other order, line 5 repeats
        // line 2; line 2 (mirror image) and 3 (rotation) of line 1 are other positions.
        let text = "h8 h9 i10\nh8 h9 g10\nh8 i8 j7\ni10 h9 h8\nh8 h9 g10\n";
        let list = parse_text(text, "t", 15, None).expect("parses");
        assert_eq!(list.len(), 5);
        let (kept, removed) = dedupe(&list, 15);
        assert_eq!(removed, 2);
        assert_eq!(
            kept.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(),
            ["t:1", "t:2", "t:3"]
        );
        // With all symmetries, the three are images of each other: 8 positions in all.
        let (kept, _) = dedupe(&with_symmetries(&kept, 15), 15);
        assert_eq!(kept.len(), 8);
        let classes: HashSet<_> = kept.iter().map(|o| o.canonical_key(15)).collect();
        assert_eq!(classes.len(), 1);
    }

    #[test]
    fn table_matches_the_shared_csv() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/openings/renju26.csv");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            return;
        };
        let rows: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), 26);
        let base = renju26_base(15).expect("fits");
        for ((row, (id, name, _)), o) in rows.iter().zip(RENJU26).zip(&base) {
            let cols: Vec<&str> = row.split(',').collect();
            assert_eq!(cols[0], id);
            assert_eq!(cols[2], name);
            let moves = format!("{} {} {}", cols[5], cols[6], cols[7]);
            assert_eq!(o.notation(), moves, "{id}");
        }
    }

    #[test]
    fn suite_files_match_the_table() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites/openings");
        let base = renju26_base(15).expect("fits");
        let moves = load_file(&dir.join("renju26.txt"), 15, None).expect("loads");
        let offsets = load_file(&dir.join("renju26-gomocup.txt"), 15, None).expect("loads");
        for list in [moves, offsets] {
            let got: Vec<_> = list.iter().map(|o| o.moves.clone()).collect();
            let want: Vec<_> = base.iter().map(|o| o.moves.clone()).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn gomocup_offsets_are_from_the_centre() {
        let text = "0,0, 1,1, -2,3\n# comment\n\n-1, 0, 0, 0\n";
        assert_eq!(detect_format(text), FileFormat::Gomocup);
        let list = parse_text(text, "g", 15, None).expect("parses");
        assert_eq!(list[0].notation(), "h8 i9 f11");
        assert_eq!(list[1].notation(), "g8 h8");
        assert_eq!(list[1].id, "g:4");
        // 20x20: the centre is (10, 10), k11.
        let list = parse_text("0,0", "g", 20, None).expect("parses");
        assert_eq!(list[0].notation(), "k11");
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = parse_text("0,0, 1\n", "f", 15, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1") && e.contains("pairs"), "{e}");
        let e = parse_text("0,0\n0,9\n", "f", 15, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("off the 15x15"), "{e}");
        let e = parse_text("h8 i9\nh8 z99\n", "f", 15, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse_text("0,0,x,1\n", "f", 15, Some(FileFormat::Gomocup))
            .unwrap_err()
            .to_string();
        assert!(e.contains("'x'"), "{e}");
        let e = parse_text("# nothing\n", "f", 15, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no openings"), "{e}");
        // Illegal openings are caught by the check.
        let list = parse_text("h8 h8\n", "f", 15, None).expect("parses");
        let e = check_all(&list, 15, Rule::Renju, "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("occupied"), "{e}");
        let list = parse_text("h8 a1 i8 a2 j8 a3 k8 a4 l8\n", "f", 15, None).expect("parses");
        let e = check_all(&list, 15, Rule::Renju, "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("five"), "{e}");
    }

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

    #[test]
    fn sources_parse() {
        assert_eq!(
            Source::parse("renju26", None, false).expect("ok"),
            Source::Renju26
        );
        match Source::parse("random:12:5", None, false).expect("ok") {
            Source::Random(s) => assert_eq!((s.count, s.stones), (12, 5)),
            other => panic!("{other:?}"),
        }
        assert!(Source::parse("random:x", None, false).is_err());
        assert!(matches!(
            Source::parse("some/file.txt", None, true).expect("ok"),
            Source::File {
                symmetries: true,
                ..
            }
        ));
    }

    #[test]
    fn opening_serializes_as_notation() {
        let o = Opening {
            id: "1D".into(),
            moves: Pos::parse_list("h8 h9 h10", 15).expect("valid"),
        };
        let json = serde_json::to_string(&o).expect("serializes");
        assert_eq!(json, r#"{"id":"1D","moves":"h8 h9 h10"}"#);
        let back: Opening = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, o);
    }
}
