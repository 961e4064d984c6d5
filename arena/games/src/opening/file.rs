//! Opening files: Gomocup offset lines and move lists, their format detection and checks.

use std::path::Path;

use serde::{Deserialize, Serialize};
use wuzi_engine::{Pos, Rule};

use super::moves::{from_offset, Opening};
use crate::error::{GamesError, Result};

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
#[cfg(test)]
mod tests {
    use super::super::moves::{dedupe, with_symmetries};
    use super::super::renju26::renju26_base;
    use super::*;
    use std::collections::HashSet;

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
}
