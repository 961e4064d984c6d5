//! The tune folder's state readers: any bytes as one of `shared.json` (a shared tune's
//! ledger), `state.json` (a checkpoint), `history.csv` or `tune.json`, the first byte saying
//! which, in a folder of a real tune; read by the loaders the workers and `resume` use, and
//! by `wuzi-tune status`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use wuzi_tuner::folder::{load_config, CONFIG_FILE, HISTORY_FILE, SHARED_FILE, STATE_FILE};
use wuzi_tuner::history::read_committed;
use wuzi_tuner::state::TuneState;
use wuzi_tuner::status::status;
use wuzi_tuner::store::shared::SharedState;

fuzz_target!(|data: &[u8]| {
    let config = wuzi_fuzz::tune_config();
    let (first, rest) = wuzi_fuzz::split(data);
    static TUNE_JSON: OnceLock<String> = OnceLock::new();
    let tune_json =
        TUNE_JSON.get_or_init(|| serde_json::to_string_pretty(config).expect("configs serialize"));
    let dir = wuzi_fuzz::scratch().join("tune-state");
    let _ = std::fs::create_dir(&dir);
    let files = [SHARED_FILE, STATE_FILE, HISTORY_FILE, CONFIG_FILE];
    let file = files[first as usize % 4];
    // The folder holds the real tune.json and the fuzzed file only.
    for other in files {
        if other == CONFIG_FILE {
            wuzi_fuzz::put(&dir, other, tune_json.as_bytes());
        } else {
            let _ = std::fs::remove_file(dir.join(other));
        }
    }
    let path = wuzi_fuzz::put(&dir, file, rest);
    let n = config.spsa.params.len();
    match file {
        SHARED_FILE => {
            if let Ok(state) = SharedState::load(&path, config) {
                assert_eq!(state.theta.len(), n);
                let _ = state.tune_state();
            }
        }
        STATE_FILE => {
            if let Ok(state) = TuneState::load(&path, config) {
                assert_eq!(state.theta.len(), n);
            }
        }
        HISTORY_FILE => {
            let _ = read_committed(&path, n, rest.len() as u64);
        }
        _ => {
            let _ = load_config(&dir);
        }
    }
    let _ = status(&dir);
});
