// A tiny Gomocup brain for the gate's build tests (arena/tests/gate.rs): it compiles in about a
// second, so the tests can build it from several commits of a scratch repository through the
// gate's real build path (`engine/build.rs` of the project stamps it). `LEVEL` is what the
// commits change: 1 plays the point that makes or blocks the longest line, 0 the first empty
// point (much weaker). `--version` prints what `pbrain-wuzi --version` prints.
use std::io::{BufRead, Write};

const LEVEL: u32 = 1;
/// Set in a commit whose brain lies about its commit (the gate must refuse it).
const CLAIMED: Option<&str> = None;

fn main() {
    if std::env::args().any(|a| a == "--version") {
        let commit = CLAIMED.unwrap_or(env!("WUZI_BUILD_COMMIT"));
        println!("pbrain-wuzi {}\ncommit {commit}", env!("WUZI_VERSION"));
        return;
    }
    let mut n = 15usize;
    let mut board = vec![0u8; n * n];
    let mut block = false;
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let l = line.trim();
        let up = l.to_ascii_uppercase();
        let (word, rest) = up.split_once(' ').unwrap_or((up.as_str(), ""));
        let nums: Vec<usize> = rest.split(',').filter_map(|t| t.trim().parse().ok()).collect();
        if block {
            if up == "DONE" {
                block = false;
                play(&mut board, n, &mut out);
            } else {
                let v: Vec<usize> = up.split(',').filter_map(|t| t.trim().parse().ok()).collect();
                if v.len() == 3 && v[0] < n && v[1] < n {
                    board[v[1] * n + v[0]] = if v[2] == 1 { 1 } else { 2 };
                }
            }
            continue;
        }
        match word {
            "START" => {
                n = rest.trim().parse().unwrap_or(15);
                board = vec![0; n * n];
                writeln!(out, "OK").unwrap();
            }
            "RESTART" => {
                board = vec![0; n * n];
                writeln!(out, "OK").unwrap();
            }
            "BEGIN" => play(&mut board, n, &mut out),
            "TURN" if nums.len() == 2 && nums[0] < n && nums[1] < n => {
                board[nums[1] * n + nums[0]] = 2;
                play(&mut board, n, &mut out);
            }
            "BOARD" => {
                board = vec![0; n * n];
                block = true;
            }
            "INFO" | "" => {}
            "ABOUT" => writeln!(out, "name=\"fake\", version=\"{LEVEL}\"").unwrap(),
            "END" => return,
            _ => writeln!(out, "UNKNOWN {l}").unwrap(),
        }
        out.flush().unwrap();
    }
}

/// The longest line of `who` through (x, y) if a stone of `who` were there.
fn line(board: &[u8], n: usize, x: usize, y: usize, who: u8) -> usize {
    let mut best = 0;
    for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let mut len = 1;
        for s in [1i64, -1] {
            let (mut cx, mut cy) = (x as i64 + s * dx, y as i64 + s * dy);
            while cx >= 0 && cy >= 0 && (cx as usize) < n && (cy as usize) < n
                && board[cy as usize * n + cx as usize] == who
            {
                len += 1;
                cx += s * dx;
                cy += s * dy;
            }
        }
        best = best.max(len);
    }
    best
}

fn play(board: &mut [u8], n: usize, out: &mut impl Write) {
    let c = (n / 2) as i64;
    let mut best: Option<(i64, usize)> = None;
    for i in 0..n * n {
        if board[i] != 0 {
            continue;
        }
        let (x, y) = (i % n, i / n);
        let score = if LEVEL == 0 {
            -(i as i64)
        } else {
            let own = line(board, n, x, y, 1).min(5) as i64;
            let opp = line(board, n, x, y, 2).min(5) as i64;
            let attack = if own >= 5 { 1000 } else { own * 10 };
            let defend = if opp >= 5 { 500 } else { opp * 9 };
            attack.max(defend) * 100 - (x as i64 - c).abs() - (y as i64 - c).abs()
        };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    if let Some((_, i)) = best {
        board[i] = 1;
        writeln!(out, "{},{}", i % n, i / n).unwrap();
    }
}
