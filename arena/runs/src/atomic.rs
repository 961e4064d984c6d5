//! Files written whole or not at all, so that readers (other shards, `summary` during a run)
//! never see half of one.

use std::path::Path;

use crate::error::{ArenaError, Result};

/// Writes a file through a temporary file in the same folder and a rename, so that readers
/// (other shards, `summary` during a run) never see half of it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        use std::io::Write as _;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        ArenaError::io(path, e)
    })
}
