//! A run's complete configuration and the deterministic schedule derived from it.
//!
//! A run is a list of players and of *matchups* (pairs of players), each playing `pairs` game
//! pairs. The pairs of all matchups are interleaved into one global sequence: global pair `g`
//! belongs to matchup `g % M` as its local pair `g / M` (`M` matchups). Local pair `k` of every
//! matchup plays the same opening, taken from a seeded permutation of the opening list; game 0
//! gives the matchup's first player black, game 1 swaps colours. Everything about a game (its
//! opening, players, colours and seed) is a pure function of the configuration, the global pair
//! index and the game index, so results do not depend on how many games run at once, on
//! `--resume` or on `--shard`.
//!
//! The configuration is written to `run.json` in the output directory; `--resume` and `merge`
//! check that records belong to the same configuration.

mod shard;
mod sweep;

use std::path::Path;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use wuzi_engine::Params;

use crate::error::{ArenaError, Result};
use wuzi_games::opening::{below, Opening};
use wuzi_games::referee::GameSettings;
use wuzi_players::PlayerSpec;
use wuzi_stats::SprtParams;

pub use shard::Shard;
pub use sweep::{grid, SweepAxis, SweepInfo, SweepPoint};

/// Name of the configuration file in a run directory.
pub const RUN_FILE: &str = "run.json";
/// Most game pairs per matchup (the schedule keeps one opening index per pair).
pub const MAX_PAIRS: u64 = 10_000_000;
/// Version of the `run.json` / `games.jsonl` layout.
pub const FORMAT_VERSION: u32 = 1;

/// What kind of run produced the matchups (for tables; the runner treats all alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// Two players.
    Match,
    /// The first player against each of the others.
    Gauntlet,
    /// Every player against every other.
    RoundRobin,
    /// Parameter variants against a baseline.
    Sweep,
}

impl std::fmt::Display for RunKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RunKind::Match => "match",
            RunKind::Gauntlet => "gauntlet",
            RunKind::RoundRobin => "round-robin",
            RunKind::Sweep => "sweep",
        })
    }
}

/// Two players that meet: statistics are from `first`'s point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matchup {
    /// Index of the first player (black in game 0 of each pair).
    pub first: usize,
    /// Index of the second player.
    pub second: usize,
}

/// The order in which a matchup's pairs use the openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningOrder {
    /// A seeded shuffle of the list, a fresh one each time the list is used up.
    #[default]
    Random,
    /// The list in file order, cycled.
    Sequential,
}

/// Everything that determines a run's games and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Layout version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// What kind of run.
    pub kind: RunKind,
    /// Board, rule, move cap, time margin.
    pub game: GameSettings,
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// Who meets whom.
    pub matchups: Vec<Matchup>,
    /// Description of where the openings came from.
    pub openings_source: String,
    /// The openings, after symmetry expansion and deduplication.
    pub openings: Vec<Opening>,
    /// Order of use.
    pub order: OpeningOrder,
    /// Game pairs per matchup.
    pub pairs: u64,
    /// The run seed.
    pub seed: u64,
    /// Stop a matchup when its SPRT decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtParams>,
    /// Play only a share of the pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Sweep axes and points, for sweep runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepInfo>,
    /// `--log-io`: every protocol line of each external brain goes to a file per game and
    /// brain in the run folder ([`crate::run_dir::io_log_name`]). Absent from run.json when
    /// off, so older run files read and write as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log_io: bool,
}

/// The command-line option of a top-level [`RunConfig`] field (JSON path), or its path.
fn option_name(path: &str) -> String {
    let option = match path {
        "seed" => "--seed",
        "pairs" => "--pairs",
        "order" => "--order",
        "sprt" => "--sprt",
        "shard" => "--shard",
        "openings" | "openings_source" => "--openings",
        "game.size" => "--size",
        "game.rule" => "--rule",
        "game.max_moves" => "--max-moves",
        "game.time_margin_ms" => "--time-margin-ms",
        "game.adjudicate" => "--adjudicate",
        "game.resign" => "--resign",
        "game.draw" => "--draw",
        "log_io" => "--log-io",
        "kind" => "the run kind (match, gauntlet, ...)",
        "players" => "the players",
        "matchups" => "the matchups",
        _ => {
            return match path.split_once('.') {
                Some((head @ ("sprt" | "shard"), rest)) => format!("--{head} {rest}"),
                // `game.resign.count` reads `--resign count`.
                Some(("game", rest))
                    if rest.starts_with("resign.") || rest.starts_with("draw.") =>
                {
                    format!("--{}", rest.replacen('.', " ", 1))
                }
                _ => path.to_string(),
            };
        }
    };
    option.to_string()
}

