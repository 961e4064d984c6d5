//! How much of the manager's memory limit the transposition table may take.

/// Hash size when the manager sets no memory limit and the command line none either.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash chosen automatically from `max_memory`.
pub const MAX_AUTO_HASH_MB: usize = 256;
/// Memory kept aside for everything but the hash (code, pattern tables, boards), in MB.
pub const BASE_MEMORY_MB: usize = 16;
/// Memory kept aside per search thread (stack and per-thread tables), in MB.
pub const THREAD_MEMORY_MB: usize = 2;

/// The hash size (MB) to use under a memory limit of `max_memory` bytes (0 = none) with
/// `threads` search threads; `wanted` is the size asked for on the command line, if any.
pub fn hash_for_memory(max_memory: u64, wanted: Option<usize>, threads: usize) -> usize {
    if max_memory == 0 {
        return wanted.unwrap_or(DEFAULT_HASH_MB).max(1);
    }
    let budget = (max_memory / (1024 * 1024)) as usize;
    let reserve = BASE_MEMORY_MB + THREAD_MEMORY_MB * threads.max(1);
    budget
        .saturating_sub(reserve)
        .min(wanted.unwrap_or(MAX_AUTO_HASH_MB))
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_fits_the_memory_limit() {
        assert_eq!(hash_for_memory(0, None, 1), DEFAULT_HASH_MB);
        assert_eq!(hash_for_memory(0, Some(8), 4), 8);
        assert_eq!(
            hash_for_memory(350 * 1024 * 1024, None, 1),
            MAX_AUTO_HASH_MB
        );
        assert_eq!(hash_for_memory(350 * 1024 * 1024, Some(32), 1), 32);
        assert_eq!(
            hash_for_memory(50 * 1024 * 1024, None, 2),
            50 - BASE_MEMORY_MB - 4
        );
        assert_eq!(hash_for_memory(10 * 1024 * 1024, None, 1), 1);
    }
}
