//! The protocol transcript of one game: every line sent to the brain (`>`) and read from it
//! (`<`), kept as a short tail for the record of a failure and, with `--log-io`, written to a
//! file as it happens.
//!
//! Both the player (lines it sends) and the reader thread (lines the brain prints) write to
//! it, so a line is logged when it is read, not when the player gets round to it: a brain
//! that floods its output or a game killed mid-move still leaves what was said.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::protocol::quote;

/// Lines of the game's transcript kept for the record of a crash, time loss or illegal move.
pub const TAIL_LINES: usize = 20;

/// The transcript shared by the player and the reader thread of its brain.
pub(super) type Shared = Arc<Mutex<Transcript>>;

/// One game's transcript (see the [module documentation](self)).
#[derive(Default)]
pub(super) struct Transcript {
    /// The game's start: log timestamps count from it.
    start: Option<Instant>,
    /// The last [`TAIL_LINES`] lines, `> text` or `< text` (quoted: cut, control bytes escaped).
    tail: VecDeque<String>,
    /// The `--log-io` file of the game, written unbuffered line by line so that a killed
    /// arena leaves everything said up to the kill.
    file: Option<File>,
}

impl Transcript {
    /// A game starts: the tail is emptied, timestamps count from now, and lines also go to
    /// `file` (with a header) when given.
    pub(super) fn begin(&mut self, file: Option<File>, header: &str) {
        self.start = Some(Instant::now());
        self.tail.clear();
        self.file = file;
        if let Some(f) = self.file.as_mut() {
            let _ = f.write_all(format!("{header}\n").as_bytes());
        }
    }

    /// Records `text` (one or more lines) in direction `dir` (`'>'` sent, `'<'` received).
    pub(super) fn record(&mut self, dir: char, text: &str) {
        let ms = self.start.map_or(0, |s| s.elapsed().as_millis());
        // Split on LF alone: received lines come one at a time (blank ones included), sent
        // text is lines joined by LF.
        for line in text.split('\n') {
            if self.tail.len() == TAIL_LINES {
                self.tail.pop_front();
            }
            self.tail.push_back(format!("{dir} {}", quote(line)));
            if let Some(f) = self.file.as_mut() {
                // One write per line: a log is best effort and never stops a game.
                let _ = f.write_all(format!("{ms:>8} {dir} {line}\n").as_bytes());
            }
        }
    }

    /// The game is over: the file is flushed and closed, and the tail handed over.
    pub(super) fn finish(&mut self) -> Vec<String> {
        if let Some(mut f) = self.file.take() {
            let _ = f.flush();
            let _ = f.sync_data();
        }
        self.tail.drain(..).collect()
    }
}

/// Records into a shared transcript, whatever a panicking holder left in it.
pub(super) fn record(shared: &Shared, dir: char, text: &str) {
    let mut t = shared.lock().unwrap_or_else(|e| e.into_inner());
    t.record(dir, text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_cut_and_escaped() {
        let mut t = Transcript::default();
        t.begin(None, "");
        for i in 0..30 {
            t.record('>', &format!("TURN {i},0"));
        }
        t.record('<', &format!("{}\u{7}", "x".repeat(500)));
        let tail = t.finish();
        assert_eq!(tail.len(), TAIL_LINES);
        assert_eq!(tail[0], "> TURN 11,0");
        let last = tail.last().expect("a line");
        assert!(last.starts_with("< xxx") && last.len() < 200, "{last}");
        assert!(t.finish().is_empty(), "a new game starts empty");
    }
}
