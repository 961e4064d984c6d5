//! Parameter channels: how an external brain is given parameter values (for a tune, a sweep,
//! or a settings variant of a peer), the way fishtest and cutechess hand UCI options over.
//!
//! - [`ParamChannel::Info`]: every parameter as `INFO <prefix><name> <value>` before each game
//!   (the Yixin-Board way; `pbrain-wuzi` takes its tunables so, under the names `wuzi params`
//!   prints). The first game of each process is followed by `ABOUT`: an `ERROR` (or
//!   `UNKNOWN`) naming a parameter's key before the answer is a rejection.
//! - [`ParamChannel::Args`]: an argument template, e.g. `["--set", "{name}={value}"]`, added
//!   once per parameter to the command line of each process.
//! - [`ParamChannel::Config`]: a template file (TOML, INI, any text) with `{{name}}`
//!   placeholders, rendered into the brain's working folder before each process starts (how
//!   Rapfi's `config.toml` and many engines take settings).
//!
//! Values are text (`60`, `1.35`): the brain parses them. What was sent is recorded with every
//! game ([`GivenParams`]). A template is checked before any game: an unknown placeholder, an
//! unclosed `{{`, a parameter with no placeholder, or a placeholder with no value is an error
//! that names it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::player::GivenParams;

/// How parameter values reach an external brain (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "via", rename_all = "lowercase")]
pub enum ParamChannel {
    /// `INFO <prefix><name> <value>` before each game.
    Info {
        /// Put before each name (e.g. `param_`); empty by default.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        prefix: String,
    },
    /// Command-line arguments per process, from a template repeated for each parameter.
    Args {
        /// The items of one parameter, with `{name}` and `{value}` placeholders.
        template: Vec<String>,
    },
    /// A configuration file rendered from a template into the working folder per process.
    Config {
        /// The template (an absolute path once resolved), with `{{name}}` placeholders.
        template: PathBuf,
        /// The file written in the brain's working folder (default: the template's name).
        file: String,
    },
}

/// The placeholders of a config template: `{{ name }}` (inner spaces allowed).
fn placeholders(text: &str) -> Result<Vec<(usize, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(open) = rest.find("{{") {
            let after = &rest[open + 2..];
            let close = after
                .find("}}")
                .ok_or_else(|| format!("line {}: '{{{{' is not closed with '}}}}'", n + 1))?;
            let name = after[..close].trim();
            if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c == '{') {
                return Err(format!(
                    "line {}: '{{{{{}}}}}' is not a parameter name",
                    n + 1,
                    &after[..close]
                ));
            }
            out.push((n + 1, name.to_string()));
            rest = &after[close + 2..];
        }
    }
    Ok(out)
}

/// The placeholders of one argument template item: `{name}` and `{value}` only.
fn check_arg_item(item: &str) -> Result<(), String> {
    let mut rest = item;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("argument template item '{item}': '{{' is not closed"))?;
        let key = &after[..close];
        if key != "name" && key != "value" {
            return Err(format!(
                "argument template item '{item}': unknown placeholder '{{{key}}}' (known: \
                 {{name}}, {{value}})"
            ));
        }
        rest = &after[close + 1..];
    }
    Ok(())
}

