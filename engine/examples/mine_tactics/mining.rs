//! Mining positions: seeded mixed engine/random games, and random scatters kept for long VCFs or proven VCTs.

use crate::args::arg;
use crate::classifier::has_double_point;
use crate::grid::{DIRS, G};
use crate::prover::Prover;
use crate::vcf::{fours_in, vcf, Found};
use wuzi_engine::threat::ThreatKind;
use wuzi_engine::{threat, Board, Engine, Limits, Params, Pos, Rule, Stone};

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays seeded games (a mix of engine moves and random nearby moves) and prints positions
/// where the side to move has a shortest VCF of at least `min_fours` fours.
pub(crate) fn mine(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let games: usize = arg(args, "--games").unwrap_or("50").parse().unwrap();
    let min_fours: usize = arg(args, "--min-fours").unwrap_or("8").parse().unwrap();
    let engine_pct: usize = arg(args, "--engine-pct").unwrap_or("50").parse().unwrap();
    let only: Option<Stone> = arg(args, "--side").map(|s| s.parse().unwrap());
    let verbose = args.iter().any(|a| a == "-v");
    let mut rng = Rng(seed);
    let mut engine = Engine::new(Params::default(), 16, 1);
    for game in 0..games {
        let mut b = Board::new(size, rule).unwrap();
        let c = size / 2;
        b.make(Pos::new(c, c)).unwrap();
        let mut found_in_game = 0;
        for ply in 1..(size * size - 10) {
            if b.outcome().is_some() {
                break;
            }
            let side = b.side_to_move();
            // Is there a long VCF for the side to move?
            if ply >= 8 && only.is_none_or(|s| s == side) {
                let mut eb = b.clone();
                if threat::solve(&mut eb, ThreatKind::Vcf, 60, 50_000).is_some() {
                    let mut g = G::from_board(&b);
                    if let Found::Yes(l) = vcf(&mut g, side, 40, true, false, 2_000_000) {
                        let f = fours_in(&l);
                        if verbose {
                            eprintln!("game {game} ply {ply}: {side} VCF {f} fours");
                        }
                        if f >= min_fours {
                            let ign = if rule == Rule::Renju && side == Stone::Black {
                                match vcf(&mut g, side, 40, true, true, 2_000_000) {
                                    Found::Yes(l2) => format!(
                                        "ignoring forbidden: {} fours from {}",
                                        fours_in(&l2),
                                        l2[0]
                                    ),
                                    _ => "ignoring forbidden: none".into(),
                                }
                            } else {
                                String::new()
                            };
                            println!("# game {game} ply {ply} seed {seed}: {side} shortest VCF {f} fours: {} {ign}", Pos::format_list(&l));
                            println!("rule = \"{rule}\"\nsize = {size}\nblack = \"{}\"\nwhite = \"{}\"\nto_move = \"{side}\"", Pos::format_list(&g.stones(1)), Pos::format_list(&g.stones(2)));
                            println!("{}", g.diagram());
                            found_in_game += 1;
                        }
                    }
                    // Keep the game going without the win: the side to move plays elsewhere at random.
                }
            }
            if found_in_game >= 2 {
                break;
            }
            // Next move.
            let mv = if rng.below(100) < engine_pct {
                let n = 200 + rng.below(3000) as u64;
                engine.new_game();
                engine.search(&b, &Limits::nodes(n), None).best
            } else {
                let mut cands: Vec<Pos> = Vec::new();
                for p in b.points().collect::<Vec<_>>() {
                    if !b.is_empty_at(p) {
                        continue;
                    }
                    let near = b.points().any(|q| {
                        b.stone_at(q).is_some()
                            && (q.x() as i32 - p.x() as i32).abs() <= 2
                            && (q.y() as i32 - p.y() as i32).abs() <= 2
                    });
                    if near && b.is_legal(p) {
                        cands.push(p);
                    }
                }
                if cands.is_empty() {
                    None
                } else {
                    Some(cands[rng.below(cands.len())])
                }
            };
            let Some(mv) = mv else { break };
            // Don't let a five end the game too early: block fives, avoid making one.
            b.make(mv).unwrap();
        }
    }
}

