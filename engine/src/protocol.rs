//! The Gomocup (piskvork) brain protocol: command parsing and the brain's state machine.
//!
//! [`Command::parse`] turns one input line into a command; [`Brain`] holds the game and
//! the settings the manager sent, answers each line on any [`Write`], and never loses the
//! game state on bad input: a malformed command gets `ERROR text`, an unknown one
//! `UNKNOWN text`, and the game goes on. [`run`] drives a brain from any [`BufRead`] until
//! `END` or the end of the input; the `pbrain-wuzi` binary is a thin wrapper around it.
//!
//! Stones are kept as moves in play order (a `BOARD` set-up is replayed move by move), so
//! a change of rule in mid-game, a `TAKEBACK` and renju's history all stay exact.
//!
//! The Yixin-Board extensions (as Rapfi speaks them) are understood too: `INFO max_node N` and
//! `INFO max_depth N` limit every search (0 lifts the limit) and, while either is set, the
//! brain ignores the clock and searches on one thread, so its moves are a function of the
//! position and its games are reproducible; `YXBOARD` sets a position up without a move;
//! `YXSHOWFORBID` answers `FORBID ` and black's forbidden points as two-digit x then y, ended
//! by `.` (`FORBID 0907.`; none unless renju with black to move); `YXHASHCLEAR` empties the
//! transposition table; `SWAP2BOARD` plays the swap2 opening rule (see [`swap2`]).
//!
//! Each file of `protocol/` owns one thing: the [`Command`] a line names (`command.rs`), a
//! board block's stone line (`board_line.rs`), the `INFO` [`Settings`] and the limits of a
//! move under them (`settings.rs`), the hash size under a memory limit (`memory.rs`), the
//! [`Brain`]'s state and its answers (`brain.rs` and `brain/`).

mod about;
mod board_line;
mod brain;
mod command;
mod error;
mod memory;
mod reply;
mod rule_bits;
mod settings;
pub mod swap2;

pub use about::about;
pub use board_line::{parse_board_line, Owner};
pub use brain::{Brain, Flow};
pub use command::Command;
pub use error::ProtocolError;
pub use memory::{
    hash_for_memory, BASE_MEMORY_MB, DEFAULT_HASH_MB, MAX_AUTO_HASH_MB, THREAD_MEMORY_MB,
};
pub use rule_bits::rule_from_bits;
pub use settings::{
    Settings, DEFAULT_TIMEOUT_MATCH_MS, DEFAULT_TIMEOUT_TURN_MS, PANIC_NODES, QUICK_NODES,
};

use std::io::{self, BufRead, Read, Write};

/// Longest input line the brain reads (far more than any command needs); the rest of a
/// longer line is skipped, so a manager that sends garbage without newlines cannot make the
/// brain's memory grow without bound.
pub const MAX_INPUT_LINE: usize = 64 * 1024;

/// Runs a brain on `input` until `END` or the end of the input. Lines need not be UTF-8
/// (invalid bytes are replaced), may end in CRLF or LF, and are cut at [`MAX_INPUT_LINE`].
pub fn run(brain: &mut Brain, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if Read::take(&mut *input, MAX_INPUT_LINE as u64).read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        if buf.last() != Some(&b'\n') && buf.len() == MAX_INPUT_LINE {
            input.skip_until(b'\n')?;
        }
        let line = String::from_utf8_lossy(&buf);
        if brain.handle_line(&line, out)? == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;

    /// Regression (issue 22, untrusted input): a 1 MB line without a newline is cut at
    /// [`MAX_INPUT_LINE`], its rest skipped, and the next line is still read as a command.
    #[test]
    fn a_huge_line_is_cut_and_the_next_line_still_read() {
        let mut b = Brain::new(Params::default(), Some(1), 1);
        let mut input = "x".repeat(1 << 20).into_bytes();
        input.extend_from_slice(b"\nABOUT\nEND\n");
        let mut out = Vec::new();
        run(&mut b, &mut &input[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{}", &text[..200.min(text.len())]);
        assert!(lines[0].starts_with("UNKNOWN") && lines[0].len() < MAX_INPUT_LINE + 100);
        assert_eq!(lines[1], about());
    }

    #[test]
    fn run_reads_until_end() {
        let mut b = Brain::new(Params::default(), Some(1), 1);
        let input = b"about\r\nSTART 10\r\nEND\r\nSTART 15\r\n";
        let mut out = Vec::new();
        run(&mut b, &mut &input[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, format!("{}\nOK\n", about()));
        assert_eq!(b.board().unwrap().size(), 10);
    }
}
