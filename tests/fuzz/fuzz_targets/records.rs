//! The records reader: any bytes as `games.jsonl` of a real run (its `run.json`, read once),
//! read as every command that reads a run folder reads it (each record checked against the
//! run), then summarised and rendered (text, per opening). (Opening the folder itself, its
//! `run.json`, is the `run_json` target's.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_arena::record::read_records;
use wuzi_arena::run_dir::load_records_file;
use wuzi_arena::summary::{render, render_openings, summarize, GameLite, GameMap};

fuzz_target!(|data: &[u8]| {
    let config = wuzi_fuzz::run_config();
    let games = wuzi_fuzz::put(wuzi_fuzz::scratch(), "games.jsonl", data);
    if let Ok(file) = read_records(&games) {
        assert!(file.valid_len <= data.len() as u64);
    }
    if let Ok(records) = load_records_file(config, &games, false) {
        let map: GameMap = records
            .iter()
            .map(|r| (r.key(), GameLite::from_record(r)))
            .collect();
        let summary = summarize(config, &map);
        let _ = render(&summary);
        let _ = render_openings(&summary);
    }
});
