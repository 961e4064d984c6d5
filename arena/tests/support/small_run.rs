//! A small node-limited run for the integration tests that read run folders (replay,
//! analysis): included with `#[path = "support/small_run.rs"] mod small_run;`, since Cargo
//! builds every file directly in `tests/` as a test of its own.

use std::path::Path;

use wuzi_arena::config::RunConfig;
use wuzi_arena::opening;
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::run::{run, RunOptions};
use wuzi_engine::Params;

/// A renju match of two differently tuned engines at 300 nodes a move, two pairs, played
/// in-process into `dir`.
pub fn small_run(dir: &Path) {
    let limits = PlayerLimits {
        nodes: Some(300),
        hash_mb: 4,
        ..PlayerLimits::default()
    };
    let tweak = Params::from_file_and_settings(None, &["tempo=50".to_string()]).expect("valid");
    let mut config = RunConfig::new_match(
        GameSettings::default(),
        [
            PlayerSpec::engine("a", &Params::default(), limits.clone()),
            PlayerSpec::engine("b", &tweak, limits),
        ],
        opening::renju26(15).expect("fits"),
    );
    config.pairs = 2;
    config.seed = 11;
    let options = RunOptions {
        concurrency: 2,
        out: Some(dir.to_path_buf()),
        resume: false,
    };
    run(&config, &options, &mut |_| {}).expect("runs");
}

/// [`small_run`] into `run/` of a fresh temporary folder (removed when the folder is dropped).
pub fn temp_run() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("run");
    small_run(&dir);
    (tmp, dir)
}
