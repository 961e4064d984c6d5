//! The resolved tune: everything that determines a tune's games and values ([`TuneConfig`]),
//! as [`crate::spec`] builds it from a spec and as `tune.json` keeps it, with the
//! verification match it ends with.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use wuzi_arena::config::{RunConfig, MAX_PAIRS};
use wuzi_arena::opening::Opening;
use wuzi_arena::player::{PlayerKind, PlayerLimits, PlayerSpec};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::stats::SprtParams;
use wuzi_engine::Params;

use crate::error::{Result, TuneError};
use crate::setting::{format_value, Setting};
use crate::spsa::Spsa;

/// Version of the checkpoint layout.
pub const FORMAT_VERSION: u32 = 1;
/// Name of the tuned player in the verification match (its first player).
pub const TUNED: &str = "tuned";
/// Name of the starting player.
pub const START: &str = "start";

/// The verification match's settings, resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerifyConfig {
    /// Game pairs (the most, with an SPRT).
    pub pairs: u64,
    /// SPRT, if any.
    pub sprt: Option<SprtParams>,
    /// Seed of the match.
    pub seed: u64,
    /// The match's own openings; `None` plays the tune's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningSet>,
}

/// A list of openings and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningSet {
    /// Description of the source.
    pub source: String,
    /// The openings.
    pub list: Vec<Opening>,
}

/// Everything that determines a tune's games and values, resolved from a
/// [`TuneSpec`](crate::spec::TuneSpec) and saved in the checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// Layout version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// Where the base set came from (`defaults` or a file), for information.
    pub base_source: String,
    /// The base set: every parameter's value.
    pub base: BTreeMap<String, i32>,
    /// The tuned parameters (in declaration order), schedule and seed.
    pub spsa: Spsa,
    /// Game pairs in the whole tune.
    pub pairs: u64,
    /// Pairs per iteration.
    pub pairs_per_iteration: u64,
    /// Board, rule, move cap.
    pub game: GameSettings,
    /// Limits of both engines.
    pub limits: PlayerLimits,
    /// Where the openings came from, for information.
    pub openings_source: String,
    /// The openings.
    pub openings: Vec<Opening>,
    /// The verification match.
    pub verify: VerifyConfig,
    /// The external brain tuned (`[engine]` of the spec): its player, without values; the
    /// tuned parameters travel through its parameter channel. `None`: the in-process engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<PlayerSpec>,
}

/// A number as TOML would show it: `20` rather than `20.0` for whole numbers.
pub(crate) fn num(v: f64) -> String {
    format!("{v}")
}

impl TuneConfig {
    /// Checks the settings the way the arena will: builds the verification match and
    /// validates it (board size, limits, openings, move cap).
    pub fn validate(&self) -> Result<()> {
        // A configuration read back from a checkpoint may have been edited: check everything
        // the tune relies on, so that a bad file is an error and never a panic.
        if self.format != FORMAT_VERSION {
            return Err(TuneError::State(format!(
                "tune format {} is not supported (expected {FORMAT_VERSION})",
                self.format
            )));
        }
        if self.pairs == 0
            || self.pairs > MAX_PAIRS
            || self.pairs_per_iteration == 0
            || self.pairs_per_iteration > self.pairs
            || self.iterations() != self.pairs.div_ceil(self.pairs_per_iteration)
        {
            return Err(TuneError::State(format!(
                "inconsistent budget: {} pairs, {} per iteration, {} iterations",
                self.pairs,
                self.pairs_per_iteration,
                self.iterations()
            )));
        }
        let rebuilt = Spsa::with_method(
            self.spsa.params.clone(),
            self.iterations(),
            self.spsa.seed,
            self.spsa.schedule.method,
        )?;
        if rebuilt != self.spsa {
            return Err(TuneError::State(
                "the SPSA schedule does not match the planned iterations".into(),
            ));
        }
        if let Some(brain) = &self.engine {
            if !matches!(brain.kind, PlayerKind::External { .. }) {
                return Err(TuneError::State("engine: not an external brain".into()));
            }
            brain.validate().map_err(wuzi_arena::ArenaError::from)?;
        }
        // An external brain's ranges are the spec's own: only the engine declares ranges.
        let declared = if self.engine.is_some() {
            &[][..]
        } else {
            &self.spsa.params[..]
        };
        for p in declared {
            let spec = Params::spec(&p.name).ok_or_else(|| {
                TuneError::spec(
                    format!("params.{}", p.name),
                    format!("unknown parameter '{}'", p.name),
                )
            })?;
            if !p.integer || p.min < f64::from(spec.min) || p.max > f64::from(spec.max) {
                return Err(TuneError::spec(
                    format!("params.{}", p.name),
                    format!(
                        "range [{}, {}] is outside the declared range {}..={}",
                        num(p.min),
                        num(p.max),
                        spec.min,
                        spec.max
                    ),
                ));
            }
        }
        let start = self.start_setting()?;
        self.verification(&start, &start).validate()?;
        Ok(())
    }

    /// The verification match: `tuned` (first) against `start`, with the tune's board, rule
    /// and limits and the verification's openings (default: the tune's), pairs, seed and SPRT.
    pub fn verification(&self, tuned: &Setting, start: &Setting) -> RunConfig {
        let (openings, source) = match &self.verify.openings {
            Some(set) => (set.list.clone(), set.source.clone()),
            None => (self.openings.clone(), self.openings_source.clone()),
        };
        let mut run = RunConfig::new_match(
            self.game.clone(),
            [self.player(TUNED, tuned), self.player(START, start)],
            openings,
        );
        run.openings_source = source;
        run.pairs = self.verify.pairs;
        run.seed = self.verify.seed;
        run.sprt = self.verify.sprt;
        run
    }

