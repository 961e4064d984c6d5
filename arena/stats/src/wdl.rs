//! Trinomial W/D/L counts of single games and the statistics over games.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use crate::elo::elo;
use crate::estimate::{los, moments, nelo_estimate, score_estimate, Estimate};
use crate::outcome::Outcome;

/// The three possible game scores of engine A, indexed loss, draw, win.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

///
/// Game-level statistics ignore the pairing and over-state confidence when openings are
/// unbalanced; prefer [`Penta`] for decisions. Per-game formulas mirror the pentanomial ones
/// with games in place of pairs (fishtest handles both in `LLRcalc`/`stat_util`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wdl {
    /// Games engine A won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games engine A lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts given directly.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Records one game from engine A's side.
    pub fn add_game(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *slot = slot.saturating_add(1);
    }

    /// The same counts from engine B's side (wins and losses swapped).
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Number of games `n = W + D + L`.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// `(n, s, var)` over games, cells ordered loss, draw, win.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        moments(&GAME_SCORES, &counts)
    }

    /// Mean game score `s = (W + D/2) / n`; `None` without games.
    pub fn score(&self) -> Option<f64> {
        self.moments().map(|(_, s, _)| s)
    }

    /// Per-game score variance `var = sum p_i (a_i - s)^2` over loss/draw/win; `None` without
    /// games.
    pub fn variance(&self) -> Option<f64> {
        self.moments().map(|(_, _, var)| var)
    }

    /// Score with its 95% interval `s +- 1.96 * sqrt(var / n)`, clamped to `[0, 1]`
    /// (fishtest `stat_util.get_elo`, trinomial form). `None` without games.
    pub fn score_estimate(&self) -> Option<Estimate> {
        self.moments().map(|(n, s, var)| score_estimate(n, s, var))
    }

    /// Logistic Elo with the score interval mapped through [`elo`]; `None` without games.
    pub fn elo_estimate(&self) -> Option<Estimate> {
        self.score_estimate().map(|e| e.map(elo))
    }

    /// Normalized Elo over games, `(s - 0.5) / sqrt(var) * 800 / ln 10` (fishtest uses the
    /// per-game standard deviation `sqrt(var)` for trinomial results). `None` without games or
    /// with zero variance.
    pub fn nelo_estimate(&self) -> Option<Estimate> {
        let (n, s, var) = self.moments()?;
        nelo_estimate(n, s, var, var.sqrt())
    }

    /// LOS over games, `0.5 * (1 + erf((s - 0.5) / sqrt(2 var / n)))`, which for W/D/L equals
    /// the classic `0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))` up to the variance estimate.
    /// 1, 0 or 0.5 with zero variance; `None` without games.
    pub fn los(&self) -> Option<f64> {
        self.moments().map(|(n, s, var)| los(n, s, var))
    }

    /// Fraction of drawn games `D / n`; `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, rhs: Wdl) {
        self.wins = self.wins.saturating_add(rhs.wins);
        self.draws = self.draws.saturating_add(rhs.draws);
        self.losses = self.losses.saturating_add(rhs.losses);
    }
}

impl Add for Wdl {
    type Output = Wdl;
    fn add(mut self, rhs: Wdl) -> Wdl {
        self += rhs;
        self
    }
}

impl Sum for Wdl {
    fn sum<I: Iterator<Item = Wdl>>(iter: I) -> Wdl {
        iter.fold(Wdl::default(), Add::add)
    }
}

impl fmt::Display for Wdl {
    /// `W-D-L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::NELO_DIVIDED_BY_NT;
    use crate::normal::erf;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wdl_known_values() {
        let mut w = Wdl::default();
        for _ in 0..30 {
            w.add_game(Outcome::Win);
            w.add_game(Outcome::Loss);
        }
        for _ in 0..40 {
            w.add_game(Outcome::Draw);
        }
        assert_eq!(w, Wdl::new(30, 40, 30));
        assert_eq!(w.games(), 100);
        assert_eq!(w.score(), Some(0.5));
        assert!(close(w.variance().unwrap_or(f64::NAN), 0.15, 1e-15));
        assert_eq!(w.draw_ratio(), Some(0.4));
        assert_eq!(w.to_string(), "30-40-30");
        assert_eq!(w + Wdl::new(1, 0, 0), Wdl::new(31, 40, 30));
        assert_eq!([w, w].into_iter().sum::<Wdl>(), Wdl::new(60, 80, 60));
        assert_eq!(w.flipped(), w);

        // Trinomial nElo uses the per-game sigma sqrt(var).
        let w = Wdl::new(40, 35, 25);
        let (s, var) = (0.575, 0.4 * 0.25 + 0.35 * 0.0 + 0.25 * 0.25 - 0.075 * 0.075);
        assert!(close(w.variance().unwrap_or(f64::NAN), var, 1e-12));
        let ne = w.nelo_estimate().expect("variance");
        assert!(close(
            ne.value,
            (s - 0.5) / var.sqrt() * NELO_DIVIDED_BY_NT,
            1e-9
        ));
        // LOS close to the classic (W - L) / sqrt(2 (W + L)) form.
        let classic = 0.5 * (1.0 + erf(15.0 / (2.0f64 * 65.0).sqrt()));
        assert!(close(w.los().unwrap_or(f64::NAN), classic, 0.01));
    }
}
