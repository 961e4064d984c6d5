//! Pattern evaluation: per-cell values and threat classes derived from line patterns.
//!
//! Every empty cell has, for each colour, a value (what a stone there would make, summed
//! over its four lines, plus extras for combinations such as four-three) and a threat
//! class. The board keeps both up to date on every move, with their sums and per-class
//! counts, so the evaluation and "who threatens what" are O(1) at every node.
//!
//! The classes come from [`crate::cell_class`] (re-exported here); this module turns them
//! into values: the [`EvalWeights`] (`weights.rs`) and the [`EvalFeatures`] for fitting
//! (`features.rs`).

pub mod features;
mod weights;

pub use crate::cell_class::code;
pub use crate::cell_class::combo::Combo;
pub use crate::cell_class::mask;
pub use crate::cell_class::table;
pub use crate::cell_class::table::NCLASS;
pub(crate) use crate::cell_class::threat::classify;
pub use crate::cell_class::threat::{Threat, NTHREAT};
pub use features::{EvalFeatures, EVAL_PARAMS};
pub use weights::EvalWeights;
