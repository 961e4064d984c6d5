//! The brain registry: a TOML file naming external Gomocup brains, so that `--player rapfi`
//! (or `--player rapfi,move-ms=200`) works by name in every run command and the gate, like
//! cutechess's engines file.
//!
//! ```toml
//! [brains.rapfi]
//! command = "/work/peers/rapfi/pbrain-rapfi.sh"   # relative paths: from this file's folder
//! args = []                                        # command-line arguments
//! dir = "rapfi-work"                               # working folder (default: a temporary one)
//! description = "Rapfi 0.43.02, classical evaluator"
//! settle-ms = 100          # no command sooner than this after its last output
//! setup = "board"          # or "turn": set up openings with TURN/TAKEBACK instead of BOARD
//! start-ms = 5000          # wait for OK to START, then play on with a note
//! end-ms = 2000            # grace after END before it is killed
//! info = ["hash_size 16384"]            # extra INFO lines every game
//! extensions = ["max_node", "max_depth"] # Yixin-Board INFO keys it honours
//! params = "config"                     # how parameter values reach it: info, args or config
//! param-template = "rapfi-config.toml"  # config: the template ({{name}} placeholders)
//! param-file = "config.toml"            # config: the file written in its working folder
//! # param-prefix = "param_"             # info: INFO <prefix><name> <value>
//! # param-args = ["--set", "{name}={value}"]  # args: per parameter, on its command line
//! build = "make pbrain-rapfi"                   # how the gate builds it from its repository
//! binary = "build/pbrain-rapfi"                 # where that build leaves the brain
//! ```
//!
//! `command`, `args`, `dir` and `param-template` may use `~` (the home folder) and environment
//! variables (`$PEERS`, `${PEERS}`, `${PEERS:-~/peers}` with a default), expanded when the file
//! is read ([`expand`]); an unset variable without a default is an error naming it. So one
//! registry serves every machine: `command = "${PEERS:-~/peers}/rapfi/pbrain-rapfi"`.
//! The parameter channel ([`crate::external::ParamChannel`]) is checked when the file is read
//! (the template must exist and render).
//!
//! `build` and `binary` (both or neither) let `wuzi-arena gate --engine NAME --repo PATH
//! --baseline-ref REF` build the brain from any commit of its own repository: `build` is a
//! shell command run in the checked-out commit, `binary` a relative path, looked up first in
//! the build's output folder (`$WUZI_BUILD_OUT`, where a build may install the brain with
//! the files it needs) and then in the checked-out tree. An entry with them needs no
//! `command` (it is then only played by the gate); the build also gets `$WUZI_REGISTRY_DIR`, this
//! file's folder, for files kept beside it. See [`BuildRecipe`].
//!
//! A `command` with a path separator is resolved against the registry file's folder, so is
//! `dir`; a bare command name is looked up in `PATH` when the brain starts. `extensions`, when
//! given, is checked: `nodes=` needs `max_node`, `depth=` needs `max_depth` (without the list
//! the limits are sent and the brain is trusted to honour them). Unknown keys are errors.
//!
//! Where the file is found ([`Registry::find`]): `--engines FILE`, else the file named by the
//! environment variable [`ENV_VAR`], else `engines.toml` in the current folder, else
//! `$XDG_CONFIG_HOME/wuzi/engines.toml` (`~/.config/wuzi/engines.toml`). A file named
//! explicitly must exist; a default location that has no file means no registry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use crate::external::{BrainOptions, ParamChannel, SetupMode};

/// The environment variable naming the registry file.
pub const ENV_VAR: &str = "WUZI_ENGINES";
/// The registry's file name in the current folder and in the configuration folder.
pub const FILE_NAME: &str = "engines.toml";
/// The Yixin-Board extensions a registry entry may list.
pub const EXTENSIONS: &[&str] = &[
    "max_node",
    "max_depth",
    "yxshowforbid",
    "swap2board",
    "yxhashclear",
    "yxnbest",
];

/// What is wrong with a registry file or a lookup.
#[derive(Debug, Error)]
pub enum RegistryError {
    /// The file could not be read.
    #[error("brain registry {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// Malformed TOML, an unknown key or a bad value.
    #[error("brain registry {path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The parser's or checker's message (names the key).
        message: String,
    },
    /// No brain of that name.
    #[error("unknown brain '{name}' (brain registry {path} has: {known})")]
    Unknown {
        /// The name looked up.
        name: String,
        /// The registry file.
        path: PathBuf,
        /// The names it has, comma-separated.
        known: String,
    },
}

