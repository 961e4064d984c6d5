//! The `pbrain-wuzi` binary driven over pipes, as a Gomocup manager would: whole games in
//! all three rules (brain against brain and against a scripted opponent, refereed with
//! [`Board`]), `BOARD` set-ups, `TAKEBACK`, `RESTART`, malformed input, time and memory
//! limits, and the command line.
//!
//! Games use `INFO timeout_turn 0` (a small fixed node budget per move) so the file runs
//! in a few seconds; the timing test holds a write lock so no other brain competes with it
//! for the CPU while it measures.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::RwLock;
use std::time::{Duration, Instant};
use wuzi_engine::{Board, Outcome, Pos, Rule, Stone, WinReason};

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");
/// Longest wait for any reply in the quick (node-limited) tests.
const PATIENCE: Duration = Duration::from_secs(20);

/// Brains run under a read lock; the timing test takes the write lock.
static CPU: RwLock<()> = RwLock::new(());

/// A running brain with its stdout read on a thread, so waits can time out.
struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Brain {
    fn spawn(args: &[&str]) -> Brain {
        let mut child = Command::new(BRAIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pbrain-wuzi");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or None after `wait`.
    fn line_within(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next reply that is not a MESSAGE or DEBUG line, with the MESSAGE lines before it.
    fn reply_with_messages(&mut self, wait: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + wait;
        let mut messages = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .line_within(left)
                .unwrap_or_else(|| panic!("no reply within {wait:?}; messages {messages:?}"));
            if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
                messages.push(line);
            } else {
                return (line, messages);
            }
        }
    }

    fn reply(&mut self) -> String {
        self.reply_with_messages(PATIENCE).0
    }

    /// Sends a command and returns its reply.
    fn ask(&mut self, text: &str) -> String {
        self.send(text);
        self.reply()
    }

    /// Sends a command and parses the `x,y` reply.
    fn ask_move(&mut self, text: &str) -> Pos {
        let r = self.ask(text);
        parse_move(&r).unwrap_or_else(|| panic!("'{text}' got '{r}', expected x,y"))
    }

    /// No reply comes within `wait` (for INFO and the like).
    fn assert_silent(&mut self, wait: Duration) {
        if let Some(l) = self.line_within(wait) {
            panic!("unexpected output '{l}'");
        }
    }

    fn wait_exit(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Some(s) = self.child.try_wait().unwrap() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_move(text: &str) -> Option<Pos> {
    let (x, y) = text.split_once(',')?;
    let (x, y) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < 20 && y < 20).then(|| Pos::new(x, y))
}

fn coords(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// A quick brain on a fresh `size` board under `rule_bits`.
fn quick_brain(size: usize, rule_bits: u32) -> Brain {
    let mut b = Brain::spawn(&["--hash-mb", "4"]);
    assert_eq!(b.ask(&format!("START {size}")), "OK");
    b.send(&format!("INFO rule {rule_bits}"));
    b.send("INFO timeout_turn 0");
    b
}

fn rule_of(bits: u32) -> Rule {
    match bits {
        0 => Rule::Freestyle,
        1 => Rule::Standard,
        _ => Rule::Renju,
    }
}

/// Plays a move the referee checked: on the board, empty, and not forbidden.
fn referee_play(board: &mut Board, p: Pos, who: &str) {
    let mover = board.side_to_move();
    assert!(
        board.is_empty_at(p),
        "{who} ({mover}) played {p} on a taken point"
    );
    assert!(
        board.is_legal(p),
        "{who} ({mover}) played the forbidden {p}\n{}",
        board.diagram(&[p])
    );
    board.make(p).unwrap();
}

/// Deterministic pseudo-random numbers for the scripted opponent.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A weak opponent: a random legal point next to the stones (the centre on an empty board).
fn random_move(board: &mut Board, rng: &mut Lcg) -> Pos {
    let n = board.size();
    if board.stone_count() == 0 {
        return Pos::new(n / 2, n / 2);
    }
    let stones: Vec<Pos> = board
        .points()
        .filter(|&p| board.stone_at(p).is_some())
        .collect();
    let near = |p: Pos| {
        stones.iter().any(|s| {
            (s.x() as isize - p.x() as isize).abs() <= 1
                && (s.y() as isize - p.y() as isize).abs() <= 1
        })
    };
    let mut legal: Vec<Pos> = board.legal_moves();
    let close: Vec<Pos> = legal.iter().copied().filter(|&p| near(p)).collect();
    if !close.is_empty() {
        legal = close;
    }
    legal[rng.below(legal.len())]
}

/// Two brains play a whole game; returns the outcome and the number of moves.
fn brain_vs_brain(size: usize, rule_bits: u32) -> (Outcome, usize) {
    let mut black = quick_brain(size, rule_bits);
    let mut white = quick_brain(size, rule_bits);
    let mut board = Board::new(size, rule_of(rule_bits)).unwrap();
    let mut last = black.ask_move("BEGIN");
    referee_play(&mut board, last, "black brain");
    loop {
        if let Some(o) = board.outcome() {
            black.send("END");
            white.send("END");
            return (o, board.history().len());
        }
        let (mover, name) = match board.side_to_move() {
            Stone::Black => (&mut black, "black brain"),
            Stone::White => (&mut white, "white brain"),
        };
        last = mover.ask_move(&format!("TURN {}", coords(last)));
        referee_play(&mut board, last, name);
    }
}

/// The brain plays `brain_colour` against the random opponent; returns the outcome.
fn brain_vs_random(size: usize, rule_bits: u32, brain_colour: Stone, seed: u64) -> Outcome {
    let mut brain = quick_brain(size, rule_bits);
    let mut board = Board::new(size, rule_of(rule_bits)).unwrap();
    let mut rng = Lcg(seed);
    if brain_colour == Stone::Black {
        let p = brain.ask_move("BEGIN");
        referee_play(&mut board, p, "brain");
    }
    while board.outcome().is_none() {
        let p = random_move(&mut board, &mut rng);
        referee_play(&mut board, p, "random");
        if board.outcome().is_some() {
            break;
        }
        let reply = brain.ask_move(&format!("TURN {}", coords(p)));
        referee_play(&mut board, reply, "brain");
    }
    board.outcome().unwrap()
}

#[test]
fn about_start_sizes_and_unknown_commands() {
    let _cpu = CPU.read().unwrap();
    let mut b = Brain::spawn(&[]);
    let about = b.ask("ABOUT");
    assert!(about.starts_with("name=\"wuzi\""), "{about}");
    // The version names the commit the brain was built from: `0.1.0 (abc1234)`.
    assert!(
        about.contains(&format!(
            "version=\"{}\"",
            wuzi_engine::build_info::VERSION_WITH_COMMIT
        )),
        "{about}"
    );
    assert!(
        about.contains(&format!("version=\"{} (", env!("CARGO_PKG_VERSION"))),
        "{about}"
    );
    assert!(about.contains("author=\"wuzi developers\""), "{about}");
    assert!(about.contains("country=\""), "{about}");
    for bad in [
        "START 4",
        "START 21",
        "START",
        "START fifteen",
        "RECTSTART 15,20",
        "RECTSTART 30,30",
    ] {
        let r = b.ask(bad);
        assert!(r.starts_with("ERROR "), "{bad} -> {r}");
    }
    assert_eq!(b.ask("RECTSTART 10,10"), "OK");
    assert_eq!(b.ask("START 20"), "OK");
    assert_eq!(b.ask("START 5"), "OK");
    // Any case, CRLF line ends.
    b.send_bytes(b"start 15\r\n");
    assert_eq!(b.reply(), "OK");
    b.send_bytes(b"about\r\n");
    assert_eq!(b.reply(), about);
    let r = b.ask("FROBNICATE 1,2");
    assert!(r.starts_with("UNKNOWN ") && r.contains("FROBNICATE"), "{r}");
    // Extensions the brain does not implement are unknown, not errors.
    let r = b.ask("YXNBEST 2");
    assert!(r.starts_with("UNKNOWN "), "{r}");
    // INFO has no reply, even for keys the brain does not know.
    b.send("INFO evaluate 7,7");
    b.send("INFO timeout_turn 1000");
    b.send("INFO folder /tmp");
    b.assert_silent(Duration::from_millis(100));
    assert_eq!(b.ask("START 15"), "OK");
}

#[test]
fn game_commands_before_start_are_errors() {
    let _cpu = CPU.read().unwrap();
    let mut b = Brain::spawn(&[]);
    b.send("INFO timeout_turn 0");
    for cmd in ["BEGIN", "TURN 7,7", "TAKEBACK 7,7", "RESTART"] {
        let r = b.ask(cmd);
        assert!(
            r.starts_with("ERROR ") && r.contains("START"),
            "{cmd} -> {r}"
        );
    }
    b.send("BOARD");
    b.send("7,7,1");
    let r = b.ask("DONE");
    assert!(r.starts_with("ERROR ") && r.contains("START"), "{r}");
    // The brain is still usable.
    assert_eq!(b.ask("START 15"), "OK");
    let p = b.ask_move("BEGIN");
    assert!(p.on_board(15));
}

#[test]
fn malformed_input_gets_error_and_the_game_continues() {
    let _cpu = CPU.read().unwrap();
    let mut b = quick_brain(15, 4);
    let mut board = Board::new(15, Rule::Renju).unwrap();
    referee_play(&mut board, Pos::new(7, 7), "opponent");
    let mine = b.ask_move("TURN 7,7");
    referee_play(&mut board, mine, "brain");

    let occupied = format!("TURN {}", coords(mine));
    for (cmd, expect) in [
        ("TURN 7,7", "ERROR 7,7 is already occupied"),
        (occupied.as_str(), "ERROR"),
        ("TURN 15,3", "ERROR 15,3 is off the 15x15 board"),
        ("TURN 3,99", "ERROR"),
        ("TURN -1,2", "ERROR bad coordinates"),
        ("TURN a,b", "ERROR bad coordinates"),
        ("TURN", "ERROR bad coordinates"),
        ("TURN 1 2", "ERROR bad coordinates"),
        ("TAKEBACK 0,0", "ERROR no stone at 0,0"),
        ("INFO time_left soon", "ERROR bad INFO value"),
        ("hello world", "UNKNOWN"),
        ("%%%", "UNKNOWN"),
    ] {
        let r = b.ask(cmd);
        assert!(
            r.starts_with(expect),
            "'{cmd}' -> '{r}', expected '{expect}...'"
        );
    }
    b.send_bytes(b"\xff\xfe\x00garbage\r\n");
    assert!(b.reply().starts_with("UNKNOWN"));
    // Blank lines are ignored.
    b.send_bytes(b"\r\n\n   \n");
    b.assert_silent(Duration::from_millis(50));
    // A bad BOARD block is refused and the old game kept.
    b.send("BOARD");
    b.send("1,1,1");
    b.send("this is not a stone");
    let r = b.ask("DONE");
    assert!(r.starts_with("ERROR bad board line"), "{r}");
    b.send("BOARD");
    b.send("1,1,1");
    b.send("1,1,2");
    assert_eq!(b.ask("DONE"), "ERROR 1,1 is already occupied");

    // The game goes on from the position before the errors.
    for _ in 0..3 {
        let mut rng = Lcg(board.hash());
        let p = random_move(&mut board, &mut rng);
        referee_play(&mut board, p, "opponent");
        let mine = b.ask_move(&format!("TURN {}", coords(p)));
        referee_play(&mut board, mine, "brain");
    }
}

#[test]
fn board_setups_replay_in_order_and_decide_colours() {
    let _cpu = CPU.read().unwrap();
    // Freestyle, own stones first: the brain is black and completes its four.
    let mut b = quick_brain(15, 0);
    b.send("BOARD");
    for (x, y, who) in [
        (7, 7, 1),
        (7, 8, 2),
        (8, 7, 1),
        (8, 8, 2),
        (9, 7, 1),
        (9, 8, 2),
        (10, 7, 1),
        (0, 0, 2),
    ] {
        b.send(&format!("{x},{y},{who}"));
    }
    let p = b.ask_move("DONE");
    assert!(
        p == Pos::new(6, 7) || p == Pos::new(11, 7),
        "did not make five: {p}"
    );

    // Opponent's stone first: the brain is white and must block black's closed four.
    b.send("BOARD");
    for (x, y, who) in [
        (3, 3, 2),
        (2, 3, 1),
        (4, 3, 2),
        (5, 9, 1),
        (5, 3, 2),
        (12, 12, 1),
        (6, 3, 2),
    ] {
        b.send(&format!("{x},{y},{who}"));
    }
    assert_eq!(b.ask_move("DONE"), Pos::new(7, 3), "did not block the four");

    // Continuous-game stones (3) alternate: black 0,0, white 1,0, then the opponent's 2,0
    // is black's, so the brain is white and must block the four 4,4-7,4 that black adds.
    b.send("BOARD");
    for (x, y, who) in [
        (0, 0, 3),
        (1, 0, 3),
        (4, 4, 2),
        (9, 9, 1),
        (5, 4, 2),
        (10, 9, 1),
        (6, 4, 2),
        (0, 14, 1),
        (7, 4, 2),
    ] {
        b.send(&format!("{x},{y},{who}"));
    }
    let p = b.ask_move("DONE");
    assert!(
        p == Pos::new(3, 4) || p == Pos::new(8, 4),
        "did not block: {p}"
    );

    // An empty BOARD: the brain moves first.
    b.send("BOARD");
    let p = b.ask_move("DONE");
    assert!(p.on_board(15));
}

#[test]
fn renju_black_never_plays_forbidden_points() {
    let _cpu = CPU.read().unwrap();
    // The brain is black (its stone comes first). 4,7 would complete black's row but
    // makes six (3,7-8,7): an overline, forbidden. White threatens nothing.
    let mut b = quick_brain(15, 4);
    b.send("BOARD");
    for (x, y, who) in [
        (3, 7, 1),
        (0, 0, 2),
        (5, 7, 1),
        (0, 2, 2),
        (6, 7, 1),
        (0, 4, 2),
        (7, 7, 1),
        (14, 0, 2),
        (8, 7, 1),
        (14, 14, 2),
    ] {
        b.send(&format!("{x},{y},{who}"));
    }
    let p = b.ask_move("DONE");
    assert_ne!(p, Pos::new(4, 7), "played the overline");
    assert_eq!(p, Pos::new(9, 7), "9,7 makes exactly five");

    // Black to move where the double-three point h8 (7,7) is the obvious shape move.
    let mut board = Board::new(15, Rule::Renju).unwrap();
    b.send("BOARD");
    for (x, y, who) in [
        (6, 7, 1),
        (0, 0, 2),
        (8, 7, 1),
        (0, 2, 2),
        (7, 6, 1),
        (0, 4, 2),
        (7, 8, 1),
        (14, 14, 2),
    ] {
        b.send(&format!("{x},{y},{who}"));
        board.set_side_to_move(if who == 1 { Stone::Black } else { Stone::White });
        board.make(Pos::new(x, y)).unwrap();
    }
    assert!(board.is_forbidden(Pos::new(7, 7)));
    let p = b.ask_move("DONE");
    assert_ne!(p, Pos::new(7, 7), "played the double-three");
    referee_play(&mut board, p, "brain");
}

#[test]
fn takeback_and_restart() {
    let _cpu = CPU.read().unwrap();
    let mut b = quick_brain(15, 0);
    let mine = b.ask_move("TURN 7,7");
    assert_ne!(mine, Pos::new(7, 7));
    assert_eq!(b.ask(&format!("TAKEBACK {}", coords(mine))), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    let r = b.ask("TAKEBACK 7,7");
    assert!(r.starts_with("ERROR no stone at 7,7"), "{r}");
    // The board is empty again: the opponent may play where the brain had played.
    let again = b.ask_move(&format!("TURN {}", coords(mine)));
    assert_ne!(again, mine);

    assert_eq!(b.ask("RESTART"), "OK");
    // After RESTART the brain can open on the empty board of the same size.
    let first = b.ask_move("BEGIN");
    assert!(first.on_board(15));
    let reply = b.ask_move(&format!(
        "TURN {}",
        coords(if first == Pos::new(0, 0) {
            Pos::new(1, 1)
        } else {
            Pos::new(0, 0)
        })
    ));
    assert_ne!(reply, first);
}

#[test]
fn brain_against_brain_in_all_rules() {
    let _cpu = CPU.read().unwrap();
    let games: Vec<_> = [(15, 0), (15, 1), (15, 4), (20, 0)]
        .into_iter()
        .map(|(size, bits)| std::thread::spawn(move || (size, bits, brain_vs_brain(size, bits))))
        .collect();
    for g in games {
        let (size, bits, (outcome, moves)) = g.join().expect("game thread");
        // The engines must finish the game; nobody may lose by a forbidden move.
        match outcome {
            Outcome::Win { reason, .. } => {
                assert_eq!(reason, WinReason::Five, "rule {bits} on {size}")
            }
            Outcome::Draw => assert_eq!(moves, size * size),
        }
    }
}

#[test]
fn brain_beats_a_random_opponent_in_all_rules() {
    let _cpu = CPU.read().unwrap();
    let games: Vec<_> = [
        (0, Stone::Black, 1),
        (1, Stone::White, 2),
        (4, Stone::Black, 3),
        (4, Stone::White, 4),
    ]
    .into_iter()
    .map(|(bits, colour, seed)| {
        std::thread::spawn(move || (bits, colour, brain_vs_random(15, bits, colour, seed)))
    })
    .collect();
    for g in games {
        let (bits, colour, outcome) = g.join().expect("game thread");
        assert_eq!(
            outcome,
            Outcome::Win {
                winner: colour,
                reason: WinReason::Five
            },
            "rule {bits}, brain {colour}"
        );
    }
}

#[test]
fn small_board_is_played_to_the_end() {
    let _cpu = CPU.read().unwrap();
    // On 5x5 games often fill the board: every reply must stay legal to the last point.
    let (outcome, moves) = brain_vs_brain(5, 1);
    if outcome == Outcome::Draw {
        assert_eq!(moves, 25);
    }
    // Asking for a move on a full board is an error, not a crash.
    let mut b = quick_brain(5, 0);
    b.send("BOARD");
    for y in 0..5 {
        for x in 0..5 {
            // Pairs of colours shifted by two each row: no five anywhere.
            let who = if (x + 2 * y) % 4 < 2 { 1 } else { 2 };
            b.send(&format!("{x},{y},{who}"));
        }
    }
    let r = b.ask("DONE");
    assert!(r.starts_with("ERROR"), "{r}");
    assert_eq!(b.ask("START 5"), "OK");
}

#[test]
fn replies_arrive_within_tight_time_limits() {
    let _cpu = CPU.write().unwrap();
    let margin = Duration::from_millis(100);
    for turn_ms in [100u64, 300] {
        let mut b = Brain::spawn(&[]);
        assert_eq!(b.ask("START 15"), "OK");
        b.send(&format!("INFO timeout_turn {turn_ms}"));
        b.send("INFO timeout_match 180000");
        b.send("INFO rule 4");
        let mut board = Board::new(15, Rule::Renju).unwrap();
        let mut rng = Lcg(turn_ms);
        let mut slowest = Duration::ZERO;
        for _ in 0..6 {
            let p = random_move(&mut board, &mut rng);
            referee_play(&mut board, p, "opponent");
            if board.outcome().is_some() {
                break;
            }
            b.send("INFO time_left 170000");
            let sent = Instant::now();
            b.send(&format!("TURN {}", coords(p)));
            let (r, _) = b.reply_with_messages(Duration::from_millis(turn_ms) + margin);
            slowest = slowest.max(sent.elapsed());
            let mine = parse_move(&r).unwrap_or_else(|| panic!("expected a move, got {r}"));
            referee_play(&mut board, mine, "brain");
            if board.outcome().is_some() {
                break;
            }
        }
        assert!(
            slowest <= Duration::from_millis(turn_ms) + margin,
            "{slowest:?} for {turn_ms} ms"
        );
    }
    // Little time left in the game: the brain answers well inside it.
    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 5000");
    b.send("INFO timeout_match 60000");
    b.send("INFO time_left 300");
    let sent = Instant::now();
    b.send("TURN 7,7");
    let (r, _) = b.reply_with_messages(Duration::from_millis(300));
    assert!(parse_move(&r).is_some(), "{r}");
    assert!(
        sent.elapsed() < Duration::from_millis(300),
        "{:?}",
        sent.elapsed()
    );
}

#[test]
fn messages_report_the_search() {
    let _cpu = CPU.read().unwrap();
    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 200");
    b.send("TURN 7,7");
    let (r, messages) = b.reply_with_messages(PATIENCE);
    assert!(parse_move(&r).is_some(), "{r}");
    let progress = messages
        .iter()
        .find(|m| m.starts_with("MESSAGE depth"))
        .unwrap_or_else(|| panic!("no progress line in {messages:?}"));
    for word in ["score", "nodes", "speed", "pv"] {
        assert!(progress.contains(word), "'{word}' missing from {progress}");
    }
    // The rule bit 2 is read as renju, and the brain says so.
    b.send("INFO rule 2");
    let l = b.line_within(PATIENCE).unwrap();
    assert!(l.starts_with("MESSAGE") && l.contains("renju"), "{l}");
}

#[test]
fn end_and_end_of_input_exit_promptly() {
    let _cpu = CPU.read().unwrap();
    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("END");
    let status = b.wait_exit(Duration::from_secs(2)).expect("exit after END");
    assert!(status.success());
    assert!(
        b.line_within(Duration::from_millis(50)).is_none(),
        "END has no reply"
    );

    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.stdin = None;
    let status = b
        .wait_exit(Duration::from_secs(2))
        .expect("exit at end of input");
    assert!(status.success());
}

/// `--version` names the commit the binary was built from (short in `-V`, full in
/// `--version`), the same one as `ABOUT` (issue 14: the gate reads it to tell builds apart).
#[test]
fn version_names_the_build_commit() {
    use wuzi_engine::build_info::{self, BuildCommit};
    for bin in [BRAIN, env!("CARGO_BIN_EXE_wuzi")] {
        let o = Command::new(bin).arg("--version").output().expect("runs");
        assert!(o.status.success());
        let text = String::from_utf8_lossy(&o.stdout);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.ends_with(build_info::VERSION_WITH_COMMIT),
            "{bin}: {text}"
        );
        let commit = build_info::commit_from_version_output(&text)
            .unwrap_or_else(|| panic!("{bin}: no commit line in {text}"));
        assert_eq!(commit, BuildCommit::current());
        let short = Command::new(bin).arg("-V").output().expect("runs");
        let short = String::from_utf8_lossy(&short.stdout);
        assert!(
            short.trim().ends_with(build_info::VERSION_WITH_COMMIT),
            "{short}"
        );
    }
    // Built in the project's git checkout, the stamp is a commit (with -dirty for local
    // changes) and agrees with git.
    let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let head = Command::new("git")
        .arg("-C")
        .arg(&top)
        .args(["rev-parse", "HEAD"])
        .output();
    if let Some(h) = head.ok().filter(|h| h.status.success()) {
        let head = String::from_utf8_lossy(&h.stdout).trim().to_string();
        // build.rs reruns when HEAD moves, so a test build is never stale.
        let c = BuildCommit::current();
        assert_eq!(c.hash.as_deref(), Some(head.as_str()), "{c:?}");
    }
}

#[test]
fn command_line_parameters() {
    let _cpu = CPU.read().unwrap();
    for args in [
        &["--set", "no_such_param=1"][..],
        &["--set", "w_five=lots"],
        &["--set", "radius=9"],
        &["--set", "radius"],
        &["--params", "/nonexistent/wuzi/params.toml"],
    ] {
        let out = Command::new(BRAIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A parameter file and settings are accepted; the brain then plays normally.
    let dir = std::env::temp_dir().join(format!("wuzi-brain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("params.toml");
    std::fs::write(&file, "radius = 1\ncand_cap = 12\n").unwrap();
    let mut b = Brain::spawn(&[
        "--params",
        file.to_str().unwrap(),
        "--set",
        "defence=100",
        "--threads",
        "2",
        "--hash-mb",
        "8",
    ]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 0");
    let p = b.ask_move("TURN 7,7");
    assert_ne!(p, Pos::new(7, 7));
}

#[cfg(target_os = "linux")]
#[test]
fn memory_stays_under_max_memory() {
    let _cpu = CPU.read().unwrap();
    let peak_kb = |b: &Brain| -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", b.child.id())).unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .unwrap()
            .to_string();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let limit: u64 = 40 * 1024 * 1024;
    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send(&format!("INFO max_memory {limit}"));
    b.send("INFO timeout_turn 100");
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    let mut rng = Lcg(7);
    for _ in 0..3 {
        let p = random_move(&mut board, &mut rng);
        referee_play(&mut board, p, "opponent");
        let mine = b.ask_move(&format!("TURN {}", coords(p)));
        referee_play(&mut board, mine, "brain");
    }
    // A new game clears the table, which touches every page of it.
    assert_eq!(b.ask("RESTART"), "OK");
    b.ask_move("TURN 7,7");
    let peak = peak_kb(&b) * 1024;
    assert!(peak < limit, "peak {peak} bytes over the limit {limit}");

    // The same without a limit: the default hash alone takes more than that.
    let mut b = Brain::spawn(&[]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 0");
    b.ask_move("TURN 7,7");
    assert_eq!(b.ask("RESTART"), "OK");
    let peak = peak_kb(&b) * 1024;
    assert!(
        peak > limit,
        "the default hash was not allocated: peak {peak}"
    );
}

/// Two node-limited brains (`INFO max_node`, with `thread_num 2` and a tight `timeout_turn`
/// that must not matter) play exactly the game two in-process engines play with the same node
/// limit, one thread and the same table size, move for move, every time (issue 10: games of
/// brains become reproducible, and a brain is the engine).
#[test]
fn node_limited_brains_play_the_in_process_engines_game() {
    use wuzi_engine::{Engine, Limits, Params};
    let _cpu = CPU.read().unwrap();
    const NODES: u64 = 1000;
    const PLIES: usize = 24;
    // The in-process game: one engine per side, each keeping its table between moves.
    let mut engines = [
        Engine::new(Params::default(), 4, 1),
        Engine::new(Params::default(), 4, 1),
    ];
    let mut board = Board::new(15, Rule::Renju).unwrap();
    let mut expected = Vec::new();
    for ply in 0..PLIES {
        let r = engines[ply % 2].search(&board, &Limits::nodes(NODES), None);
        let Some(p) = r.best else { break };
        board.make(p).unwrap();
        expected.push(p);
        if board.outcome().is_some() {
            break;
        }
    }
    let game = || {
        let mut brains = [0, 1].map(|_| {
            let mut b = Brain::spawn(&["--hash-mb", "4"]);
            assert_eq!(b.ask("START 15"), "OK");
            for info in [
                "INFO rule 4",
                "INFO thread_num 2",
                "INFO timeout_turn 1",
                "INFO timeout_match 1000",
            ] {
                b.send(info);
            }
            b.send(&format!("INFO max_node {NODES}"));
            b
        });
        let mut moves = vec![brains[0].ask_move("BEGIN")];
        while moves.len() < expected.len() {
            let last = *moves.last().unwrap();
            let next = brains[moves.len() % 2].ask_move(&format!("TURN {}", coords(last)));
            moves.push(next);
        }
        moves
    };
    assert_eq!(game(), expected);
    assert_eq!(game(), expected);
}

/// YXSHOWFORBID, YXBOARD, YXHASHCLEAR and SWAP2BOARD over pipes, as a Yixin-Board-class
/// manager sends them.
#[test]
fn yixin_board_extensions_over_pipes() {
    let _cpu = CPU.read().unwrap();
    let mut b = Brain::spawn(&["--hash-mb", "4"]);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO rule 4");
    b.send("INFO max_node 1500");
    // Black to move, double-three at 7,7.
    for l in [
        "YXBOARD", "6,7,1", "0,0,2", "8,7,1", "0,2,2", "7,6,1", "0,4,2", "7,8,1", "0,14,2", "DONE",
    ] {
        b.send(l);
    }
    b.send("YXHASHCLEAR");
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0707.");
    // The brain, black, never plays there.
    b.send("BOARD");
    for l in [
        "6,7,1", "0,0,2", "8,7,1", "0,2,2", "7,6,1", "0,4,2", "7,8,1", "0,14,2",
    ] {
        b.send(l);
    }
    assert_ne!(b.ask_move("DONE"), Pos::new(7, 7));
    // Swap2: three stones on an empty board, then a choice on three stones.
    b.send("SWAP2BOARD");
    let r = b.ask("DONE");
    assert_eq!(r.split(' ').filter_map(parse_move).count(), 3, "{r}");
    for l in ["SWAP2BOARD", "7,7", "0,0", "8,7"] {
        b.send(l);
    }
    assert_eq!(b.ask("DONE"), "SWAP");
    b.send("END");
    assert!(b.wait_exit(Duration::from_secs(5)).is_some());
}
