//! Games the summary tests share: one reduced game, and a pair of them in a one-matchup run.

use wuzi_engine::Stone;
use wuzi_games::referee::Reason;

use super::tally::{GameLite, GameMap};

pub(super) fn lite(game: u8, winner: Option<Stone>) -> GameLite {
    GameLite {
        opening: 0,
        game,
        winner,
        reason: if winner.is_some() {
            Reason::Five
        } else {
            Reason::FullBoard
        },
        moves: [10, 10],
        nodes: [1000, 2000],
        ms: [5, 5],
    }
}

/// Pair `g` of a one-matchup run: both games won by the first player (WW) or split (WL).
pub(super) fn insert_pair(games: &mut GameMap, g: u64, first_wins_both: bool) {
    games.insert((g, 0), lite(0, Some(Stone::Black)));
    let second = if first_wins_both {
        Stone::White
    } else {
        Stone::Black
    };
    games.insert((g, 1), lite(1, Some(second)));
}
