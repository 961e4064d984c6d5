//! Reports the classes of a position's moves, and checks every tactics case against them.

use crate::classifier::{Class, Classifier};
use crate::grid::G;
use crate::vcf::{vcf, Found};
use std::collections::BTreeSet;
use std::path::PathBuf;
use wuzi_engine::{suite, Board, Pos, Stone};

pub(crate) fn side_of(b: &Board) -> Stone {
    b.side_to_move()
}

pub(crate) fn pos_set(s: &str, n: usize) -> BTreeSet<Pos> {
    Pos::parse_list(s, n).unwrap().into_iter().collect()
}

pub(crate) fn fmt_set(s: &BTreeSet<Pos>) -> String {
    Pos::format_list(&s.iter().copied().collect::<Vec<_>>())
}

/// Classifies and prints; returns (wins, losses+nonwins, holds, unknowns).
pub(crate) fn report(
    g: &mut G,
    a: Stone,
    verbose: bool,
    defence: bool,
) -> (BTreeSet<Pos>, BTreeSet<Pos>, BTreeSet<Pos>, BTreeSet<Pos>) {
    let mut c = Classifier::new();
    if defence {
        c.prover.engine_budget = 2_000_000;
    }
    if let Ok(v) = std::env::var("PROVER_BUDGET") {
        c.prover.engine_budget = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("VCT_DEPTH") {
        c.vct_depth = v.parse().unwrap();
    }
    c.deep_quiet = !matches!(vcf(g, a, 60, false, false, 1_000_000), Found::No);
    let cls = c.classify(g, a);
    let (mut w, mut l, mut h, mut u) = (
        BTreeSet::new(),
        BTreeSet::new(),
        BTreeSet::new(),
        BTreeSet::new(),
    );
    for (m, k) in &cls {
        match k {
            Class::Win(_) => {
                w.insert(*m);
            }
            Class::Loss(_) | Class::NonWin => {
                l.insert(*m);
            }
            _ => {
                if defence && w.is_empty() && c.holds(g, a, *m, 1_000_000) {
                    h.insert(*m);
                } else {
                    u.insert(*m);
                }
            }
        }
        if verbose && (!matches!(k, Class::Loss(_)) || std::env::var("ALL").is_ok()) {
            let why = match k {
                Class::Win(s) | Class::Loss(s) | Class::Unknown(s) => s.clone(),
                _ => String::new(),
            };
            let tag = if h.contains(m) { "HOLD?" } else { k.tag() };
            println!("  {m:>4} {tag:8} {why}");
        }
    }
    if verbose {
        println!(
            "  ({} proven losses not listed)",
            cls.iter()
                .filter(|(_, k)| matches!(k, Class::Loss(_)))
                .count()
        );
    }
    (w, l, h, u)
}

pub(crate) fn verify(paths: &[PathBuf], only: Option<&str>) -> bool {
    let mut all_ok = true;
    for path in suite::collect_files(paths).unwrap() {
        let file = suite::load(&path).unwrap();
        for case in &file.cases {
            if !case.is_tactical() {
                continue;
            }
            if let Some(o) = only {
                if !case.name.contains(o) {
                    continue;
                }
            }
            let board = case.board(&file).unwrap();
            let n = board.size();
            let a = side_of(&board);
            let mut g = G::from_board(&board);
            let defence = case.win.is_none();
            let t = std::time::Instant::now();
            let (w, _l, h, u) = report(&mut g, a, false, defence);
            let mut problems = Vec::new();
            let best = case.best.as_deref().map(|s| pos_set(s, n));
            let avoid = case
                .avoid
                .as_deref()
                .map(|s| pos_set(s, n))
                .unwrap_or_default();
            match case.win {
                Some(true) => {
                    if w.is_empty() {
                        problems.push("no proven win".to_string());
                    }
                    if let Some(b) = &best {
                        if *b != w {
                            problems.push(format!(
                                "best [{}] != proven wins [{}]",
                                fmt_set(b),
                                fmt_set(&w)
                            ));
                        }
                    }
                    if !u.is_empty() {
                        problems.push(format!("unclassified moves [{}]", fmt_set(&u)));
                    }
                }
                Some(false) => {
                    if !w.is_empty() {
                        problems.push(format!("has wins [{}]", fmt_set(&w)));
                    }
                    if !u.is_empty() {
                        problems.push(format!("not proven to fail: [{}]", fmt_set(&u)));
                    }
                    if let Some(b) = &best {
                        if b.iter().any(|m| !h.contains(m) && !u.contains(m)) && !b.is_empty() {
                            // best moves in a lost position are fine if listed as all moves; just note
                        }
                    }
                }
                None => {
                    if !w.is_empty() {
                        problems.push(format!("side to move wins with [{}]", fmt_set(&w)));
                    }
                    if let Some(b) = &best {
                        let ok: BTreeSet<Pos> = h.union(&u).copied().collect();
                        if *b != h || !u.is_empty() {
                            problems.push(format!(
                                "best [{}] != holding moves [{}] (unclassified [{}])",
                                fmt_set(b),
                                fmt_set(&h),
                                fmt_set(&u)
                            ));
                        }
                        let _ = ok;
                    }
                }
            }
            for m in &avoid {
                if w.contains(m) {
                    problems.push(format!("avoid {m} is a proven win"));
                }
            }
            let secs = t.elapsed().as_secs_f64();
            if problems.is_empty() {
                println!(
                    "ok   {}: {} [wins {}] ({secs:.1}s)",
                    path.display(),
                    case.name,
                    fmt_set(&w)
                );
            } else {
                all_ok = false;
                println!(
                    "BAD  {}: {}: {} ({secs:.1}s)",
                    path.display(),
                    case.name,
                    problems.join("; ")
                );
            }
        }
    }
    all_ok
}
