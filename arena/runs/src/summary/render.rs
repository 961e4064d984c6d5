//! The summary as terminal text: the tables per matchup, player, sweep value and opening, the
//! estimate and SPRT formats, and the notes on an unfinished run or uncounted games.

use std::fmt::Write as _;

use wuzi_stats::Estimate;

use super::data::{Completion, PlayerSummary, SprtSummary, Summary};

/// `+12.3 +- 20.1` (Elo with half the interval); `inf` for perfect scores; `-` when absent.
pub fn fmt_estimate(e: Option<Estimate>) -> String {
    match e {
        None => "-".into(),
        // Adding 0.0 turns -0.0 into 0.0.
        Some(e) if e.value.is_finite() && e.half_width().is_finite() => {
            format!("{:+.1} +- {:.1}", e.value + 0.0, e.half_width())
        }
        Some(e) if e.value.is_finite() => format!("{:+.1} (+-inf)", e.value),
        Some(e) => format!("{}inf", if e.value > 0.0 { "+" } else { "-" }),
    }
}

fn fmt_opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

/// Pads a table: every column as wide as its widest cell, the first left-aligned.
fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The SPRT line: `LLR 1.23 [-2.94, 2.94] continue` (see [`SprtSummary::state`]).
pub fn fmt_sprt(s: &SprtSummary) -> String {
    let verdict = s.state();
    format!(
        "SPRT [{}, {}] ({}) LLR {:.2} [{:.2}, {:.2}] {verdict}",
        s.params.elo0, s.params.elo1, s.params.model, s.status.llr, s.status.lower, s.status.upper
    )
}

/// How far an unfinished run got, in words (`None` when it finished): `interrupted after 22
/// of 120 games: no verdict`, or `incomplete: 22 of 120 games recorded; ...`.
pub fn completion_note(summary: &Summary) -> Option<String> {
    let (n, m) = (summary.games_finished, summary.games_planned);
    match summary.completion {
        Completion::Finished => None,
        Completion::Interrupted => Some(format!("interrupted after {n} of {m} games: no verdict")),
        Completion::Incomplete => Some(format!(
            "incomplete: {n} of {m} games recorded; the run did not finish (or is still \
             running): no verdict"
        )),
    }
}

/// Games finished but not counted because an SPRT had decided before them (they were in
/// flight when it stopped its matchup), in words; `None` when every finished game counts or
/// the run did not finish.
pub fn uncounted_note(summary: &Summary) -> Option<String> {
    let decided = summary.matchups.iter().any(|m| {
        m.sprt
            .as_ref()
            .is_some_and(|s| s.decided_after_pairs.is_some())
    });
    let counted: u64 = summary.matchups.iter().map(|m| m.games).sum();
    let extra = summary.games_finished.saturating_sub(counted);
    (decided && extra > 0 && summary.completion == Completion::Finished).then(|| {
        let (games, are) = if extra == 1 {
            ("game", "is")
        } else {
            ("games", "are")
        };
        if summary.matchups.len() == 1 {
            format!(
                "{} games played; the SPRT decided after {counted} ({extra} {games} in flight \
                 when it stopped {are} not counted)",
                summary.games_finished
            )
        } else {
            format!(
                "{} games played, {counted} counted ({extra} {games} in flight when an SPRT \
                 stopped their matchup {are} not counted)",
                summary.games_finished
            )
        }
    })
}

