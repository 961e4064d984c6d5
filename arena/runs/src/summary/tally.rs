//! Per-matchup tallies, built pair by pair in pair order: what the statistics keep of a game,
//! the pentanomial and W/D/L counts with their side counts, and the SPRT stopping rule.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use wuzi_engine::Stone;
use wuzi_games::record::GameRecord;
use wuzi_games::referee::Reason;
use wuzi_stats::{sprt_status, Outcome, Penta, SprtParams, SprtVerdict, Wdl};

use crate::config::RunConfig;

/// What the statistics need of one game (a finished game's record, reduced).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLite {
    /// Opening index.
    pub opening: usize,
    /// Game index within the pair (0: the first player has black).
    pub game: u8,
    /// Winning colour.
    pub winner: Option<Stone>,
    /// Why it ended.
    pub reason: Reason,
    /// Moves, nodes and milliseconds per colour (black, white), moves after the opening.
    pub moves: [u64; 2],
    /// Nodes searched per colour.
    pub nodes: [u64; 2],
    /// Wall time per colour in ms.
    pub ms: [u64; 2],
}

impl GameLite {
    /// Reduces a record.
    pub fn from_record(r: &GameRecord) -> GameLite {
        let mut moves = [0u64; 2];
        let mut nodes = [0u64; 2];
        let mut ms = [0u64; 2];
        // The first move after the opening is made by the side to move after it.
        let first = r.opening.opening.moves.len() % 2;
        for (i, m) in r.moves.iter().enumerate() {
            let c = (first + i) % 2;
            moves[c] += 1;
            nodes[c] += m.nodes.unwrap_or(0);
            ms[c] += m.ms;
        }
        GameLite {
            opening: r.opening.index,
            game: r.game,
            winner: r.winner,
            reason: r.reason,
            moves,
            nodes,
            ms,
        }
    }

    /// The result for the matchup's first player.
    pub fn outcome_for_first(&self) -> Outcome {
        let first = if self.game == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        match self.winner {
            None => Outcome::Draw,
            Some(w) if w == first => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }

    /// Colour index (0 black, 1 white) of the matchup's first player in this game.
    fn first_colour(&self) -> usize {
        usize::from(self.game)
    }
}

/// Finished games keyed by `(global pair, game)`.
pub type GameMap = HashMap<(u64, u8), GameLite>;

/// Where an SPRT decided.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// H0 or H1.
    pub verdict: SprtVerdict,
    /// Number of pairs counted when it decided.
    pub pairs: u64,
}

/// Per-opening counts (first player's view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OpeningTally {
    /// Pair counts.
    pub penta: Penta,
    /// Game counts.
    pub wdl: Wdl,
}

/// One matchup's counts, from its first player's point of view, built pair by pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Pentanomial pair counts.
    pub penta: Penta,
    /// W/D/L game counts.
    pub wdl: Wdl,
    /// Games won by black.
    pub black_wins: u64,
    /// Games won by white.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games by end reason.
    pub reasons: BTreeMap<Reason, u64>,
    /// Per opening index.
    pub openings: BTreeMap<usize, OpeningTally>,
    /// Moves, nodes and ms of the first and second player.
    pub moves: [u64; 2],
    /// Nodes searched by the first and second player.
    pub nodes: [u64; 2],
    /// Wall time of the first and second player, ms.
    pub ms: [u64; 2],
    /// Set when the SPRT decided (no more pairs are counted).
    pub decision: Option<Decision>,
}