impl ParamChannel {
    /// A channel from its registry or `--player` form: `kind` is `info`, `args` or `config`;
    /// `prefix`, `args` (the template) and `template`/`file` belong to one kind each. A
    /// relative template path is taken from `base`. The template is checked
    /// ([`ParamChannel::check`]).
    pub fn from_parts(
        kind: &str,
        prefix: Option<String>,
        args: Option<Vec<String>>,
        template: Option<PathBuf>,
        file: Option<String>,
        base: &Path,
    ) -> Result<ParamChannel, String> {
        let kind = kind.trim().to_ascii_lowercase();
        let misplaced = |key: &str| {
            Err(format!(
                "{key} does not go with params = \"{kind}\" (param-prefix: info; param-args: \
                 args; param-template, param-file: config)"
            ))
        };
        let channel = match kind.as_str() {
            "info" => {
                if args.is_some() {
                    return misplaced("param-args");
                }
                if template.is_some() || file.is_some() {
                    return misplaced("param-template/param-file");
                }
                ParamChannel::Info {
                    prefix: prefix.unwrap_or_default(),
                }
            }
            "args" => {
                if prefix.is_some() {
                    return misplaced("param-prefix");
                }
                if template.is_some() || file.is_some() {
                    return misplaced("param-template/param-file");
                }
                let template = args.unwrap_or_else(|| vec!["{name}={value}".to_string()]);
                ParamChannel::Args { template }
            }
            "config" => {
                if prefix.is_some() {
                    return misplaced("param-prefix");
                }
                if args.is_some() {
                    return misplaced("param-args");
                }
                let template = template.ok_or("params = \"config\" needs param-template = FILE")?;
                let template = if template.is_relative() {
                    base.join(template)
                } else {
                    template
                };
                let file = match file {
                    Some(f) => f,
                    None => template
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .ok_or_else(|| {
                            format!("param-template {}: no file name", template.display())
                        })?,
                };
                ParamChannel::Config { template, file }
            }
            other => {
                return Err(format!(
                    "unknown parameter channel '{other}' (info, args or config)"
                ))
            }
        };
        channel.check()?;
        Ok(channel)
    }

