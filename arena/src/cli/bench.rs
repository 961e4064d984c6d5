//! `wuzi-arena bench`: the arena's own overhead, scaling and memory.

use std::path::Path;
use std::time::Duration;

use super::args::BenchArgs;
use anyhow::{bail, Result};
use wuzi_arena::config::{Matchup, RunConfig, RunKind};
use wuzi_arena::default_match;
use wuzi_arena::opening::Source;
use wuzi_arena::player::PlayerLimits;
use wuzi_arena::referee::GameSettings;
use wuzi_arena::run::default_concurrency;
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_engine::Rule;

/// A default-vs-weak renju match on the renju26 openings for `wuzi-arena bench`.
pub(crate) fn bench_config(
    nodes: u64,
    hash_mb: usize,
    pairs: Option<u64>,
    sprt: bool,
) -> Result<RunConfig> {
    let limits = PlayerLimits {
        nodes: Some(nodes),
        hash_mb,
        ..PlayerLimits::default()
    };
    let players = default_match::players(&limits)?;
    let source = Source::parse("renju26", None, false)?;
    let (openings, openings_source, _) = source.load(15, Rule::Renju, 1)?;
    let mut config = RunConfig::new(
        RunKind::Match,
        GameSettings {
            rule: Rule::Renju,
            ..GameSettings::default()
        },
        players,
        vec![Matchup {
            first: 0,
            second: 1,
        }],
        openings,
        openings_source,
    );
    if let Some(p) = pairs {
        config.pairs = p;
    }
    if sprt {
        config.sprt = Some(SprtParams::parse(default_match::SPRT, EloModel::Logistic)?);
    }
    config.validate()?;
    Ok(config)
}

pub(crate) fn fmt_mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "n/a".into(), |b| format!("{:.1} MB", b as f64 / 1e6))
}

pub(crate) fn fmt_cpu(m: &wuzi_arena::bench::Measurement) -> String {
    m.cpu.map_or_else(
        || "n/a".into(),
        |c| {
            format!(
                "{:.1} s ({:.0} ms/game)",
                c.as_secs_f64(),
                c.as_secs_f64() * 1000.0 / m.games.max(1) as f64
            )
        },
    )
}

