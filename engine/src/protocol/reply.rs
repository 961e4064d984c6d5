//! Answering the manager: one flushed line, or `ERROR` for a failed command.

use super::error::ProtocolError;
use std::io::{self, Write};

/// Why a command failed: the manager's mistake (answered with `ERROR`) or the output's.
pub(super) enum Failure {
    Protocol(ProtocolError),
    Io(io::Error),
}

impl From<ProtocolError> for Failure {
    fn from(e: ProtocolError) -> Self {
        Failure::Protocol(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// Answers a failed command with `ERROR`; passes output errors on.
pub(super) fn finish(result: Result<(), Failure>, out: &mut dyn Write) -> io::Result<()> {
    match result {
        Ok(()) => Ok(()),
        Err(Failure::Protocol(e)) => reply(out, &format!("ERROR {e}")),
        Err(Failure::Io(e)) => Err(e),
    }
}

/// Writes one reply line and flushes it.
pub(super) fn reply(out: &mut dyn Write, text: &str) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}