/// Random dense scatters near the centre: prints positions where the side to move has a
/// shortest VCF of at least `min_fours` fours (neither side has a four on the board).
pub(crate) fn scatter(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let tries: usize = arg(args, "--tries").unwrap_or("1000").parse().unwrap();
    let min_fours: usize = arg(args, "--min-fours").unwrap_or("8").parse().unwrap();
    let side: Stone = arg(args, "--side").unwrap_or("black").parse().unwrap();
    let lo: usize = arg(args, "--stones-lo").unwrap_or("12").parse().unwrap();
    let hi: usize = arg(args, "--stones-hi").unwrap_or("30").parse().unwrap();
    let region: usize = arg(args, "--region").unwrap_or("10").parse().unwrap();
    let no_win = args.iter().any(|a| a == "--no-win");
    let mut rng = Rng(seed);
    let mut hits = 0;
    for t in 0..tries {
        let k = lo + rng.below(hi - lo + 1);
        let (nb, nw) = if side == Stone::Black {
            (k, k)
        } else {
            (k + 1, k)
        };
        let off = (size - region) / 2;
        let mut g = G {
            n: size,
            rule,
            c: vec![0; size * size],
        };
        let place = |g: &mut G, v: u8, rng: &mut Rng| loop {
            let p = Pos::new(off + rng.below(region), off + rng.below(region));
            if g.get(p) == 0 {
                g.set(p, v);
                break;
            }
        };
        for _ in 0..nb {
            place(&mut g, 1, &mut rng);
        }
        for _ in 0..nw {
            place(&mut g, 2, &mut rng);
        }
        // No five on the board, no four (five point) for either side, no black overline.
        let board = g.to_board(side);
        if board.outcome().is_some()
            || !g.five_points(Stone::Black).is_empty()
            || !g.five_points(Stone::White).is_empty()
        {
            continue;
        }
        let mut over = false;
        for p in g.stones(1) {
            for &(dx, dy) in &DIRS {
                if 1 + g.run(p.x() as i32, p.y() as i32, dx, dy, 1)
                    + g.run(p.x() as i32, p.y() as i32, -dx, -dy, 1)
                    >= 6
                {
                    over = true;
                }
            }
        }
        if over && rule != Rule::Freestyle {
            continue;
        }
        if no_win {
            // Many fours but no VCF, while the opponent has one: a tempting attack that fails.
            let fours = g.four_moves(side, false).len();
            if fours < min_fours
                || !matches!(vcf(&mut g, side, 60, false, false, 300_000), Found::No)
            {
                continue;
            }
            let Found::Yes(ol) = vcf(&mut g, side.opp(), 40, false, false, 300_000) else {
                continue;
            };
            hits += 1;
            println!(
                "# try {t} seed {seed}: {side} has {fours} fours but no VCF; {} VCF {}",
                side.opp(),
                Pos::format_list(&ol)
            );
            println!(
                "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
                Pos::format_list(&g.stones(1)),
                Pos::format_list(&g.stones(2))
            );
            continue;
        }
        let Found::Yes(_) = vcf(&mut g, side, 40, false, false, 100_000) else {
            continue;
        };
        let Found::Yes(l) = vcf(&mut g, side, 40, true, false, 2_000_000) else {
            continue;
        };
        let f = fours_in(&l);
        if f < min_fours {
            continue;
        }
        hits += 1;
        let mut eb = g.to_board(side);
        let eng = threat::solve(&mut eb, ThreatKind::Vcf, 40, 20_000)
            .map(|w| w.line.len())
            .unwrap_or(0);
        let ign = if rule == Rule::Renju && side == Stone::Black {
            match vcf(&mut g, side, 40, true, true, 2_000_000) {
                Found::Yes(l2) => {
                    format!(" ignoring-forbidden {} fours from {}", fours_in(&l2), l2[0])
                }
                _ => " ignoring-forbidden none".into(),
            }
        } else {
            String::new()
        };
        let opp = match vcf(&mut g, side.opp(), 40, false, false, 300_000) {
            Found::Yes(_) => "opp-vcf yes",
            Found::No => "opp-vcf no",
            Found::Unknown => "opp-vcf ?",
        };
        println!(
            "# try {t} seed {seed}: {side} shortest VCF {f} fours: {} engine20k {eng}{ign} {opp}",
            Pos::format_list(&l)
        );
        println!(
            "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
            Pos::format_list(&g.stones(1)),
            Pos::format_list(&g.stones(2))
        );
        print!("{}", g.diagram());
    }
    eprintln!("{hits} hits");
}

