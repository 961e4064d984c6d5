//! What the threads of one search share: its limits, its stop flag and node count, and
//! (Lazy SMP) the deepest iteration any thread completed.

use crate::search_result::SearchResult;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