    /// `info`, `args` or `config`.
    pub fn kind(&self) -> &'static str {
        match self {
            ParamChannel::Info { .. } => "info",
            ParamChannel::Args { .. } => "args",
            ParamChannel::Config { .. } => "config",
        }
    }

    /// Checks the template on its own: argument items with known placeholders only, at least
    /// one `{value}`; a config template that can be read and whose placeholders all close. The
    /// file written must be a plain name (it goes into the working folder).
    pub fn check(&self) -> Result<(), String> {
        match self {
            ParamChannel::Info { prefix } => {
                if prefix.chars().any(char::is_whitespace) {
                    return Err(format!("param-prefix '{prefix}' has a space"));
                }
            }
            ParamChannel::Args { template } => {
                for item in template {
                    check_arg_item(item)?;
                }
                if !template.iter().any(|i| i.contains("{value}")) {
                    return Err(format!(
                        "argument template {template:?} has no {{value}}: the values would go \
                         nowhere"
                    ));
                }
            }
            ParamChannel::Config { template, file } => {
                self.template_text()?;
                let name = Path::new(file);
                if file.is_empty() || name.components().count() != 1 || name.file_name().is_none() {
                    return Err(format!(
                        "param-file '{file}': a file name, written in the brain's working folder"
                    ));
                }
                let _ = template;
            }
        }
        Ok(())
    }

    /// The text of a config template, its placeholders checked.
    fn template_text(&self) -> Result<String, String> {
        let ParamChannel::Config { template, .. } = self else {
            return Ok(String::new());
        };
        let text = std::fs::read_to_string(template)
            .map_err(|e| format!("param-template {}: {e}", template.display()))?;
        placeholders(&text)
            .map_err(|e| format!("param-template {} does not render: {e}", template.display()))?;
        Ok(text)
    }

    /// Checks `values` against the channel: names without spaces or commas; for a config
    /// template given values, every placeholder has a value and every value a placeholder.
    pub fn check_values(&self, values: &BTreeMap<String, String>) -> Result<(), String> {
        for (name, value) in values {
            let bad_name = name.is_empty()
                || name
                    .chars()
                    .any(|c| c.is_whitespace() || c == ',' || c == '=');
            if bad_name {
                return Err(format!("parameter name '{name}': no spaces, commas or '='"));
            }
            if value.is_empty() || value.contains(['\n', '\r']) {
                return Err(format!(
                    "parameter {name}: value '{value}' is empty or has a line break"
                ));
            }
        }
        // No values: nothing is rendered, the brain keeps its own settings.
        if values.is_empty() {
            return Ok(());
        }
        if let ParamChannel::Config { template, .. } = self {
            let text = self.template_text()?;
            let found = placeholders(&text).map_err(|e| {
                format!("param-template {} does not render: {e}", template.display())
            })?;
            if let Some((line, name)) = found.iter().find(|(_, n)| !values.contains_key(n)) {
                return Err(format!(
                    "param-template {}, line {line}: unknown placeholder '{{{{{name}}}}}' (the \
                     parameters given are: {})",
                    template.display(),
                    join_or_none(values.keys())
                ));
            }
            if let Some(name) = values.keys().find(|k| !found.iter().any(|(_, n)| n == *k)) {
                return Err(format!(
                    "parameter {name} has no '{{{{{name}}}}}' in param-template {}: its value \
                     would go nowhere",
                    template.display()
                ));
            }
        }
        Ok(())
    }

    /// The `INFO` lines of `values` (empty for the other channels).
    pub fn info_lines(&self, values: &BTreeMap<String, String>) -> Vec<String> {
        match self {
            ParamChannel::Info { prefix } => values
                .iter()
                .map(|(n, v)| format!("INFO {prefix}{n} {v}"))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The key a brain sees for parameter `name` (the prefix added), as `INFO` sends it.
    pub fn info_key(&self, name: &str) -> String {
        match self {
            ParamChannel::Info { prefix } => format!("{prefix}{name}").to_ascii_lowercase(),
            _ => name.to_ascii_lowercase(),
        }
    }

    /// The extra command-line arguments of `values` (empty for the other channels).
    pub fn args(&self, values: &BTreeMap<String, String>) -> Vec<String> {
        match self {
            ParamChannel::Args { template } => values
                .iter()
                .flat_map(|(n, v)| {
                    template
                        .iter()
                        .map(move |t| t.replace("{name}", n).replace("{value}", v))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Writes the rendered config into `folder` (nothing for the other channels, or without
    /// values); returns the file written.
    pub fn write_config(
        &self,
        values: &BTreeMap<String, String>,
        folder: &Path,
    ) -> Result<Option<PathBuf>, String> {
        let ParamChannel::Config { template, file } = self else {
            return Ok(None);
        };
        if values.is_empty() {
            return Ok(None);
        }
        let text = self.template_text()?;
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(open) = rest.find("{{") {
            out.push_str(&rest[..open]);
            let after = &rest[open + 2..];
            // Checked by template_text: every `{{` closes.
            let close = after.find("}}").unwrap_or(after.len());
            let name = after[..close].trim();
            let value = values.get(name).ok_or_else(|| {
                format!(
                    "param-template {}: unknown placeholder '{{{{{name}}}}}'",
                    template.display()
                )
            })?;
            out.push_str(value);
            rest = after.get(close + 2..).unwrap_or("");
        }
        out.push_str(rest);
        let path = folder.join(file);
        std::fs::write(&path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Some(path))
    }

    /// What the record says was sent for `values`.
    pub fn given(&self, values: &BTreeMap<String, String>) -> GivenParams {
        let sent = match self {
            ParamChannel::Info { .. } => self.info_lines(values).join("; "),
            ParamChannel::Args { .. } => self.args(values).join(" "),
            ParamChannel::Config { template, file } => {
                format!("{file} (from {})", template.display())
            }
        };
        GivenParams {
            via: self.kind().to_string(),
            values: values.clone(),
            sent,
        }
    }

    /// The parameter of `values` that a brain's refusal `line` names (its key as a word), if
    /// any: `ERROR parameter defence: ...` names `defence`.
    pub fn named_in(&self, line: &str, values: &BTreeMap<String, String>) -> Option<String> {
        let lower = line.to_ascii_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
            .collect();
        values
            .keys()
            .find(|n| words.contains(&self.info_key(n).as_str()))
            .cloned()
    }
}

fn join_or_none<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<&str> = names.map(String::as_str).collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

impl fmt::Display for ParamChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamChannel::Info { prefix } if prefix.is_empty() => f.write_str("info"),
            ParamChannel::Info { prefix } => write!(f, "info (prefix {prefix})"),
            ParamChannel::Args { template } => write!(f, "args {}", template.join(" ")),
            ParamChannel::Config { template, file } => {
                write!(f, "config {file} from {}", template.display())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn info_and_args_render_each_parameter() {
        let v = values(&[("defence", "60"), ("tempo", "1.5")]);
        let base = Path::new("/");
        let info = ParamChannel::from_parts("INFO", Some("p_".into()), None, None, None, base)
            .expect("valid");
        assert_eq!(
            info.info_lines(&v),
            ["INFO p_defence 60", "INFO p_tempo 1.5"]
        );
        assert!(info.args(&v).is_empty());
        assert_eq!(info.given(&v).sent, "INFO p_defence 60; INFO p_tempo 1.5");
        let args = ParamChannel::from_parts(
            "args",
            None,
            Some(vec!["--set".into(), "{name}={value}".into()]),
            None,
            None,
            base,
        )
        .expect("valid");
        assert_eq!(args.args(&v), ["--set", "defence=60", "--set", "tempo=1.5"]);
        assert!(args.info_lines(&v).is_empty());
        assert_eq!(args.given(&v).via, "args");
    }

    #[test]
    fn config_templates_render_into_the_folder() {
        let dir = std::env::temp_dir().join(format!("wuzi-channel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let t = dir.join("engine.toml.in");
        std::fs::write(
            &t,
            "[search]\nspace = {{ match_space }}\nratio = {{ratio}} # {{ratio}}\n",
        )
        .unwrap();
        let c = ParamChannel::from_parts(
            "config",
            None,
            None,
            Some("engine.toml.in".into()),
            Some("config.toml".into()),
            &dir,
        )
        .expect("valid");
        let v = values(&[("match_space", "21.5"), ("ratio", "0.9")]);
        c.check_values(&v).expect("every placeholder has a value");
        let out = dir.join("work");
        std::fs::create_dir_all(&out).unwrap();
        let written = c.write_config(&v, &out).expect("renders").expect("a file");
        assert_eq!(written, out.join("config.toml"));
        assert_eq!(
            std::fs::read_to_string(&written).unwrap(),
            "[search]\nspace = 21.5\nratio = 0.9 # 0.9\n"
        );
        // Issue 23 point 6: an unknown placeholder, a parameter with none, a template that
        // does not render, a missing template: errors that name them.
        let e = c
            .check_values(&values(&[("match_space", "1")]))
            .unwrap_err();
        assert!(
            e.contains("unknown placeholder '{{ratio}}'") && e.contains("line 3"),
            "{e}"
        );
        let e = c
            .check_values(&values(&[
                ("match_space", "1"),
                ("ratio", "1"),
                ("depth", "3"),
            ]))
            .unwrap_err();
        assert!(e.contains("parameter depth has no '{{depth}}'"), "{e}");
        std::fs::write(&t, "a = {{ratio}\n").unwrap();
        let e = c.check().unwrap_err();
        assert!(e.contains("does not render") && e.contains("line 1"), "{e}");
        let e = ParamChannel::from_parts("config", None, None, Some("nope.in".into()), None, &dir)
            .unwrap_err();
        assert!(e.contains("nope.in"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_channels_are_errors_naming_the_problem() {
        let base = Path::new("/");
        let parts = |kind: &str, args: Option<Vec<&str>>| {
            ParamChannel::from_parts(
                kind,
                None,
                args.map(|a| a.into_iter().map(String::from).collect()),
                None,
                None,
                base,
            )
        };
        let e = parts("args", Some(vec!["--{nmae}={value}"])).unwrap_err();
        assert!(e.contains("unknown placeholder '{nmae}'"), "{e}");
        let e = parts("args", Some(vec!["--set", "{name}"])).unwrap_err();
        assert!(e.contains("no {value}"), "{e}");
        assert!(parts("uci", None)
            .unwrap_err()
            .contains("unknown parameter channel 'uci'"));
        assert!(parts("info", Some(vec!["{value}"]))
            .unwrap_err()
            .contains("param-args does not go"));
        assert!(parts("config", None)
            .unwrap_err()
            .contains("param-template"));
        let info = parts("info", None).expect("valid");
        let e = info.check_values(&values(&[("a b", "1")])).unwrap_err();
        assert!(e.contains("'a b'"), "{e}");
    }

    #[test]
    fn a_refusal_is_pinned_on_the_parameter_it_names() {
        let info = ParamChannel::Info {
            prefix: "w_".into(),
        };
        let v = values(&[("defence", "9999"), ("tempo", "1")]);
        let line = "ERROR parameter w_defence: 9999 is out of range";
        assert_eq!(info.named_in(line, &v).as_deref(), Some("defence"));
        assert_eq!(info.named_in("ERROR bad INFO value for folder", &v), None);
    }
}
