//! The recorded reference build that a gate without a baseline measures the candidate
//! against: `suites/reference.toml`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::GateError;

/// The recorded reference build ([`DEFAULT_REFERENCE`]): the last accepted engine commit, the
/// one whose change has the latest accepted line in `suites/strength-log.md`. Updated with each
/// accepted strength-log line, so that CI's gate measures every later commit against it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The full commit hash.
    pub commit: String,
    /// What that commit changed, for people reading the file and the report.
    #[serde(default)]
    pub what: String,
}

impl Reference {
    /// Reads and checks a reference file (a full 40-digit hex commit).
    pub fn load(path: &Path) -> Result<Reference, GateError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            GateError::Config(format!(
                "reference file {}: {e} (the gate without --baseline or --baseline-ref \
                 measures the candidate against the build named there; run from the \
                 repository's root or pass --reference FILE)",
                path.display()
            ))
        })?;
        let reference: Reference = toml::from_str(&text)
            .map_err(|e| GateError::Config(format!("reference file {}: {e}", path.display())))?;
        if reference.commit.len() != 40 || !reference.commit.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(GateError::Config(format!(
                "reference file {}: commit must be a full 40-digit hash, got '{}'",
                path.display(),
                reference.commit
            )));
        }
        Ok(reference)
    }
}
