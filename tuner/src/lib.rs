//! Tuner: SPSA tuning of engine parameters on top of the arena.

pub mod spsa;
