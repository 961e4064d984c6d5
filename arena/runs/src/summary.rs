//! Results: per-matchup tallies built pair by pair in pair order, the SPRT stopping rule, and
//! the run summary (`summary.json`) with its terminal tables.
//!
//! The summary is a pure function of the configuration and the set of finished games
//! ([`summarize`]), which is what makes `--resume`, `--shard` + `merge` and any concurrency
//! reach the same statistics: each matchup's pairs are counted in local pair order, and when
//! the matchup has an SPRT, counting stops at the first pair after which the SPRT decides.
//! Games played beyond that point (in flight when the decision came) are ignored.

mod data;
mod render;
mod tally;
#[cfg(test)]
mod test_support;

pub use data::{
    ms_per_move, summarize, summarize_tallies, write_summary, write_summary_to, Completion,
    MatchupSummary, OpeningResult, PlayerSummary, SprtSummary, Summary, SweepRow, SweepTable,
    Timing, SUMMARY_FILE,
};
pub use render::{
    completion_note, fmt_estimate, fmt_sprt, render, render_openings, uncounted_note,
};
pub use tally::{tally_all, Decision, GameLite, GameMap, OpeningTally, Tally};
