//! `wuzi-arena analyze DIR --analyst SPEC`: every position of a run's games searched by an
//! analyst (see `wuzi_arena::analysis`), the summary printed and written, the decisive
//! positions exported on request. Exit status: 0 done, 2 error (nothing half written), 130
//! interrupted (finished games are kept; the same command continues).

use anyhow::{Context, Result};
use wuzi_arena::analysis::{analyse, AnalysisOptions, AnalysisProgress};
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::registry::Registry;

use super::args::AnalyzeArgs;
use super::outcome::Interrupted;

/// `wuzi-arena analyze`.
pub(crate) fn analyze_command(args: &AnalyzeArgs) -> Result<()> {
    let registry = Registry::find(args.engines.as_deref())?;
    let analyst =
        PlayerSpec::parse_with(&args.analyst, &PlayerLimits::default(), registry.as_ref())
            .and_then(|s| s.validate().map(|()| s))
            .context("bad --analyst")?;
    let options = AnalysisOptions {
        analyst_text: args.analyst.trim().to_string(),
        analyst,
        games: args.games.clone(),
        player: args.player.clone(),
        out: args.out.clone(),
        concurrency: args.concurrency.unwrap_or(0),
    };
    let bar = wuzi_arena::progress::bar(
        args.quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} positions, eta {eta} | {msg}",
    );
    let progress = |p: AnalysisProgress| {
        bar.set_length(p.total_positions);
        bar.set_position(p.positions);
        bar.set_message(format!("{}/{} games", p.games, p.total_games));
    };
    let outcome = analyse(&args.dir, &options, &progress)?;
    bar.finish_and_clear();
    let analysed = outcome
        .rows
        .iter()
        .map(|r| (r.pair, r.game))
        .collect::<std::collections::BTreeSet<_>>();
    if outcome.interrupted {
        eprintln!(
            "interrupted: {} of {} game(s) analysed are in {}; run the same command again to \
             continue",
            analysed.len(),
            outcome.records.len(),
            outcome.path.display()
        );
        return Err(Interrupted.into());
    }
    let (summary, summary_file) = outcome.write_summary(args.blunder)?;
    if let Some(file) = &args.export_positions {
        outcome.export_positions(&summary, &options.analyst, file)?;
    }
    wuzi_arena::out!("{}", summary.render());
    wuzi_arena::outln!(
        "{} game(s) ({} kept from an earlier analysis), {} failed position(s); rows in {}, \
         summary in {}{}",
        outcome.records.len(),
        outcome.resumed,
        outcome.failures,
        outcome.path.display(),
        summary_file.display(),
        args.export_positions
            .as_ref()
            .map(|f| format!(", positions in {}", f.display()))
            .unwrap_or_default()
    );
    Ok(())
}
