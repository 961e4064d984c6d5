//! Rule and tactics suites: TOML files of positions with expected answers.
//!
//! One runner serves both `cargo test` and the `wuzi suite` command. A file holds
//! `[[case]]` tables; file-level `rule` and `size` are defaults for its cases.
//!
//! ```toml
//! rule = "renju"
//!
//! [[case]]
//! name = "double-three, horizontal and vertical"
//! black = "g8 h8 i9 i10"      # or: moves = "h8 i9 ...", or: diagram = """ ... """
//! white = ""
//! forbidden = "i8"            # black's complete set of forbidden points
//! legal = "j8"                # points black may play
//! ```
//!
//! Rule expectations: `forbidden` (exact set), `forbidden_include` (subset), `legal`,
//! `play` + `result` (`black`, `white`, `draw` or `none`) + optional `reason`
//! (`five` or `forbidden`). Without `play`, `result` checks the position as given.

use crate::board::Board;
use crate::limits::Limits;
use crate::outcome::{Outcome, WinReason};
use crate::params::Params;
use crate::pos::Pos;
use crate::rule::Rule;
use crate::stone::Stone;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A suite file that cannot be used.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// The file or folder could not be read.
    // Not `source`: thiserror would make it the error's source, and `{:#}` printed it twice.
    #[error("{path}: {error}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// The file is not valid suite TOML.
    #[error("{path}: {message}")]
    Parse {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// One file of a suite.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteFile {
    /// Default rule of the file's cases.
    #[serde(default)]
    pub rule: Option<Rule>,
    /// Default board size of the file's cases.
    #[serde(default)]
    pub size: Option<usize>,
    /// Free text about the file.
    #[serde(default)]
    pub description: Option<String>,
    /// The cases.
    #[serde(default, rename = "case")]
    pub cases: Vec<Case>,
}

/// One position and what must hold for it.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// What the case guards; shown when it fails.
    pub name: String,
    /// Where the case comes from, when not our own.
    #[serde(default)]
    pub source: Option<String>,
    /// Rule (default: the file's, else renju).
    #[serde(default)]
    pub rule: Option<Rule>,
    /// Board side (default: the file's, else 15, or the diagram's row count).
    #[serde(default)]
    pub size: Option<usize>,
    /// Moves played in order from the empty board, black first.
    #[serde(default)]
    pub moves: Option<String>,
    /// Black stones placed directly.
    #[serde(default)]
    pub black: Option<String>,
    /// White stones placed directly.
    #[serde(default)]
    pub white: Option<String>,
    /// A diagram, highest row first (`X`, `O`, `.`).
    #[serde(default)]
    pub diagram: Option<String>,
    /// Side to move where the stones do not decide it.
    #[serde(default)]
    pub to_move: Option<Stone>,
    /// Black's complete set of forbidden points.
    #[serde(default)]
    pub forbidden: Option<String>,
    /// Points that must be forbidden for black (others may be too).
    #[serde(default)]
    pub forbidden_include: Option<String>,
    /// Points that must be legal for black.
    #[serde(default)]
    pub legal: Option<String>,
    /// A move to play (by the side to move) before checking `result`.
    #[serde(default)]
    pub play: Option<String>,
    /// Expected result: `black`, `white`, `draw` or `none`.
    #[serde(default)]
    pub result: Option<String>,
    /// Expected reason of a win: `five` or `forbidden`.
    #[serde(default)]
    pub reason: Option<String>,
    /// Tactics: moves accepted as correct answers.
    #[serde(default)]
    pub best: Option<String>,
    /// Tactics: moves that must not be played.
    #[serde(default)]
    pub avoid: Option<String>,
    /// Tactics: whether the side to move has a forced win (`true`), or must not claim one (`false`).
    #[serde(default)]
    pub win: Option<bool>,
    /// Tactics: node budget for the search.
    #[serde(default)]
    pub nodes: Option<u64>,
}

impl Case {
    /// The case's rule given the file default.
    pub fn rule_or(&self, file: &SuiteFile) -> Rule {
        self.rule.or(file.rule).unwrap_or_default()
    }

