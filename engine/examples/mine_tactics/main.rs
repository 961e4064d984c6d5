//! Finds and verifies tactics positions for `suites/tactics`, independently of the engine's
//! threat solvers.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example mine_tactics -- verify suites/tactics [--only TEXT]
//! cargo run --release -p wuzi-engine --example mine_tactics -- classify --rule renju --black ".." --white ".." --to-move black [--defence]
//! cargo run --release -p wuzi-engine --example mine_tactics -- vcf POSITION        # shortest VCF, winning first fours
//! cargo run --release -p wuzi-engine --example mine_tactics -- vct POSITION [--line ".."]  # prove a VCT, list unrefuted replies
//! cargo run --release -p wuzi-engine --example mine_tactics -- traps POSITION      # renju: forbidden points that would make a four
//! cargo run --release -p wuzi-engine --example mine_tactics -- scatter --rule renju --side black --seed 7 --tries 200000 --min-fours 8
//! cargo run --release -p wuzi-engine --example mine_tactics -- scatter-vct --rule freestyle --side black --seed 11 --tries 4000
//! cargo run --release -p wuzi-engine --example mine_tactics -- batch < positions.txt  # classify `--rule ..` lines
//! ```
//!
//! POSITION is `--rule R [--size N] --black ".." --white ".." --to-move S`. `scatter` places
//! random stones near the centre (no four on the board) and keeps positions whose shortest VCF
//! for the side to move has at least `--min-fours` fours; `scatter-vct` keeps positions with no
//! VCF but a proven VCT (and a VCT for the opponent too, so that quiet moves tend to lose).
//! `mine` plays seeded mixed engine/random games instead (few long VCFs come out of it).
//!
//! The oracle here shares no tactical code with the engine: it scans lines itself to find
//! five points (exact five for standard and renju black, five or more otherwise), takes renju
//! forbidden points from the independent `figrid-board` crate (15x15), and runs its own
//! exhaustive VCF search. Wins that need threes are proven by an AND-OR check in which the
//! defender may answer a three with EVERY legal move; the engine's VCT solver is used only to
//! suggest the attacker's next three, never as evidence.
//!
//! `classify` labels every move of the side to move:
//! - `WIN` (a five, an unstoppable double five point, a block on a forbidden point, or a
//!   proven VCF/VCT after the move),
//! - `LOSS` (a forbidden point, a missed block, or the opponent then has a proven VCF/VCT),
//! - `NONWIN` (a four whose forced block leaves a position where every move provably fails),
//! - `HOLD?` (not a proven loss: after it the opponent has no VCF (exhaustive) and the
//!   engine's VCT solver finds nothing with a large budget; used for defence cases),
//! - `UNKNOWN` (nothing proven).
//!
//! `verify` checks every tactics case: a winning case's `best` must equal the WIN set and the
//! position must have no UNKNOWN move; a `win = false` case must have no WIN and no UNKNOWN move
//! (every move provably fails); a defence case's `best` must equal the set of HOLD? moves, and
//! every other move must be a proven LOSS.

mod args;
mod classifier;
mod grid;
mod mining;
mod prover;
mod vcf;
mod verify;

