//! What the fuzz targets share: a scratch folder per process for the readers that take a
//! path, and the fixed, valid surroundings (a run configuration, a tune configuration) that
//! the fuzzed file is read against. Every target calls the project's own readers; none copies
//! parser code.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wuzi_arena::RunConfig;
use wuzi_tuner::{TuneConfig, TuneSpec};

/// A real `run.json` (a two-pair renju match on the two openings of [`OPENINGS`], node
/// limits), the run the fuzzed records are checked against.
pub const RUN_JSON: &str = include_str!("../seeds/run.json");
/// A small tune spec over two parameters and the two openings of [`OPENINGS`] (no random
/// openings, so it resolves in milliseconds).
pub const TUNE_SPEC: &str = include_str!("../seeds/tune.toml");
/// The opening file of [`TUNE_SPEC`].
pub const OPENINGS: &str = include_str!("../seeds/openings.txt");

/// This process's scratch folder (created once, in memory under `/dev/shm` where there is
/// one, else under the system's temporary folder): the readers that take a path read the
/// fuzzed bytes from there.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("wuzi-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    })
}

/// A fresh sub-folder `name` of the scratch folder (emptied).
pub fn folder(name: &str) -> PathBuf {
    let dir = scratch().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch sub-folder");
    dir
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn put(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("scratch write");
    path
}

/// The run of [`RUN_JSON`].
pub fn run_config() -> &'static RunConfig {
    static CONFIG: OnceLock<RunConfig> = OnceLock::new();
    CONFIG.get_or_init(|| serde_json::from_str(RUN_JSON).expect("the seed run.json reads"))
}

/// The tune of [`TUNE_SPEC`], resolved.
pub fn tune_config() -> &'static TuneConfig {
    static CONFIG: OnceLock<TuneConfig> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let spec = TuneSpec::parse(TUNE_SPEC, Path::new("tune.toml")).expect("seed spec parses");
        let dir = folder("tune-spec-seed");
        put(&dir, "openings.txt", OPENINGS.as_bytes());
        spec.resolve(&dir).expect("seed spec resolves")
    })
}

/// Splits a fuzz input into a selector byte and the rest (0 and the empty input when empty).
pub fn split(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&first, rest)) => (first, rest),
        None => (0, data),
    }
}
