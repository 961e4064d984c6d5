//! Where a tune's state lives while the SPSA loop ([`crate::tune::drive`]) runs: a [`Store`]
//! hands out the next iteration to play with the theta to perturb around, holds the claim
//! while its games are played, and applies the step to the state it keeps.
//!
//! - [`local`]: one process; the state in memory, written to a tune folder after every step
//!   (or kept nowhere).
//! - [`shared`]: worker processes on one folder (on one machine or many, with a shared
//!   filesystem), the state replaced under the folder's lock, asynchronous as fishtest's.

pub mod local;
pub mod shared;

use crate::error::Result;
use crate::history::IterationRecord;
use crate::spsa::Perturbation;
use crate::state::{Totals, TuneState};

/// An iteration handed out to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    /// Iteration number `k` (1-based).
    pub iteration: u64,
    /// The theta to perturb around.
    pub theta: Vec<f64>,
    /// The store's mark of this claim (the shared store's claim token).
    pub token: u64,
}

/// What a store has for the loop next.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// Play this iteration.
    Play(Assignment),
    /// Every iteration this session should play is applied.
    Done,
    /// A signal asked to stop before the next iteration.
    Stop,
}

/// A step applied: the state after it and its history row.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The tune's state after the step.
    pub state: TuneState,
    /// The step's history row.
    pub record: IterationRecord,
}

/// A tune's state and where it is kept; see the module documentation.
pub trait Store {
    /// The next iteration to play (waiting, for a shared tune, while every iteration left is
    /// being played by other workers).
    fn claim(&mut self) -> Result<Turn>;

    /// Runs `play`, the games of `assignment`, while its claim is held.
    fn playing<T>(&self, assignment: &Assignment, play: impl FnOnce() -> Result<T>) -> Result<T>;

    /// Applies the step of `assignment` (perturbation `pert`, engine+'s results `batch`) to
    /// the current state and keeps it; `None` when the claim had been given up meanwhile and
    /// the result is discarded.
    fn record(
        &mut self,
        assignment: &Assignment,
        pert: &Perturbation,
        batch: &Totals,
    ) -> Result<Option<Applied>>;
}