/// One brain as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBrain {
    #[serde(default)]
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    dir: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    settle_ms: Option<u64>,
    #[serde(default)]
    setup: Option<SetupMode>,
    #[serde(default)]
    start_ms: Option<u64>,
    #[serde(default)]
    end_ms: Option<u64>,
    #[serde(default)]
    info: Vec<String>,
    #[serde(default)]
    extensions: Option<Vec<String>>,
    // The parameter channel (issue 23); `serde(flatten)` does not mix with
    // `deny_unknown_fields`, so the keys are here and grouped by `channel()`.
    #[serde(default)]
    params: Option<String>,
    #[serde(default)]
    param_prefix: Option<String>,
    #[serde(default)]
    param_args: Option<Vec<String>>,
    #[serde(default)]
    param_template: Option<String>,
    #[serde(default)]
    param_file: Option<String>,
    #[serde(default)]
    build: Option<String>,
    #[serde(default)]
    binary: Option<PathBuf>,
}

impl RawBrain {
    /// Its parameter channel keys.
    fn channel(&mut self) -> RawChannel {
        RawChannel {
            params: self.params.take(),
            param_prefix: self.param_prefix.take(),
            param_args: self.param_args.take(),
            param_template: self.param_template.take(),
            param_file: self.param_file.take(),
        }
    }
}

/// The parameter channel keys of one brain.
struct RawChannel {
    params: Option<String>,
    param_prefix: Option<String>,
    param_args: Option<Vec<String>>,
    param_template: Option<String>,
    param_file: Option<String>,
}

impl RawChannel {
    /// The channel of brain `name`, its template path expanded and resolved against `base`.
    fn resolve(self, name: &str, base: &Path) -> Result<Option<ParamChannel>, String> {
        let Some(kind) = self.params else {
            let stray = self.param_prefix.is_some()
                || self.param_args.is_some()
                || self.param_template.is_some()
                || self.param_file.is_some();
            if stray {
                return Err(format!(
                    "brains.{name}: param-prefix, param-args, param-template and param-file \
                     need params = \"info\", \"args\" or \"config\""
                ));
            }
            return Ok(None);
        };
        let template = self
            .param_template
            .map(|t| expand(&t, &format!("brains.{name}.param-template")).map(PathBuf::from))
            .transpose()?;
        ParamChannel::from_parts(
            &kind,
            self.param_prefix,
            self.param_args,
            template,
            self.param_file,
            base,
        )
        .map(Some)
        .map_err(|e| format!("brains.{name}.params: {e}"))
    }
}

/// `text` with `$VAR`, `${VAR}` and `${VAR:-default}` expanded, then a leading `~` (so a
/// default may start with one); `key` names it in the error for an unset variable.
pub fn expand(text: &str, key: &str) -> Result<String, String> {
    let env = shellexpand::env(text).map_err(|e| {
        format!(
            "{key}: environment variable {} is not set (in '{text}'; ${{{}:-DEFAULT}} gives a \
             default)",
            e.var_name, e.var_name
        )
    })?;
    Ok(shellexpand::tilde(&env).into_owned())
}

/// The file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegistry {
    #[serde(default)]
    brains: BTreeMap<String, RawBrain>,
}

/// One brain of a registry, paths resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainEntry {
    /// Its name in the registry (the player name by default).
    pub name: String,
    /// The program: an absolute path, or a bare name looked up in `PATH`.
    pub command: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its working folder.
    pub dir: Option<PathBuf>,
    /// Free text (version, settings).
    pub description: Option<String>,
    /// How the arena talks to it.
    pub options: BrainOptions,
    /// The extensions it honours (lower case), if the entry says.
    pub extensions: Option<Vec<String>>,
    /// How the gate builds it from a commit of its repository (`build`, `binary`).
    pub build: Option<BuildRecipe>,
}

/// How to build a brain from a checkout of its repository (the registry's `build` and
/// `binary`), for `wuzi-arena gate --engine`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildRecipe {
    /// A shell command (`sh -c`) run in the checked-out commit's folder, with
    /// `WUZI_BUILD_OUT` (the commit's output folder) and `WUZI_BUILD_COMMIT` set.
    pub command: String,
    /// The brain, relative to the output folder or else to the checked-out folder.
    pub binary: PathBuf,
    /// The registry file's folder, given to the build as `WUZI_REGISTRY_DIR` (files kept
    /// beside the registry, such as a brain's weights, are named relative to it there).
    pub registry_dir: PathBuf,
}

