//! The padded cell array: a wall border around the board, so that no scan along a line
//! needs a bounds check.

use crate::pos::Pos;

/// Width of the wall border around the board: no scan needs a bounds check.
pub(crate) const PAD: usize = 5;
/// Row stride of the padded cell array.
pub(crate) const STRIDE: usize = 32;
/// Cells in the padded array (rows 0..30 of 32).
pub(crate) const CELLS: usize = 1024;
/// Index steps of the four directions: horizontal, vertical, diagonal, anti-diagonal.
pub(crate) const DIR_STEP: [isize; 4] =
    [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];

/// Padded index of a point.
#[inline]
pub(crate) const fn idx_of(p: Pos) -> usize {
    (p.y() + PAD) * STRIDE + p.x() + PAD
}

/// The point of a padded index that lies on the board.
#[inline]
pub(crate) const fn pos_of(idx: usize) -> Pos {
    Pos::new(idx % STRIDE - PAD, idx / STRIDE - PAD)
}
