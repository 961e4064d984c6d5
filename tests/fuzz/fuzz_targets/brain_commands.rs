//! pbrain-wuzi's command reader: any bytes as the manager's input, split into lines as the
//! brain's `protocol::run` does (invalid UTF-8 replaced), each line read as a command
//! (`Command::parse`) and as a board block's stone line (`parse_board_line`), and the values
//! the brain reads from `INFO` lines (`rule`, `max_memory`) through its own readers. (The
//! brain behind the reader is the `brain_session` target.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_engine::pos::{MAX_SIZE, MIN_SIZE};
use wuzi_engine::protocol::{hash_for_memory, parse_board_line, rule_from_bits, Command};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Ok((x, y, _)) = parse_board_line(line) {
            let _ = (x, y);
        }
        match Command::parse(line) {
            Ok(Some(Command::Start(n) | Command::RectStart(n, _))) => {
                assert!((MIN_SIZE..=MAX_SIZE).contains(&n), "START {n} accepted");
            }
            Ok(Some(Command::Info(key, value))) => {
                assert_eq!(key, key.to_ascii_lowercase());
                if let Ok(bits) = value.parse::<u32>() {
                    let _ = rule_from_bits(bits);
                }
                if let Ok(bytes) = value.parse::<u64>() {
                    for threads in [1, 256] {
                        let mb = hash_for_memory(bytes, None, threads);
                        assert!(mb >= 1, "a hash of {mb} MB");
                    }
                }
            }
            Ok(Some(Command::Unknown(rest))) => assert!(!rest.is_empty()),
            _ => {}
        }
    }
});