/// `wuzi-arena bench`: see [`BenchArgs`].
pub(crate) fn bench(args: &BenchArgs) -> Result<()> {
    if args.workers == 0 || args.repeat == 0 || args.scaling_pairs == 0 || args.overhead_pairs == 0
    {
        bail!("--workers, --repeat, --scaling-pairs and --overhead-pairs must be positive");
    }
    let tmp = std::env::temp_dir().join(format!("wuzi-arena-bench-{}", std::process::id()));
    let result = bench_in(args, &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

pub(crate) fn bench_in(args: &BenchArgs, tmp: &Path) -> Result<()> {
    use wuzi_arena::bench::{
        hash_bound_bytes, machine_speedup, measure, set_cpu_accounting, MAX_ENGINES_PER_WORKER,
    };
    let engines_per_worker = MAX_ENGINES_PER_WORKER;
    set_cpu_accounting(true);
    let cores = default_concurrency();
    wuzi_arena::outln!(
        "wuzi-arena bench: {cores} logical core(s), load average {}",
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "n/a".into())
    );
    wuzi_arena::outln!(
        "engine state: each worker keeps at most {engines_per_worker} engines (fewer with fewer \
         players), each with one {} MB hash table (--hash-mb, 1..={})",
        args.hash_mb,
        wuzi_arena::player::MAX_HASH_MB
    );

    // (c) Memory and games/s of the default match, first so that the peak is its own.
    if !args.skip_default {
        let config = bench_config(default_match::NODES, args.hash_mb, args.default_pairs, true)?;
        wuzi_arena::outln!(
            "\n[default match] default vs weak, renju26 ({} pairs max), {} nodes/move, SPRT {}, \
             {cores} worker(s), records in a temporary directory",
            config.pairs,
            default_match::NODES,
            default_match::SPRT
        );
        let m = measure(&config, cores, Some(tmp.join("default")))?;
        wuzi_arena::outln!(
            "  {} games in {:.1} s: {:.2} games/s; CPU {}",
            m.games,
            m.elapsed.as_secs_f64(),
            m.games_per_s(),
            fmt_cpu(&m)
        );
        wuzi_arena::outln!(
            "  peak memory (VmHWM): {}; hash bound for this run: {} ({} engines x {} MB x {cores} workers)",
            fmt_mb(m.peak_rss),
            fmt_mb(Some(hash_bound_bytes(&config, cores))),
            config.players.len().min(engines_per_worker),
            args.hash_mb
        );
    }

    // (a) Overhead: one worker, so its wall time is the game loop's.
    let config = bench_config(
        args.overhead_nodes,
        args.hash_mb,
        Some(args.overhead_pairs),
        false,
    )?;
    wuzi_arena::outln!(
        "\n[overhead] {} games at {} nodes/move, 1 worker, records written",
        config.pairs * 2,
        args.overhead_nodes
    );
    let m = measure(&config, 1, Some(tmp.join("overhead")))?;
    let inside = m.search.time.as_secs_f64();
    wuzi_arena::outln!(
        "  wall {:.2} s, inside Engine::search {:.2} s ({} searches, {:.2} ms each)",
        m.elapsed.as_secs_f64(),
        inside,
        m.search.searches,
        inside * 1000.0 / m.search.searches.max(1) as f64
    );
    wuzi_arena::outln!(
        "  wall time outside the search: {:.2} ms per game = {:.2} % of the time inside (target < 2 %)",
        m.overhead_ms_per_game().unwrap_or(f64::NAN),
        m.overhead().unwrap_or(f64::NAN) * 100.0
    );
    if let (Some(cpu), Some(o)) = (m.cpu, m.cpu_overhead()) {
        wuzi_arena::outln!(
            "  CPU: process {:.2} s (all threads, the recording thread included), searches {:.2} s: \
             {:.2} % outside the search ({:.2} ms per game)",
            cpu.as_secs_f64(),
            m.search.cpu.as_secs_f64(),
            o * 100.0,
            (cpu.as_secs_f64() - m.search.cpu.as_secs_f64()) * 1000.0 / m.games.max(1) as f64
        );
    }

    // (b) Scaling: the same fixed games with 1 and with N workers, alternating.
    let config = bench_config(
        args.scaling_nodes,
        args.hash_mb,
        Some(args.scaling_pairs),
        false,
    )?;
    wuzi_arena::outln!(
        "\n[scaling] the same {} games at {} nodes/move with 1 and {} workers, {} round(s)",
        config.pairs * 2,
        args.scaling_nodes,
        args.workers,
        args.repeat
    );
    let mut speedups = Vec::new();
    let mut relative = Vec::new();
    let mut cpu_per_game = [f64::INFINITY; 2];
    for round in 0..args.repeat {
        // The machine's own speedup, before and after the round (other programs come and go).
        let before = machine_speedup(args.workers, Duration::from_millis(400));
        let mut gps = [0.0f64; 2];
        for (k, workers) in [1, args.workers].into_iter().enumerate() {
            let m = measure(
                &config,
                workers,
                Some(tmp.join(format!("scaling-{round}-{k}"))),
            )?;
            wuzi_arena::outln!(
                "  round {}: {workers} worker(s): {:.1} s, {:.2} games/s, CPU {}",
                round + 1,
                m.elapsed.as_secs_f64(),
                m.games_per_s(),
                fmt_cpu(&m)
            );
            gps[k] = m.games_per_s();
            if let Some(c) = m.cpu {
                cpu_per_game[k] = cpu_per_game[k].min(c.as_secs_f64() / m.games.max(1) as f64);
            }
        }
        let after = machine_speedup(args.workers, Duration::from_millis(400));
        let machine = (before + after) / 2.0;
        let speedup = gps[1] / gps[0].max(1e-9);
        wuzi_arena::outln!(
            "  round {}: speedup {speedup:.2}x; {} threads of plain arithmetic got {before:.2}x \
             before and {after:.2}x after it",
            round + 1,
            args.workers
        );
        speedups.push(speedup);
        relative.push(speedup / machine.max(1e-9));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let best = speedups.iter().copied().fold(0.0, f64::max);
    wuzi_arena::outln!(
        "  speedup with {} workers: best {best:.2}x, median {:.2}x (target >= {:.1}x); median \
         {:.0} % of what the machine gave plain arithmetic at the time",
        args.workers,
        median(&mut speedups.clone()),
        0.9 * args.workers as f64,
        median(&mut relative) * 100.0
    );
    if cpu_per_game.iter().all(|c| c.is_finite()) {
        wuzi_arena::outln!(
            "  CPU per game: {:.0} ms with 1 worker, {:.0} ms with {} (equal when the workers \
             do not slow each other down)",
            cpu_per_game[0] * 1000.0,
            cpu_per_game[1] * 1000.0,
            args.workers
        );
    }
    wuzi_arena::outln!(
        "\npeak memory of this process: {}",
        fmt_mb(wuzi_arena::bench::peak_rss_bytes())
    );
    Ok(())
}