impl Tally {
    /// Number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.pairs()
    }

    /// Counts one pair (both games) and, with an SPRT, checks whether it now decides.
    /// Returns `true` when this pair made the decision. Pairs after a decision are ignored.
    pub fn add_pair(&mut self, g0: &GameLite, g1: &GameLite, sprt: Option<&SprtParams>) -> bool {
        if self.decision.is_some() {
            return false;
        }
        let (o0, o1) = (g0.outcome_for_first(), g1.outcome_for_first());
        self.penta.add_pair(o0, o1);
        let entry = self.openings.entry(g0.opening).or_default();
        entry.penta.add_pair(o0, o1);
        for (g, o) in [(g0, o0), (g1, o1)] {
            self.wdl.add_game(o);
            entry.wdl.add_game(o);
            match g.winner {
                Some(Stone::Black) => self.black_wins += 1,
                Some(Stone::White) => self.white_wins += 1,
                None => self.draws += 1,
            }
            *self.reasons.entry(g.reason).or_default() += 1;
            let f = g.first_colour();
            for (who, c) in [(0, f), (1, 1 - f)] {
                self.moves[who] += g.moves[c];
                self.nodes[who] += g.nodes[c];
                self.ms[who] += g.ms[c];
            }
        }
        if let Some(params) = sprt {
            let status = sprt_status(&self.penta, params);
            if status.verdict != SprtVerdict::Continue {
                self.decision = Some(Decision {
                    verdict: status.verdict,
                    pairs: self.pairs(),
                });
                return true;
            }
        }
        false
    }
}

/// Counts every matchup from a set of finished games, pairs in local order, skipping pairs
/// that are not complete, stopping a matchup at its SPRT decision.
pub fn tally_all(config: &RunConfig, games: &GameMap) -> Vec<Tally> {
    (0..config.matchups.len())
        .map(|m| {
            let mut t = Tally::default();
            for local in 0..config.pairs {
                let g = config.global_pair(m, local);
                if let (Some(a), Some(b)) = (games.get(&(g, 0)), games.get(&(g, 1))) {
                    t.add_pair(a, b, config.sprt.as_ref());
                    if t.decision.is_some() {
                        break;
                    }
                }
            }
            t
        })
        .collect()
}
#[cfg(test)]
mod tests {
    use super::*;

    use super::super::test_support::lite;
    use wuzi_engine::Stone;
    use wuzi_games::referee::Reason;
    use wuzi_stats::{Penta, SprtParams, SprtVerdict, Wdl};

    #[test]
    fn tally_counts_from_the_first_players_side() {
        let mut t = Tally::default();
        // Game 0: first player black wins; game 1: first player white, black wins -> WL.
        t.add_pair(
            &lite(0, Some(Stone::Black)),
            &lite(1, Some(Stone::Black)),
            None,
        );
        // WW: first player wins both.
        t.add_pair(
            &lite(0, Some(Stone::Black)),
            &lite(1, Some(Stone::White)),
            None,
        );
        // DL.
        t.add_pair(&lite(0, None), &lite(1, Some(Stone::Black)), None);
        assert_eq!(t.penta, Penta::new([0, 1, 1, 0, 1]));
        assert_eq!(t.wdl, Wdl::new(3, 1, 2));
        assert_eq!((t.black_wins, t.white_wins, t.draws), (4, 1, 1));
        assert_eq!(t.reasons.get(&Reason::FullBoard), Some(&1));
        // First player: black in games 0 (1000 nodes) and white in games 1 (2000 nodes).
        assert_eq!(t.nodes, [3 * 3000, 3 * 3000]);
        assert_eq!(t.openings.get(&0).map(|o| o.penta.pairs()), Some(3));
    }

    #[test]
    fn sprt_stops_counting_at_the_decision() {
        let params = SprtParams::new(0.0, 50.0, wuzi_stats::EloModel::Logistic);
        let mut t = Tally::default();
        let mut decided_at = None;
        for k in 0..100 {
            if t.add_pair(
                &lite(0, Some(Stone::Black)),
                &lite(1, Some(Stone::White)),
                Some(&params),
            ) {
                decided_at = Some(k + 1);
            }
        }
        let n = decided_at.expect("decides");
        assert_eq!(t.pairs(), n);
        assert_eq!(t.decision.map(|d| d.verdict), Some(SprtVerdict::AcceptH1));
    }
}
