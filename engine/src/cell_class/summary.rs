//! A cell's packed pattern summary, unpacked.

/// A cell's packed summary unpacked (see [`crate::eval::EvalWeights`] for the packing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    /// A stone here makes five.
    pub five: bool,
    /// ... an open four.
    pub open: bool,
    /// ... a shape forbidden to renju black (overline, or two fours on one line).
    pub bad: bool,
    /// Fours made (an open four counts one, two fours on one line two).
    pub fours: usize,
    /// Open threes made.
    pub threes: usize,
    /// Open twos made.
    pub twos: usize,
}

impl Summary {
    /// Unpacks a summary key.
    #[inline]
    pub fn unpack(key: u16) -> Summary {
        let key = key as usize;
        Summary {
            five: key & 1 != 0,
            open: key & 2 != 0,
            bad: key & 4 != 0,
            fours: (key >> 3) & 15,
            threes: (key >> 7) & 7,
            twos: (key >> 10) & 7,
        }
    }
}
