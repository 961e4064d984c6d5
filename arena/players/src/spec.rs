//! Player specifications: a [`PlayerSpec`] is the serializable description of a player (name,
//! kind, limits), parsed from `--player` text or a registry entry. Building it gives a
//! [`Player`], the object that answers move requests during games.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use wuzi_engine::{Classic, Engine, Params};

use crate::engine_player::EnginePlayer;
use crate::error::{Result, SpecError};
use crate::external::{BrainOptions, ExternalPlayer};
use crate::limits::{parse_tc, PlayerLimits, MAX_HASH_MB};
use crate::player::Player;
use crate::registry::Registry;

/// What kind of player a spec describes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum PlayerKind {
    /// The in-process wuzi engine with a parameter set.
    Engine {
        /// The parameters that differ from the defaults (the full set is the defaults with
        /// these applied). Kept this way so records stay short and readable.
        params: BTreeMap<String, i32>,
        /// The parameter file the set was loaded from, for information.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file: Option<PathBuf>,
    },
    /// The engine's `classic` reference player (textbook alpha-beta, classic score table);
    /// parameters and threads do not apply to it.
    Classic,
    /// An external Gomocup brain run as a child process ([`crate::external`]).
    External {
        /// The program: a path, or a bare name looked up in `PATH`.
        command: String,
        /// Its command-line arguments.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        /// Its working folder (default: a temporary folder per player instance).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        workdir: Option<PathBuf>,
        /// How the arena talks to it (settle gap, set-up mode, waits).
        /// (Boxed: most players are engines.)
        #[serde(default, skip_serializing_if = "BrainOptions::is_default")]
        options: Box<BrainOptions>,
    },
}

/// A player: a unique name, what it is and its limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSpec {
    /// Name shown in tables and records; unique within a run.
    pub name: String,
    /// What plays.
    #[serde(flatten)]
    pub kind: PlayerKind,
    /// Limits.
    pub limits: PlayerLimits,
}

impl PlayerSpec {
    /// An in-process engine player with `params`.
    pub fn engine(name: impl Into<String>, params: &Params, limits: PlayerLimits) -> PlayerSpec {
        PlayerSpec {
            name: name.into(),
            kind: PlayerKind::Engine {
                params: params.diff_from_default().into_iter().collect(),
                file: None,
            },
            limits,
        }
    }

    /// The full parameter set of an engine player (`None` for other kinds).
    pub fn params(&self) -> Option<Result<Params>> {
        match &self.kind {
            PlayerKind::Engine { params, .. } => {
                Some(params_from_diff(params).map_err(|error| SpecError::Params {
                    player: self.name.clone(),
                    error,
                }))
            }
            PlayerKind::Classic | PlayerKind::External { .. } => None,
        }
    }

    /// The parameters that differ from the defaults (empty for other kinds).
    pub fn params_diff(&self) -> BTreeMap<String, i32> {
        match &self.kind {
            PlayerKind::Engine { params, .. } => params.clone(),
            PlayerKind::Classic | PlayerKind::External { .. } => BTreeMap::new(),
        }
    }

    /// Whether `self` and `other` are the same player under two names: the same engine
    /// parameters (wherever they were loaded from), or the same program, arguments and options,
    /// and the same limits. Two such players prove nothing against each other: a deterministic
    /// engine plays mirror pairs (each split 1-1) whatever its code, and a randomised one only
    /// measures noise.
    pub fn same_player_as(&self, other: &PlayerSpec) -> bool {
        let kinds = match (&self.kind, &other.kind) {
            // Only the values count: `file` is for information, and the diffs are normalised
            // (only values that differ from the defaults), so equal maps mean equal sets.
            (PlayerKind::Engine { params: a, .. }, PlayerKind::Engine { params: b, .. }) => a == b,
            (a, b) => a == b,
        };
        kinds && self.limits == other.limits
    }