/// The terminal report: per-matchup table, SPRT lines, standings and the sweep table.
pub fn render(summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} | {} {}x{} | openings: {} ({}) | seed {}{}",
        summary.kind,
        summary.rule,
        summary.size,
        summary.size,
        summary.openings_source,
        summary.openings,
        summary.seed,
        summary
            .shard
            .as_ref()
            .map(|s| format!(" | shard {s}"))
            .unwrap_or_default()
    );
    if let Some(note) = completion_note(summary) {
        let _ = writeln!(out, "{note}");
    }
    let mut rows = vec![[
        "matchup",
        "games",
        "W-D-L",
        "B/W/D wins",
        "penta [LL LD even WD WW]",
        "score",
        "Elo",
        "nElo",
        "LOS",
        "draws",
    ]
    .map(String::from)
    .to_vec()];
    for m in &summary.matchups {
        rows.push(vec![
            format!("{} vs {}", m.first, m.second),
            m.games.to_string(),
            m.wdl.to_string(),
            format!("{}/{}/{}", m.black_wins, m.white_wins, m.draws),
            m.penta.to_string(),
            fmt_opt(m.score.map(|s| s.value), 3),
            fmt_estimate(m.elo),
            fmt_estimate(m.nelo),
            m.los
                .map_or_else(|| "-".into(), |l| format!("{:.1}%", l * 100.0)),
            m.draw_ratio
                .map_or_else(|| "-".into(), |d| format!("{:.1}%", d * 100.0)),
        ]);
    }
    out.push_str(&table(&rows));
    for m in &summary.matchups {
        if let Some(s) = &m.sprt {
            let _ = writeln!(out, "{} vs {}: {}", m.first, m.second, fmt_sprt(s));
        }
        let reasons: Vec<String> = m.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        if m.games > 0 && m.reasons.keys().any(|r| r != "five") {
            let _ = writeln!(
                out,
                "{} vs {}: endings: {}",
                m.first,
                m.second,
                reasons.join(", ")
            );
        }
    }
    if summary.matchups.len() > 1 && summary.sweep.is_none() {
        let mut ranked: Vec<&PlayerSummary> = summary.players.iter().collect();
        ranked.sort_by(|a, b| {
            let s = |p: &PlayerSummary| p.score.map_or(0.0, |e| e.value);
            s(b).total_cmp(&s(a))
        });
        let mut rows = vec![["player", "games", "W-D-L", "score", "Elo vs field"]
            .map(String::from)
            .to_vec()];
        for p in ranked {
            rows.push(vec![
                p.name.clone(),
                p.wdl.games().to_string(),
                p.wdl.to_string(),
                fmt_opt(p.score.map(|s| s.value), 3),
                fmt_estimate(p.elo),
            ]);
        }
        out.push('\n');
        out.push_str(&table(&rows));
    }
    if let Some(sw) = &summary.sweep {
        let mut header: Vec<String> = sw.axes.clone();
        header.extend(["games", "score", "Elo", "nElo", "LOS"].map(String::from));
        let mut rows = vec![header];
        for r in &sw.rows {
            let mut row: Vec<String> = r.values.iter().map(|v| v.to_string()).collect();
            row.extend([
                r.games.to_string(),
                fmt_opt(r.score.map(|s| s.value), 3),
                fmt_estimate(r.elo),
                fmt_estimate(r.nelo),
                r.los
                    .map_or_else(|| "-".into(), |l| format!("{:.1}%", l * 100.0)),
            ]);
            rows.push(row);
        }
        let _ = writeln!(
            out,
            "\nsweep against {} (score of each point):",
            sw.baseline
        );
        out.push_str(&table(&rows));
    }
    if let Some(t) = &summary.timing {
        let _ = writeln!(
            out,
            "\n{} games in {:.1} s ({:.2} games/s, {} workers){}",
            t.games_played,
            t.elapsed_s,
            t.games_per_s,
            t.concurrency,
            if t.games_resumed > 0 {
                format!("; {} games resumed from the records", t.games_resumed)
            } else {
                String::new()
            }
        );
    }
    if let Some(note) = uncounted_note(summary) {
        let _ = writeln!(out, "{note}");
    }
    out
}

/// Per-opening results of every matchup: opening, moves, pairs, pentanomial counts, W-D-L
/// and the first player's score, in opening-index order.
pub fn render_openings(summary: &Summary) -> String {
    let mut out = String::new();
    for m in &summary.matchups {
        let _ = writeln!(out, "{} vs {}, per opening:", m.first, m.second);
        let mut rows = vec![["opening", "moves", "pairs", "penta", "W-D-L", "score"]
            .map(String::from)
            .to_vec()];
        for o in &m.openings {
            rows.push(vec![
                o.id.clone(),
                o.moves.clone(),
                o.penta.pairs().to_string(),
                o.penta.to_string(),
                o.wdl.to_string(),
                fmt_opt(o.score, 3),
            ]);
        }
        out.push_str(&table(&rows));
    }
    out
}
#[cfg(test)]
mod tests {
    use super::super::data::summarize;
    use super::super::tally::GameMap;
    use super::super::test_support::{insert_pair, lite};
    use super::*;
    use crate::config::tests_support::tiny_config;
    use wuzi_engine::Stone;
    use wuzi_stats::{Estimate, Penta, SprtParams, Wdl};

    #[test]
    fn summary_and_render() {
        let config = tiny_config(3);
        let mut games = GameMap::new();
        for g in 0..3u64 {
            games.insert((g, 0), lite(0, Some(Stone::Black)));
            games.insert(
                (g, 1),
                lite(1, if g == 2 { None } else { Some(Stone::Black) }),
            );
        }
        let s = summarize(&config, &games);
        let m = &s.matchups[0];
        assert_eq!((m.pairs, m.games), (3, 6));
        assert_eq!(m.wdl, Wdl::new(3, 1, 2));
        assert_eq!(m.penta, Penta::new([0, 0, 2, 1, 0]));
        assert_eq!(s.players[1].wdl, Wdl::new(2, 1, 3));
        assert_eq!(m.nodes_per_move, [Some(150.0), Some(150.0)]);
        let text = render(&s);
        assert!(text.contains("a vs b"), "{text}");
        assert!(text.contains("3-1-2"), "{text}");
        let per_opening = render_openings(&s);
        assert!(
            per_opening.contains(&config.openings[0].id),
            "{per_opening}"
        );
        // An incomplete pair is skipped.
        games.remove(&(1, 1));
        assert_eq!(summarize(&config, &games).matchups[0].pairs, 2);
        let json = serde_json::to_string(&s).expect("serializes");
        let back: Summary = serde_json::from_str(&json).expect("parses");
        assert_eq!(back.matchups[0].penta, s.matchups[0].penta);
    }

