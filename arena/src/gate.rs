//! The strength-regression gate (`wuzi-arena gate`): a CI check that a change does not make the
//! engine weaker.
//!
//! # What it does
//!
//! 1. **Suites.** Runs the rule and tactics suites (`suites/rules`, `suites/tactics` by default)
//!    through the engine's own runner, [`wuzi_engine::suite::run`], with the candidate's
//!    parameters. Any failed case fails the gate; no games are played then.
//! 2. **SPRT.** Plays game pairs of the candidate against the baseline (colours swapped within
//!    each pair, one opening per pair) and stops at the first pair after which the SPRT decides,
//!    or when the pair budget is used up.
//! 3. **Report.** Writes `summary.md` (verdict, suite counts, games, W/D/L, Elo with its interval,
//!    LLR with its bounds, games to the decision), `gate.json` (the same as data), the charts
//!    `sprt.png`/`.svg` (LLR against games with both bounds) and `score.png`/`.svg` (the
//!    candidate's score overall, as black and as white), and the run directory `match/`
//!    (`run.json`, `games.jsonl`, `summary.json`) into the output folder.
//!
//! # Players
//!
//! By default ([`Reference`], `suites/reference.toml`) the baseline is the recorded reference
//! build, the last accepted engine commit: its own code, checked out and built in its own cargo
//! target folder ([`build_brains`]), and the candidate the working tree's
//! `pbrain-wuzi`, so both sides go through the same Gomocup protocol. Each must report its
//! commit (`pbrain-wuzi --version`) or the gate stops (exit 2). Both play at the candidate's
//! node limit (`--nodes`), sent as the Yixin-Board `INFO max_node`, under which `pbrain-wuzi`
//! searches on one thread and ignores the clock: the same seed replays the same games, and a
//! brain plays exactly what the in-process engine plays at that limit. `move_ms` plays at a
//! fixed time per move instead. [`Baseline::Player`] plays two players of this build in
//! process instead (parameter sets, or a registry brain); a candidate that is the same player
//! as its baseline (same binary and same parameters) is refused ([`GateError::IdenticalPlayers`]):
//! its games are mirror pairs, and the gate could not fail whatever the code does.
//!
//! # Other engines
//!
//! [`EngineGate`] (`--engine NAME`) gates any Gomocup engine from its own repository: the
//! registry entry's build recipe ([`wuzi_players::registry::BuildRecipe`]) is run in a worktree
//! of each commit and the brain kept per commit ([`build_engine_brains`]); the suites, which
//! test wuzi's own engine, are skipped and the report says so.
//!
//! # Defaults and why
//!
//! - **SPRT bounds `[-20, 0]` logistic Elo, alpha = beta = 0.05** ([`default_sprt`]). H1
//!   ("the candidate is as strong as the baseline", Elo 0) passes; H0 ("20 Elo weaker") fails.
//!   fishtest's non-regression bounds (`[-1.75, 0.25]`, or `[-5, 0]`) need tens of thousands of
//!   games, far beyond a CI budget; the width of the bounds sets the cost (expected pairs grow as
//!   `1 / (elo1 - elo0)^2`), and `[-20, 0]` decides within a few hundred to a couple of thousand
//!   pairs. Logistic rather than normalized Elo because a change that alters only a few games
//!   gives mostly mirrored (even) pairs with a tiny pair variance: logistic bounds then decide in
//!   a few dozen pairs (identical engines pass after 50 pairs), while normalized bounds scale with
//!   that variance and would need the whole budget to clear a change that does nothing.
//! - **Budget 1000 pairs** ([`DEFAULT_PAIRS`], 2000 games) **at 2000 nodes per move**
//!   ([`DEFAULT_NODES`]): about two minutes of games on two cores.
//! - **Openings: one random balanced opening per pair** (`random:<pairs>:4`, see
//!   [`DEFAULT_OPENING_STONES`]). The 184 positions of
//!   `renju26` are the 26 openings in 8 symmetries, and a deterministic engine plays symmetric
//!   positions alike, so those pairs are strongly correlated and the interval would claim more
//!   confidence than the games hold. Distinct openings keep the pairs independent, and one per
//!   pair keeps a deterministic pair from being replayed.
//! - **When the budget runs out undecided** ([`budget_verdict`]): the gate *fails only if the
//!   data both lean to H0 (LLR < 0) and show a significant regression (the upper end of the
//!   95 % Elo interval is below 0)*; otherwise it passes, marked inconclusive. A failing gate
//!   should point at evidence of a regression, not at a lack of evidence of strength; requiring
//!   LLR < 0 as well keeps the gate from failing a candidate that the SPRT, given more games,
//!   would accept (a small, precisely measured deficit closer to 0 than to `elo0`).
//!
//! Operating characteristics of these defaults, from simulated pentanomial results (see the unit
//! tests, 1000-pair budget): a candidate of equal strength fails in about 2-6 % of runs; one
//! 20 Elo weaker is caught in about 80-90 % of runs when up to half of the pairs are decisive
//! (not mirrored), about 60 % when nearly all are (the budget then binds); one 40 Elo weaker is
//! caught in over 97 %. The weakened parameter set of the tests (about 130 Elo weaker) fails
//! after 68 pairs at 1000 nodes per move.
//!
//! Identical deterministic engines play mirrored pairs (each pair 1-1), so a self-play gate
//! scores exactly 0.5 and passes as soon as the LLR reaches the upper bound (50 pairs): it shows
//! the gate raises no alarm on an unchanged engine, but it cannot show the error rate, as there
//! is no noise to be fooled by. The tests therefore also run a candidate that differs from the
//! baseline only in an irrelevant way (3 % fewer nodes per move: a few Elo at most, yet the
//! searches stop elsewhere and games diverge), and simulate the decision rule on random results.
//!
//! # Exit status (of the command)
//!
//! `0` pass, `1` regression found (a suite failure, H0 accepted, or the budget rule),
//! `2` could not run (bad input, unreadable suites, a failed build, unwritable output): every
//! [`GateError`].

pub mod build;
pub mod config;
pub mod engine_build;
pub mod error;
pub mod markdown;
pub mod reference;
pub mod report;
pub mod results;
pub mod run;
pub mod verdict;

pub use build::*;
pub use config::*;
pub use engine_build::*;
pub use error::*;
pub use markdown::*;
pub use reference::*;
pub use report::*;
pub use results::*;
pub use run::*;
pub use verdict::*;