/// The entry's build recipe from its `build` and `binary` keys: both or neither, `binary` a
/// relative path that stays inside the folder it is looked up in.
fn build_recipe(
    name: &str,
    build: Option<String>,
    binary: Option<PathBuf>,
    registry_dir: &Path,
) -> Result<Option<BuildRecipe>, String> {
    match (build, binary) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(format!(
            "brains.{name}.build needs brains.{name}.binary (where the build leaves the brain)"
        )),
        (None, Some(_)) => Err(format!(
            "brains.{name}.binary needs brains.{name}.build (how to build it)"
        )),
        (Some(command), Some(binary)) => {
            // A multi-line TOML string ends in a newline: shown in messages, it would split them.
            let command = command.trim().to_string();
            if command.is_empty() {
                return Err(format!("brains.{name}.build is empty"));
            }
            let inside = binary.components().all(|c| {
                matches!(
                    c,
                    std::path::Component::Normal(_) | std::path::Component::CurDir
                )
            });
            if binary.as_os_str().is_empty() || !inside {
                return Err(format!(
                    "brains.{name}.binary '{}': a relative path inside the build's output folder \
                     or checkout (no leading '/', no '..')",
                    binary.display()
                ));
            }
            Ok(Some(BuildRecipe {
                command,
                binary,
                registry_dir: registry_dir.to_path_buf(),
            }))
        }
    }
}

impl BrainEntry {
    /// Does the brain honour the extension `key` (`max_node`, ...)? Yes when the entry does
    /// not list its extensions.
    pub fn supports(&self, key: &str) -> bool {
        self.extensions
            .as_ref()
            .is_none_or(|list| list.iter().any(|e| e == key))
    }
}

/// A loaded brain registry (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Registry {
    path: PathBuf,
    brains: BTreeMap<String, BrainEntry>,
}

impl Registry {
    /// Reads and checks a registry file.
    pub fn load(path: &Path) -> Result<Registry, RegistryError> {
        let text = std::fs::read_to_string(path).map_err(|error| RegistryError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Registry::parse(&text, path)
    }

    /// Parses registry `text`; relative paths are resolved against the folder of `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Registry, RegistryError> {
        let invalid = |message: String| RegistryError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let raw: RawRegistry = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let base = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let base = base.canonicalize().unwrap_or(base);
        let mut brains = BTreeMap::new();
        for (name, mut b) in raw.brains {
            let bad_name = name.is_empty()
                || name.contains([',', '='])
                || name.chars().any(char::is_whitespace);
            if bad_name {
                return Err(invalid(format!(
                    "brain name '{name}': no commas, '=' or spaces (it is used in --player)"
                )));
            }
            let key = |k: &str| format!("brains.{name}.{k}");
            let build =
                build_recipe(&name, b.build.take(), b.binary.take(), &base).map_err(invalid)?;
            let command = expand(b.command.trim(), &key("command")).map_err(invalid)?;
            if command.is_empty() && build.is_none() {
                return Err(invalid(format!(
                    "brains.{name}.command is missing or empty (or give build and binary for \
                     a brain the gate builds)"
                )));
            }
            let has_separator =
                command.contains('/') || command.contains(std::path::MAIN_SEPARATOR);
            let command =
                if !command.is_empty() && has_separator && Path::new(&command).is_relative() {
                    base.join(&command).display().to_string()
                } else {
                    command
                };
            let dir = b
                .dir
                .take()
                .map(|d| expand(&d, &key("dir")).map(PathBuf::from))
                .transpose()
                .map_err(invalid)?
                .map(|d| if d.is_relative() { base.join(d) } else { d });
            let args = b
                .args
                .iter()
                .map(|a| expand(a, &key("args")))
                .collect::<Result<Vec<_>, _>>()
                .map_err(invalid)?;
            let channel = b.channel().resolve(&name, &base).map_err(invalid)?;
            let extensions = match b.extensions {
                Some(list) => {
                    let mut out = Vec::new();
                    for e in list {
                        let e = e.trim().to_ascii_lowercase();
                        if !EXTENSIONS.contains(&e.as_str()) {
                            return Err(invalid(format!(
                                "brains.{name}.extensions: unknown extension '{e}' (known: {})",
                                EXTENSIONS.join(", ")
                            )));
                        }
                        out.push(e);
                    }
                    Some(out)
                }
                None => None,
            };
            let options = BrainOptions {
                settle_ms: b.settle_ms,
                setup: b.setup.unwrap_or_default(),
                start_ms: b.start_ms,
                end_ms: b.end_ms,
                info: b.info,
                channel,
                values: BTreeMap::new(),
            };
            brains.insert(
                name.clone(),
                BrainEntry {
                    name,
                    command,
                    args,
                    dir,
                    description: b.description,
                    options,
                    extensions,
                    build,
                },
            );
        }
        Ok(Registry {
            path: path.to_path_buf(),
            brains,
        })
    }

