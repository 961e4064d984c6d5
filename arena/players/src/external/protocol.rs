//! The words of the Gomocup protocol as the arena reads and writes them: `INFO` values,
//! `ABOUT` answers, move answers, `pbrain-wuzi`'s search statistics and what each output line
//! of a brain is.

use std::collections::BTreeMap;

use wuzi_engine::protocol::{BASE_MEMORY_MB, THREAD_MEMORY_MB};
use wuzi_engine::{Pos, Rule};

/// Longest piece of a brain's answer quoted in a loss's detail.
pub const QUOTE: usize = 120;

/// The Gomocup `INFO rule` value of a rule: 0 freestyle, 1 standard, 4 renju.
pub fn rule_bits(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// The `INFO max_memory` value (bytes) for `hash_mb` MB of hash with `threads` threads: the
/// hash plus the memory `pbrain-wuzi` keeps aside, so that brain uses exactly `hash_mb`.
pub fn max_memory_bytes(hash_mb: usize, threads: usize) -> u64 {
    let mb = hash_mb + BASE_MEMORY_MB + THREAD_MEMORY_MB * threads.max(1);
    mb as u64 * 1024 * 1024
}

/// Parses an `ABOUT` answer, `name="wuzi", version="1.0", author="..."`, into its keys (lower
/// case) and values. Anything that is not `key="value"` or `key=value` is skipped.
pub fn parse_about(line: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = line.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq]
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = rest[eq + 1..].trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(',') {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        if !key.is_empty() && !key.contains(char::is_whitespace) {
            out.insert(key, value.trim().to_string());
        }
        rest = next.trim_start().trim_start_matches(',');
    }
    out
}

/// Longest player name taken from a brain's `ABOUT` answer, in characters.
pub const MAX_ABOUT_NAME: usize = 64;

/// The player name an `ABOUT` answer gives (see [`parse_about`]): its `name` without control
/// characters (a terminal escape in a name would reach every summary printed) and cut at
/// [`MAX_ABOUT_NAME`] characters; `None` when that leaves nothing.
pub fn about_name(about: &BTreeMap<String, String>) -> Option<String> {
    let name: String = about
        .get("name")?
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_ABOUT_NAME)
        .collect();
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// At most [`QUOTE`] characters of `text` (control characters escaped), with `...` when cut.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == QUOTE {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses a move answer `x,y` on a `size` board.
pub fn parse_move(line: &str, size: usize) -> Result<Pos, String> {
    let not_a_move = || format!("'{}' is not a move", quote(line));
    let (x, y) = line.split_once(',').ok_or_else(not_a_move)?;
    let x: usize = x.trim().parse().map_err(|_| not_a_move())?;
    let y: usize = y.trim().parse().map_err(|_| not_a_move())?;
    if x >= size || y >= size {
        return Err(format!("{x},{y} is off the {size}x{size} board"));
    }
    Ok(Pos::new(x, y))
}

/// Depth, nodes and score from a `pbrain-wuzi`-style message
/// (`... score -226 ... depth 3-3 nodes 4096 ...`); `None` for what it does not say.
pub fn parse_stats(message: &str) -> (Option<i32>, Option<u64>, Option<i32>) {
    let words: Vec<&str> = message.split_whitespace().collect();
    let after = |key: &str| {
        words
            .windows(2)
            .find(|w| w[0].eq_ignore_ascii_case(key))
            .map(|w| w[1])
    };
    let depth = after("depth").and_then(|d| d.split('-').next()?.parse().ok());
    let nodes = after("nodes").and_then(|n| n.parse().ok());
    let score = after("score").and_then(|s| s.parse().ok());
    (depth, nodes, score)
}

/// What one output line of a brain is.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// Empty, `DEBUG ...` or `OK` while a move is awaited: skipped.
    Skip,
    /// `OK`.
    Ok,
    /// `MESSAGE text`.
    Message(String),
    /// `ERROR ...` or `UNKNOWN ...`.
    Refusal(String),
    /// `x,y` on the board.
    Move(Pos),
    /// Two numbers `x,y` that are off the board: an illegal move, not noise.
    OffBoard(String),
    /// Anything else: kept in the notes and skipped.
    Noise(String),
}

