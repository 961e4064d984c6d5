//! What a report embeds, and where it goes.

use crate::games;

/// File name of a report in the folder it describes.
pub const REPORT_FILE: &str = "report.html";

/// What a report embeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// Most games in the viewer (0: all); larger runs get a sample.
    pub max_games: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            max_games: games::DEFAULT_MAX_GAMES,
        }
    }
}