    /// Sets one engine parameter (range-checked); an error for other kinds.
    pub fn set_param(&mut self, name: &str, value: i64) -> Result<()> {
        let player = self.name.clone();
        let PlayerKind::Engine { params, .. } = &mut self.kind else {
            return Err(SpecError::Config(format!(
                "player '{player}' is not an engine with parameters"
            )));
        };
        let mut full = params_from_diff(params).map_err(|error| SpecError::Params {
            player: player.clone(),
            error,
        })?;
        full.set(name, value)
            .map_err(|error| SpecError::Params { player, error })?;
        *params = full.diff_from_default().into_iter().collect();
        Ok(())
    }

    /// Checks the spec can be built (parameters valid, limits sane).
    pub fn validate(&self) -> Result<()> {
        let bad = |message: String| SpecError::PlayerSpec {
            spec: self.name.clone(),
            message,
        };
        if self.name.is_empty() {
            return Err(bad("empty name".into()));
        }
        if let Some(p) = self.params() {
            p?;
        }
        let l = &self.limits;
        if l.threads == 0 {
            return Err(bad("threads must be at least 1".into()));
        }
        if l.hash_mb == 0 || l.hash_mb > MAX_HASH_MB {
            return Err(bad(format!("hash-mb must be 1..={MAX_HASH_MB}")));
        }
        if let Some(d) = l.depth.filter(|&d| d < 1) {
            return Err(bad(format!("depth={d}: the depth must be at least 1")));
        }
        if l.nodes == Some(0) {
            return Err(bad("nodes=0: the node limit must be at least 1".into()));
        }
        if let PlayerKind::External {
            command, options, ..
        } = &self.kind
        {
            if command.is_empty() {
                return Err(bad("empty cmd".into()));
            }
            match &options.channel {
                Some(c) => c.check_values(&options.values).map_err(bad)?,
                None if !options.values.is_empty() => {
                    return Err(bad(
                        "set=NAME=VALUE on an external brain needs a parameter channel: \
                         params=info|args|config (or params = ... in its registry entry)"
                            .into(),
                    ))
                }
                None => {}
            }
            if !l.is_bounded() {
                return Err(bad(
                    "an external brain needs a limit: move-ms or tc (INFO timeout_turn, \
                     timeout_match), or nodes or depth (INFO max_node, max_depth)"
                        .into(),
                ));
            }
        }
        if !l.is_bounded() {
            return Err(bad(
                "no limit: give nodes, depth, move time or game time".into()
            ));
        }
        Ok(())
    }

    /// Builds the player for a worker thread.
    pub fn build(&self) -> Result<Box<dyn Player>> {
        match &self.kind {
            PlayerKind::Engine { .. } => {
                let params = self.params().unwrap_or_else(|| Ok(Params::default()))?;
                Ok(Box::new(EnginePlayer::new(
                    &self.name,
                    Engine::new(params, self.limits.hash_mb, self.limits.threads),
                    self.limits.clone(),
                )))
            }
            PlayerKind::Classic => Ok(Box::new(EnginePlayer::new(
                &self.name,
                Classic,
                self.limits.clone(),
            ))),
            PlayerKind::External {
                command,
                args,
                workdir,
                options,
            } => Ok(Box::new(
                ExternalPlayer::new(
                    &self.name,
                    command,
                    args,
                    workdir.as_deref(),
                    self.limits.clone(),
                )
                .with_options(BrainOptions::clone(options)),
            )),
        }
    }

    /// Parses the command-line form, comma-separated `key=value` items:
    /// `name=NAME`, `params=FILE.toml`, `set=PARAM=VALUE` (repeatable), `preset=default|classic`,
    /// `nodes=N`, `depth=N`, `move-ms=N`, `tc=GAME_MS[+INC_MS]`, `threads=N`, `hash-mb=N`.
    /// A bare word is a name. Items not given take the values of `defaults`.
    ///
    /// An external Gomocup brain: `cmd=PROGRAM` with `arg=TEXT` (repeatable), `dir=FOLDER`,
    /// and the protocol options `settle-ms=N`, `setup=board|turn`, `start-ms=N`, `end-ms=N`,
    /// `info=KEY VALUE` (repeatable) (see [`crate::external`]); it takes `move-ms`/`tc`,
    /// `nodes`/`depth` (sent as `INFO max_node`/`max_depth`; the defaults' node and depth
    /// limits are not applied to it), `threads` and `hash-mb`, and parameter values: a channel
    /// `params=info|args|config` (with `param-prefix=`, `param-arg=`, `param-template=`,
    /// `param-file=`; or the registry entry's) and `set=NAME=VALUE` items, but no `preset`. Without `name=` it is named after its `ABOUT` answer, else after the
    /// program's file name. Brains of a registry: see [`PlayerSpec::parse_with`].
    pub fn parse(text: &str, defaults: &PlayerLimits) -> Result<PlayerSpec> {
        Self::parse_with(text, defaults, None)
    }