/// A JSON value shown in a difference: compact, `none` for null, cut at 60 characters.
fn shown(v: Option<&serde_json::Value>) -> String {
    let text = match v {
        None | Some(serde_json::Value::Null) => "none".to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    };
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// Appends the differences between `old` and `new` under `path` (see
/// [`RunConfig::differences`]).
fn diff_values(
    path: &str,
    old: &serde_json::Value,
    new: &serde_json::Value,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    if old == new {
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (path, old, new) {
        // Players by name: a player's changed field, or a player only on one side.
        ("players", Value::Array(a), Value::Array(b)) => {
            let before = out.len();
            let name = |p: &Value| {
                p.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_string()
            };
            for p in a {
                match b.iter().find(|q| name(q) == name(p)) {
                    Some(q) => {
                        let mut inner = Vec::new();
                        diff_values("", p, q, &mut inner);
                        for d in inner {
                            // `limits.nodes: ...` reads `nodes: ...` (the player's nodes= or --nodes).
                            let d = d.strip_prefix("limits.").unwrap_or(&d).to_string();
                            out.push(format!("player '{}' {d}", name(p)));
                        }
                    }
                    None => out.push(format!("player '{}': in the run, not now", name(p))),
                }
            }
            for q in b.iter().filter(|q| !a.iter().any(|p| name(p) == name(q))) {
                out.push(format!("player '{}': now, not in the run", name(q)));
            }
            if out.len() == before {
                out.push("the players' order".to_string());
            }
        }
        // The openings themselves: how many, not every stone.
        ("openings", Value::Array(a), Value::Array(b)) => {
            out.push(if a.len() == b.len() {
                let changed = a.iter().zip(b).filter(|(x, y)| x != y).count();
                format!("--openings: {changed} of the {} positions differ", a.len())
            } else {
                format!(
                    "--openings: {} position(s) in the run, {} now",
                    a.len(),
                    b.len()
                )
            });
        }
        (_, Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let (x, y) = (a.get(k), b.get(k));
                match (x, y) {
                    (Some(x), Some(y)) => diff_values(&join(k), x, y, out),
                    _ => out.push(format!(
                        "{}: {} -> {}",
                        option_name(&join(k)),
                        shown(x),
                        shown(y)
                    )),
                }
            }
        }
        _ => out.push(format!(
            "{}: {} -> {}",
            option_name(path),
            shown(Some(old)),
            shown(Some(new))
        )),
    }
}

/// SplitMix64 finaliser: a well-mixed 64-bit function of its input.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RunConfig {
    /// A configuration with one pair per opening, seed 1, random opening order and no SPRT,
    /// shard or sweep; change the public fields as needed, then [`RunConfig::validate`].
    pub fn new(
        kind: RunKind,
        game: GameSettings,
        players: Vec<PlayerSpec>,
        matchups: Vec<Matchup>,
        openings: Vec<Opening>,
        openings_source: impl Into<String>,
    ) -> RunConfig {
        RunConfig {
            format: FORMAT_VERSION,
            kind,
            game,
            players,
            matchups,
            openings_source: openings_source.into(),
            pairs: openings.len() as u64,
            openings,
            order: OpeningOrder::Random,
            seed: 1,
            sprt: None,
            shard: None,
            sweep: None,
            log_io: false,
        }
    }

    /// A two-player match (`players[0]` first).
    pub fn new_match(
        game: GameSettings,
        players: [PlayerSpec; 2],
        openings: Vec<Opening>,
    ) -> RunConfig {
        let source = "openings".to_string();
        RunConfig::new(
            RunKind::Match,
            game,
            players.into(),
            vec![Matchup {
                first: 0,
                second: 1,
            }],
            openings,
            source,
        )
    }

    /// One warning per matchup whose two players are the same player under two names
    /// ([`PlayerSpec::same_player_as`]), e.g. `--player default --player weak` where `weak` is
    /// only a name: their games measure nothing. None for a sweep, whose grid may hold the
    /// baseline's own value on purpose (its point is Elo 0 by construction).
    pub fn identical_player_warnings(&self) -> Vec<String> {
        if self.kind == RunKind::Sweep {
            return Vec::new();
        }
        self.matchups
            .iter()
            .filter_map(|m| {
                let (a, b) = (self.players.get(m.first)?, self.players.get(m.second)?);
                a.same_player_as(b).then(|| {
                    format!(
                        "'{}' and '{}' are the same player (same engine parameters, program and \
                         limits; only the names differ): their games are mirror pairs that \
                         measure nothing. Did you mean params=FILE or set=NAME=VALUE?",
                        a.name, b.name
                    )
                })
            })
            .collect()
    }

    /// Checks players, matchups, openings and counts; a clear error for the first problem.
    pub fn validate(&self) -> Result<()> {
        if self.format != FORMAT_VERSION {
            return Err(ArenaError::Config(format!(
                "run format {} is not supported (expected {FORMAT_VERSION})",
                self.format
            )));
        }
        if !(5..=20).contains(&self.game.size) {
            return Err(ArenaError::Config(format!(
                "board size {} is not supported (5 to 20)",
                self.game.size
            )));
        }
        if self.players.len() < 2 {
            return Err(ArenaError::Config(
                "a run needs at least two players".into(),
            ));
        }
        for (i, p) in self.players.iter().enumerate() {
            p.validate()?;
            if self.players[..i].iter().any(|q| q.name == p.name) {
                return Err(ArenaError::Config(format!(
                    "two players are named '{}': give each a distinct name=...",
                    p.name
                )));
            }
        }
        if self.matchups.is_empty() {
            return Err(ArenaError::Config("no matchups".into()));
        }
        for m in &self.matchups {
            if m.first >= self.players.len()
                || m.second >= self.players.len()
                || m.first == m.second
            {
                return Err(ArenaError::Config(format!("bad matchup {m:?}")));
            }
        }
        if self.openings.is_empty() {
            return Err(ArenaError::Config("no openings".into()));
        }
        if self.pairs == 0 || self.pairs > MAX_PAIRS {
            return Err(ArenaError::Config(format!(
                "--pairs must be 1..={MAX_PAIRS}, got {}",
                self.pairs
            )));
        }
        wuzi_games::opening::check_all(
            &self.openings,
            self.game.size,
            self.game.rule,
            &self.openings_source,
        )?;
        if let Some(s) = &self.sprt {
            s.validate()?;
        }
        let longest = self
            .openings
            .iter()
            .map(|o| o.moves.len())
            .max()
            .unwrap_or(0);
        if let Some(cap) = self.game.max_moves {
            if cap <= longest {
                return Err(ArenaError::Config(format!(
                    "--max-moves {cap} leaves no move to play after openings of {longest} moves"
                )));
            }
        }
        Ok(())
    }

    /// What differs between this (stored) configuration and `new`, field by field, each as
    /// `what: old -> new` naming the command-line option where there is one (`--seed: 1 ->
    /// 2`, `player 'a' nodes: 500 -> 600`); players are matched by name. Empty when the two
    /// are equal. For the error of a resume with changed options.
    pub fn differences(&self, new: &RunConfig) -> Vec<String> {
        let json = |c: &RunConfig| serde_json::to_value(c).expect("a run configuration serializes");
        let (old, new) = (json(self), json(new));
        let mut out = Vec::new();
        diff_values("", &old, &new, &mut out);
        out
    }

    /// Number of matchups `M`.
    pub fn matchup_count(&self) -> u64 {
        self.matchups.len() as u64
    }

    /// Number of global pairs, `M * pairs`.
    pub fn total_pairs(&self) -> u64 {
        self.matchup_count() * self.pairs
    }

    /// `(matchup, local pair)` of global pair `g`.
    pub fn locate(&self, g: u64) -> (usize, u64) {
        let m = self.matchup_count();
        ((g % m) as usize, g / m)
    }

    /// Global pair index of a matchup's local pair.
    pub fn global_pair(&self, matchup: usize, local: u64) -> u64 {
        local * self.matchup_count() + matchup as u64
    }

    /// Is global pair `g` played by this process (always, without a shard)?
    pub fn plays(&self, g: u64) -> bool {
        self.shard.is_none_or(|s| s.contains(g))
    }

    /// The player indices `[black, white]` of a game.
    pub fn colours(&self, matchup: usize, game: u8) -> [usize; 2] {
        let m = self.matchups[matchup];
        if game == 0 {
            [m.first, m.second]
        } else {
            [m.second, m.first]
        }
    }

    /// The seed of a game: a hash of the run seed, the global pair and the game index.
    pub fn game_seed(&self, g: u64, game: u8) -> u64 {
        mix64(self.seed ^ mix64(g.wrapping_mul(2).wrapping_add(u64::from(game))))
    }

    /// The configuration without its shard (what shards of one run share).
    pub fn unsharded(&self) -> RunConfig {
        RunConfig {
            shard: None,
            ..self.clone()
        }
    }

    /// Loads `run.json`.
    pub fn load(path: &Path) -> Result<RunConfig> {
        let text = std::fs::read_to_string(path).map_err(|e| ArenaError::io(path, e))?;
        serde_json::from_str(&text).map_err(|error| ArenaError::Json {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Writes `run.json` (atomically: shards sharing a folder read each other's).
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("configs serialize");
        crate::atomic::write_atomic(path, (text + "\n").as_bytes())
    }
}

/// Which opening each local pair plays: a pure function of the configuration.
#[derive(Clone, Debug)]
pub struct Schedule {
    order: Vec<usize>,
}

impl Schedule {
    /// The opening indices of local pairs `0..pairs`.
    pub fn new(config: &RunConfig) -> Schedule {
        let n = config.openings.len();
        let mut order = Vec::with_capacity(config.pairs as usize);
        let mut cycle = 0u64;
        while (order.len() as u64) < config.pairs {
            let mut perm: Vec<usize> = (0..n).collect();
            if config.order == OpeningOrder::Random {
                let mut rng = ChaCha8Rng::seed_from_u64(mix64(config.seed ^ mix64(!cycle)));
                for i in (1..n).rev() {
                    perm.swap(i, below(&mut rng, i + 1));
                }
            }
            let take = (config.pairs - order.len() as u64).min(n as u64) as usize;
            order.extend_from_slice(&perm[..take]);
            cycle += 1;
        }
        Schedule { order }
    }

    /// The opening index of local pair `local`.
    pub fn opening(&self, local: u64) -> usize {
        self.order[local as usize]
    }
}

/// Small configurations for the unit tests of this crate and of the crates above it (reports,
/// the arena's benchmark).
pub mod tests_support {
    use super::*;
    use wuzi_engine::Rule;
    use wuzi_players::PlayerLimits;

    /// A renju match of default against default at 300 nodes per move.
    pub fn tiny_config(pairs: u64) -> RunConfig {
        let limits = PlayerLimits {
            nodes: Some(300),
            ..PlayerLimits::default()
        };
        let openings = wuzi_games::opening::renju26(15).expect("fits");
        RunConfig {
            format: FORMAT_VERSION,
            kind: RunKind::Match,
            game: GameSettings {
                rule: Rule::Renju,
                ..GameSettings::default()
            },
            players: vec![
                PlayerSpec::engine("a", &Params::default(), limits.clone()),
                PlayerSpec::engine("b", &Params::default(), limits),
            ],
            matchups: vec![Matchup {
                first: 0,
                second: 1,
            }],
            openings_source: "renju26".into(),
            openings,
            order: OpeningOrder::Random,
            pairs,
            seed: 1,
            sprt: None,
            shard: None,
            sweep: None,
            log_io: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::tiny_config;
    use super::*;
    use wuzi_engine::Pos;

    /// Issue 24: `--player default --player weak` plays default against default.
    #[test]
    fn identical_players_are_warned_about() {
        let mut c = tiny_config(4);
        let w = c.identical_player_warnings();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("'a' and 'b' are the same player"), "{w:?}");
        c.players[1].set_param("defence", 20).expect("sets");
        assert!(c.identical_player_warnings().is_empty());
    }

    #[test]
    fn schedule_is_a_seeded_permutation_per_cycle() {
        let mut c = tiny_config(400);
        let s = Schedule::new(&c);
        let n = c.openings.len();
        let first: std::collections::HashSet<usize> = (0..n as u64).map(|k| s.opening(k)).collect();
        assert_eq!(first.len(), n);
        assert!(
            (0..n as u64).any(|k| s.opening(k) != k as usize),
            "shuffled"
        );
        let again = Schedule::new(&c);
        assert!((0..400).all(|k| s.opening(k) == again.opening(k)));
        c.seed = 2;
        let other = Schedule::new(&c);
        assert!((0..400).any(|k| s.opening(k) != other.opening(k)));
        c.order = OpeningOrder::Sequential;
        let seq = Schedule::new(&c);
        assert_eq!((seq.opening(0), seq.opening(n as u64 + 1)), (0, 1));
    }

    #[test]
    fn differences_name_each_changed_option_with_both_values() {
        let c = tiny_config(10);
        assert!(c.differences(&c.clone()).is_empty());
        let mut d = c.clone();
        d.seed = 7;
        d.players[1].limits.nodes = Some(600);
        d.players[0].set_param("defence", 90).expect("in range");
        d.sprt = Some(SprtParams::parse("0,10", wuzi_stats::EloModel::Logistic).expect("ok"));
        let diff = c.differences(&d);
        for expected in [
            "--seed: 1 -> 7",
            "player 'b' nodes: 300 -> 600",
            "player 'a' params.defence: none -> 90",
        ] {
            assert!(
                diff.contains(&expected.to_string()),
                "{expected} not in {diff:?}"
            );
        }
        assert!(
            diff.iter().any(|l| l.starts_with("--sprt: none -> ")),
            "{diff:?}"
        );
        assert_eq!(diff.len(), 4, "{diff:?}");
        // A renamed player is one missing and one new; other openings are counted, not listed.
        let mut e = c.clone();
        e.players[1].name = "weak".into();
        e.openings.truncate(5);
        let diff = c.differences(&e);
        assert!(
            diff.contains(&"player 'b': in the run, not now".to_string()),
            "{diff:?}"
        );
        assert!(
            diff.contains(&"player 'weak': now, not in the run".to_string()),
            "{diff:?}"
        );
        assert!(
            diff.iter()
                .any(|l| l.starts_with("--openings: 184 position(s) in the run, 5 now")),
            "{diff:?}"
        );
    }

    #[test]
    fn pairs_interleave_matchups_and_shards_split_them() {
        let mut c = tiny_config(10);
        c.players.push(PlayerSpec::engine(
            "c",
            &Params::default(),
            c.players[0].limits.clone(),
        ));
        c.matchups.push(Matchup {
            first: 0,
            second: 2,
        });
        assert_eq!(c.total_pairs(), 20);
        assert_eq!(c.locate(7), (1, 3));
        assert_eq!(c.global_pair(1, 3), 7);
        assert_eq!(c.colours(1, 0), [0, 2]);
        assert_eq!(c.colours(1, 1), [2, 0]);
        assert_ne!(c.game_seed(7, 0), c.game_seed(7, 1));
        c.shard = Some(Shard { index: 1, count: 3 });
        let mine: Vec<u64> = (0..20).filter(|&g| c.plays(g)).collect();
        assert_eq!(mine, [1, 4, 7, 10, 13, 16, 19]);
        c.validate().expect("valid");
    }

    #[test]
    fn config_round_trips_and_validates() {
        let c = tiny_config(4);
        c.validate().expect("valid");
        let json = serde_json::to_string(&c).expect("serializes");
        let back: RunConfig = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, c);
        let mut bad = c.clone();
        bad.players[1].name = "a".into();
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("named 'a'"));
        let mut bad = c.clone();
        bad.openings[0].moves = vec![Pos::new(7, 7), Pos::new(7, 7)];
        assert!(bad.validate().is_err());
        let mut bad = c;
        bad.pairs = 0;
        assert!(bad.validate().is_err());
    }
}
