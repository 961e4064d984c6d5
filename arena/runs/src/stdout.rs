//! Standard output for the arena's and tuner's commands: [`outln!`](crate::outln) and
//! [`out!`](crate::out) print like `println!` and `print!`, but a reader that has gone away
//! (`wuzi-arena summary DIR | head -1`, `wuzi-tune params | head`) is not a panic.
//!
//! These programs keep Rust's ignored SIGPIPE (they write to external brains' pipes, where a
//! brain that died must be an error the referee reports, not the end of the match), so a
//! closed standard output shows up as a write error; `println!` turned that into a panic and
//! exit status 101. Here the first failed write stops further output and the command goes on:
//! a tune or match piped into `head` still finishes and keeps every game, and the exit status
//! is the command's own.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `args` (and a newline if `newline`) to standard output and flushes it. After a
/// failed write nothing more is written; an error other than a closed pipe (a full disk
/// behind a redirection) is said once on standard error.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    let r = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    if let Err(e) = r {
        if !CLOSED.swap(true, Ordering::Relaxed) && e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("cannot write to standard output ({e}): the rest of it is dropped");
        }
    }
}

/// Has a write to standard output failed (so later output was dropped)?
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// `println!` for the commands' standard output, which a closed pipe does not make a panic
/// (see [`crate::stdout`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stdout::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!($($arg)*), true)
    };
}

/// `print!` for the commands' standard output, which a closed pipe does not make a panic
/// (see [`crate::stdout`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!($($arg)*), false)
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn macros_take_println_arguments() {
        // Formats as println! does; under the test harness stdout is captured, not closed.
        crate::outln!();
        crate::outln!("{} {x}", 1, x = 2);
        crate::out!("{:>4}\n", 3);
        assert!(!super::closed());
    }
}
