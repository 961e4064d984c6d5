//! `[engine]` of a tune spec: an external Gomocup brain to tune (issue 23), from the brain
//! registry or a command, whose parameters travel through its parameter channel
//! ([`wuzi_arena::external::ParamChannel`]), and its `[params.*]`, whose ranges the spec gives.
//!
//! ```toml
//! [engine]
//! brain = "rapfi"               # a brain of the registry ...
//! engines = "engines.toml"      # ... found here (relative to the spec), else as the arena finds it
//! # cmd = "/path/pbrain-x"      # ... or a program, with args = [...], dir = "..."
//! # params = "info"             # the channel: info, args or config (default: the registry's)
//! # param_prefix, param_args, param_template, param_file, settle_ms, info = [...]
//!
//! [params.match_space]          # start, min and max are required; integer = false by default
//! # (parameters named as pbrain-wuzi's come first, in the engine's order; then by name)
//! start = 21.0
//! min = 10.0
//! max = 40.0
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use wuzi_arena::external::{BrainOptions, ParamChannel};
use wuzi_arena::player::{PlayerKind, PlayerLimits, PlayerSpec};
use wuzi_arena::registry::{expand, Registry};
use wuzi_arena::ArenaError;
use wuzi_engine::Params;

use super::{spsa_param, ParamEntry};
use crate::config::num;
use crate::error::{Result, TuneError};
use crate::spsa::SpsaParam;

/// The name of the tuned brain in the verification match's spec (replaced by `tuned` and
/// `start` there).
const NAME: &str = "engine";

/// `[engine]`: the external brain a tune tunes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// A brain of the registry.
    #[serde(default)]
    pub brain: Option<String>,
    /// The registry file, relative to the spec (default: `$WUZI_ENGINES`, `./engines.toml`,
    /// `~/.config/wuzi/engines.toml`).
    #[serde(default)]
    pub engines: Option<PathBuf>,
    /// A program instead of a registry brain (relative to the spec when it has a `/`).
    #[serde(default)]
    pub cmd: Option<String>,
    /// Its arguments (added to a registry brain's).
    #[serde(default)]
    pub args: Vec<String>,
    /// Its working folder, relative to the spec (default: a temporary one per process).
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// The parameter channel: `info`, `args` or `config` (default: the registry entry's).
    #[serde(default)]
    pub params: Option<String>,
    /// `info`: put before each name.
    #[serde(default, alias = "param-prefix")]
    pub param_prefix: Option<String>,
    /// `args`: the items of one parameter (`{name}`, `{value}`).
    #[serde(default, alias = "param-args")]
    pub param_args: Option<Vec<String>>,
    /// `config`: the template, relative to the spec.
    #[serde(default, alias = "param-template")]
    pub param_template: Option<PathBuf>,
    /// `config`: the file written in the working folder.
    #[serde(default, alias = "param-file")]
    pub param_file: Option<String>,
    /// Settle gap in ms (see the arena's external brains).
    #[serde(default, alias = "settle-ms")]
    pub settle_ms: Option<u64>,
    /// Extra `INFO` lines every game.
    #[serde(default)]
    pub info: Vec<String>,
}

