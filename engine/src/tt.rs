//! Transposition table shared by search threads.
//!
//! Lock-free in the usual way: each entry stores `key ^ data` beside `data`, so a torn
//! write by another thread shows up as a key mismatch and is ignored. Buckets of four
//! 16-byte entries fill one 64-byte cache line; replacement prefers empty, stale (older
//! search) and shallow entries.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a beta cut-off).
    Lower,
    /// At most this score (no move raised alpha).
    Upper,
}

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best move as a padded cell index (0 = none).
    pub mv: u16,
    /// Score (mate scores relative to the node).
    pub score: i32,
    /// Static evaluation stored with it.
    pub eval: i32,
    /// Search depth in plies.
    pub depth: i32,
    /// Kind of score.
    pub bound: Bound,
}

const BUCKET: usize = 4;

/// The shared table.
pub struct TransTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    age: AtomicU8,
}

fn pack(e: &TtEntry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (e.mv as u64)
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.eval as i16 as u16 as u64) << 32)
        | (((e.depth.clamp(0, 127) as u64) & 0x7F) << 48)
        | (bound << 55)
        | (((age & 0x3F) as u64) << 57)
}

fn unpack(d: u64) -> (TtEntry, u8) {
    let bound = match (d >> 55) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        TtEntry {
            mv: d as u16,
            score: (d >> 16) as u16 as i16 as i32,
            eval: (d >> 32) as u16 as i16 as i32,
            depth: ((d >> 48) & 0x7F) as i32,
            bound,
        },
        ((d >> 57) & 0x3F) as u8,
    )
}

impl TransTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TransTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (16 * BUCKET)).next_power_of_two() / 2;
        let n = buckets.max(1) * BUCKET;
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        TransTable {
            slots,
            mask: buckets.max(1) - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * BUCKET
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let k = s[0].load(Ordering::Relaxed);
            let d = s[1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores an entry for `key`.
    #[inline]
    pub fn store(&self, key: u64, e: TtEntry) {
        let age = self.age.load(Ordering::Relaxed) & 0x3F;
        let b = self.bucket(key);
        let mut victim = b;
        let mut worst = i32::MAX;
        for (i, s) in self.slots[b..b + BUCKET].iter().enumerate() {
            let k = s[0].load(Ordering::Relaxed);
            let d = s[1].load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                if d != 0 && k ^ d == key {
                    let (old, _) = unpack(d);
                    // Keep a deeper exact result's move when the new one has none.
                    if e.mv == 0 && old.mv != 0 && old.depth > e.depth + 2 {
                        return;
                    }
                }
                victim = b + i;
                break;
            }
            let (old, old_age) = unpack(d);
            let stale = if old_age == age { 0 } else { 64 };
            let merit = old.depth - stale;
            if merit < worst {
                worst = merit;
                victim = b + i;
            }
        }
        let d = pack(&e, age);
        self.slots[victim][0].store(key ^ d, Ordering::Relaxed);
        self.slots[victim][1].store(d, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TransTable::new(1);
        let e = TtEntry {
            mv: 345,
            score: -29_990,
            eval: 1234,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_1234_5678, e);
        let got = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            (got.mv, got.score, got.eval, got.depth, got.bound),
            (345, -29_990, 1234, 17, Bound::Lower)
        );
        assert!(tt.probe(0x1234).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn size_is_bounded() {
        let tt = TransTable::new(16);
        assert!(tt.bytes() <= 16 * 1024 * 1024);
        assert!(tt.bytes() >= 4 * 1024 * 1024);
    }
}
