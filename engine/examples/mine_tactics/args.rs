//! The command line: one option's value, and a position from options.

use wuzi_engine::{Board, Pos, Rule};

pub(crate) fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

pub(crate) fn board_from_args(args: &[String]) -> Board {
    let rule: Rule = arg(args, "--rule").unwrap_or("renju").parse().unwrap();
    let size: usize = arg(args, "--size").unwrap_or("15").parse().unwrap();
    let bl = Pos::parse_list(arg(args, "--black").unwrap_or(""), size).unwrap();
    let wh = Pos::parse_list(arg(args, "--white").unwrap_or(""), size).unwrap();
    let mut b = Board::from_stones(size, rule, &bl, &wh).unwrap();
    if let Some(s) = arg(args, "--to-move") {
        b.set_side_to_move(s.parse().unwrap());
    }
    b
}
