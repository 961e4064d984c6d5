//! The opening-file parsers: any text as an opening file (Gomocup offsets or move lists, or
//! detected), for the board size and rule the first byte says; openings that read are
//! checked against the rules, turned through the symmetries and deduplicated. The same text
//! is also read as an `--openings` source name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_arena::opening::{check_all, dedupe, parse_text, with_symmetries, FileFormat, Source};
use wuzi_engine::Rule;

fuzz_target!(|data: &[u8]| {
    let (first, rest) = wuzi_fuzz::split(data);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let size = 5 + first as usize % 16;
    let format =
        [None, Some(FileFormat::Gomocup), Some(FileFormat::Moves)][first as usize / 16 % 3];
    let rule = [Rule::Renju, Rule::Freestyle, Rule::Standard][first as usize / 48 % 3];
    if let Ok(openings) = parse_text(text, "fuzz.txt", size, format) {
        for o in &openings {
            assert!(!o.moves.is_empty());
            assert!(o.moves.iter().all(|p| p.x() < size && p.y() < size));
        }
        let _ = check_all(&openings, size, rule, "fuzz.txt");
        let all = with_symmetries(&openings, size);
        let (kept, _) = dedupe(&all, size);
        assert!(kept.len() <= all.len());
    }
    let _ = Source::parse(text.lines().next().unwrap_or(""), format, first % 2 == 0);
});
