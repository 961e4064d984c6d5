//! wuzi engine: a Gomoku/Renju board with exact RIF rules, pattern evaluation and search.
//!
//! The board keeps, for every empty cell and direction, the line pattern a black or a
//! white stone would make there, updated incrementally from precomputed tables. Rules,
//! forbidden moves, evaluation and move generation all read those patterns.

#![warn(missing_docs)]
// Board code indexes several parallel arrays by direction; index loops read best there.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod board;
pub mod build_info;
pub mod cell_class;
pub mod classic;
pub mod clock;
pub mod eval;
pub mod fallback;
pub mod limits;
pub mod outcome;
pub mod params;
pub mod pattern;
pub mod play;
pub mod pos;
pub mod protocol;
pub mod rule;
pub mod score;
pub mod search;
pub mod search_result;
pub mod searcher;
pub mod stone;
pub mod suite;
pub mod threat;
pub mod tt;

pub use board::{Board, BoardError, MoveRecord};
pub use classic::Classic;
pub use clock::Clock;
pub use limits::Limits;
pub use outcome::{Outcome, WinReason};
pub use params::{ParamError, ParamSpec, Params};
pub use pattern::Pattern;
pub use pos::{NotationError, Pos};
pub use rule::Rule;
pub use search::Engine;
pub use search_result::SearchResult;
pub use searcher::Searcher;
pub use stone::Stone;
