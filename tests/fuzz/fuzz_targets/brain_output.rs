//! The arena's reader of a brain's output: any bytes as what a brain prints. Lines are cut by
//! the reader thread's `read_capped_line` (small buffer and cap, so cuts fall everywhere),
//! then classified for a board of the size the first byte says, as the player does while it
//! waits for a move; `ABOUT` answers (and the player name taken from them) and `MESSAGE`
//! statistics are read too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;
use wuzi_arena::external::{
    about_name, classify, parse_about, parse_move, parse_stats, quote, read_capped_line, Line,
    MAX_ABOUT_NAME, QUOTE,
};

fuzz_target!(|data: &[u8]| {
    let (first, rest) = wuzi_fuzz::split(data);
    let size = 1 + first as usize % 25;
    let cap = 1 + (first as usize * 7) % 300;
    let mut reader = BufReader::with_capacity(16, rest);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_capped_line(&mut reader, &mut buf, cap) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => panic!("reading memory failed: {e}"),
        }
        assert!(buf.len() <= cap, "a line longer than the cap was kept");
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        match classify(line, size) {
            Line::Move(p) => assert!(p.x() < size && p.y() < size, "{line:?} -> {p:?}"),
            Line::OffBoard(detail) => assert!(detail.chars().count() < 2 * QUOTE, "{detail}"),
            Line::Message(m) => {
                let _ = parse_stats(&m);
            }
            Line::Skip | Line::Ok | Line::Refusal(_) | Line::Noise(_) => {}
        }
        // The refusal quotes the line: QUOTE characters, a control one escaped as
        // `\u{10ffff}` at worst.
        if let Err(e) = parse_move(line, size) {
            assert!(e.chars().count() <= 10 * QUOTE + 40, "{e}");
        }
        let q = quote(line);
        assert!(q.chars().count() <= 10 * QUOTE + 3, "{q}");
        assert!(!q.chars().any(char::is_control), "{q:?}");
        if let Some(name) = about_name(&parse_about(line)) {
            assert!(name.chars().count() <= MAX_ABOUT_NAME && !name.chars().any(char::is_control));
        }
    }
});
