//! `wuzi`: the engine's command line.

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi_engine::{suite, Board, Pos, Rule, Stone};

#[derive(Parser)]
#[command(
    name = "wuzi",
    version,
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
    },
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
        Command::Suite { paths } => {
            let report = suite::run(&paths, None)?;
            for f in &report.failures {
                println!("{f}");
            }
            println!("{report}");
            if !report.ok() {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
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
