//! The tune specification: a TOML file naming the base parameter set, the parameters to tune
//! and how to play, checked against the engine's declared ranges and resolved into a
//! [`TuneConfig`].
//!
//! ```toml
//! base = "detuned.toml"        # parameter file, relative to this file; default: built-in defaults
//! pairs = 2000                 # game pairs in the whole tune
//! pairs_per_iteration = 8      # pairs sharing one perturbation (one SPSA iteration)
//! seed = 1
//! rule = "renju"               # freestyle, standard or renju
//! size = 15
//! openings = "renju26"         # renju26, random[:COUNT[:STONES]] or a file (relative to this file)
//! # openings_format = "moves"  # gomocup or moves, for files (default: detected)
//! # symmetries = false         # also play the 7 symmetric images of a file's openings
//! # max_moves = 225            # draw after this many moves
//! # concurrency = 2            # pairs played at once (default: all cores; results do not change)
//! out = "tunes/example"        # output directory, relative to the working directory
//! # schedule = "adam"          # or "fishtest"; default adam, fishtest when a param sets r_end
//!
//! [limits]                     # per move; default: nodes = 1000
//! nodes = 500
//! # depth, move_ms, tc = "GAME_MS+INC_MS", threads (1), hash_mb (16)
//!
//! [params.defence]             # every key optional
//! start = 40                   # default: the base value
//! min = 20                     # default: the declared minimum
//! max = 200                    # default: the declared maximum
//! c_end = 9                    # final perturbation; default (max - min) / 20
//! travel = 3                   # adam: the steps add up to 3 x (max - min); default: the
//!                              # travel whose noise spreads 1/6 of the range (1.54 for 100
//!                              # iterations); more for a start far from the optimum
//! # r_end = 0.002              # fishtest: final learning rate; default 0.002
//!
//! [params.w_open_three]
//!
//! [verify]                     # the match of tuned against start after the tune
//! pairs = 400                  # default: one pair per opening
//! # sprt = "0,10"              # elo0,elo1[,alpha,beta]: stop early when the SPRT decides
//! # sprt_model = "logistic"    # or normalized
//! # seed = 1                   # default: the tune's seed
//! ```
//!
//! Unknown keys, unknown parameters and values outside the declared ranges are errors that
//! name the key and the allowed range.
//!
//! An `[engine]` table tunes an external Gomocup brain instead, its values sent through its
//! parameter channel; its `[params.*]` give start, min and max themselves ([`brain`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use wuzi_arena::config::MAX_PAIRS;
use wuzi_arena::opening::{FileFormat, Source};
use wuzi_arena::player::{parse_tc, PlayerLimits, DEFAULT_HASH_MB};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_arena::ArenaError;
use wuzi_engine::{ParamError, Params, Rule};

use crate::config::num;
pub use crate::config::{OpeningSet, TuneConfig, VerifyConfig, FORMAT_VERSION};
use crate::error::{Result, TuneError};
use crate::spsa::{Method, Spsa, SpsaParam, DEFAULT_R_END};

mod schedule;

pub mod brain;
pub use brain::EngineSpec;

/// Game pairs per iteration when the spec gives none.
pub const DEFAULT_PAIRS_PER_ITERATION: u64 = 8;
/// Nodes per move when the spec gives no limit.
pub const DEFAULT_NODES: u64 = 1000;

fn default_seed() -> u64 {
    1
}
fn default_size() -> usize {
    15
}
fn default_openings() -> String {
    "renju26".into()
}
fn default_margin() -> u64 {
    100
}

/// One tuned parameter as written in the spec (`[params.NAME]`); every key is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamEntry {
    /// Starting value (default: the base set's value).
    pub start: Option<f64>,
    /// Smallest value tried (default: the declared minimum).
    pub min: Option<f64>,
    /// Largest value tried (default: the declared maximum).
    pub max: Option<f64>,
    /// Perturbation at the last iteration (default `(max - min) / 20`).
    pub c_end: Option<f64>,
    /// Learning rate at the last iteration (default 0.002); fishtest's schedule only.
    pub r_end: Option<f64>,
    /// What the planned steps add up to, in ranges; the adam schedule only (default: the
    /// travel whose noise alone would scatter the parameter by a sixth of its range,
    /// [`crate::spsa::travel_for_spread`]: 1.54 for 100 iterations).
    pub travel: Option<f64>,
    /// Round the values sent (external brains only; default false there, the engine's
    /// parameters are all integers).
    #[serde(default)]
    pub integer: Option<bool>,
}