use crate::args::{arg, board_from_args};
use crate::grid::{cell, G};
use crate::mining::{mine, scatter, scatter_vct};
use crate::prover::Prover;
use crate::vcf::{fours_after, fours_in, vcf, Found, Vcf};
use crate::verify::{fmt_set, report, verify};
use std::collections::HashMap;
use std::path::PathBuf;
use wuzi_engine::threat::ThreatKind;
use wuzi_engine::{threat, Pos, Rule, Stone};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("verify") => {
            let only = arg(&args, "--only");
            let mut paths: Vec<PathBuf> = Vec::new();
            let mut i = 1;
            while i < args.len() {
                if args[i].starts_with("--") {
                    i += 2;
                } else {
                    paths.push(PathBuf::from(&args[i]));
                    i += 1;
                }
            }
            let ok = verify(&paths, only);
            std::process::exit(if ok { 0 } else { 1 });
        }
        Some("classify") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let mut g = G::from_board(&b);
            print!("{}", g.diagram());
            println!("{a} to move");
            let defence = args.iter().any(|a| a == "--defence");
            let (w, _l, h, u) = report(&mut g, a, true, defence);
            println!(
                "wins [{}]\nholds [{}]\nunknown [{}]",
                fmt_set(&w),
                fmt_set(&h),
                fmt_set(&u)
            );
        }
        Some("vcf") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let mut g = G::from_board(&b);
            print!("{}", g.diagram());
            match vcf(&mut g, a, 60, true, false, 5_000_000) {
                Found::Yes(l) => {
                    println!("{a} VCF, {} fours: {}", fours_in(&l), Pos::format_list(&l))
                }
                f => println!("{a}: {f:?}"),
            }
            if b.rule() == Rule::Renju && a == Stone::Black {
                match vcf(&mut g, a, 60, true, true, 5_000_000) {
                    Found::Yes(l) => println!(
                        "ignoring forbidden: {} fours: {}",
                        fours_in(&l),
                        Pos::format_list(&l)
                    ),
                    f => println!("ignoring forbidden: {f:?}"),
                }
            }
            // Every winning first four.
            let mut firsts = Vec::new();
            for (m, _) in g.four_moves(a, false) {
                g.set(m, cell(a));
                let mut g2 = g.clone();
                let r = Vcf {
                    g: &mut g2,
                    a,
                    ignore_forbidden: false,
                    fail: HashMap::new(),
                    nodes: 0,
                    budget: 5_000_000,
                    aborted: false,
                }
                .defend(60);
                g.set(m, 0);
                if let Some(l) = r {
                    firsts.push(format!("{m}({})", (l.len() + 1).div_ceil(2) - 1));
                }
            }
            println!("VCF first moves: {}", firsts.join(" "));
        }
        Some("batch") => {
            // Lines of position arguments on stdin (`--rule .. --black ".." --white ".." --to-move ..`).
            for line in std::io::stdin().lines() {
                let line = line.unwrap();
                if !line.starts_with("--rule") {
                    continue;
                }
                let mut a: Vec<String> = Vec::new();
                let mut rest = line.as_str();
                while !rest.trim().is_empty() {
                    rest = rest.trim_start();
                    if let Some(r) = rest.strip_prefix('"') {
                        let end = r.find('"').unwrap();
                        a.push(r[..end].to_string());
                        rest = &r[end + 1..];
                    } else {
                        let end = rest.find(' ').unwrap_or(rest.len());
                        a.push(rest[..end].to_string());
                        rest = &rest[end..];
                    }
                }
                let b = board_from_args(&a);
                let side = b.side_to_move();
                let mut g = G::from_board(&b);
                let t = std::time::Instant::now();
                let (w, _l, _h, u) = report(&mut g, side, false, false);
                let mut firsts = Vec::new();
                for m in &w {
                    let fl = fours_after(&g, side, *m);
                    firsts.push(format!("{m}:{fl}"));
                }
                println!(
                    "{line}\n  wins [{}] unknown [{}] ({:.0}s)",
                    firsts.join(" "),
                    fmt_set(&u),
                    t.elapsed().as_secs_f64()
                );
            }
        }
        Some("traps") => {
            // Renju black: forbidden points where black would make a four (tempting but illegal).
            let b = board_from_args(&args);
            let mut g = G::from_board(&b);
            let mut out = Vec::new();
            for (p, k) in g.four_moves(Stone::Black, true) {
                if g.forbidden(p) {
                    out.push(format!("{p}:{k}"));
                }
            }
            println!("{}", out.join(" "));
        }
        Some("vct") => {
            let b = board_from_args(&args);
            let a = b.side_to_move();
            let depth: u32 = arg(&args, "--depth").unwrap_or("6").parse().unwrap();
            let mut eb = b.clone();
            let r = threat::solve(&mut eb, ThreatKind::Vct, 20, 2_000_000);
            println!(
                "engine VCT (depth 20, 2M): {:?}",
                r.as_ref().map(|w| (Pos::format_list(&w.line), w.nodes))
            );
            let mut g = G::from_board(&b);
            let mut pr = Prover::new();
            pr.engine_budget = 300_000;
            println!("prover (depth {depth}): {}", pr.attack(&mut g, a, depth));
            // Follow a given line (attacker, defender, ...) and list the defender replies that
            // the prover cannot refute after its last attacker move.
            if let Some(line) = arg(&args, "--line") {
                let line = Pos::parse_list(line, b.size()).unwrap();
                let mut s = a;
                for m in &line {
                    g.set(*m, cell(s));
                    s = s.opp();
                }
                assert_eq!(s, a.opp(), "the line must end with an attacker move");
                let d = a.opp();
                for r in g.empties() {
                    if !g.legal(r, d) {
                        continue;
                    }
                    g.set(r, cell(d));
                    let ok = pr.attack(&mut g, a, depth);
                    if !ok {
                        let mut eb = g.to_board(a);
                        let e = threat::solve(&mut eb, ThreatKind::Vct, 20, 2_000_000);
                        println!(
                            "  reply {r}: not refuted; engine VCT from there: {:?}",
                            e.map(|w| Pos::format_list(&w.line))
                        );
                    }
                    g.set(r, 0);
                }
            }
        }
        Some("mine") => mine(&args),
        Some("scatter") => scatter(&args),
        Some("scatter-vct") => scatter_vct(&args),
        _ => {
            eprintln!("usage: mine_tactics verify PATHS [--only TEXT] | classify POSITION [--defence] | vcf POSITION | mine [--rule R --seed S --games N --min-fours K --side black|white]");
            std::process::exit(2);
        }
    }
}
