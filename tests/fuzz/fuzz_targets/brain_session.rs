//! pbrain-wuzi's brain behind its command reader: any bytes as the manager's input drive a
//! real `Brain` through `protocol::run` (the function the binary calls), its state machine
//! included (games, set-ups, take-backs, swap2, settings).
//!
//! Searches are capped so that an input is a few milliseconds of work: the session starts
//! with `INFO max_node 1`, the input's own `max_node`/`max_depth` lines (which could lift the
//! cap and let the brain think for the protocol's default 30 s a move) are dropped, and so are
//! the lines that would start a search after the third (`BEGIN`, `TURN`, `DONE`), since every
//! search costs a millisecond of set-up whatever its limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_engine::protocol::{self, Brain, Command};
use wuzi_engine::Params;

/// Lines that may start a search, per input.
const SEARCHES: usize = 3;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = String::from("INFO max_node 1\n");
    let mut searches = 0;
    for line in text.lines() {
        let searching = match Command::parse(line) {
            Ok(Some(Command::Info(key, _))) if key == "max_node" || key == "max_depth" => continue,
            Ok(Some(Command::Begin | Command::Turn(..))) => true,
            _ => line.trim().eq_ignore_ascii_case("done"),
        };
        if searching {
            searches += 1;
            if searches > SEARCHES {
                continue;
            }
        }
        session.push_str(line);
        session.push('\n');
    }
    let mut brain = Brain::new(Params::default(), Some(1), 1);
    let mut out = Vec::new();
    protocol::run(&mut brain, &mut session.as_bytes(), &mut out).expect("writing to memory");
    // Every answer is a line of text the manager can read.
    let answer = String::from_utf8(out).expect("the brain answers in UTF-8");
    assert!(answer.is_empty() || answer.ends_with('\n'));
});