    /// The base parameter set.
    pub fn base_params(&self) -> Result<Params> {
        let mut p = Params::default();
        for (name, v) in &self.base {
            p.set(name, i64::from(*v))?;
        }
        Ok(p)
    }

    /// Planned iterations `N`.
    pub fn iterations(&self) -> u64 {
        self.spsa.schedule.iterations
    }

    /// Game pairs of iteration `k` (1-based): `pairs_per_iteration`, fewer in the last one when
    /// `pairs` is not a multiple.
    pub fn pairs_in_iteration(&self, k: u64) -> u64 {
        let before = (k.saturating_sub(1)).saturating_mul(self.pairs_per_iteration);
        self.pairs
            .saturating_sub(before)
            .min(self.pairs_per_iteration)
    }

    /// Index of the first pair of iteration `k` among all the tune's pairs.
    pub fn first_pair(&self, k: u64) -> u64 {
        k.saturating_sub(1).saturating_mul(self.pairs_per_iteration)
    }

    /// The base set with the tuned parameters at `values` (one per tuned parameter), each
    /// rounded to the nearest integer and kept within its tuned range.
    pub fn params_at(&self, values: &[f64]) -> Result<Params> {
        let mut p = self.base_params()?;
        for (param, &v) in self.spsa.params.iter().zip(values) {
            let (lo, hi) = (param.min.ceil(), param.max.floor());
            let v = if v.is_finite() {
                v.round()
            } else {
                param.start
            };
            p.set(&param.name, v.clamp(lo, hi) as i64)?;
        }
        Ok(p)
    }

    /// The starting set: the base with every tuned parameter at its start.
    pub fn start_params(&self) -> Result<Params> {
        self.params_at(&self.spsa.start_theta())
    }

    /// What the tuned player plays with at `values` (one per tuned parameter, each kept
    /// within its range): the engine's set ([`TuneConfig::params_at`]), or for an external
    /// brain each value as sent (integers rounded).
    pub fn setting_at(&self, values: &[f64]) -> Result<Setting> {
        if self.engine.is_none() {
            return Ok(Setting::Engine(self.params_at(values)?));
        }
        let sent = self
            .spsa
            .params
            .iter()
            .zip(values)
            .map(|(param, &v)| {
                let v = if v.is_finite() { v } else { param.start };
                let v = if param.integer {
                    v.round().clamp(param.min.ceil(), param.max.floor())
                } else {
                    v.clamp(param.min, param.max)
                };
                (param.name.clone(), format_value(v, param.integer))
            })
            .collect();
        Ok(Setting::Brain(sent))
    }

    /// The starting setting: every tuned parameter at its start.
    pub fn start_setting(&self) -> Result<Setting> {
        self.setting_at(&self.spsa.start_theta())
    }

    /// The player with `setting` under the tune's limits: an engine, or the external brain
    /// of `[engine]` with the values to send.
    pub fn player(&self, name: &str, setting: &Setting) -> PlayerSpec {
        match (setting, &self.engine) {
            (Setting::Brain(values), Some(brain)) => {
                let mut spec = brain.clone();
                spec.name = name.to_string();
                spec.limits = self.limits.clone();
                if let PlayerKind::External { options, .. } = &mut spec.kind {
                    options.values = values.clone();
                }
                spec
            }
            (Setting::Engine(params), _) => PlayerSpec::engine(name, params, self.limits.clone()),
            (Setting::Brain(_), None) => PlayerSpec::engine(
                name,
                &self.base_params().unwrap_or_default(),
                self.limits.clone(),
            ),
        }
    }

    /// The first difference between two configurations that makes a tune's games differ,
    /// ignoring descriptions and the verification settings; `None` when they play the same
    /// tune.
    pub fn difference(&self, other: &TuneConfig) -> Option<&'static str> {
        if self.format != other.format {
            Some("format")
        } else if self.base != other.base {
            Some("base parameters")
        } else if self.spsa.schedule.method != other.spsa.schedule.method {
            Some("schedule (set `schedule` in the spec to the tune's, fishtest for a tune started before there was a choice)")
        } else if self.spsa != other.spsa {
            Some("tuned parameters, schedule or seed")
        } else if self.pairs != other.pairs || self.pairs_per_iteration != other.pairs_per_iteration
        {
            Some("pairs")
        } else if self.game != other.game {
            Some("rule, size or move cap")
        } else if self.limits != other.limits {
            Some("limits")
        } else if self.openings != other.openings {
            Some("openings")
        } else if self.engine != other.engine {
            Some("engine (external brain)")
        } else {
            None
        }
    }

    /// One line: tuned parameters, rule, openings, limits, budget, seed.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.spsa.params.iter().map(|p| p.name.as_str()).collect();
        format!(
            "{} | {} {}x{} | {} openings | {} | {} pairs in {} iterations of {} | seed {}",
            names.join(", "),
            self.game.rule,
            self.game.size,
            self.game.size,
            self.openings.len(),
            self.limits.describe(),
            self.pairs,
            self.iterations(),
            self.pairs_per_iteration,
            self.spsa.seed
        )
    }
}