    /// [`PlayerSpec::parse`] with a brain registry: a leading bare word that names a brain
    /// of `registry` (or `brain=NAME`, which must) starts from that brain's command,
    /// arguments, folder and options; the other items add to them (`arg=`, `info=`) or
    /// override them. With a registry, a bare word that is neither one of its brains nor
    /// `default` is an error (an engine player is then named with `name=`), unless the spec
    /// has engine keys (`params`, `set`, `preset`).
    pub fn parse_with(
        text: &str,
        defaults: &PlayerLimits,
        registry: Option<&Registry>,
    ) -> Result<PlayerSpec> {
        let bad = |message: String| SpecError::PlayerSpec {
            spec: text.to_string(),
            message,
        };
        let mut name = None;
        let mut bare = None;
        let mut brain: Option<String> = None;
        let mut file = None;
        let mut sets = Vec::new();
        let mut classic: Option<bool> = None;
        let mut limits = defaults.clone();
        let mut command: Option<String> = None;
        let mut args = Vec::new();
        let mut workdir: Option<PathBuf> = None;
        let mut options = BrainOptions::default();
        let mut setup = None;
        let mut option_keys = false;
        let mut extra_info = Vec::new();
        let mut own_nodes = None;
        let mut own_depth = None;
        let mut channel_parts = ChannelParts::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                if name.is_none() && bare.is_none() {
                    bare = Some(item.to_string());
                    continue;
                }
                return Err(bad(format!("'{item}' is not key=value")));
            };
            let (key, value) = (
                key.trim().to_ascii_lowercase().replace('_', "-"),
                value.trim(),
            );
            let num = |v: &str| -> Result<u64> {
                v.parse::<u64>()
                    .map_err(|_| bad(format!("{key}: '{v}' is not a non-negative integer")))
            };
            match key.as_str() {
                "name" => name = Some(value.to_string()),
                "brain" | "engine" => brain = Some(value.to_string()),
                "params" | "file" => file = Some(PathBuf::from(value)),
                "set" => sets.push(value.to_string()),
                "preset" => match value {
                    "default" => classic = Some(false),
                    "classic" => classic = Some(true),
                    _ => {
                        return Err(bad(format!(
                            "unknown preset '{value}' (default or classic)"
                        )))
                    }
                },
                "cmd" | "command" => command = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "dir" | "workdir" => workdir = Some(PathBuf::from(value)),
                "settle-ms" => {
                    option_keys = true;
                    options.settle_ms = Some(num(value)?);
                }
                "setup" => {
                    option_keys = true;
                    setup = Some(value.parse().map_err(bad)?);
                }
                "start-ms" => {
                    option_keys = true;
                    options.start_ms = Some(num(value)?);
                }
                "end-ms" => {
                    option_keys = true;
                    options.end_ms = Some(num(value)?);
                }
                "info" => {
                    option_keys = true;
                    extra_info.push(value.to_string());
                }
                "param-prefix" | "param-arg" | "param-template" | "param-file" => {
                    option_keys = true;
                    channel_parts.add(&key, value);
                }
                "nodes" => {
                    let n = num(value)?;
                    limits.nodes = Some(n);
                    own_nodes = Some(n);
                }
                "depth" => {
                    let d =
                        i32::try_from(num(value)?).map_err(|_| bad("depth too large".into()))?;
                    limits.depth = Some(d);
                    own_depth = Some(d);
                }
                "move-ms" | "time-ms" | "st" => limits.move_ms = Some(num(value)?),
                "tc" => {
                    let (game, inc) = parse_tc(value).map_err(bad)?;
                    limits.game_ms = Some(game);
                    limits.inc_ms = inc;
                }
                "threads" => limits.threads = num(value)? as usize,
                "hash-mb" | "hash" => limits.hash_mb = num(value)? as usize,
                _ => return Err(bad(format!("unknown key '{key}'"))),
            }
        }
        let engine_keys = classic.is_some() || file.is_some() || !sets.is_empty();
        if classic == Some(true) && (file.is_some() || !sets.is_empty()) {
            return Err(bad("the classic preset takes no parameters".into()));
        }
        // A registry brain: named by brain=, or by the bare word.
        let entry = match (&brain, &bare, registry) {
            (Some(b), _, None) => {
                return Err(bad(format!(
                    "brain={b}: no brain registry (give --engines FILE or set {})",
                    crate::registry::ENV_VAR
                )))
            }
            (Some(b), _, Some(r)) => Some(r.get(b).map_err(|e| bad(e.to_string()))?),
            (None, Some(w), Some(r)) if r.contains(w) => {
                Some(r.get(w).map_err(|e| bad(e.to_string()))?)
            }
            (None, Some(w), Some(r)) if command.is_none() && !engine_keys && w != "default" => {
                return Err(bad(format!(
                    "{} (for an engine player named {w}, write name={w})",
                    r.unknown(w)
                )))
            }
            _ => None,
        };
        if let Some(e) = entry {
            if command.is_some() {
                return Err(bad("cmd= and a registry brain do not mix".into()));
            }
            if e.command.is_empty() {
                return Err(bad(format!(
                    "brain '{}' has no command: it has only build and binary, for \
                     `wuzi-arena gate --engine {}` (add command = \"...\" to play it here)",
                    e.name, e.name
                )));
            }
            command = Some(e.command.clone());
            let mut all_args = e.args.clone();
            all_args.append(&mut args);
            args = all_args;
            workdir = workdir.or_else(|| e.dir.clone());
            let mut base = e.options.clone();
            base.settle_ms = options.settle_ms.or(base.settle_ms);
            base.start_ms = options.start_ms.or(base.start_ms);
            base.end_ms = options.end_ms.or(base.end_ms);
            options = base;
            if name.is_none() {
                name = brain.clone().or_else(|| bare.clone());
            }
            if own_nodes.is_some() && !e.supports("max_node") {
                return Err(bad(format!(
                    "nodes: brain '{}' does not list max_node in its extensions ({})",
                    e.name,
                    registry
                        .map(|r| r.path().display().to_string())
                        .unwrap_or_default()
                )));
            }
            if own_depth.is_some() && !e.supports("max_depth") {
                return Err(bad(format!(
                    "depth: brain '{}' does not list max_depth in its extensions ({})",
                    e.name,
                    registry
                        .map(|r| r.path().display().to_string())
                        .unwrap_or_default()
                )));
            }
        } else if let Some(b) = bare {
            if name.is_some() {
                return Err(bad(format!("'{b}' is not key=value")));
            }
            name = Some(b);
        }
        options.info.extend(extra_info);
        if let Some(mode) = setup {
            options.setup = mode;
        }
        if let Some(command) = command {
            if classic.is_some() {
                return Err(bad(
                    "preset does not apply to an external brain (pass its options with arg=..., \
                     or its parameters with params=info|args|config and set=NAME=VALUE)"
                        .into(),
                ));
            }
            let kind = file.as_ref().map(|f| f.display().to_string());
            channel_parts.apply(kind, &mut options).map_err(&bad)?;
            for set in &sets {
                let (n, v) = set
                    .split_once('=')
                    .ok_or_else(|| bad(format!("set={set}: expected set=NAME=VALUE")))?;
                options
                    .values
                    .insert(n.trim().to_string(), v.trim().to_string());
            }
            limits.nodes = own_nodes;
            limits.depth = own_depth;
            return Self::parse_external(name, command, args, workdir, options, limits);
        }
        if !args.is_empty() || workdir.is_some() || option_keys {
            return Err(bad(
                "arg, dir, settle-ms, setup, start-ms, end-ms, info and param-* need \
                 cmd=PROGRAM or a registry brain"
                    .into(),
            ));
        }
        let classic = classic == Some(true);
        let name = name.unwrap_or_else(|| {
            if classic {
                "classic".to_string()
            } else if let Some(f) = &file {
                f.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "engine".into())
            } else if sets.is_empty() {
                "default".to_string()
            } else {
                sets.join(",")
            }
        });
        let kind = if classic {
            PlayerKind::Classic
        } else {
            let params =
                Params::from_file_and_settings(file.as_deref(), &sets).map_err(|error| {
                    SpecError::Params {
                        player: name.clone(),
                        error,
                    }
                })?;
            PlayerKind::Engine {
                params: params.diff_from_default().into_iter().collect(),
                file,
            }
        };
        let spec = PlayerSpec { name, kind, limits };
        spec.validate()?;
        Ok(spec)
    }
}

