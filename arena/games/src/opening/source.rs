//! Where a run's openings come from, parsed from the CLI and loaded into a checked list.

use wuzi_engine::Rule;

use super::file::{check_all, load_file, FileFormat};
use super::moves::{dedupe, with_symmetries, Opening};
use super::random::{random_with, RandomSpec};
use super::renju26::renju26_base;
use crate::error::{GamesError, Result};

/// Where a run's openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The 26 renju openings in all 8 symmetries (deduplicated).
    Renju26,
    /// Seeded random balanced openings.
    Random(RandomSpec),
    /// An opening file (Gomocup offsets or move lists).
    File {
        /// The file.
        path: std::path::PathBuf,
        /// Its format; `None` detects it.
        format: Option<FileFormat>,
        /// Also play every opening's 7 other symmetric images.
        symmetries: bool,
    },
}

impl Source {
    /// Parses the CLI form: `renju26`, `random`, `random:N`, `random:N:STONES` or a file path.
    pub fn parse(text: &str, format: Option<FileFormat>, symmetries: bool) -> Result<Source> {
        let lower = text.to_ascii_lowercase();
        if lower == "renju26" || lower == "renju" {
            return Ok(Source::Renju26);
        }
        if lower == "random" || lower.starts_with("random:") {
            let mut spec = RandomSpec::default();
            let mut parts = lower.split(':').skip(1);
            let bad = |what: &str, t: &str| GamesError::Opening {
                source_name: text.to_string(),
                line: None,
                message: format!("{what} '{t}' is not a positive integer (random:COUNT:STONES)"),
            };
            if let Some(c) = parts.next() {
                spec.count = c.parse().map_err(|_| bad("count", c))?;
            }
            if let Some(s) = parts.next() {
                spec.stones = s.parse().map_err(|_| bad("stones", s))?;
            }
            return Ok(Source::Random(spec));
        }
        Ok(Source::File {
            path: text.into(),
            format,
            symmetries,
        })
    }

    /// Loads the openings: generated, read and expanded, then deduplicated ([`dedupe`]) and
    /// checked on a `size` board under `rule`. Returns the openings, a one-line description of
    /// the source and the number of symmetric duplicates removed.
    pub fn load(
        &self,
        size: usize,
        rule: Rule,
        seed: u64,
    ) -> Result<(Vec<Opening>, String, usize)> {
        self.load_with(size, rule, seed, None, &mut |_, _| {})
    }

    /// [`Source::load`] for a run of at most `pairs` pairs per matchup, which plays at most
    /// `pairs` openings: random openings are generated only that far (the first `pairs` of the
    /// requested count, see [`random_with`]); `progress(made, wanted)` follows their generation.
    /// Other sources are cheap to read and are loaded whole.
    pub fn load_with(
        &self,
        size: usize,
        rule: Rule,
        seed: u64,
        pairs: Option<u64>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(Vec<Opening>, String, usize)> {
        if !(wuzi_engine::pos::MIN_SIZE..=wuzi_engine::pos::MAX_SIZE).contains(&size) {
            return Err(GamesError::Config(format!(
                "board size {size} is not supported (5 to 20)"
            )));
        }
        let (list, name) = match self {
            Source::Renju26 => (
                with_symmetries(&renju26_base(size)?, size),
                "renju26 (8 symmetries)".to_string(),
            ),
            Source::Random(spec) => {
                let needed = pairs.map_or(spec.count, |p| {
                    spec.count.min(usize::try_from(p).unwrap_or(usize::MAX))
                });
                let built = RandomSpec {
                    count: needed,
                    ..spec.clone()
                };
                let count = if needed < spec.count {
                    format!("{needed} of {} openings, one per pair,", spec.count)
                } else {
                    format!("{} openings", spec.count)
                };
                (
                    random_with(&built, size, rule, seed, progress)?,
                    format!(
                    "random ({count} of {} stones, radius {}, score within {} of {}, seed {seed})",
                    spec.stones,
                    spec.radius,
                    spec.max_score,
                    spec.centre.map_or("the median".to_string(), |c| c.to_string())
                ),
                )
            }
            Source::File {
                path,
                format,
                symmetries,
            } => {
                let base = load_file(path, size, *format)?;
                let list = if *symmetries {
                    with_symmetries(&base, size)
                } else {
                    base
                };
                let suffix = if *symmetries { " (8 symmetries)" } else { "" };
                (list, format!("{}{suffix}", path.display()))
            }
        };
        let (kept, removed) = dedupe(&list, size);
        check_all(&kept, size, rule, &name)?;
        Ok((kept, name, removed))
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse() {
        assert_eq!(
            Source::parse("renju26", None, false).expect("ok"),
            Source::Renju26
        );
        match Source::parse("random:12:5", None, false).expect("ok") {
            Source::Random(s) => assert_eq!((s.count, s.stones), (12, 5)),
            other => panic!("{other:?}"),
        }
        assert!(Source::parse("random:x", None, false).is_err());
        assert!(matches!(
            Source::parse("some/file.txt", None, true).expect("ok"),
            Source::File {
                symmetries: true,
                ..
            }
        ));
    }
}