/// Search limits per move (`[limits]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<i32>,
    /// Time per move, ms.
    pub move_ms: Option<u64>,
    /// Game time and increment, `GAME_MS+INC_MS`.
    pub tc: Option<String>,
    /// Search threads per engine (default 1).
    pub threads: Option<usize>,
    /// Hash per engine, MB (default 16).
    pub hash_mb: Option<usize>,
}

/// The verification match (`[verify]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifySpec {
    /// Game pairs (default: one per opening); with an SPRT, the most pairs played.
    pub pairs: Option<u64>,
    /// SPRT `elo0,elo1[,alpha,beta]`.
    pub sprt: Option<String>,
    /// Elo model of the SPRT bounds (default logistic).
    pub sprt_model: Option<EloModel>,
    /// Seed of the match (default: the tune's seed).
    pub seed: Option<u64>,
    /// Openings of the match, as the tune's `openings` (default: the tune's openings). Random
    /// openings are drawn from a seed derived from the match's seed, so `random:N` here gives
    /// positions other than the tune's `random:N`.
    pub openings: Option<String>,
    /// Format of an openings file (default: detected).
    pub openings_format: Option<FileFormat>,
}

/// A tune specification as written (see the module documentation for the format).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneSpec {
    /// Base parameter file, relative to the spec file (default: built-in defaults).
    #[serde(default)]
    pub base: Option<PathBuf>,
    /// Game pairs in the whole tune.
    pub pairs: u64,
    /// Pairs per SPSA iteration (they share one perturbation); default 8, at most `pairs`.
    #[serde(default)]
    pub pairs_per_iteration: Option<u64>,
    /// Seed of the perturbations, openings and games.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Rule.
    #[serde(default)]
    pub rule: Rule,
    /// Board side.
    #[serde(default = "default_size")]
    pub size: usize,
    /// Opening source: `renju26`, `random[:COUNT[:STONES]]` or a file relative to the spec.
    #[serde(default = "default_openings")]
    pub openings: String,
    /// Format of an opening file (default: detected).
    #[serde(default)]
    pub openings_format: Option<FileFormat>,
    /// Also play the 7 other symmetric images of a file's openings.
    #[serde(default)]
    pub symmetries: bool,
    /// Draw after this many moves, opening included.
    #[serde(default)]
    pub max_moves: Option<usize>,
    /// Grace beyond a clock before a time loss, ms.
    #[serde(default = "default_margin")]
    pub time_margin_ms: u64,
    /// Pairs played at once (default: all cores); does not change the results.
    #[serde(default)]
    pub concurrency: Option<usize>,
    /// Output directory, relative to the working directory.
    #[serde(default)]
    pub out: Option<PathBuf>,
    /// Limits per move.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// How steps are computed: `adam` or `fishtest` (default: `fishtest` when a parameter
    /// sets `r_end`, else `adam`; see [`TuneSpec::method`]).
    #[serde(default)]
    pub schedule: Option<Method>,
    /// The tuned parameters by name.
    #[serde(default)]
    pub params: BTreeMap<String, ParamEntry>,
    /// The verification match.
    #[serde(default)]
    pub verify: VerifySpec,
    /// An external brain to tune instead of the in-process engine ([`brain`]).
    #[serde(default)]
    pub engine: Option<EngineSpec>,
}

/// The seed of the verification's random openings: derived from the match seed so they
/// differ from the tune's random openings of the same seed.
pub fn verify_openings_seed(seed: u64) -> u64 {
    wuzi_arena::config::mix64(seed ^ 0x5645_5249_4659)
}