impl PlayerSpec {
    /// The rest of [`PlayerSpec::parse_with`] for an external brain.
    fn parse_external(
        name: Option<String>,
        command: String,
        args: Vec<String>,
        workdir: Option<PathBuf>,
        options: BrainOptions,
        limits: PlayerLimits,
    ) -> Result<PlayerSpec> {
        let spec_name = name.clone().unwrap_or_else(|| command.clone());
        if crate::external::resolve_program(&command).is_none() {
            return Err(SpecError::PlayerSpec {
                spec: spec_name,
                message: format!("cmd: no program '{command}'"),
            });
        }
        let name = match name {
            Some(n) => n,
            None => crate::external::query_about(&command, &args, workdir.as_deref())
                .ok()
                .and_then(|about| crate::external::about_name(&about))
                .unwrap_or_else(|| {
                    Path::new(&command)
                        .file_name()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| command.clone())
                }),
        };
        let spec = PlayerSpec {
            name,
            kind: PlayerKind::External {
                command,
                args,
                workdir,
                options: Box::new(options),
            },
            limits,
        };
        spec.validate()?;
        Ok(spec)
    }
}

/// The parameter channel items of a `--player` spec (`params=KIND` is the kind; `param-prefix`,
/// `param-arg` (repeatable), `param-template`, `param-file` its parts).
#[derive(Default)]
struct ChannelParts {
    prefix: Option<String>,
    args: Option<Vec<String>>,
    template: Option<PathBuf>,
    file: Option<String>,
}

