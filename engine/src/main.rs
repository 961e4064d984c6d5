//! `wuzi`: the engine's command line.

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use wuzi_engine::search::{mate_distance, Info};
use wuzi_engine::{bench, suite, threat, Board, Engine, Limits, Params, Pos, Rule, Stone};

#[derive(Parser)]
#[command(
    name = "wuzi",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION,
    about = "Gomoku/Renju engine: rules, analysis, suites"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a position and black's forbidden points.
    Forbidden {
        #[command(flatten)]
        pos: PositionArgs,
        /// Print `{"forbidden": [...]}` instead of a diagram.
        #[arg(long)]
        json: bool,
    },
    /// Print a diagram of a position, and the outcome if the game is over.
    Show {
        #[command(flatten)]
        pos: PositionArgs,
    },
    /// Run rule and tactics suite files or folders.
    Suite {
        /// Files or folders of `.toml` suites.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// Search a position and print depth-by-depth progress and the best move.
    Analyze {
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
    },
    /// Search the fixed bench positions; prints total nodes (the behaviour signature).
    Bench {
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
    },
    /// List the tunable parameters (or print them as a TOML file with --toml).
    Params {
        #[command(flatten)]
        params: ParamArgs,
        /// Print a complete parameter file.
        #[arg(long)]
        toml: bool,
    },
    /// Play in the terminal against the engine (type `help` at the prompt for commands).
    Play(PlayArgs),
}

/// Options of `wuzi play`.
#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// Who is human: black, white, both or none (the engine plays itself).
    #[arg(long, default_value = "black")]
    human: wuzi_engine::play::Humans,
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
fn play(a: PlayArgs) -> Result<()> {
    use std::io::Write;
    let mut limits = match &a.limit {
        Some(text) => wuzi_engine::play::parse_limits(text).map_err(anyhow::Error::msg)?,
        None => Limits::default(),
    };
    limits.nodes = a.nodes.or(limits.nodes);
    limits.depth = a.depth.or(limits.depth);
    limits.time_ms = a.time_ms.or(limits.time_ms);
    if limits == Limits::default() {
        limits = Limits::time_ms(1000);
    }
    let engine = Engine::new(a.params.load()?, a.hash_mb, a.threads);
    let mut game = wuzi_engine::play::Game::new(a.pos.board()?, engine, a.human, limits);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    game.run(&mut stdin.lock(), &mut out)?;
    out.flush()?;
    Ok(())
}

/// A parameter set: a TOML file plus overrides.
#[derive(Args, Clone, Default)]
struct ParamArgs {
    /// Parameter file (TOML, `name = value`).
    #[arg(long = "params")]
    file: Option<PathBuf>,
    /// Override one parameter (`name=value`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

impl ParamArgs {
    fn load(&self) -> Result<Params> {
        Ok(Params::from_file_and_settings(
            self.file.as_deref(),
            &self.set,
        )?)
    }
}

/// A position given as a move list or as stones placed directly.
#[derive(Args, Clone)]
struct PositionArgs {
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Moves in play order from the empty board, black first (`h8 i9 j10` or `h8i9j10`).
    #[arg(long, conflicts_with_all = ["black", "white"])]
    moves: Option<String>,
    /// Black stones placed directly.
    #[arg(long)]
    black: Option<String>,
    /// White stones placed directly.
    #[arg(long)]
    white: Option<String>,
    /// Side to move, where the stone counts do not decide it.
    #[arg(long)]
    to_move: Option<Stone>,
}

impl PositionArgs {
    fn board(&self) -> Result<Board> {
        let list = |s: &Option<String>| -> Result<Vec<Pos>> {
            Ok(match s {
                Some(s) => Pos::parse_list(s, self.size)?,
                None => Vec::new(),
            })
        };
        let mut b = if let Some(m) = &self.moves {
            let mut b = Board::new(self.size, self.rule)?;
            for (i, p) in Pos::parse_list(m, self.size)?.into_iter().enumerate() {
                b.make(p).with_context(|| format!("move {} ({p})", i + 1))?;
            }
            b
        } else {
            Board::from_stones(
                self.size,
                self.rule,
                &list(&self.black)?,
                &list(&self.white)?,
            )?
        };
        if let Some(s) = self.to_move {
            b.set_side_to_move(s);
        }
        Ok(b)
    }
}

fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Forbidden { pos, json } => {
            let mut b = pos.board()?;
            let f = b.forbidden_points();
            if json {
                let v: Vec<String> = f.iter().map(|p| p.to_string()).collect();
                println!("{}", serde_json::json!({ "forbidden": v }));
            } else {
                print!("{}", b.diagram(&f));
                println!("rule {}, {} to move", b.rule(), b.side_to_move());
                println!(
                    "forbidden for black: {}",
                    if f.is_empty() {
                        "none".to_string()
                    } else {
                        Pos::format_list(&f)
                    }
                );
            }
        }
        Command::Show { pos } => {
            let b = pos.board()?;
            print!("{}", b.diagram(&[]));
            match b.outcome() {
                Some(o) => println!("game over: {o}"),
                None => println!("rule {}, {} to move", b.rule(), b.side_to_move()),
            }
        }
        Command::Suite { paths, params } => {
            let report = suite::run(&paths, &params.load()?)?;
            for f in &report.failures {
                println!("{f}");
            }
            println!("{report}");
            if !report.ok() {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Analyze {
            pos,
            params,
            nodes,
            depth,
            time_ms,
            threads,
            hash_mb,
            json,
        } => {
            let b = pos.board()?;
            if let Some(o) = b.outcome() {
                bail!("the game is over: {o}");
            }
            let limits = Limits {
                depth,
                nodes,
                time_ms,
                clock: None,
            };
            let limits = if limits == Limits::default() {
                Limits::time_ms(1000)
            } else {
                limits
            };
            let mut engine = Engine::new(params.load()?, hash_mb, threads);
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
            let r = if json {
                engine.search(&b, &limits, None)
            } else {
                engine.search(&b, &limits, Some(&mut print))
            };
            if json {
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
        }
        Command::Bench {
            params,
            depth,
            time_ms,
            threads,
            vcf,
        } => {
            let p = params.load()?;
            if !vcf.is_empty() {
                return bench_vcf(&vcf, &p);
            }
            let limits = match time_ms {
                Some(t) => Limits::time_ms(t),
                None => Limits::depth(depth),
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
            if threads > 1 {
                for &(name, rule, size, moves) in bench::POSITIONS {
                    let b = bench::board_of(rule, size, moves);
                    let mut e = Engine::new(p.clone(), 16, threads);
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
        }
        Command::Play(args) => play(args)?,
        Command::Params { params, toml } => {
            let p = params.load()?;
            if toml {
                print!("{}", p.to_toml());
            } else {
                for s in Params::SPECS {
                    println!(
                        "{:<20} {:>8}  default {:>7}  range {}..={}  step {}  {}",
                        s.name,
                        p.get(s.name).unwrap_or_default(),
                        s.default,
                        s.min,
                        s.max,
                        s.step,
                        s.help.trim()
                    );
                }
            }
        }
    }
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

fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m > 0 => format!("win{m}"),
        Some(m) => format!("loss{}", -m),
        None => score.to_string(),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