/// Loads an opening source as the spec names it: `renju26`, `random[:COUNT[:STONES]]` or a
/// file, relative to `dir`. `pairs`, when known, bounds the random openings built (a match
/// of `pairs` pairs plays at most that many); `progress(made, wanted)` follows their building.
// One argument per spec key it reads, plus the build's bound and progress.
#[allow(clippy::too_many_arguments)]
pub fn load_openings(
    text: &str,
    format: Option<FileFormat>,
    symmetries: bool,
    dir: &Path,
    game: &GameSettings,
    seed: u64,
    pairs: Option<u64>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<OpeningSet> {
    let source = match Source::parse(text, format, symmetries).map_err(ArenaError::from)? {
        Source::File {
            path,
            format,
            symmetries,
        } => Source::File {
            path: dir.join(path),
            format,
            symmetries,
        },
        s => s,
    };
    let (list, source, _) = source
        .load_with(game.size, game.rule, seed, pairs, progress)
        .map_err(ArenaError::from)?;
    Ok(OpeningSet { source, list })
}
impl TuneSpec {
    /// Parses the TOML text of a spec; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<TuneSpec> {
        toml::from_str(text).map_err(|e| TuneError::SpecSyntax {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().to_string(),
        })
    }

    /// Reads and parses a spec file.
    pub fn load(path: &Path) -> Result<TuneSpec> {
        let text = std::fs::read_to_string(path).map_err(|e| TuneError::io(path, e))?;
        Self::parse(&text, path)
    }

    /// Checks the spec and resolves it: loads the base set and the openings (paths relative to
    /// `spec_dir`), applies the defaults and builds the SPSA set-up.
    pub fn resolve(&self, spec_dir: &Path) -> Result<TuneConfig> {
        self.resolve_with(spec_dir, &mut |_, _| {})
    }

    /// [`TuneSpec::resolve`], calling `progress(made, wanted)` while random openings are built
    /// (the tune's, then the verification's: seconds to minutes).
    pub fn resolve_with(
        &self,
        spec_dir: &Path,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<TuneConfig> {
        if self.engine.is_some() && self.base.is_some() {
            return Err(TuneError::spec(
                "base",
                "a base parameter file is for the in-process engine; an external brain starts \
                 from its own settings and the [params.*] start values",
            ));
        }
        let (base, base_source) = match &self.base {
            Some(p) => {
                let path = spec_dir.join(p);
                let params = Params::load(&path).map_err(|error| {
                    // A spec copied elsewhere looks for its base beside itself: say so.
                    let hint = if matches!(error, ParamError::Io { .. }) {
                        format!(
                            " (paths in a spec are relative to the spec's own folder, {})",
                            spec_dir
                                .canonicalize()
                                .unwrap_or_else(|_| spec_dir.to_path_buf())
                                .display()
                        )
                    } else {
                        String::new()
                    };
                    TuneError::spec(
                        "base",
                        format!(
                            "parameter file '{}' read as {}: {}{hint}",
                            p.display(),
                            path.display(),
                            error.without_path(&path)
                        ),
                    )
                })?;
                (params, path.display().to_string())
            }
            None => (Params::default(), "defaults".to_string()),
        };
        let method = self.method()?;
        let limits = self.limits.resolve()?;
        let brain = self
            .engine
            .as_ref()
            .map(|e| e.resolve(spec_dir, &limits))
            .transpose()?;
        if self.pairs == 0 || self.pairs > MAX_PAIRS {
            return Err(TuneError::spec(
                "pairs",
                format!("must be 1..={MAX_PAIRS}, got {}", self.pairs),
            ));
        }
        let ppi = self
            .pairs_per_iteration
            .unwrap_or(DEFAULT_PAIRS_PER_ITERATION.min(self.pairs));
        if ppi == 0 || ppi > self.pairs {
            return Err(TuneError::spec(
                "pairs_per_iteration",
                format!("must be 1..=pairs ({}), got {ppi}", self.pairs),
            ));
        }
        if self.concurrency == Some(0) {
            return Err(TuneError::spec("concurrency", "must be at least 1"));
        }
        let iterations = self.pairs.div_ceil(ppi);
        let default_travel = schedule::default_travel(method, iterations);
        let spsa_params = match &brain {
            Some(_) => brain::brain_params(&self.params, default_travel)?,
            None => tuned_params(&self.params, &base, default_travel)?,
        };
        let spsa = Spsa::with_method(spsa_params, iterations, self.seed, method)?;

        let game = GameSettings {
            size: self.size,
            rule: self.rule,
            max_moves: self.max_moves,
            time_margin_ms: self.time_margin_ms,
            ..GameSettings::default()
        };
        // The tune plays at most `pairs` openings, and so does a verification on the tune's
        // openings with its own `pairs`; without those, it plays all the tune's openings.
        let needed = match (&self.verify.openings, self.verify.pairs) {
            (Some(_), _) => Some(self.pairs),
            (None, Some(verify_pairs)) => Some(self.pairs.max(verify_pairs)),
            (None, None) => None,
        };
        let openings = load_openings(
            &self.openings,
            self.openings_format,
            self.symmetries,
            spec_dir,
            &game,
            self.seed,
            needed,
            progress,
        )?;
        let verify = self.verify.resolve(
            self.seed,
            spec_dir,
            &game,
            openings.list.len() as u64,
            progress,
        )?;
        let base_source = match &brain {
            Some(b) => format!("the brain's own settings ({})", b),
            None => base_source,
        };
        let config = TuneConfig {
            format: FORMAT_VERSION,
            base_source,
            // Every scalar, and the table entries the base overrides beyond the defaults.
            base: Params::SPECS
                .iter()
                .map(|s| (s.name.to_string(), base.get(s.name).unwrap_or(s.default)))
                .chain(base.table_diff_from_default())
                .collect(),
            spsa,
            pairs: self.pairs,
            pairs_per_iteration: ppi,
            game,
            limits,
            openings_source: openings.source,
            openings: openings.list,
            verify,
            engine: brain,
        };
        config.validate()?;
        Ok(config)
    }
}

impl LimitsSpec {
    /// The limits of both engines: nodes 1000 when no limit is given, one thread, 16 MB.
    pub fn resolve(&self) -> Result<PlayerLimits> {
        let mut l = PlayerLimits {
            nodes: self.nodes,
            depth: self.depth,
            move_ms: self.move_ms,
            threads: self.threads.unwrap_or(1),
            hash_mb: self.hash_mb.unwrap_or(DEFAULT_HASH_MB),
            ..PlayerLimits::default()
        };
        if let Some(tc) = &self.tc {
            let (g, i) = parse_tc(tc).map_err(|m| TuneError::spec("limits.tc", m))?;
            l.game_ms = Some(g);
            l.inc_ms = i;
        }
        if !l.is_bounded() {
            l.nodes = Some(DEFAULT_NODES);
        }
        for (key, bad) in [
            ("limits.nodes", l.nodes == Some(0)),
            ("limits.depth", matches!(l.depth, Some(d) if d < 1)),
            ("limits.move_ms", l.move_ms == Some(0)),
            ("limits.threads", l.threads == 0),
        ] {
            if bad {
                return Err(TuneError::spec(key, "must be positive"));
            }
        }
        if l.hash_mb == 0 || l.hash_mb > wuzi_arena::player::MAX_HASH_MB {
            return Err(TuneError::spec(
                "limits.hash_mb",
                format!(
                    "must be 1..={}, got {}",
                    wuzi_arena::player::MAX_HASH_MB,
                    l.hash_mb
                ),
            ));
        }
        Ok(l)
    }
}

impl VerifySpec {
    /// The verification settings. Defaults: the tune's openings, one pair per opening, the
    /// tune's seed. `tune_openings` is the number of the tune's openings.
    pub fn resolve(
        &self,
        tune_seed: u64,
        spec_dir: &Path,
        game: &GameSettings,
        tune_openings: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<VerifyConfig> {
        let seed = self.seed.unwrap_or(tune_seed);
        let openings = self
            .openings
            .as_deref()
            .map(|text| {
                load_openings(
                    text,
                    self.openings_format,
                    false,
                    spec_dir,
                    game,
                    verify_openings_seed(seed),
                    self.pairs,
                    &mut *progress,
                )
            })
            .transpose()?;
        let count = openings
            .as_ref()
            .map_or(tune_openings, |o| o.list.len() as u64);
        let pairs = self.pairs.unwrap_or(count);
        if pairs == 0 || pairs > MAX_PAIRS {
            return Err(TuneError::spec(
                "verify.pairs",
                format!("must be 1..={MAX_PAIRS}, got {pairs}"),
            ));
        }
        let sprt = self
            .sprt
            .as_deref()
            .map(|s| SprtParams::parse(s, self.sprt_model.unwrap_or_default()))
            .transpose()
            .map_err(|e| TuneError::spec("verify.sprt", e.to_string()))?;
        Ok(VerifyConfig {
            pairs,
            sprt,
            seed,
            openings,
        })
    }
}

/// The SPSA parameters of the spec's `[params.*]` tables, in the engine's declaration order
/// (scalars, then combination table entries), checked against the declared ranges.
fn tuned_params(
    entries: &BTreeMap<String, ParamEntry>,
    base: &Params,
    default_travel: f64,
) -> Result<Vec<SpsaParam>> {
    if entries.is_empty() {
        return Err(TuneError::spec(
            "params",
            "no parameter to tune: add a [params.NAME] table (see `wuzi-tune params`)",
        ));
    }
    for name in entries.keys() {
        if Params::spec(name).is_none() {
            let known: Vec<&str> = Params::SPECS.iter().map(|s| s.name).collect();
            return Err(TuneError::spec(
                format!("params.{name}"),
                format!(
                    "unknown parameter '{name}'{}; the engine's parameters are {}",
                    wuzi_engine::params::did_you_mean(name),
                    known.join(", ")
                ),
            ));
        }
    }
    let mut out = Vec::new();
    for spec in Params::SPECS.iter().chain(Params::table_specs()) {
        let Some(e) = entries.get(spec.name) else {
            continue;
        };
        if e.integer.is_some() {
            return Err(TuneError::spec(
                format!("params.{}.integer", spec.name),
                "the engine's parameters are all integers: integer is for an external brain",
            ));
        }
        let name = spec.name;
        let (dmin, dmax) = (f64::from(spec.min), f64::from(spec.max));
        let key = |k: &str| format!("params.{name}.{k}");
        let declared = |k: &str, v: f64| -> Result<f64> {
            if !v.is_finite() || v < dmin || v > dmax {
                return Err(TuneError::spec(
                    key(k),
                    format!(
                        "{} is outside the declared range of '{name}', {}..={}",
                        num(v),
                        spec.min,
                        spec.max
                    ),
                ));
            }
            Ok(v)
        };
        let min = declared("min", e.min.unwrap_or(dmin))?;
        let max = declared("max", e.max.unwrap_or(dmax))?;
        if min.ceil() >= max.floor() {
            return Err(TuneError::spec(
                format!("params.{name}"),
                format!(
                    "min ({}) must be below max ({}) with at least two integers between them",
                    num(min),
                    num(max)
                ),
            ));
        }
        let base_value = f64::from(base.get(name).unwrap_or(spec.default));
        let start = e.start.unwrap_or(base_value);
        if !start.is_finite() || start < min || start > max {
            let what = if e.start.is_some() {
                num(start)
            } else {
                format!("the base value {} (no start given)", num(base_value))
            };
            return Err(TuneError::spec(
                key("start"),
                format!(
                    "{what} is outside the tuned range [{}, {}] (declared {}..={})",
                    num(min),
                    num(max),
                    spec.min,
                    spec.max
                ),
            ));
        }
        out.push(spsa_param(
            name,
            e,
            [start, min, max],
            true,
            default_travel,
        )?);
    }
    Ok(out)
}

/// The SPSA parameter `name` with `[start, min, max]` checked by the caller: the schedule's
/// `c_end` (default `(max - min) / 20`) and `r_end` (default [`DEFAULT_R_END`]) of `e`,
/// checked, and the whole validated.
fn spsa_param(
    name: &str,
    e: &ParamEntry,
    [start, min, max]: [f64; 3],
    integer: bool,
    default_travel: f64,
) -> Result<SpsaParam> {
    let key = |k: &str| format!("params.{name}.{k}");
    let c_end = e.c_end.unwrap_or((max - min) / 20.0);
    if !c_end.is_finite() || c_end <= 0.0 || c_end > max - min {
        return Err(TuneError::spec(
            key("c_end"),
            format!(
                "{} must be positive and at most max - min = {}",
                num(c_end),
                num(max - min)
            ),
        ));
    }
    let r_end = e.r_end.unwrap_or(DEFAULT_R_END);
    if !r_end.is_finite() || r_end <= 0.0 {
        return Err(TuneError::spec(
            key("r_end"),
            format!("{} must be positive", num(r_end)),
        ));
    }
    let travel = schedule::travel(e, default_travel, &key("travel"))?;
    let p = SpsaParam {
        name: name.to_string(),
        start,
        min,
        max,
        c_end,
        r_end,
        travel,
        integer,
    };
    p.validate()?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(text: &str) -> Result<TuneConfig> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params");
        TuneSpec::parse(text, Path::new("test.toml"))?.resolve(&dir)
    }

    fn err(text: &str) -> (String, String) {
        match resolve(text) {
            Err(TuneError::Spec { key, message }) => (key, message),
            Err(e) => (String::new(), e.to_string()),
            Ok(_) => panic!("accepted: {text}"),
        }
    }

    /// Every tune spec shipped in suites/params (tune-*.toml) loads and resolves, so a renamed
    /// parameter or a bad range in one fails here rather than when a user runs it.
    #[test]
    fn shipped_tune_specs_resolve() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).expect("suites/params") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            if name.starts_with("tune-") && name.ends_with(".toml") {
                let mut spec = TuneSpec::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
                // Random openings are checked by searching thousands of candidates: keep
                // this test fast by resolving with the built-in set (the rest is unchanged).
                if spec.openings.starts_with("random") {
                    spec.openings = "renju26".into();
                }
                if spec
                    .verify
                    .openings
                    .as_deref()
                    .is_some_and(|o| o.starts_with("random"))
                {
                    spec.verify.openings = Some("renju26".into());
                }
                // A spec naming a brain of a release build (tune-example-brain.toml) resolves
                // once that build exists; before, everything else resolved and the one error
                // names the missing program.
                let brain_bin = dir.join("../../target/release/pbrain-wuzi");
                if name == "tune-example-brain.toml" && !brain_bin.exists() {
                    let e = spec
                        .resolve(&dir)
                        .expect_err("no release build")
                        .to_string();
                    assert!(e.contains("no program") && e.contains("pbrain-wuzi"), "{e}");
                    seen += 1;
                    continue;
                }
                let c = spec.resolve(&dir).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(!c.spsa.params.is_empty(), "{name} tunes nothing");
                seen += 1;
            }
        }
        assert!(seen >= 3, "found {seen} tune specs");
    }

    #[test]
    fn defaults_and_declaration_order() {
        let c = resolve("pairs = 20\n[params.w_open_three]\n[params.defence]\nstart = 70\n")
            .expect("valid");
        let names: Vec<&str> = c.spsa.params.iter().map(|p| p.name.as_str()).collect();
        // Declaration order, whatever the order in the file.
        assert_eq!(names, ["w_open_three", "defence"]);
        let d = &c.spsa.params[1];
        assert_eq!((d.start, d.min, d.max), (70.0, 20.0, 200.0));
        assert_eq!(d.c_end, 9.0);
        assert_eq!(d.r_end, DEFAULT_R_END);
        let w3 = Params::default().w_open_three;
        assert_eq!(c.spsa.params[0].start, f64::from(w3));
        assert_eq!(c.limits.nodes, Some(DEFAULT_NODES));
        assert_eq!(c.limits.threads, 1);
        assert_eq!(c.pairs_per_iteration, DEFAULT_PAIRS_PER_ITERATION);
        assert_eq!(c.iterations(), 3);
        assert_eq!(
            (1..=4).map(|k| c.pairs_in_iteration(k)).collect::<Vec<_>>(),
            [8, 8, 4, 0]
        );
        assert_eq!(c.first_pair(3), 16);
        assert_eq!(c.verify.pairs, 184);
        assert_eq!(c.game.rule, Rule::Renju);
        let start = c.start_params().expect("valid");
        assert_eq!((start.defence, start.w_open_three), (70, w3));
        // Rounded to the nearest integer and kept in range.
        let p = c.params_at(&[4.4, 86.5]).expect("valid");
        assert_eq!((p.w_open_three, p.defence), (5, 87));
    }

    #[test]
    fn table_entries_tune_and_base_overrides_survive() {
        // A combination table entry is an SPSA parameter like a scalar (after the scalars),
        // and a base file's table overrides reach the tune's base.
        let dir = std::env::temp_dir().join(format!("wuzi-spec-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("base.toml"), "cmb_white_f0t0w3 = 77\n").unwrap();
        let c = TuneSpec::parse(
            "base = \"base.toml\"\npairs = 20\nopenings = \"renju26\"\n\
             [params.cmb_black_f1t0w2]\n[params.defence]\n",
            Path::new("test.toml"),
        )
        .unwrap()
        .resolve(&dir)
        .expect("valid");
        let _ = std::fs::remove_dir_all(&dir);
        let names: Vec<&str> = c.spsa.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["defence", "cmb_black_f1t0w2"]);
        let t = &c.spsa.params[1];
        let d = Params::default();
        assert_eq!(t.start, f64::from(d.get("cmb_black_f1t0w2").unwrap()));
        assert_eq!(c.base.get("cmb_white_f0t0w3"), Some(&77));
        let p = c.params_at(&[70.0, 1234.0]).expect("valid");
        assert_eq!(p.get("cmb_black_f1t0w2"), Some(1234));
        assert_eq!(p.get("cmb_white_f0t0w3"), Some(77));
        assert_eq!(p.defence, 70);
    }

    #[test]
    fn base_file_and_options() {
        let c = resolve(
            "base = \"detuned.toml\"\npairs = 10\npairs_per_iteration = 5\nseed = 9\n\
             rule = \"freestyle\"\nsize = 13\nopenings = \"random:12:2\"\n\
             [limits]\ndepth = 3\nhash_mb = 2\n[params.defence]\nmin = 30\nmax = 60\nc_end = 2\n\
             r_end = 0.01\n[verify]\npairs = 7\nsprt = \"0,10\"\nseed = 3\n",
        )
        .expect("valid");
        assert_eq!(c.base.get("defence"), Some(&45));
        assert_eq!(c.base.get("w_open_three"), Some(&40));
        let d = &c.spsa.params[0];
        assert_eq!(
            (d.start, d.min, d.max, d.c_end, d.r_end),
            (45.0, 30.0, 60.0, 2.0, 0.01)
        );
        assert_eq!(
            (c.limits.depth, c.limits.nodes, c.limits.hash_mb),
            (Some(3), None, 2)
        );
        assert_eq!((c.game.size, c.game.rule), (13, Rule::Freestyle));
        // The tune's 10 pairs (and the verification's 7 on the same openings) play at most
        // 10 of the 12: only those are built.
        assert_eq!(c.openings.len(), 10);
        assert!(
            c.openings_source.contains("10 of 12 openings"),
            "{}",
            c.openings_source
        );
        assert_eq!(c.verify.pairs, 7);
        assert_eq!(c.verify.seed, 3);
        assert_eq!(c.verify.sprt.map(|s| (s.elo0, s.elo1)), Some((0.0, 10.0)));
        assert_eq!(c.spsa.seed, 9);
    }

    #[test]
    fn errors_name_the_key_and_the_allowed_range() {
        let (k, m) = err("pairs = 10\n[params.defense]\n");
        assert_eq!(k, "params.defense");
        assert!(
            m.contains("unknown parameter 'defense'; did you mean 'defence'?"),
            "{m}"
        );
        let (k, m) = err("pairs = 10\n[params.defence]\nmin = 10\n");
        assert_eq!(k, "params.defence.min");
        assert!(m.contains("10") && m.contains("20..=200"), "{m}");
        let (k, m) = err("pairs = 10\n[params.defence]\nmax = 250\n");
        assert_eq!(k, "params.defence.max");
        assert!(m.contains("20..=200"), "{m}");
        let (k, m) = err("pairs = 10\n[params.defence]\nstart = 300\n");
        assert_eq!(k, "params.defence.start");
        assert!(m.contains("300") && m.contains("[20, 200]"), "{m}");
        let (k, m) = err("pairs = 10\n[params.defence]\nmin = 100\nmax = 150\n");
        assert_eq!(k, "params.defence.start");
        let base = format!("base value {}", Params::default().defence);
        assert!(m.contains(&base), "{m}");
        let (k, _) = err("pairs = 10\n[params.defence]\nmin = 100\nmax = 100\n");
        assert_eq!(k, "params.defence");
        let (k, _) = err("pairs = 10\n[params.defence]\nc_end = 0\n");
        assert_eq!(k, "params.defence.c_end");
        let (k, _) = err("pairs = 10\n[params.defence]\nr_end = -1\n");
        assert_eq!(k, "params.defence.r_end");
        let (k, _) = err("pairs = 10\n[params.ext_four]\nmin = 0.5\n");
        assert_eq!(k, "params.ext_four");
        let (k, _) = err("pairs = 10\n");
        assert_eq!(k, "params");
        let (k, _) = err("pairs = 0\n[params.defence]\n");
        assert_eq!(k, "pairs");
        let (k, _) = err("pairs = 4\npairs_per_iteration = 5\n[params.defence]\n");
        assert_eq!(k, "pairs_per_iteration");
        let (k, _) = err("pairs = 4\n[limits]\nnodes = 0\n[params.defence]\n");
        assert_eq!(k, "limits.nodes");
        let (k, _) = err("pairs = 4\n[limits]\ntc = \"x\"\n[params.defence]\n");
        assert_eq!(k, "limits.tc");
        let (k, _) = err("pairs = 4\n[verify]\nsprt = \"10,0\"\n[params.defence]\n");
        assert_eq!(k, "verify.sprt");
        // Unknown fields, anywhere, and wrong types are syntax errors naming the field.
        for (text, word) in [
            ("pairs = 4\nparis = 3\n[params.defence]\n", "paris"),
            ("pairs = 4\n[params.defence]\nstrat = 3\n", "strat"),
            ("pairs = 4\n[limits]\nnode = 3\n[params.defence]\n", "node"),
            ("pairs = 4\n[verify]\npair = 3\n[params.defence]\n", "pair"),
            ("pairs = \"many\"\n[params.defence]\n", "pairs"),
            ("pairs = 4\nrule = \"go\"\n[params.defence]\n", "go"),
        ] {
            let (k, m) = err(text);
            assert_eq!(k, "", "{text}");
            assert!(m.contains(word) && m.contains("test.toml"), "{text}: {m}");
        }
        // A missing base file and a bad openings file name their path.
        // A base file that is not there names the key, the path it was read as, and says
        // where paths in a spec start; the path is not repeated.
        let (k, m) = err("base = \"nonexistent.toml\"\npairs = 4\n[params.defence]\n");
        assert_eq!(k, "base");
        assert!(m.contains("nonexistent.toml"), "{m}");
        assert_eq!(m.matches("nonexistent.toml").count(), 2, "{m}");
        assert!(m.contains("relative to the spec's own folder"), "{m}");
        let (_, m) = err("openings = \"nonexistent.txt\"\npairs = 4\n[params.defence]\n");
        assert!(m.contains("nonexistent.txt"), "{m}");
        let (_, m) = err("size = 30\npairs = 4\n[params.defence]\n");
        assert!(m.contains("30"), "{m}");
    }

    #[test]
    fn difference_ignores_descriptions_and_verification() {
        let a = resolve("pairs = 16\n[params.defence]\n").expect("valid");
        let mut b = a.clone();
        b.base_source = "elsewhere".into();
        b.openings_source = "elsewhere".into();
        b.verify.pairs = 3;
        assert_eq!(a.difference(&b), None);
        b.spsa.seed = 2;
        assert!(a.difference(&b).is_some());
        let mut c = a.clone();
        c.limits.nodes = Some(7);
        assert_eq!(a.difference(&c), Some("limits"));
    }
}
