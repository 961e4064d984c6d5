//! A search limit as the player types it (`nodes=20000`, `500ms`, `2s`, ...).

use crate::limits::Limits;

/// Parses a search limit such as `nodes=20000`, `depth=6`, `time=500` (milliseconds; also
/// `500ms` or `2s`), or several joined by commas.
pub fn parse_limits(text: &str) -> Result<Limits, String> {
    let mut l = Limits::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("bad limit '{part}': expected nodes=N, depth=N, time=MS, 500ms or 2s");
        let number = |v: &str| v.trim().parse::<u64>().map_err(|_| bad());
        if let Some((key, value)) = part.split_once('=') {
            match key.trim().to_ascii_lowercase().as_str() {
                "nodes" => l.nodes = Some(number(value)?),
                "depth" => l.depth = Some(number(value)?.clamp(1, 100) as i32),
                "time" | "time_ms" | "ms" => l.time_ms = Some(number(value)?),
                _ => return Err(bad()),
            }
        } else if let Some(ms) = part.strip_suffix("ms") {
            l.time_ms = Some(number(ms)?);
        } else if let Some(s) = part.strip_suffix('s') {
            l.time_ms = Some(number(s)? * 1000);
        } else {
            return Err(bad());
        }
    }
    if l == Limits::default() {
        return Err(format!("empty limit '{text}'"));
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse() {
        assert_eq!(parse_limits("nodes=5000"), Ok(Limits::nodes(5000)));
        assert_eq!(parse_limits("depth=6"), Ok(Limits::depth(6)));
        assert_eq!(parse_limits("500ms"), Ok(Limits::time_ms(500)));
        assert_eq!(parse_limits("2s"), Ok(Limits::time_ms(2000)));
        let both = parse_limits("time=300, nodes=100").unwrap();
        assert_eq!((both.time_ms, both.nodes), (Some(300), Some(100)));
        assert!(parse_limits("fast").is_err());
        assert!(parse_limits("nodes=x").is_err());
        assert!(parse_limits("").is_err());
    }
}