impl EngineSpec {
    /// The brain's player under `limits`, without values (the tune adds them per game).
    pub fn resolve(&self, spec_dir: &Path, limits: &PlayerLimits) -> Result<PlayerSpec> {
        let bad = |key: &str, m: String| TuneError::spec(format!("engine.{key}"), m);
        let mut spec = match (&self.brain, &self.cmd) {
            (Some(_), Some(_)) => {
                return Err(bad("cmd", "give brain or cmd, not both".into()));
            }
            (None, None) => {
                return Err(bad(
                    "brain",
                    "name a registry brain (brain = \"NAME\") or a program (cmd = \"...\")".into(),
                ))
            }
            (Some(name), None) => {
                let registry = match &self.engines {
                    Some(p) => Some(Registry::load(&spec_dir.join(p)).map_err(ArenaError::from)?),
                    None => Registry::find(None).map_err(ArenaError::from)?,
                };
                let registry = registry.ok_or_else(|| {
                    bad(
                        "engines",
                        format!(
                            "no brain registry for brain '{name}': give engines = FILE or set {}",
                            wuzi_arena::registry::ENV_VAR
                        ),
                    )
                })?;
                // A `--player` spec takes no run-wide node limit for a brain: parse it with a
                // placeholder limit; the tune's limits replace it below.
                PlayerSpec::parse_with(&format!("brain={name},move-ms=1"), limits, Some(&registry))
                    .map_err(|e| bad("brain", e.to_string()))?
            }
            (None, Some(cmd)) => {
                let cmd = expand(cmd, "engine.cmd").map_err(|m| bad("cmd", m))?;
                let command = if cmd.contains('/') && Path::new(&cmd).is_relative() {
                    spec_dir.join(&cmd).display().to_string()
                } else {
                    cmd
                };
                PlayerSpec {
                    name: NAME.into(),
                    kind: PlayerKind::External {
                        command,
                        args: Vec::new(),
                        workdir: None,
                        options: Box::new(BrainOptions::default()),
                    },
                    limits: limits.clone(),
                }
            }
        };
        spec.name = NAME.into();
        spec.limits = limits.clone();
        let PlayerKind::External {
            args,
            workdir,
            options,
            ..
        } = &mut spec.kind
        else {
            return Err(bad("brain", "not an external brain".into()));
        };
        args.extend(self.args.iter().cloned());
        if let Some(d) = &self.dir {
            *workdir = Some(spec_dir.join(d));
        }
        if let Some(s) = self.settle_ms {
            options.settle_ms = Some(s);
        }
        options.info.extend(self.info.iter().cloned());
        let parts = self.param_prefix.is_some()
            || self.param_args.is_some()
            || self.param_template.is_some()
            || self.param_file.is_some();
        match &self.params {
            Some(kind) => {
                let channel = ParamChannel::from_parts(
                    kind,
                    self.param_prefix.clone(),
                    self.param_args.clone(),
                    self.param_template.clone(),
                    self.param_file.clone(),
                    spec_dir,
                )
                .map_err(|m| bad("params", m))?;
                options.channel = Some(channel);
            }
            None if parts => {
                return Err(bad(
                    "params",
                    "param_prefix, param_args, param_template and param_file need params = \
                     \"info\", \"args\" or \"config\""
                        .into(),
                ))
            }
            None => {}
        }
        if options.channel.is_none() {
            return Err(bad(
                "params",
                "the brain has no parameter channel: give params = \"info\", \"args\" or \
                 \"config\" (here or in its registry entry)"
                    .into(),
            ));
        }
        spec.validate().map_err(|e| bad("brain", e.to_string()))?;
        Ok(spec)
    }
}

/// The SPSA parameters of an external brain: each `[params.NAME]` must give `start`, `min`
/// and `max` (the brain declares no ranges the tuner could read); `integer` (default false)
/// rounds the values sent.
pub fn brain_params(
    entries: &BTreeMap<String, ParamEntry>,
    default_travel: f64,
) -> Result<Vec<SpsaParam>> {
    if entries.is_empty() {
        return Err(TuneError::spec(
            "params",
            "no parameter to tune: add a [params.NAME] table with start, min and max",
        ));
    }
    // `pbrain-wuzi`'s parameters in the engine's declaration order (as the in-process tune
    // orders them, so the same spec draws the same perturbations), then the others by name.
    let declared = Params::SPECS
        .iter()
        .chain(Params::table_specs())
        .chain(Params::mask_specs())
        .chain(Params::code_specs());
    let mut names: Vec<&String> = declared
        .filter_map(|s| entries.get_key_value(s.name).map(|(k, _)| k))
        .collect();
    names.extend(entries.keys().filter(|k| Params::spec(k).is_none()));
    let mut out = Vec::new();
    for name in names {
        let e = &entries[name];
        let key = |k: &str| format!("params.{name}.{k}");
        let need = |k: &str, v: Option<f64>| -> Result<f64> {
            let v = v.ok_or_else(|| {
                TuneError::spec(
                    key(k),
                    "required for an external brain's parameter (start, min and max)",
                )
            })?;
            if !v.is_finite() {
                return Err(TuneError::spec(key(k), "must be a finite number"));
            }
            Ok(v)
        };
        let (start, min, max) = (
            need("start", e.start)?,
            need("min", e.min)?,
            need("max", e.max)?,
        );
        let integer = e.integer.unwrap_or(false);
        let span_ok = if integer {
            min.ceil() < max.floor()
        } else {
            min < max
        };
        if !span_ok {
            return Err(TuneError::spec(
                format!("params.{name}"),
                format!("min ({}) must be below max ({})", num(min), num(max)),
            ));
        }
        if start < min || start > max {
            return Err(TuneError::spec(
                key("start"),
                format!("{} is outside [{}, {}]", num(start), num(min), num(max)),
            ));
        }
        out.push(spsa_param(
            name,
            e,
            [start, min, max],
            integer,
            default_travel,
        )?);
    }
    Ok(out)
}
