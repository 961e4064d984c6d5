//! The threat-mask table: a value per combination of the threat classes both sides hold.
//!
//! The line values and the combination table add up what each cell is worth, one cell at a
//! time; they cannot say that a threat matters more when its owner is the side to move (an
//! open three of the mover's is a four next move, the opponent's must be answered). The
//! threat mask says which of five threat classes ([`MASK_CLASSES`]: open three, double three,
//! four, four-three, open four) each side has at least one empty cell of: five bits for the
//! side to move, five for the opponent. Each of the 1,024 masks, per colour to move, has an
//! entry `thr_<colour>_m<own bits>_o<opponent bits>` that the evaluation adds, with the bits in
//! the order of [`MASK_CLASSES`] (`thr_white_m00100_o10000`: white to move can make a four,
//! black can make an open three). Entries not given are 0. The board keeps the per-class
//! counts on every move already, so the mask costs five comparisons per evaluation. The table
//! counts under renju only, the rule its entries are fitted to; freestyle and standard
//! evaluate without it.

use super::entries::Entries;
use super::threat::Threat;
use crate::stone::Stone;
use std::sync::LazyLock;

/// The threat classes of the mask, lowest bit first.
pub const MASK_CLASSES: [Threat; 5] = [
    Threat::Three,
    Threat::DoubleThree,
    Threat::Four,
    Threat::FourThree,
    Threat::OpenFour,
];

/// Bits per side.
pub const MASK_BITS: usize = MASK_CLASSES.len();

/// Masks per colour to move.
pub const NMASK: usize = 1 << (2 * MASK_BITS);

/// Smallest entry allowed.
pub const MASK_MIN: i32 = -10000;
/// Largest entry allowed.
pub const MASK_MAX: i32 = 10000;

/// The mask of a position from each side's per-threat-class counts (indexed by
/// `Threat as usize`): the side to move's bits low, the opponent's above them.
#[inline]
pub fn mask_of(own: &[u16], opp: &[u16]) -> usize {
    let bits = |n: &[u16]| {
        MASK_CLASSES
            .iter()
            .enumerate()
            .fold(0, |m, (b, &t)| m | (usize::from(n[t as usize] > 0) << b))
    };
    bits(own) | (bits(opp) << MASK_BITS)
}

/// One side's bits as written in a name: the first class's bit first.
fn bit_string(bits: usize) -> String {
    (0..MASK_BITS)
        .map(|b| if bits >> b & 1 == 1 { '1' } else { '0' })
        .collect()
}

/// Every entry's name: black to move's 1,024 masks then white's, in mask order.
pub fn mask_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut v = Vec::with_capacity(2 * NMASK);
        for colour in ["black", "white"] {
            for m in 0..NMASK {
                let own = bit_string(m & ((1 << MASK_BITS) - 1));
                let opp = bit_string(m >> MASK_BITS);
                let name: &'static str =
                    Box::leak(format!("thr_{colour}_m{own}_o{opp}").into_boxed_str());
                v.push(name);
            }
        }
        v
    });
    &NAMES
}

/// Colour to move and mask of an entry name.
pub fn parse_mask_name(name: &str) -> Option<(Stone, usize)> {
    let rest = name.strip_prefix("thr_")?;
    let (colour, rest) = if let Some(r) = rest.strip_prefix("black_m") {
        (Stone::Black, r)
    } else {
        (Stone::White, rest.strip_prefix("white_m")?)
    };
    let (own, opp) = rest.split_once("_o")?;
    let bits = |s: &str| -> Option<usize> {
        if s.len() != MASK_BITS {
            return None;
        }
        s.bytes().enumerate().try_fold(0, |m, (b, ch)| match ch {
            b'0' => Some(m),
            b'1' => Some(m | 1 << b),
            _ => None,
        })
    };
    Some((colour, bits(own)? | (bits(opp)? << MASK_BITS)))
}

/// The entries of a parameter set, per colour to move and mask (see [`Entries`]).
pub type MaskTable = Entries<NMASK>;

impl MaskTable {
    /// The non-zero entries, as (name, value), black to move's first, in mask order.
    pub fn overrides(&self) -> Vec<(&'static str, i32)> {
        self.named(mask_names())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell_class::threat::NTHREAT;

    #[test]
    fn names_parse_back_to_their_mask() {
        let names = mask_names();
        assert_eq!(names.len(), 2 * NMASK);
        for (i, n) in names.iter().enumerate() {
            let colour = if i < NMASK {
                Stone::Black
            } else {
                Stone::White
            };
            assert_eq!(parse_mask_name(n), Some((colour, i % NMASK)), "{n}");
        }
        assert_eq!(names[NMASK + 4], "thr_white_m00100_o00000");
        assert_eq!(names[1 << MASK_BITS], "thr_black_m00000_o10000");
        for bad in [
            "thr_grey_m00000_o00000",
            "thr_black_m0000_o00000",
            "thr_black_m00002_o00000",
            "thr_black_m00000_o000001",
            "cmb_black_f0t0w0",
        ] {
            assert_eq!(parse_mask_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn mask_sets_a_bit_per_class_held() {
        let mut own = [0u16; NTHREAT];
        let mut opp = [0u16; NTHREAT];
        assert_eq!(mask_of(&own, &opp), 0);
        // Five, forbidden and no-threat cells are not in the mask.
        own[Threat::Five as usize] = 1;
        own[Threat::Forbidden as usize] = 3;
        own[Threat::None as usize] = 9;
        assert_eq!(mask_of(&own, &opp), 0);
        own[Threat::Four as usize] = 2;
        opp[Threat::Three as usize] = 1;
        opp[Threat::OpenFour as usize] = 4;
        assert_eq!(mask_of(&own, &opp), 0b00100 | (0b10001 << MASK_BITS));
        assert_eq!(mask_names()[mask_of(&own, &opp)], "thr_black_m00100_o10001");
    }

    #[test]
    fn a_table_of_zeros_equals_no_table() {
        let mut t = MaskTable::default();
        t.set(1, 17, 40);
        assert_ne!(t, MaskTable::default());
        assert_eq!(t.overrides(), vec![(mask_names()[NMASK + 17], 40)]);
        t.set(1, 17, 0);
        assert_eq!(t, MaskTable::default());
    }
}
