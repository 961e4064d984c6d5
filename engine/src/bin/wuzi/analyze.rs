//! `wuzi analyze`: searches a position, printing depth-by-depth progress and the best move.

use super::param_args::ParamArgs;
use super::position_args::PositionArgs;
use anyhow::{bail, Result};
use clap::Args;
use wuzi_engine::limits::Limits;
use wuzi_engine::pos::Pos;
use wuzi_engine::score::score_text;
use wuzi_engine::search::{Engine, Info};

// Options of `wuzi analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// Node limit.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth limit.
    #[arg(long)]
    depth: Option<i32>,
    /// Time limit in milliseconds.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash_mb: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Searches under the given limits (one second when none is given).
pub fn run(a: AnalyzeArgs) -> Result<()> {
    let b = a.pos.board()?;
    if let Some(o) = b.outcome() {
        bail!("the game is over: {o}");
    }
    let limits = Limits {
        depth: a.depth,
        nodes: a.nodes,
        time_ms: a.time_ms,
        clock: None,
    };
    let limits = if limits == Limits::default() {
        Limits::time_ms(1000)
    } else {
        limits
    };
    let mut engine = Engine::new(a.params.load()?, a.hash_mb, a.threads);
    let mut print = |i: &Info| {
        let ms = i.elapsed.as_millis().max(1) as u64;
        println!(
            "depth {:>2}/{:<2} score {:>7} nodes {:>10} nps {:>9} time {:>6}ms pv {}",
            i.depth,
            i.seldepth,
            score_text(i.score),
            i.nodes,
            i.nodes * 1000 / ms,
            ms,
            Pos::format_list(&i.pv)
        );
    };
    let r = if a.json {
        engine.search(&b, &limits, None)
    } else {
        engine.search(&b, &limits, Some(&mut print))
    };
    if a.json {
        let v = serde_json::json!({
            "best": r.best.map(|p| p.to_string()),
            "score": r.score,
            "mate": r.mate,
            "depth": r.depth,
            "seldepth": r.seldepth,
            "nodes": r.nodes,
            "time_ms": r.time_ms,
            "nps": r.nodes * 1000 / r.time_ms.max(1),
            "pv": r.pv.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "source": r.source,
        });
        println!("{v}");
    } else {
        println!(
            "best {} score {} ({}) nodes {} time {}ms",
            r.best.map_or("none".into(), |p| p.to_string()),
            score_text(r.score),
            r.source,
            r.nodes,
            r.time_ms
        );
    }
    Ok(())
}
