//! Which code this build is: the package version and the git commit stamped by `build.rs`.
//!
//! Every binary reports it (`--version`, the brain's `ABOUT`), so a build can always be traced
//! to its sources; the strength gate relies on it to prove that a baseline built from a git
//! reference really is that reference's code.

/// The package version (`0.1.0`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The stamp `build.rs` wrote: the full commit hash, the hash followed by `-dirty` when the
/// engine's sources differ from that commit, or `unknown` when the build was not made from a
/// git checkout (a source tarball).
pub const COMMIT_STAMP: &str = env!("WUZI_BUILD_COMMIT");

/// The commit a build came from, as read from its stamp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildCommit {
    /// The full commit hash, `None` when unknown.
    pub hash: Option<String>,
    /// The engine's sources differed from the commit (uncommitted changes).
    pub dirty: bool,
}

impl BuildCommit {
    /// Reads a stamp (`<hash>`, `<hash>-dirty` or `unknown`); anything that is not a hex hash
    /// of 7 to 64 digits counts as unknown.
    pub fn parse(stamp: &str) -> BuildCommit {
        let stamp = stamp.trim();
        let (hash, dirty) = match stamp.strip_suffix("-dirty") {
            Some(h) => (h, true),
            None => (stamp, false),
        };
        let is_hash = (7..=64).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit());
        BuildCommit {
            hash: is_hash.then(|| hash.to_ascii_lowercase()),
            dirty: is_hash && dirty,
        }
    }

    /// This build's commit.
    pub fn current() -> BuildCommit {
        BuildCommit::parse(COMMIT_STAMP)
    }

    /// `abc1234`, `abc1234-dirty` or `unknown`.
    pub fn short(&self) -> String {
        match &self.hash {
            Some(h) => format!(
                "{}{}",
                &h[..h.len().min(7)],
                if self.dirty { "-dirty" } else { "" }
            ),
            None => "unknown".to_string(),
        }
    }

    /// The stamp again: `<full hash>`, `<full hash>-dirty` or `unknown`.
    pub fn stamp(&self) -> String {
        match &self.hash {
            Some(h) => format!("{h}{}", if self.dirty { "-dirty" } else { "" }),
            None => "unknown".to_string(),
        }
    }
}

/// The version with the short commit, `0.1.0 (abc1234)`, as `ABOUT` and `-V` show it.
pub const VERSION_WITH_COMMIT: &str = env!("WUZI_VERSION");

/// The `--version` text after the program name: [`VERSION_WITH_COMMIT`], then a line
/// `commit <full stamp>` (what the strength gate reads).
pub const LONG_VERSION: &str =
    concat!(env!("WUZI_VERSION"), "\ncommit ", env!("WUZI_BUILD_COMMIT"));

/// Reads the commit from `--version` output ([`LONG_VERSION`] after the program name).
pub fn commit_from_version_output(text: &str) -> Option<BuildCommit> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("commit "))
        .map(BuildCommit::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_parse() {
        let h = "0123456789abcdef0123456789abcdef01234567";
        let c = BuildCommit::parse(h);
        assert_eq!(c.hash.as_deref(), Some(h));
        assert!(!c.dirty);
        assert_eq!(c.short(), "0123456");
        assert_eq!(c.stamp(), h);
        let d = BuildCommit::parse(&format!("{h}-dirty\n"));
        assert!(d.dirty);
        assert_eq!(d.short(), "0123456-dirty");
        assert_eq!(d.stamp(), format!("{h}-dirty"));
        for bad in ["unknown", "", "-dirty", "xyz1234567", "abc"] {
            let u = BuildCommit::parse(bad);
            assert_eq!(
                u,
                BuildCommit {
                    hash: None,
                    dirty: false
                },
                "{bad}"
            );
            assert_eq!(u.short(), "unknown");
        }
    }

    /// This crate is built from the project's git checkout in development and CI, so the
    /// stamp names a commit; a tarball build says `unknown`, which must still parse.
    #[test]
    fn this_build_has_a_stamp() {
        let c = BuildCommit::current();
        assert_eq!(c.stamp(), COMMIT_STAMP);
        assert_eq!(VERSION_WITH_COMMIT, format!("{VERSION} ({})", c.short()));
        let out = format!("pbrain-wuzi {LONG_VERSION}\n");
        assert_eq!(commit_from_version_output(&out), Some(c));
        assert_eq!(commit_from_version_output("pbrain-wuzi 0.1.0\n"), None);
    }
}
