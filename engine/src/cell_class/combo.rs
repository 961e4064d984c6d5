//! The combinations a cell can earn a bonus for.

/// A combination bonus a cell can earn on top of its four line values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Combo {
    /// A four and an open three (`w_four_three`).
    FourThree = 0,
    /// Two open threes (`w_double_three`).
    DoubleThree = 1,
    /// An open four or two fours (`w_double_four`).
    DoubleFour = 2,
    /// An open three and an open two (`w_three_two`).
    ThreeTwo = 3,
}
