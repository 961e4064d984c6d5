//! `wuzi bench`: the fixed bench positions (the behaviour signature), or the VCF solver
//! timed on the winning cases of suites.

use super::param_args::ParamArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use wuzi_engine::limits::Limits;
use wuzi_engine::params::Params;
use wuzi_engine::score::score_text;
use wuzi_engine::search::Engine;
use wuzi_engine::{bench, suite, threat};

// Options of `wuzi bench`.
#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    params: ParamArgs,
    /// Depth per position.
    #[arg(long, default_value_t = bench::DEPTH)]
    depth: i32,
    /// Time per position in milliseconds instead of a depth (reports depth reached).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Instead of the search bench: time the VCF solver on every winning case of these
    /// suite files or folders (cases with `win = true`).
    #[arg(long, value_name = "PATH")]
    vcf: Vec<PathBuf>,
}

/// Searches every bench position and prints a line each, then the total nodes.
pub fn run(a: BenchArgs) -> Result<ExitCode> {
    let p = a.params.load()?;
    if !a.vcf.is_empty() {
        return bench_vcf(&a.vcf, &p);
    }
    let limits = match a.time_ms {
        Some(t) => Limits::time_ms(t),
        None => Limits::depth(a.depth),
    };
    let t = Instant::now();
    let mut total = 0u64;
    let mut run_one = |l: &bench::BenchLine| {
        total += l.nodes;
        println!(
            "{:<24} depth {:>2} nodes {:>10} time {:>6}ms nps {:>9} best {:<4} score {}",
            l.name,
            l.depth,
            l.nodes,
            l.ms,
            l.nodes * 1000 / l.ms.max(1),
            l.best.map_or("-".into(), |p| p.to_string()),
            score_text(l.score)
        );
    };
    if a.threads > 1 {
        for &(name, rule, size, moves) in bench::POSITIONS {
            let b = bench::board_of(rule, size, moves);
            let mut e = Engine::new(p.clone(), 16, a.threads);
            let s = Instant::now();
            let r = e.search(&b, &limits, None);
            run_one(&bench::BenchLine {
                name,
                nodes: r.nodes,
                best: r.best,
                score: r.score,
                ms: s.elapsed().as_millis() as u64,
                depth: r.depth,
            });
        }
    } else {
        bench::run(&p, &limits, &mut run_one);
    }
    let ms = t.elapsed().as_millis().max(1) as u64;
    println!("Bench: {total} nodes {ms} ms {} nps", total * 1000 / ms);
    Ok(ExitCode::SUCCESS)
}

/// Times the VCF solver on every `win = true` case of the given suites.
fn bench_vcf(paths: &[PathBuf], params: &Params) -> Result<ExitCode> {
    let mut times = Vec::new();
    let mut unsolved = 0;
    for path in suite::collect_files(paths)? {
        let file = suite::load(&path)?;
        for case in file.cases.iter().filter(|c| c.win == Some(true)) {
            let mut b = case.board(&file).map_err(anyhow::Error::msg)?;
            b.set_params(params);
            let t = Instant::now();
            let r = threat::solve(&mut b, threat::ThreatKind::Vcf, 60, 2_000_000);
            let us = t.elapsed().as_micros() as u64;
            match r {
                Some(w) => {
                    println!(
                        "{:<60} {:>8} us {:>7} nodes  {:>2} plies",
                        case.name,
                        us,
                        w.nodes,
                        w.line.len()
                    );
                    times.push(us);
                }
                None => {
                    unsolved += 1;
                    println!(
                        "{:<60} {:>8} us  no VCF (a VCT or search win)",
                        case.name, us
                    );
                }
            }
        }
    }
    times.sort_unstable();
    if let (Some(max), Some(med)) = (times.last(), times.get(times.len() / 2)) {
        println!(
            "VCF: {} proved, {unsolved} without VCF; median {med} us, max {max} us",
            times.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