/// Random scatters where the side to move has no VCF but a proven VCT, and the opponent would
/// have a VCT of its own if it were to move (so that quiet moves tend to lose).
pub(crate) fn scatter_vct(args: &[String]) {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let seed: u64 = arg(args, "--seed").unwrap_or("1").parse().unwrap();
    let tries: usize = arg(args, "--tries").unwrap_or("1000").parse().unwrap();
    let side: Stone = arg(args, "--side").unwrap_or("black").parse().unwrap();
    let lo: usize = arg(args, "--stones-lo").unwrap_or("6").parse().unwrap();
    let hi: usize = arg(args, "--stones-hi").unwrap_or("16").parse().unwrap();
    let region: usize = arg(args, "--region").unwrap_or("9").parse().unwrap();
    let need_opp = !args.iter().any(|a| a == "--any-opp");
    let mut rng = Rng(seed);
    let mut hits = 0;
    for t in 0..tries {
        let k = lo + rng.below(hi - lo + 1);
        let (nb, nw) = if side == Stone::Black {
            (k, k)
        } else {
            (k + 1, k)
        };
        let off = (size - region) / 2;
        let mut g = G {
            n: size,
            rule,
            c: vec![0; size * size],
        };
        let place = |g: &mut G, v: u8, rng: &mut Rng| loop {
            let p = Pos::new(off + rng.below(region), off + rng.below(region));
            if g.get(p) == 0 {
                g.set(p, v);
                break;
            }
        };
        for _ in 0..nb {
            place(&mut g, 1, &mut rng);
        }
        for _ in 0..nw {
            place(&mut g, 2, &mut rng);
        }
        let board = g.to_board(side);
        if board.outcome().is_some()
            || !g.five_points(Stone::Black).is_empty()
            || !g.five_points(Stone::White).is_empty()
        {
            continue;
        }
        let mut over = false;
        for p in g.stones(1) {
            for &(dx, dy) in &DIRS {
                if 1 + g.run(p.x() as i32, p.y() as i32, dx, dy, 1)
                    + g.run(p.x() as i32, p.y() as i32, -dx, -dy, 1)
                    >= 6
                {
                    over = true;
                }
            }
        }
        if over && rule != Rule::Freestyle {
            continue;
        }
        // No open three on the board for the side to move (wins by one open four are too easy).
        let mut eb = g.to_board(side);
        let Some(w) = threat::solve(&mut eb, ThreatKind::Vct, 8, 20_000) else {
            continue;
        };
        if w.line.len() < 7 {
            continue;
        }
        let mut ob = g.to_board(side.opp());
        if need_opp && threat::solve(&mut ob, ThreatKind::Vct, 8, 20_000).is_none() {
            continue;
        }
        if !matches!(vcf(&mut g, side, 60, false, false, 300_000), Found::No) {
            continue;
        }
        if has_double_point(&mut g, side) {
            continue;
        }
        let mut pr = Prover::new();
        if !pr.attack(&mut g, side, 4) {
            println!(
                "# try {t}: engine VCT not proven: {}",
                Pos::format_list(&w.line)
            );
            continue;
        }
        hits += 1;
        println!(
            "# try {t} seed {seed}: {side} VCT (engine line {} plies): {}",
            w.line.len(),
            Pos::format_list(&w.line)
        );
        println!(
            "--rule {rule} --size {size} --black \"{}\" --white \"{}\" --to-move {side}",
            Pos::format_list(&g.stones(1)),
            Pos::format_list(&g.stones(2))
        );
        print!("{}", g.diagram());
    }
    eprintln!("{hits} hits");
}