    #[test]
    fn an_sprt_out_of_budget_is_undecided_budget_spent_not_continue() {
        let mut config = tiny_config(3);
        // Three even pairs cannot decide 0 against 5 Elo.
        config.sprt = Some(SprtParams::new(0.0, 5.0, wuzi_stats::EloModel::Logistic));
        let mut games = GameMap::new();
        for g in 0..2 {
            insert_pair(&mut games, g, false);
        }
        // Pairs remain: the test goes on, and the run is not finished.
        let s = summarize(&config, &games);
        let sprt = s.matchups[0].sprt.as_ref().expect("an SPRT");
        assert!(!sprt.budget_spent);
        assert!(fmt_sprt(sprt).ends_with(" continue"), "{}", fmt_sprt(sprt));
        assert_eq!(s.completion, Completion::Incomplete);
        assert_eq!((s.games_finished, s.games_planned), (4, 6));
        let text = render(&s);
        assert!(
            text.contains("incomplete: 4 of 6 games recorded; the run did not finish"),
            "{text}"
        );
        // Every pair counted without a decision: the budget is spent.
        insert_pair(&mut games, 2, false);
        let s = summarize(&config, &games);
        let sprt = s.matchups[0].sprt.as_ref().expect("an SPRT");
        assert!(sprt.budget_spent);
        assert_eq!(sprt.state(), "undecided (budget spent)");
        assert_eq!(s.completion, Completion::Finished);
        let text = render(&s);
        assert!(text.contains("undecided (budget spent)"), "{text}");
        assert!(
            !text.contains("continue") && !text.contains("incomplete"),
            "{text}"
        );
    }

    #[test]
    fn games_in_flight_after_the_sprt_stop_are_said_to_be_uncounted() {
        let mut config = tiny_config(100);
        config.sprt = Some(SprtParams::new(0.0, 50.0, wuzi_stats::EloModel::Logistic));
        let mut games = GameMap::new();
        let mut g = 0;
        while summarize(&config, &games).matchups[0]
            .sprt
            .as_ref()
            .and_then(|s| s.decided_after_pairs)
            .is_none()
        {
            insert_pair(&mut games, g, true);
            g += 1;
        }
        let counted = 2 * g;
        // Exactly the decision's games: nothing to explain.
        assert_eq!(uncounted_note(&summarize(&config, &games)), None);
        // Three games were still running when the SPRT stopped the matchup.
        insert_pair(&mut games, g, true);
        games.insert((g + 1, 0), lite(0, Some(Stone::Black)));
        let s = summarize(&config, &games);
        assert_eq!(s.completion, Completion::Finished);
        assert_eq!(s.matchups[0].games, counted);
        let expected = format!(
            "{} games played; the SPRT decided after {counted} (3 games in flight when it \
             stopped are not counted)",
            counted + 3
        );
        assert_eq!(uncounted_note(&s).as_deref(), Some(expected.as_str()));
        assert!(render(&s).contains(&expected), "{}", render(&s));
    }

    #[test]
    fn an_unfinished_run_is_no_verdict() {
        let config = tiny_config(3);
        let mut games = GameMap::new();
        insert_pair(&mut games, 0, true);
        let mut s = summarize(&config, &games);
        assert_eq!(s.completion, Completion::Incomplete);
        s.completion = Completion::Interrupted;
        assert_eq!(
            completion_note(&s).as_deref(),
            Some("interrupted after 2 of 6 games: no verdict")
        );
        for g in 1..3 {
            insert_pair(&mut games, g, true);
        }
        assert_eq!(completion_note(&summarize(&config, &games)), None);
    }

    #[test]
    fn estimates_format() {
        assert_eq!(fmt_estimate(None), "-");
        let e = Estimate {
            value: 12.34,
            lower: 2.0,
            upper: 22.0,
        };
        assert_eq!(fmt_estimate(Some(e)), "+12.3 +- 10.0");
        let inf = Estimate {
            value: f64::INFINITY,
            lower: f64::INFINITY,
            upper: f64::INFINITY,
        };
        assert_eq!(fmt_estimate(Some(inf)), "+inf");
        let zero = Estimate {
            value: -0.0,
            lower: 0.0,
            upper: 0.0,
        };
        assert_eq!(fmt_estimate(Some(zero)), "+0.0 +- 0.0");
    }
}
