//! Ctrl-C, SIGTERM and SIGHUP: one process-wide flag that the runner, the referee, the gate
//! and the tuner consult, so that an interrupted run stops handing out games, drops the games
//! in flight between two moves (they are replayed, identically, on resume), writes the summary
//! and report of what was played, prints the command that resumes it and exits with
//! [`EXIT_STATUS`]. Finished games are never lost: each is appended to the records as it ends.
//!
//! A second signal exits at once, after killing every external brain still running (they
//! live in their own process groups, so the terminal's Ctrl-C does not reach them). So does
//! the first one before any game started ([`games_started`]): preparing openings or building
//! engines has nothing to keep, and waiting for it would only make Ctrl-C seem ignored.
//!
//! Without [`install`] (the library used by other programs, most tests) signals keep their
//! default effect and [`requested`] stays false unless [`request`] is called.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use thiserror::Error;

/// Exit status of a program stopped by a signal (128 + SIGINT, what shells report for Ctrl-C).
pub const EXIT_STATUS: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNALS: AtomicU32 = AtomicU32::new(0);
static PLAYING: AtomicBool = AtomicBool::new(false);

/// The signal handler could not be installed.
#[derive(Debug, Error)]
#[error("cannot handle Ctrl-C and SIGTERM: {0}")]
pub struct InstallError(#[from] ctrlc::Error);

/// Handles SIGINT, SIGTERM and SIGHUP for the rest of the process: the first sets the flag
/// (and says so on standard error), the second kills the external brains and exits with
/// [`EXIT_STATUS`]. Call it once, early, from a program's `main`.
pub fn install() -> Result<(), InstallError> {
    // ctrlc runs the handler on its own thread, not in signal context: printing and exiting
    // are safe here.
    ctrlc::set_handler(|| {
        if SIGNALS.fetch_add(1, Ordering::SeqCst) == 0 && PLAYING.load(Ordering::SeqCst) {
            REQUESTED.store(true, Ordering::SeqCst);
            eprintln!(
                "\ninterrupted: no new games, games in flight are dropped; writing what was \
                 played. Press Ctrl-C again to exit at once."
            );
        } else {
            wuzi_players::external::kill_all();
            if PLAYING.load(Ordering::SeqCst) {
                eprintln!("\ninterrupted again: exiting now (finished games are in the records)");
            } else {
                eprintln!("\ninterrupted before any game: exiting");
            }
            std::process::exit(i32::from(EXIT_STATUS));
        }
    })?;
    Ok(())
}

/// Has the process been asked to stop (a signal after [`install`], or [`request`])?
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Games are being played from here on: the first signal now stops cleanly (see the module
/// documentation) instead of exiting at once. The runner and the tuner call it.
pub fn games_started() {
    PLAYING.store(true, Ordering::SeqCst);
}

/// Asks everything that consults [`requested`] to stop, as the first signal does.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}
