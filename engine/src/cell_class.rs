//! What a stone on an empty cell would make, as classes: its threat class ([`threat`]), the
//! combination it earns a bonus for ([`combo`]), and its class in the combination table
//! ([`table`]), all read from the cell's packed pattern summary. Pure functions of the
//! patterns, below the parameters that weight them (see [`crate::eval`]).

pub mod code;
pub mod combo;
pub mod entries;
pub mod mask;
pub(crate) mod summary;
pub mod table;
pub mod threat;
