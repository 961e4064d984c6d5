//! One `x,y,who` stone line of a `BOARD` block.

use super::error::ProtocolError;

/// Who owns a stone of a `BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a continuous-game stone; it takes the colour whose turn it is in the replay.
    Continuous,
}

/// Parses one `x,y,who` line of a `BOARD` block.
pub fn parse_board_line(line: &str) -> Result<(usize, usize, Owner), ProtocolError> {
    let bad = || ProtocolError::BadBoardLine(line.trim().to_string());
    let mut parts = line.trim().split(',').map(str::trim);
    let mut num = || -> Result<usize, ProtocolError> {
        parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())
    };
    let (x, y, who) = (num()?, num()?, num()?);
    if parts.next().is_some() {
        return Err(bad());
    }
    let owner = match who {
        1 => Owner::Own,
        2 => Owner::Opponent,
        3 => Owner::Continuous,
        _ => return Err(bad()),
    };
    Ok((x, y, owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1\r"), Ok((7, 7, Owner::Own)));
        assert_eq!(parse_board_line(" 0, 14 ,2"), Ok((0, 14, Owner::Opponent)));
        assert_eq!(parse_board_line("3,3,3"), Ok((3, 3, Owner::Continuous)));
        assert!(parse_board_line("3,3,4").is_err());
        assert!(parse_board_line("3,3").is_err());
        assert!(parse_board_line("3,3,1,1").is_err());
    }
}