    /// The registry to use: `explicit` (must exist), else the file named by [`ENV_VAR`]
    /// (must exist), else the first of `./engines.toml` and
    /// `$XDG_CONFIG_HOME/wuzi/engines.toml` (or `~/.config/wuzi/engines.toml`) that exists;
    /// `None` when there is none.
    pub fn find(explicit: Option<&Path>) -> Result<Option<Registry>, RegistryError> {
        if let Some(p) = explicit {
            return Registry::load(p).map(Some);
        }
        if let Some(p) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
            return Registry::load(Path::new(&p)).map(Some);
        }
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
        let mut candidates = vec![PathBuf::from(FILE_NAME)];
        if let Some(c) = config {
            candidates.push(c.join("wuzi").join(FILE_NAME));
        }
        for c in candidates {
            if c.is_file() {
                return Registry::load(&c).map(Some);
            }
        }
        Ok(None)
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Is there a brain of this name?
    pub fn contains(&self, name: &str) -> bool {
        self.brains.contains_key(name)
    }

    /// The brain of this name, or an [`RegistryError::Unknown`] listing those there are.
    pub fn get(&self, name: &str) -> Result<&BrainEntry, RegistryError> {
        self.brains.get(name).ok_or_else(|| self.unknown(name))
    }

    /// The error for an unknown brain name.
    pub fn unknown(&self, name: &str) -> RegistryError {
        RegistryError::Unknown {
            name: name.to_string(),
            path: self.path.clone(),
            known: if self.brains.is_empty() {
                "no brains".to_string()
            } else {
                self.brains.keys().cloned().collect::<Vec<_>>().join(", ")
            },
        }
    }