impl ChannelParts {
    fn add(&mut self, key: &str, value: &str) {
        match key {
            "param-prefix" => self.prefix = Some(value.to_string()),
            "param-arg" => self
                .args
                .get_or_insert_with(Vec::new)
                .push(value.to_string()),
            "param-template" => self.template = Some(PathBuf::from(value)),
            _ => self.file = Some(value.to_string()),
        }
    }

    fn given(&self) -> bool {
        self.prefix.is_some()
            || self.args.is_some()
            || self.template.is_some()
            || self.file.is_some()
    }

    /// Sets the channel of `options` from `params=KIND` and the parts (a relative template
    /// is taken from the current folder); without `params=`, parts are an error.
    fn apply(
        self,
        kind: Option<String>,
        options: &mut BrainOptions,
    ) -> std::result::Result<(), String> {
        let Some(kind) = kind else {
            if self.given() {
                return Err(
                    "param-prefix, param-arg, param-template and param-file need \
                            params=info|args|config"
                        .into(),
                );
            }
            return Ok(());
        };
        let base = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let channel = crate::external::ParamChannel::from_parts(
            &kind,
            self.prefix,
            self.args,
            self.template,
            self.file,
            &base,
        )
        .map_err(|e| format!("params={kind}: {e}"))?;
        options.channel = Some(channel);
        Ok(())
    }
}

