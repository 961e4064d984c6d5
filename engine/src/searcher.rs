//! The player kinds of the engine, behind one face: the full engine or the classic
//! reference player. Callers that let the user choose (a preset name) hold a [`Searcher`];
//! neither kind knows the other.

use crate::board::Board;
use crate::classic::Classic;
use crate::limits::Limits;
use crate::params::Params;
use crate::search::{Engine, Info};
use crate::search_result::SearchResult;

/// One of the engine's player kinds.
pub enum Searcher {
    /// The engine: parameters, a transposition table and threads.
    Engine(Engine),
    /// The classic reference player (see [`crate::classic`]): textbook alpha-beta to depth 4
    /// with the classic score table.
    Classic(Classic),
}

impl Searcher {
    /// A player from a preset name: `default` (the engine with default parameters, `tt_mb`
    /// megabytes of hash and `threads` threads) or `classic` (which takes neither).
    pub fn preset(name: &str, tt_mb: usize, threads: usize) -> Option<Searcher> {
        match name {
            "default" => Some(Engine::new(Params::default(), tt_mb, threads).into()),
            "classic" => Some(Classic.into()),
            _ => None,
        }
    }

    /// Is this the classic reference player?
    pub fn is_classic(&self) -> bool {
        matches!(self, Searcher::Classic(_))
    }

    /// Forgets everything learned (a new game).
    pub fn new_game(&mut self) {
        match self {
            Searcher::Engine(e) => e.new_game(),
            Searcher::Classic(_) => {}
        }
    }

    /// Searches `board` for the side to move. `on_info` is called after each iteration of
    /// the engine (the classic player reports none).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        on_info: Option<&mut dyn FnMut(&Info)>,
    ) -> SearchResult {
        match self {
            Searcher::Engine(e) => e.search(board, limits, on_info),
            Searcher::Classic(c) => c.search(board, limits),
        }
    }
}

impl From<Engine> for Searcher {
    fn from(e: Engine) -> Searcher {
        Searcher::Engine(e)
    }
}

impl From<Classic> for Searcher {
    fn from(c: Classic) -> Searcher {
        Searcher::Classic(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::rule::Rule;

    #[test]
    fn presets_name_the_player_kinds() {
        assert!(Searcher::preset("classic", 1, 1).unwrap().is_classic());
        assert!(!Searcher::preset("default", 1, 1).unwrap().is_classic());
        assert!(Searcher::preset("strong", 1, 1).is_none());
    }

    #[test]
    fn the_classic_kind_plays_the_classic_search() {
        let moves = Pos::parse_list("h8 a1 i8 a3 j8 a5 k8", 15).unwrap();
        let b = Board::from_moves(15, Rule::Renju, &moves).unwrap();
        let l = Limits::depth(2);
        let mut s = Searcher::preset("classic", 1, 1).unwrap();
        let r = s.search(&b, &l, None);
        let c = crate::classic::search(&b, &l, crate::classic::DEPTH);
        assert_eq!((r.best, r.score, r.nodes), (c.best, c.score, c.nodes));
        assert_eq!(r.mate, Some(-2));
    }
}
