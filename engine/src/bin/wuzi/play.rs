//! `wuzi play`: a game in the terminal against the engine.

use super::param_args::ParamArgs;
use super::position_args::PositionArgs;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use wuzi_engine::limits::Limits;
use wuzi_engine::play::{parse_limits, Game, Humans};
use wuzi_engine::search::Engine;

/// Options of `wuzi play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// Who is human: black, white, both or none (the engine plays itself).
    #[arg(long, default_value = "black")]
    human: Humans,
    /// Engine limit: nodes=N, depth=N, time=MS, 500ms or 2s (commas combine them).
    #[arg(long)]
    limit: Option<String>,
    /// Node limit per engine move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth limit per engine move.
    #[arg(long)]
    depth: Option<i32>,
    /// Time limit per engine move in milliseconds (default 1000 when no limit is given).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash_mb: usize,
}

/// Runs `wuzi play` on the terminal.
pub fn run(a: PlayArgs) -> Result<()> {
    let mut limits = match &a.limit {
        Some(text) => parse_limits(text).map_err(anyhow::Error::msg)?,
        None => Limits::default(),
    };
    limits.nodes = a.nodes.or(limits.nodes);
    limits.depth = a.depth.or(limits.depth);
    limits.time_ms = a.time_ms.or(limits.time_ms);
    if limits == Limits::default() {
        limits = Limits::time_ms(1000);
    }
    let engine = Engine::new(a.params.load()?, a.hash_mb, a.threads);
    let mut game = Game::new(a.pos.board()?, engine, a.human, limits);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    game.run(&mut stdin.lock(), &mut out)?;
    out.flush()?;
    Ok(())
}
