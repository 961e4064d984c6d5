//! Openings: the 26 canonical renju openings in their 8 board symmetries, Gomocup offset files,
//! move-list files and a seeded generator of balanced random openings.
//!
//! An opening is a list of moves from the empty board, black first. Every opening is played
//! as a game pair with colours swapped (see `harness.md`, "Game pairs"). An opening list keeps
//! each position once ([`dedupe`]): expanding an opening into its 8 symmetric images gives
//! fewer than 8 positions when the opening lies on a mirror axis, and the duplicates go.

mod file;
mod moves;
mod random;
mod renju26;
mod source;

pub use file::{check_all, detect_format, load_file, parse_text, FileFormat};
pub use moves::{centre, dedupe, from_offset, with_symmetries, Opening};
pub use random::{below, progress_bar, random, random_with, show_progress, RandomSpec};
pub use renju26::{renju26, renju26_base, RenjuOpening, RENJU26};
pub use source::Source;