    /// The brains, by name.
    pub fn brains(&self) -> impl Iterator<Item = &BrainEntry> {
        self.brains.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[brains.rapfi]
command = "peers/rapfi/pbrain-rapfi.sh"
dir = "work/rapfi"
settle-ms = 100
extensions = ["max_node", "MAX_DEPTH"]

[brains.mintaka]
command = "pbrain-mintaka"
args = ["--quiet"]
setup = "turn"
start-ms = 500
end-ms = 3000
info = ["hash_size 16384"]
"#;

    #[test]
    fn entries_resolve_paths_against_the_file() {
        let r = Registry::parse(GOOD, Path::new("/srv/reg/engines.toml")).expect("valid");
        let rapfi = r.get("rapfi").expect("there");
        assert_eq!(rapfi.command, "/srv/reg/peers/rapfi/pbrain-rapfi.sh");
        assert_eq!(rapfi.dir, Some(PathBuf::from("/srv/reg/work/rapfi")));
        assert_eq!(rapfi.options.settle_ms, Some(100));
        assert!(rapfi.supports("max_node") && rapfi.supports("max_depth"));
        let m = r.get("mintaka").expect("there");
        assert_eq!(m.command, "pbrain-mintaka");
        assert_eq!(m.options.setup, SetupMode::Turn);
        assert_eq!(
            (m.options.start_ms, m.options.end_ms),
            (Some(500), Some(3000))
        );
        assert_eq!(m.options.info, ["hash_size 16384"]);
        assert!(m.supports("max_node"), "no list: trusted");
        assert_eq!(r.brains().count(), 2);
    }

    /// Issue 23 point 5: a registry a user can copy: `~`, `$VAR`, `${VAR}` and
    /// `${VAR:-default}` in paths; an unset variable is an error naming it.
    #[test]
    fn home_and_environment_variables_are_expanded() {
        let home = std::env::var("HOME").expect("HOME is set");
        let text = r#"
[brains.a]
command = "~/peers/a/pbrain-a"
args = ["--config=${HOME}/a.toml"]
dir = "$HOME/work-a"

[brains.b]
command = "${WUZI_TEST_UNSET_PEERS_23:-~/peers}/b/pbrain-b"
"#;
        let r = Registry::parse(text, Path::new("/srv/reg/engines.toml")).expect("valid");
        let a = r.get("a").expect("there");
        assert_eq!(a.command, format!("{home}/peers/a/pbrain-a"));
        assert_eq!(a.args, [format!("--config={home}/a.toml")]);
        assert_eq!(a.dir, Some(PathBuf::from(format!("{home}/work-a"))));
        let b = r.get("b").expect("there");
        assert_eq!(b.command, format!("{home}/peers/b/pbrain-b"));
        let e = Registry::parse(
            "[brains.c]\ncommand = \"${WUZI_TEST_UNSET_PEERS_23}/c\"\n",
            Path::new("/x/engines.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("brains.c.command") && e.contains("WUZI_TEST_UNSET_PEERS_23 is not set"),
            "{e}"
        );
    }

    /// `build` and `binary` make a brain the gate builds from its repository; such an entry
    /// needs no `command`, and an entry without them has no recipe.
    #[test]
    fn build_recipes_are_read_and_need_no_command() {
        let text = "[brains.tiny]\nbuild = \"cc -o out/pbrain-tiny tiny.c\"\n\
                    binary = \"out/pbrain-tiny\"\nsettle-ms = 0\n";
        let r = Registry::parse(text, Path::new("/srv/reg/engines.toml")).expect("valid");
        let tiny = r.get("tiny").expect("there");
        assert_eq!(tiny.command, "", "no command: only the gate plays it");
        let recipe = tiny.build.as_ref().expect("a recipe");
        assert_eq!(recipe.command, "cc -o out/pbrain-tiny tiny.c");
        assert_eq!(recipe.binary, PathBuf::from("out/pbrain-tiny"));
        assert_eq!(recipe.registry_dir, PathBuf::from("/srv/reg"));
        let r = Registry::parse(GOOD, Path::new("/x/engines.toml")).expect("valid");
        assert!(r.get("rapfi").expect("there").build.is_none());
    }

    #[test]
    fn bad_registries_and_names_are_errors_naming_the_problem() {
        let p = Path::new("/x/engines.toml");
        let err = |t: &str| Registry::parse(t, p).unwrap_err().to_string();
        assert!(err("[brains.a]\ncommand = \"x\"\nsettle = 5\n").contains("settle"));
        assert!(err("[brains.a]\nargs = []\n").contains("command"));
        assert!(err("[brains.a]\ncommand = \"x\"\nsetup = \"fast\"\n").contains("setup"));
        assert!(err("[brains.a]\ncommand = \"x\"\nextensions = [\"warp\"]\n").contains("warp"));
        assert!(err("[brains.\"a,b\"]\ncommand = \"x\"\n").contains("no commas"));
        assert!(err("[engines.a]\ncommand = \"x\"\n").contains("engines"));
        assert!(err("[brains.a\n").contains("/x/engines.toml"));
        let r = Registry::parse(GOOD, p).expect("valid");
        let e = r.get("rapfo").unwrap_err().to_string();
        assert!(
            e.contains("unknown brain 'rapfo'") && e.contains("mintaka, rapfi"),
            "{e}"
        );
        assert!(err("[brains.a]\nbuild = \"make\"\n").contains("needs brains.a.binary"));
        assert!(err("[brains.a]\nbinary = \"x\"\n").contains("needs brains.a.build"));
        let outside = "[brains.a]\nbuild = \"make\"\nbinary = \"../x\"\n";
        assert!(err(outside).contains("no leading '/', no '..'"));
        let absolute = "[brains.a]\nbuild = \"make\"\nbinary = \"/bin/x\"\n";
        assert!(err(absolute).contains("brains.a.binary '/bin/x'"));
        assert!(err("[brains.a]\nbuild = \" \"\nbinary = \"x\"\n").contains("build is empty"));
        let e = Registry::load(Path::new("/nonexistent/engines.toml")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/engines.toml"), "{e}");
    }
}