/// The full parameter set from a diff against the defaults.
pub fn params_from_diff(
    diff: &BTreeMap<String, i32>,
) -> std::result::Result<Params, wuzi_engine::ParamError> {
    let mut p = Params::default();
    for (name, value) in diff {
        p.set(name, i64::from(*value))?;
    }
    Ok(p)
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        match &self.kind {
            PlayerKind::Classic => write!(f, " (classic)")?,
            PlayerKind::Engine { params, .. } if !params.is_empty() => {
                let p: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, " [{}]", p.join(" "))?;
            }
            PlayerKind::Engine { .. } => {}
            PlayerKind::External { command, args, .. } => {
                write!(f, " (external {command}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                write!(f, ")")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(n: u64) -> PlayerLimits {
        PlayerLimits {
            nodes: Some(n),
            ..PlayerLimits::default()
        }
    }

    /// Issue 24: `--player default --player weak` (two names, one player) must be caught.
    #[test]
    fn same_player_under_two_names_is_recognised() {
        let d = nodes(500);
        let p = |s: &str| PlayerSpec::parse(s, &d).expect("valid");
        assert!(p("default").same_player_as(&p("weak")));
        assert!(p("name=a,set=defence=20").same_player_as(&p("name=b,set=defence=20")));
        // A value equal to the default is no difference.
        let default_defence = Params::default().defence;
        assert!(p("a").same_player_as(&p(&format!("name=b,set=defence={default_defence}"))));
        assert!(!p("a").same_player_as(&p("name=b,set=defence=20")));
        assert!(!p("a").same_player_as(&p("name=b,nodes=400")));
        assert!(!p("a").same_player_as(&p("preset=classic")));
    }

    #[test]
    fn parse_player_specs() {
        let d = nodes(500);
        let p = PlayerSpec::parse("name=new,set=defence=20,set=w_open_four=50,depth=4", &d)
            .expect("valid");
        assert_eq!(p.name, "new");
        assert_eq!(p.limits.nodes, Some(500));
        assert_eq!(p.limits.depth, Some(4));
        let diff: Vec<(String, i32)> = p.params_diff().into_iter().collect();
        assert_eq!(
            diff,
            [("defence".to_string(), 20), ("w_open_four".to_string(), 50)]
        );
        let full = p.params().expect("engine").expect("valid");
        assert_eq!(full.defence, 20);

        let p = PlayerSpec::parse("base", &d).expect("valid");
        assert_eq!(p.name, "base");
        assert!(p.params_diff().is_empty());
        let p = PlayerSpec::parse("set=tempo=30", &d).expect("valid");
        assert_eq!(p.name, "tempo=30");
        let p = PlayerSpec::parse("preset=classic,tc=1000+10", &PlayerLimits::default())
            .expect("valid");
        assert_eq!(p.kind, PlayerKind::Classic);
        assert_eq!((p.limits.game_ms, p.limits.inc_ms), (Some(1000), 10));
        assert_eq!(p.name, "classic");
    }

    #[test]
    fn bad_player_specs_are_errors() {
        let d = nodes(500);
        let msg = |s: &str| PlayerSpec::parse(s, &d).unwrap_err().to_string();
        assert!(msg("name=x,set=defense=3").contains("unknown parameter 'defense'"));
        assert!(msg("name=x,set=radius=9").contains("out of range"));
        assert!(msg("name=x,colour=red").contains("unknown key"));
        assert!(msg("name=x,nodes=lots").contains("nodes"));
        assert!(msg("name=x,hash-mb=100000").contains("hash-mb"));
        assert!(msg("name=x,params=/nonexistent.toml").contains("/nonexistent.toml"));
        assert!(msg("name=x,tc=abc").contains("tc"));
        let e = PlayerSpec::parse("name=x", &PlayerLimits::default()).unwrap_err();
        assert!(e.to_string().contains("no limit"), "{e}");
    }

    #[test]
    fn set_param_keeps_the_diff_minimal() {
        let mut p = PlayerSpec::engine("a", &Params::default(), nodes(100));
        p.set_param("defence", 60).expect("in range");
        assert_eq!(p.params_diff().get("defence"), Some(&60));
        p.set_param("defence", i64::from(Params::default().defence))
            .expect("in range");
        assert!(p.params_diff().is_empty());
        assert!(p.set_param("defence", 100_000).is_err());
    }

    #[test]
    fn spec_round_trips_through_json() {
        let p = PlayerSpec::parse("name=n,set=tempo=30,nodes=300", &PlayerLimits::default())
            .expect("valid");
        let json = serde_json::to_string(&p).expect("serializes");
        assert!(json.contains(r#""kind":"engine""#), "{json}");
        assert!(json.contains(r#""params":{"tempo":30}"#), "{json}");
        let back: PlayerSpec = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, p);
    }
}
