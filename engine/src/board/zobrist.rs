//! Zobrist keys for the position hash.

use super::grid::CELLS;

/// One step of SplitMix64: the next state and its output.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys, fixed at compile time so hashes agree on every machine.
pub(super) static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut t = [[0u64; CELLS]; 2];
    let mut state = 0x5755_5A49_2024_0001u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix(state);
            state = s;
            t[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    t
};
/// XORed into the hash when white is to move.
pub(super) const ZOBRIST_SIDE: u64 = 0xD1B5_4A32_D192_ED03;
