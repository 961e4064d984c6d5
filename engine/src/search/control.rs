//! What the threads of one search share: its limits, its stop flag and node count, and
//! (Lazy SMP) the deepest iteration any thread completed.

use crate::search_result::SearchResult;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The nodes a millisecond a search is assumed to reach when it plans by time: about this
/// engine's rate on one core of the machines it is tuned on (0.9-1.3 M nodes/s in `wuzi
/// bench`). A plan, not a measurement, so that a search's budgets follow from its limits.
const NODES_PER_MS: u64 = 1000;

/// The limits and shared state of one search, read by every worker.
pub(super) struct Control<'a> {
    pub(super) start: Instant,
    pub(super) soft: Option<Duration>,
    pub(super) hard: Option<Duration>,
    /// `soft` is a plan scaled by the search's stability (a match clock binds).
    pub(super) saving: bool,
    pub(super) node_limit: u64,
    pub(super) depth_limit: i32,
    pub(super) stop: &'a AtomicBool,
    pub(super) shared_nodes: &'a AtomicU64,
    pub(super) threads: usize,
    /// Lazy SMP: the deepest iteration any thread completed, and its result.
    pub(super) completed: AtomicI32,
    pub(super) best: Mutex<Option<SearchResult>>,
}

impl Control<'_> {
    /// The nodes this search may take: its node limit, or as many as its hard time limit
    /// allows at [`NODES_PER_MS`]. The root's threat searches take a share of it, so that at
    /// a fixed time per move they take the share of the move they take at a node limit
    /// (without it, at 40 ms a move the root VCT's 10,000 nodes were a third of the move).
    pub(super) fn move_nodes(&self) -> u64 {
        let by_time = self.hard.map_or(u64::MAX, |h| {
            u64::try_from(h.as_millis())
                .unwrap_or(u64::MAX)
                .saturating_mul(NODES_PER_MS)
        });
        self.node_limit.min(by_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control<'a>(
        hard_ms: Option<u64>,
        nodes: u64,
        stop: &'a AtomicBool,
        shared: &'a AtomicU64,
    ) -> Control<'a> {
        Control {
            start: Instant::now(),
            soft: None,
            hard: hard_ms.map(Duration::from_millis),
            saving: false,
            node_limit: nodes,
            depth_limit: 10,
            stop,
            shared_nodes: shared,
            threads: 1,
            completed: AtomicI32::new(0),
            best: Mutex::new(None),
        }
    }

    /// The case the time-scaled root budgets were measured on: at 40 ms a move the root VCT
    /// gets 2,500 nodes (the 10,000 of `vct_nodes` took a third of the move), the VCF 10,000;
    /// at the gauntlets' 500 ms (445 ms hard) both keep their parameters' budgets.
    #[test]
    fn move_nodes_follow_the_tighter_limit() {
        let (stop, shared) = (AtomicBool::new(false), AtomicU64::new(0));
        assert_eq!(
            control(Some(40), u64::MAX, &stop, &shared).move_nodes() / 16,
            2500
        );
        assert_eq!(
            control(Some(40), u64::MAX, &stop, &shared).move_nodes() / 4,
            10_000
        );
        assert!(control(Some(445), u64::MAX, &stop, &shared).move_nodes() / 16 > 10_000);
        assert_eq!(
            control(Some(445), 30_000, &stop, &shared).move_nodes(),
            30_000
        );
        assert_eq!(control(None, 30_000, &stop, &shared).move_nodes(), 30_000);
        assert_eq!(
            control(None, u64::MAX, &stop, &shared).move_nodes(),
            u64::MAX
        );
    }
}
