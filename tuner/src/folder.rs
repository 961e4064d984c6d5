//! A tune folder's files: their names, the JSON files' reading and writing, the tune's
//! configuration (`tune.json`) and the parameter files (`start.toml`, `tuned.toml`).

use std::path::Path;

use crate::setting::Setting;
use serde::Serialize;

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::history;

/// The tune's configuration in a tune directory (written when the tune starts).
pub const CONFIG_FILE: &str = "tune.json";
/// Checkpoint file in a tune directory (replaced after every iteration).
pub const STATE_FILE: &str = "state.json";
/// History file in a tune directory.
pub const HISTORY_FILE: &str = "history.csv";
/// The tuned parameter set (updated after every iteration).
pub const TUNED_FILE: &str = "tuned.toml";
/// The starting parameter set.
pub const START_FILE: &str = "start.toml";
/// The shared state of a tune run by workers (replaced atomically under the lock).
pub const SHARED_FILE: &str = "shared.json";
/// Per-worker progress files (`workers/<worker>.json`).
pub const WORKERS_DIR: &str = "workers";

/// Reads a JSON file; an error names the file.
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| TuneError::io(path, e))?;
    serde_json::from_str(&text).map_err(|error| TuneError::Json {
        path: path.to_path_buf(),
        error,
    })
}

/// Replaces a JSON file atomically (pretty, with a final newline).
pub(crate) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|error| TuneError::Json {
        path: path.to_path_buf(),
        error,
    })?;
    history::write_atomic(path, &(text + "\n"))
}

/// Reads and checks the configuration of the tune in `dir` (`tune.json`).
pub fn load_config(dir: &Path) -> Result<TuneConfig> {
    let path = dir.join(CONFIG_FILE);
    if !path.exists() {
        return Err(TuneError::State(format!(
            "{} holds no tune ({CONFIG_FILE} is missing)",
            dir.display()
        )));
    }
    let config: TuneConfig = read_json(&path)?;
    config
        .validate()
        .map_err(|e| TuneError::State(format!("{}: {e}", path.display())))?;
    Ok(config)
}

/// A parameter file: a comment naming the tune, then [`Setting::to_toml`] (the engine's
/// full set, or a brain's tuned values).
pub fn param_file(params: &Setting, config: &TuneConfig, what: &str) -> String {
    let names: Vec<&str> = config.spsa.params.iter().map(|p| p.name.as_str()).collect();
    format!(
        "# wuzi-tune {what} parameters ({}; base: {})\n\n{}",
        names.join(", "),
        config.base_source,
        params.to_toml()
    )
}

/// Writes `dir/start.toml`: the tune's starting set.
pub(crate) fn write_start(dir: &Path, config: &TuneConfig) -> Result<()> {
    let start = config.start_setting()?;
    history::write_atomic(&dir.join(START_FILE), &param_file(&start, config, "start"))
}

/// Writes `dir/tuned.toml`: the tune's base with the tuned parameters at `theta`, rounded.
pub(crate) fn write_tuned(dir: &Path, config: &TuneConfig, theta: &[f64]) -> Result<()> {
    let tuned = config.setting_at(theta)?;
    history::write_atomic(&dir.join(TUNED_FILE), &param_file(&tuned, config, "tuned"))
}
