//! The `wuzi-arena` command's parts: its options ([`args`]) and one module per family of
//! commands, over the arena library.

pub mod adjudication;
pub mod analyze;
pub mod args;
pub mod bench;
pub mod gate;
pub mod inspect;
pub mod outcome;
pub mod replay;
pub mod run;
