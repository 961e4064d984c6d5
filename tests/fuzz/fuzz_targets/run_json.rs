//! The run folder's configuration reader: any bytes as `run.json` (or a shard's run file, when
//! the first byte is odd), opened as `summary`, `chart` and `resume` open a folder; a folder
//! that opens is summarised (no games yet) and its schedule built.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_arena::config::Schedule;
use wuzi_arena::run_dir::RunDir;
use wuzi_arena::summary::{render, summarize};

fuzz_target!(|data: &[u8]| {
    let (first, rest) = wuzi_fuzz::split(data);
    let dir = wuzi_fuzz::folder("run-json");
    let name = if first % 2 == 1 {
        "run-shard-1-of-2.json"
    } else {
        "run.json"
    };
    wuzi_fuzz::put(&dir, name, rest);
    let Ok(run) = RunDir::open(&dir) else {
        return;
    };
    let config = run.config();
    config.validate().expect("an opened run is valid");
    let games = run.games().expect("a folder without records has none");
    let _ = render(&summarize(&config, &games));
    let schedule = Schedule::new(&config);
    let _ = schedule.opening(0);
    let _ = run.resume_command();
});
