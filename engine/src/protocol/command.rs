//! One protocol command, parsed from a line.

use super::error::ProtocolError;
use crate::pos::{MAX_SIZE, MIN_SIZE};

/// One protocol command, as read from a line outside a `BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n x n board.
    Start(usize),
    /// `RECTSTART w,h`.
    RectStart(usize, usize),
    /// `BEGIN`: play the first move.
    Begin,
    /// `TURN x,y`: the opponent played x,y; answer with a move.
    Turn(usize, usize),
    /// `BOARD`: a position follows, one `x,y,who` a line, closed by `DONE`.
    Board,
    /// `INFO key value` (the key in lower case).
    Info(String, String),
    /// `END`: exit.
    End,
    /// `ABOUT`: describe the brain.
    About,
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `TAKEBACK x,y`: remove the stone at x,y.
    Takeback(usize, usize),
    /// `YXBOARD`: a position follows as for `BOARD`; set it up without moving.
    YxBoard,
    /// `YXSHOWFORBID`: list black's forbidden points.
    YxShowForbid,
    /// `YXHASHCLEAR`: empty the transposition table.
    YxHashClear,
    /// `SWAP2BOARD`: the stones placed so far follow, one `x,y` a line, closed by `DONE`.
    Swap2Board,
    /// Anything else (the line as given, trimmed).
    Unknown(String),
}

impl Command {
    /// Parses one line (any case, CR/LF already or not yet removed). `Ok(None)` for a blank
    /// line; an error for a known command with malformed arguments.
    pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        let (word, rest) = match line.find(char::is_whitespace) {
            Some(i) => (&line[..i], line[i..].trim()),
            None => (line, ""),
        };
        let cmd = match word.to_ascii_uppercase().as_str() {
            "START" => {
                let n: usize = rest
                    .parse()
                    .map_err(|_| ProtocolError::BadSize(rest.to_string()))?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                    return Err(ProtocolError::BadSize(rest.to_string()));
                }
                Command::Start(n)
            }
            "RECTSTART" => {
                let (w, h) =
                    parse_pair(rest).map_err(|_| ProtocolError::BadRect(rest.to_string()))?;
                if w != h || !(MIN_SIZE..=MAX_SIZE).contains(&w) {
                    return Err(ProtocolError::BadRect(format!("{w}x{h}")));
                }
                Command::RectStart(w, h)
            }
            "BEGIN" if rest.is_empty() => Command::Begin,
            "TURN" => {
                let (x, y) = parse_pair(rest)?;
                Command::Turn(x, y)
            }
            "BOARD" if rest.is_empty() => Command::Board,
            "INFO" => {
                let (key, value) = match rest.find(char::is_whitespace) {
                    Some(i) => (&rest[..i], rest[i..].trim()),
                    None => return Err(ProtocolError::InfoMissingValue),
                };
                Command::Info(key.to_ascii_lowercase(), value.to_string())
            }
            "END" => Command::End,
            "ABOUT" => Command::About,
            "RESTART" => Command::Restart,
            "TAKEBACK" => {
                let (x, y) = parse_pair(rest)?;
                Command::Takeback(x, y)
            }
            "YXBOARD" if rest.is_empty() => Command::YxBoard,
            "YXSHOWFORBID" if rest.is_empty() => Command::YxShowForbid,
            "YXHASHCLEAR" if rest.is_empty() => Command::YxHashClear,
            "SWAP2BOARD" if rest.is_empty() => Command::Swap2Board,
            _ => Command::Unknown(line.to_string()),
        };
        Ok(Some(cmd))
    }
}

/// Parses `x,y` (spaces allowed around the numbers).
pub(super) fn parse_pair(text: &str) -> Result<(usize, usize), ProtocolError> {
    let bad = || ProtocolError::BadCoords(text.to_string());
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let x = a.trim().parse::<usize>().map_err(|_| bad())?;
    let y = b.trim().parse::<usize>().map_err(|_| bad())?;
    Ok((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_in_any_case() {
        assert_eq!(Command::parse("start 15\r\n"), Ok(Some(Command::Start(15))));
        assert_eq!(Command::parse("Turn 7, 8"), Ok(Some(Command::Turn(7, 8))));
        assert_eq!(
            Command::parse("INFO Timeout_Turn 500"),
            Ok(Some(Command::Info("timeout_turn".into(), "500".into())))
        );
        assert_eq!(Command::parse("  \r\n"), Ok(None));
        assert_eq!(
            Command::parse("PLAY 1,1"),
            Ok(Some(Command::Unknown("PLAY 1,1".into())))
        );
        assert!(matches!(
            Command::parse("START 4"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("START 21"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("START"),
            Err(ProtocolError::BadSize(_))
        ));
        assert!(matches!(
            Command::parse("RECTSTART 15,20"),
            Err(ProtocolError::BadRect(_))
        ));
        assert_eq!(
            Command::parse("RECTSTART 15,15"),
            Ok(Some(Command::RectStart(15, 15)))
        );
        assert!(matches!(
            Command::parse("TURN -1,3"),
            Err(ProtocolError::BadCoords(_))
        ));
        assert!(matches!(
            Command::parse("TURN 3"),
            Err(ProtocolError::BadCoords(_))
        ));
        assert!(matches!(
            Command::parse("INFO rule"),
            Err(ProtocolError::InfoMissingValue)
        ));
    }

    #[test]
    fn parses_the_yixin_board_extensions() {
        assert_eq!(
            Command::parse("yxshowforbid"),
            Ok(Some(Command::YxShowForbid))
        );
        assert_eq!(
            Command::parse("YXHASHCLEAR\r\n"),
            Ok(Some(Command::YxHashClear))
        );
        assert_eq!(Command::parse("SWAP2BOARD"), Ok(Some(Command::Swap2Board)));
        assert_eq!(Command::parse("YXBOARD"), Ok(Some(Command::YxBoard)));
        assert_eq!(
            Command::parse("INFO MAX_NODE 5000"),
            Ok(Some(Command::Info("max_node".into(), "5000".into())))
        );
    }
}
