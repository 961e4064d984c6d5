//! The README's commands, as written in its `sh` code blocks: found by program and subcommand,
//! tokenised as a shell would, and given smaller budgets by replacing option values (never by
//! adding an option twice, which the command line would refuse).

use crate::repo_root;

/// One command from the README: the program (`wuzi-arena`, `wuzi-tune`, `wuzi`) and its
/// arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadmeCommand {
    /// `wuzi-arena`, `wuzi-tune` or `wuzi`.
    pub program: String,
    /// The arguments as the shell would pass them.
    pub args: Vec<String>,
    /// The README text it came from.
    pub text: String,
}

/// Splits a command line as `sh` would for the README's commands: words separated by blanks,
/// `'...'` and `"..."` quoting, an unquoted `#` after a blank starting a comment.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    cur.push(d);
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\\' => {
                if let Some(d) = chars.next() {
                    cur.push(d);
                    in_word = true;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The program a command starts with, and where its arguments begin.
fn program_of(words: &[String]) -> Option<(String, usize)> {
    let first = words.first()?.as_str();
    let name = |p: &str| {
        let base = p.rsplit('/').next().unwrap_or(p);
        match base {
            "$A" | "wuzi-arena" => Some("wuzi-arena"),
            "$T" | "wuzi-tune" => Some("wuzi-tune"),
            "wuzi" => Some("wuzi"),
            _ => None,
        }
    };
    if first == "cargo" {
        // cargo run [--release] -p PACKAGE [--bin NAME] -- ARGS
        let sep = words.iter().position(|w| w == "--")?;
        let pkg = words
            .iter()
            .position(|w| w == "-p")
            .map(|i| words[i + 1].as_str())?;
        let bin = words
            .iter()
            .position(|w| w == "--bin")
            .map(|i| words[i + 1].as_str());
        let program = match (pkg, bin) {
            (_, Some(b)) => b.to_string(),
            ("wuzi-arena", None) => "wuzi-arena".into(),
            ("wuzi-tuner", None) => "wuzi-tune".into(),
            _ => return None,
        };
        return Some((program, sep + 1));
    }
    Some((name(first)?.to_string(), 1))
}

/// Every command in the README's `sh` code blocks. Lines holding several commands
/// (`$A summary DIR    $A chart DIR`) give one each.
pub fn commands() -> Vec<ReadmeCommand> {
    let text = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let mut out = Vec::new();
    let mut in_sh = false;
    // A line ending in `\` goes on in the next one, as in the shell.
    let mut pending = String::new();
    for raw in text.lines() {
        let t = raw.trim_start();
        if t.starts_with("```") {
            in_sh = !in_sh && (t == "```sh" || t == "```bash");
            pending.clear();
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(head) = raw.trim_end().strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        let joined = std::mem::take(&mut pending) + raw;
        let line = joined.as_str();
        // Several `$A ...` on one line.
        let mut starts: Vec<usize> = line.match_indices("$A ").map(|(i, _)| i).collect();
        starts.extend(line.match_indices("$T ").map(|(i, _)| i));
        starts.sort_unstable();
        let pieces: Vec<&str> = if starts.len() > 1 {
            starts
                .iter()
                .enumerate()
                .map(|(k, &s)| &line[s..starts.get(k + 1).copied().unwrap_or(line.len())])
                .collect()
        } else {
            vec![line]
        };
        for piece in pieces {
            let words = shell_words(piece);
            if let Some((program, from)) = program_of(&words) {
                out.push(ReadmeCommand {
                    program,
                    args: words[from..].to_vec(),
                    text: piece.trim().to_string(),
                });
            }
        }
    }
    out
}

/// The first README command of `program` whose arguments start with `subcommand` and contain
/// every one of `with` (exact words). Panics naming what is missing, so renaming a command or
/// flag in the README (or dropping the example) fails the journey that uses it.
pub fn find(program: &str, subcommand: &str, with: &[&str]) -> ReadmeCommand {
    commands()
        .into_iter()
        .find(|c| {
            c.program == program
                && c.args.first().is_some_and(|a| a == subcommand)
                && with.iter().all(|w| c.args.iter().any(|a| a == w))
        })
        .unwrap_or_else(|| {
            panic!("README.md has no `{program} {subcommand}` command with {with:?} in a sh code block")
        })
}

impl ReadmeCommand {
    /// Sets option `flag` to `value`: replaces the value where the command has the option,
    /// else appends it.
    pub fn set(mut self, flag: &str, value: &str) -> Self {
        match self.args.iter().position(|a| a == flag) {
            Some(i) if i + 1 < self.args.len() => self.args[i + 1] = value.to_string(),
            _ => {
                self.args.push(flag.to_string());
                self.args.push(value.to_string());
            }
        }
        self
    }

    /// Adds a flag without a value (when the command lacks it).
    pub fn flag(mut self, flag: &str) -> Self {
        if !self.args.iter().any(|a| a == flag) {
            self.args.push(flag.to_string());
        }
        self
    }

    /// Replaces an argument written in the README as a placeholder or example path
    /// (`DIR`, `tunes/example`, `new.toml` inside `params=new.toml`) by `value`; panics when
    /// the README command does not hold it.
    pub fn replace(mut self, placeholder: &str, value: &str) -> Self {
        let mut found = false;
        for a in &mut self.args {
            if a.contains(placeholder) {
                *a = a.replace(placeholder, value);
                found = true;
            }
        }
        assert!(found, "`{}` has no {placeholder}", self.text);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_quote_and_comment() {
        assert_eq!(
            shell_words("$A match --player 'b,set=x=1' \"c d\" # comment"),
            vec!["$A", "match", "--player", "b,set=x=1", "c d"]
        );
        assert_eq!(shell_words("a#b c"), vec!["a#b", "c"]);
    }

    #[test]
    fn readme_commands_are_found() {
        let all = commands();
        assert!(all
            .iter()
            .any(|c| c.program == "wuzi-arena" && c.args == ["match"]));
        let export = find("wuzi-arena", "export", &["--format"]);
        assert_eq!(export.args[1], "DIR");
        let set = export.set("--out", "x").set("--size", "15");
        assert_eq!(
            set.args,
            ["export", "DIR", "--format", "psq", "--out", "x", "--size", "15"]
        );
    }
}