    /// Builds the position the case describes.
    pub fn board(&self, file: &SuiteFile) -> Result<Board, String> {
        let rule = self.rule_or(file);
        let mut board = if let Some(d) = &self.diagram {
            let rows: Vec<&str> = d
                .lines()
                .map(str::trim)
                .filter(|l| l.contains(['.', 'X', 'O', '+']))
                .collect();
            Board::from_diagram(rule, &rows).map_err(|e| e.to_string())?
        } else {
            let size = self.size.or(file.size).unwrap_or(15);
            let list = |s: &Option<String>| -> Result<Vec<Pos>, String> {
                s.as_deref().map_or(Ok(Vec::new()), |s| {
                    Pos::parse_list(s, size).map_err(|e| e.to_string())
                })
            };
            let mut b = Board::from_stones(size, rule, &list(&self.black)?, &list(&self.white)?)
                .map_err(|e| e.to_string())?;
            for m in list(&self.moves)? {
                b.make(m).map_err(|e| e.to_string())?;
            }
            b
        };
        if let Some(s) = self.to_move {
            board.set_side_to_move(s);
        }
        Ok(board)
    }

    /// Does the case ask for a search?
    pub fn is_tactical(&self) -> bool {
        self.best.is_some() || self.avoid.is_some() || self.win.is_some()
    }
}

/// A failed case.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The file.
    pub file: PathBuf,
    /// The case name.
    pub name: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FAIL {}: {}: {}",
            self.file.display(),
            self.name,
            self.message
        )
    }
}

/// What a suite run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed, in file order.
    pub failures: Vec<Failure>,
}

impl Report {
    /// Did every case pass?
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failures.len())
    }
}

