//! How a command ended besides success or error: interrupted (exit 130), regression found
//! or a replay that diverged (exit 1).

/// A signal stopped the command (what was played is already written and the resume command
/// printed): exit status 130.
#[derive(Debug)]
pub(crate) struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// This program's command line, as one line a shell reads back the same.
pub(crate) fn this_command() -> String {
    wuzi_arena::run_dir::this_command("wuzi-arena")
}

/// The gate found a regression: exit status 1 (its report is already printed).
#[derive(Debug)]
pub(crate) struct RegressionFound;

impl std::fmt::Display for RegressionFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("regression found")
    }
}

impl std::error::Error for RegressionFound {}

/// `replay` played the game differently from its record: exit status 1 (the first divergent
/// move is already printed), so scripts can tell it from an error (2).
#[derive(Debug)]
pub(crate) struct Diverged;

impl std::fmt::Display for Diverged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the replay diverged from the record")
    }
}

impl std::error::Error for Diverged {}