/// Classifies a (trimmed) output line for a `size` board.
pub fn classify(line: &str, size: usize) -> Line {
    if line.is_empty() {
        return Line::Skip;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    match word.to_ascii_uppercase().as_str() {
        "OK" if rest.is_empty() => return Line::Ok,
        "MESSAGE" => return Line::Message(rest.to_string()),
        "DEBUG" => return Line::Skip,
        "ERROR" | "UNKNOWN" => return Line::Refusal(line.to_string()),
        _ => {}
    }
    match parse_move(line, size) {
        Ok(p) => Line::Move(p),
        Err(e) if looks_like_move(line) => Line::OffBoard(e),
        Err(_) => Line::Noise(line.to_string()),
    }
}

/// The key of an `INFO KEY VALUE` line, lower case.
pub(super) fn info_key(line: &str) -> String {
    line.split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// Two integers separated by a comma (a move, perhaps off the board).
pub(super) fn looks_like_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        let int = |s: &str| {
            let s = s.trim();
            let s = s.strip_prefix('-').unwrap_or(s);
            !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
        };
        int(x) && int(y)
    })
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_lines_parse() {
        let a = parse_about(
            r#"name="wuzi", version="0.1.0", author="wuzi developers", country="China""#,
        );
        assert_eq!(a.get("name").map(String::as_str), Some("wuzi"));
        assert_eq!(a.get("author").map(String::as_str), Some("wuzi developers"));
        assert_eq!(a.len(), 4);
        let a = parse_about("name=Rapfi, version = 2 ,www=\"a, b\"");
        assert_eq!(a.get("name").map(String::as_str), Some("Rapfi"));
        assert_eq!(a.get("version").map(String::as_str), Some("2"));
        assert_eq!(a.get("www").map(String::as_str), Some("a, b"));
        assert!(parse_about("garbage without equals").is_empty());
        assert!(parse_about("=\"x\"").is_empty());
        let _ = parse_about("name=\"unterminated");
    }

    /// Regression (issue 22): a brain named `"<script>...\x1b[2J"` with a 1 MB version had its
    /// terminal escape printed by every summary; the name keeps no control character and at
    /// most [`MAX_ABOUT_NAME`] characters (markup is escaped where it is shown).
    #[test]
    fn about_names_lose_control_characters_and_length() {
        let line = format!(
            "name=\"<b>x</b>\u{1b}[2J{}\", version=\"1\"",
            "y".repeat(1 << 20)
        );
        let name = about_name(&parse_about(&line)).expect("a name");
        assert!(name.starts_with("<b>x</b>[2Jyyy"), "{name}");
        assert_eq!(name.chars().count(), MAX_ABOUT_NAME);
        assert_eq!(about_name(&parse_about("name=\"\u{1}\u{7} \"")), None);
        assert_eq!(about_name(&parse_about("version=1")), None);
        assert_eq!(
            about_name(&parse_about("name=\" Rapfi \"")).as_deref(),
            Some("Rapfi")
        );
    }

    #[test]
    fn moves_parse_and_bad_answers_are_errors() {
        assert_eq!(parse_move("7,7", 15), Ok(Pos::new(7, 7)));
        assert_eq!(parse_move(" 14 , 0 ", 15), Ok(Pos::new(14, 0)));
        assert!(parse_move("15,0", 15)
            .unwrap_err()
            .contains("off the 15x15"));
        assert!(parse_move("99999999999999999999,1", 15).is_err());
        assert!(parse_move("hello", 15).unwrap_err().contains("not a move"));
        assert!(parse_move("UNKNOWN BEGIN", 15).is_err());
        assert!(parse_move("-1,3", 15).is_err());
        let long = "x".repeat(1000);
        assert!(parse_move(&long, 15).unwrap_err().len() < 200);
    }

    #[test]
    fn stats_come_from_pbrain_messages() {
        let m = "best j8 score -226 (search) depth 3-3 nodes 4096 speed 215k/s time 19ms pv j8";
        assert_eq!(parse_stats(m), (Some(3), Some(4096), Some(-226)));
        assert_eq!(parse_stats("depth 5-9 score win7"), (Some(5), None, None));
        assert_eq!(parse_stats("hello"), (None, None, None));
        assert_eq!(parse_stats("nodes"), (None, None, None));
    }

    #[test]
    fn info_values() {
        assert_eq!(
            [Rule::Freestyle, Rule::Standard, Rule::Renju].map(rule_bits),
            [0, 1, 4]
        );
        // pbrain-wuzi keeps BASE + THREAD * threads aside, so it gets exactly the hash.
        let bytes = max_memory_bytes(16, 2);
        assert_eq!(
            wuzi_engine::protocol::hash_for_memory(bytes, None, 2),
            16,
            "{bytes}"
        );
        assert_eq!(quote(&"é".repeat(300)).chars().count(), QUOTE + 3);
        assert_eq!(quote("a\u{1b}[2Jb\u{0}"), "a\\u{1b}[2Jb\\u{0}");
    }
}