/// The `.toml` files under the given files and folders, sorted, folders searched recursively.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, SuiteError> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|error| SuiteError::Io {
            path: p.clone(),
            error,
        })?;
        if meta.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|error| SuiteError::Io {
                    path: p.clone(),
                    error,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            for e in entries {
                if e.is_dir() || e.extension().is_some_and(|x| x == "toml") {
                    out.extend(collect_files(&[e])?);
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Reads and parses one suite file.
pub fn load(path: &Path) -> Result<SuiteFile, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|error| SuiteError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    toml::from_str(&text).map_err(|e| SuiteError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

fn points(s: &str, size: usize) -> Result<Vec<Pos>, String> {
    let mut v = Pos::parse_list(s, size).map_err(|e| e.to_string())?;
    v.sort();
    Ok(v)
}

/// Checks the rule expectations of a case (everything but tactics).
pub fn check_rules(case: &Case, file: &SuiteFile, board: &mut Board) -> Result<(), String> {
    let size = board.size();
    if let Some(exp) = &case.forbidden {
        let want = points(exp, size)?;
        let got = board.forbidden_points();
        if got != want {
            return Err(format!(
                "forbidden points: expected [{}], got [{}]",
                Pos::format_list(&want),
                Pos::format_list(&got)
            ));
        }
    }
    if let Some(exp) = &case.forbidden_include {
        for p in points(exp, size)? {
            if !board.is_forbidden(p) {
                return Err(format!(
                    "{p} should be forbidden: {}",
                    board.explain_forbidden(p)
                ));
            }
        }
    }
    if let Some(exp) = &case.legal {
        for p in points(exp, size)? {
            if board.is_forbidden(p) {
                return Err(format!(
                    "{p} should be legal: {}",
                    board.explain_forbidden(p)
                ));
            }
        }
    }
    if let Some(m) = &case.play {
        let p = Pos::parse(m.trim(), size).map_err(|e| e.to_string())?;
        board.make(p).map_err(|e| e.to_string())?;
    }
    if let Some(exp) = &case.result {
        let got = board.outcome();
        let (got_result, got_reason) = match got {
            None => ("none", None),
            Some(Outcome::Draw) => ("draw", None),
            Some(Outcome::Win { winner, reason }) => (
                if winner == Stone::Black {
                    "black"
                } else {
                    "white"
                },
                Some(match reason {
                    WinReason::Five => "five",
                    WinReason::Forbidden => "forbidden",
                }),
            ),
        };
        if got_result != exp.trim() {
            return Err(format!("result: expected {exp}, got {got_result}"));
        }
        if let Some(r) = &case.reason {
            if got_reason != Some(r.trim()) {
                return Err(format!(
                    "reason: expected {r}, got {}",
                    got_reason.unwrap_or("none")
                ));
            }
        }
    }
    let _ = file;
    Ok(())
}

/// Default node budget of a tactics case that names none.
pub const DEFAULT_NODES: u64 = 200_000;

/// Checks a case's tactical expectations with a single-threaded, node-limited search.
pub fn check_tactics(case: &Case, board: &mut Board, params: &Params) -> Result<(), String> {
    let size = board.size();
    let limits = Limits::nodes(case.nodes.unwrap_or(DEFAULT_NODES));
    let r = crate::search::search_once(board, params, &limits);
    let shown = || {
        format!(
            "played {} (score {}, mate {:?}, {} nodes, pv {})",
            r.best.map_or("none".to_string(), |p| p.to_string()),
            r.score,
            r.mate,
            r.nodes,
            Pos::format_list(&r.pv)
        )
    };
    if let Some(best) = &case.best {
        let accepted = points(best, size)?;
        if !r.best.is_some_and(|m| accepted.contains(&m)) {
            return Err(format!(
                "expected one of [{}], {}",
                Pos::format_list(&accepted),
                shown()
            ));
        }
    }
    if let Some(avoid) = &case.avoid {
        let bad = points(avoid, size)?;
        if r.best.is_some_and(|m| bad.contains(&m)) {
            return Err(format!(
                "must avoid [{}], {}",
                Pos::format_list(&bad),
                shown()
            ));
        }
    }
    match case.win {
        Some(true) if r.mate.is_none_or(|m| m <= 0) => {
            Err(format!("expected a proven win, {}", shown()))
        }
        Some(false) if r.mate.is_some_and(|m| m > 0) => {
            Err(format!("claimed a win that does not exist, {}", shown()))
        }
        _ => Ok(()),
    }
}

/// Runs every case of the given files and folders; tactical cases search with `params`.
pub fn run(paths: &[PathBuf], params: &Params) -> Result<Report, SuiteError> {
    let mut report = Report::default();
    for path in collect_files(paths)? {
        let file = load(&path)?;
        for case in &file.cases {
            let result = case.board(&file).and_then(|mut board| {
                if case.is_tactical() {
                    check_tactics(case, &mut board.clone(), params)?;
                }
                check_rules(case, &file, &mut board)
            });
            match result {
                Ok(()) => report.passed += 1,
                Err(message) => report.failures.push(Failure {
                    file: path.clone(),
                    name: case.name.clone(),
                    message,
                }),
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suites() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites")
    }

    #[test]
    fn a_missing_suite_prints_the_os_error_once() {
        // `wuzi suite nope` printed "nope: No such file ... (os error 2): No such file ..."
        // (the binaries print errors with anyhow's `{:#}`, which appends each source).
        let err = run(&[PathBuf::from("no/such/suite")], &Params::default()).unwrap_err();
        let shown = format!("{:#}", anyhow::Error::from(err));
        assert!(shown.starts_with("no/such/suite: "), "{shown}");
        assert_eq!(shown.matches("os error").count(), 1, "{shown}");
    }

    #[test]
    fn rule_suite_passes() {
        let report = run(&[suites().join("rules")], &Params::default()).expect("suite files parse");
        for f in &report.failures {
            eprintln!("{f}");
        }
        assert!(report.passed >= 100, "only {} rule cases", report.passed);
        assert!(report.ok(), "{report}");
    }

    #[test]
    fn tactics_suite_passes() {
        let report =
            run(&[suites().join("tactics")], &Params::default()).expect("suite files parse");
        for f in &report.failures {
            eprintln!("{f}");
        }
        assert!(
            report.passed + report.failures.len() >= 80,
            "only {} tactics cases",
            report.passed
        );
        assert!(report.ok(), "{report}");
    }

    #[test]
    fn a_wrong_expectation_fails() {
        let file: SuiteFile = toml::from_str(
            r#"
            [[case]]
            name = "wrong on purpose"
            black = "g8 h8 i9 i10"
            forbidden = "a1"
            "#,
        )
        .unwrap();
        let case = &file.cases[0];
        let mut b = case.board(&file).unwrap();
        let err = check_rules(case, &file, &mut b).unwrap_err();
        assert!(err.contains("expected [a1], got [i8]"), "{err}");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let r: Result<SuiteFile, _> = toml::from_str("[[case]]\nname = \"x\"\nforbiden = \"a1\"\n");
        assert!(r.is_err());
    }
}
