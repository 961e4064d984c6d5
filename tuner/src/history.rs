//! The tune's history: one CSV row per iteration, appended as each iteration ends, read back
//! (and cut to the checkpoint) when a tune resumes.
//!
//! Columns: `iteration`; every tuned parameter's theta after the iteration's update (by name);
//! `NAME_c_k` and `NAME_a_k` per parameter (under the adam schedule `a_k` is its step size
//! `eta_k`); `NAME_plus` and `NAME_minus`, the values engine+
//! and engine- played; `wins`, `draws`, `losses` of engine+ in the iteration. Numbers are
//! written in Rust's shortest round-trip form, so reading them back gives the same bits.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Result, TuneError};

/// One iteration of a tune.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRecord {
    /// Iteration number `k` (1-based).
    pub iteration: u64,
    /// Theta after the update, one value per tuned parameter.
    pub theta: Vec<f64>,
    /// Perturbation sizes `c_k`.
    pub c_k: Vec<f64>,
    /// Learning rates `a_k` (adam's step sizes `eta_k`).
    pub a_k: Vec<f64>,
    /// Values engine+ played.
    pub plus: Vec<f64>,
    /// Values engine- played.
    pub minus: Vec<f64>,
    /// Games won by engine+.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games lost by engine+.
    pub losses: u64,
}

impl IterationRecord {
    /// Games played in the iteration.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// The CSV header for parameters `names`.
pub fn header(names: &[String]) -> String {
    let mut cols = vec!["iteration".to_string()];
    cols.extend(names.iter().cloned());
    for n in names {
        cols.push(format!("{n}_c_k"));
        cols.push(format!("{n}_a_k"));
    }
    for n in names {
        cols.push(format!("{n}_plus"));
        cols.push(format!("{n}_minus"));
    }
    cols.extend(["wins", "draws", "losses"].map(String::from));
    cols.join(",")
}

/// One CSV row (without the line end).
pub fn row(r: &IterationRecord) -> String {
    let mut s = r.iteration.to_string();
    for v in &r.theta {
        let _ = write!(s, ",{v}");
    }
    for (c, a) in r.c_k.iter().zip(&r.a_k) {
        let _ = write!(s, ",{c},{a}");
    }
    for (p, m) in r.plus.iter().zip(&r.minus) {
        let _ = write!(s, ",{p},{m}");
    }
    let _ = write!(s, ",{},{},{}", r.wins, r.draws, r.losses);
    s
}

/// Parses a row written by [`row`] for `n` parameters.
pub fn parse_row(line: &str, n: usize) -> std::result::Result<IterationRecord, String> {
    let cells: Vec<&str> = line.trim_end().split(',').collect();
    let want = 1 + 5 * n + 3;
    if cells.len() != want {
        return Err(format!("expected {want} columns, found {}", cells.len()));
    }
    let float = |i: usize| -> std::result::Result<f64, String> {
        cells[i]
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("column {}: '{}' is not a number", i + 1, cells[i]))
    };
    let int = |i: usize| -> std::result::Result<u64, String> {
        cells[i]
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("column {}: '{}' is not a count", i + 1, cells[i]))
    };
    let mut r = IterationRecord {
        iteration: int(0)?,
        theta: Vec::with_capacity(n),
        c_k: Vec::with_capacity(n),
        a_k: Vec::with_capacity(n),
        plus: Vec::with_capacity(n),
        minus: Vec::with_capacity(n),
        wins: int(1 + 5 * n)?,
        draws: int(2 + 5 * n)?,
        losses: int(3 + 5 * n)?,
    };
    for i in 0..n {
        r.theta.push(float(1 + i)?);
        r.c_k.push(float(1 + n + 2 * i)?);
        r.a_k.push(float(2 + n + 2 * i)?);
        r.plus.push(float(1 + 3 * n + 2 * i)?);
        r.minus.push(float(2 + 3 * n + 2 * i)?);
    }
    Ok(r)
}

/// Writes `text` to `path` atomically: a temporary file beside it, synced, then renamed over
/// it, so a crash leaves either the old or the new content.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = File::create(&tmp).map_err(|e| TuneError::io(&tmp, e))?;
        f.write_all(text.as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| TuneError::io(&tmp, e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| TuneError::io(path, e))
}

/// The history file, open for appending.
pub struct HistoryWriter {
    path: PathBuf,
    file: File,
}

impl HistoryWriter {
    /// Starts a new history (header only), replacing any file at `path`.
    pub fn create(path: &Path, names: &[String]) -> Result<HistoryWriter> {
        write_atomic(path, &(header(names) + "\n"))?;
        Self::append(path)
    }

    /// Opens an existing history for appending.
    pub fn append(path: &Path) -> Result<HistoryWriter> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| TuneError::io(path, e))?;
        Ok(HistoryWriter {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one row and flushes it to the disk.
    pub fn write(&mut self, r: &IterationRecord) -> Result<()> {
        self.file
            .write_all((row(r) + "\n").as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| TuneError::io(&self.path, e))
    }
}

/// Reads the first `iterations` rows of a history for parameters `names` and cuts the file
/// to them (rows written after the last checkpoint are dropped; they will be played again).
/// The rows must be iterations `1..=iterations` in order under the expected header.
pub fn load_and_cut(
    path: &Path,
    names: &[String],
    iterations: u64,
) -> Result<Vec<IterationRecord>> {
    let text = std::fs::read_to_string(path).map_err(|e| TuneError::io(path, e))?;
    let bad = |line: usize, message: String| TuneError::History {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut lines = text.lines();
    let want = header(names);
    match lines.next() {
        Some(h) if h.trim_end() == want => {}
        _ => {
            return Err(bad(
                1,
                format!("expected the header '{want}' of this tune's parameters"),
            ))
        }
    }
    let mut kept = want.clone() + "\n";
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        if out.len() as u64 == iterations {
            break;
        }
        let r = parse_row(line, names.len()).map_err(|m| bad(i + 2, m))?;
        if r.iteration != out.len() as u64 + 1 {
            return Err(bad(
                i + 2,
                format!(
                    "iteration {} where {} was expected",
                    r.iteration,
                    out.len() + 1
                ),
            ));
        }
        kept.push_str(line.trim_end());
        kept.push('\n');
        out.push(r);
    }
    if (out.len() as u64) < iterations {
        return Err(bad(
            out.len() + 2,
            format!(
                "the checkpoint is at iteration {iterations} but the history ends at {}",
                out.len()
            ),
        ));
    }
    if kept != text {
        write_atomic(path, &kept)?;
    }
    Ok(out)
}

/// Reads the committed rows of a shared tune's history, the first `len` bytes of the file, for
/// `n` tuned parameters (in the order the steps were applied).
pub fn read_committed(path: &Path, n: usize, len: u64) -> Result<Vec<IterationRecord>> {
    let bytes = std::fs::read(path).map_err(|e| TuneError::io(path, e))?;
    let committed = &bytes[..(len as usize).min(bytes.len())];
    let text = std::str::from_utf8(committed).map_err(|e| TuneError::History {
        path: path.to_path_buf(),
        line: 0,
        message: e.to_string(),
    })?;
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse_row(l, n).map_err(|message| TuneError::History {
                path: path.to_path_buf(),
                line: i + 1,
                message,
            })
        })
        .collect()
}

/// Appends `row` to a shared tune's history after cutting it to its committed length (a row
/// written by a worker that failed before committing is cut off); returns the new committed
/// length.
pub fn append_committed(path: &Path, committed: u64, row: &IterationRecord) -> Result<u64> {
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| TuneError::io(path, e))?;
    f.set_len(committed).map_err(|e| TuneError::io(path, e))?;
    let line = self::row(row) + "\n";
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(committed))
        .and_then(|_| f.write_all(line.as_bytes()))
        .and_then(|()| f.sync_data())
        .map_err(|e| TuneError::io(path, e))?;
    Ok(committed + line.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(k: u64) -> IterationRecord {
        IterationRecord {
            iteration: k,
            theta: vec![41.123456789012345, 0.1 + 0.2],
            c_k: vec![9.5, 1.0 / 3.0],
            a_k: vec![1e-7, 2.5],
            plus: vec![50.0, 1.0],
            minus: vec![31.0, 0.0],
            wins: 5,
            draws: 1,
            losses: 2,
        }
    }

    #[test]
    fn rows_round_trip_exactly() {
        let names = vec!["defence".to_string(), "ext_four".to_string()];
        let h = header(&names);
        assert_eq!(
            h,
            "iteration,defence,ext_four,defence_c_k,defence_a_k,ext_four_c_k,ext_four_a_k,\
             defence_plus,defence_minus,ext_four_plus,ext_four_minus,wins,draws,losses"
        );
        let r = record(3);
        let line = row(&r);
        assert_eq!(line.split(',').count(), h.split(',').count());
        assert_eq!(parse_row(&line, 2), Ok(r));
        assert!(parse_row("1,2,3", 2).is_err());
        assert!(parse_row(&line.replace("41.", "x41."), 2).is_err());
    }

    #[test]
    fn resume_cuts_the_history_to_the_checkpoint() {
        let dir = std::env::temp_dir().join(format!("wuzi-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("history.csv");
        let names = vec!["defence".to_string(), "ext_four".to_string()];
        let mut w = HistoryWriter::create(&path, &names).expect("create");
        for k in 1..=4 {
            w.write(&record(k)).expect("write");
        }
        drop(w);
        let rows = load_and_cut(&path, &names, 2).expect("load");
        assert_eq!(rows, vec![record(1), record(2)]);
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 3);
        // The file now ends at iteration 2: asking for 3 is an error naming the line.
        let e = load_and_cut(&path, &names, 3).unwrap_err().to_string();
        assert!(e.contains("history ends at 2"), "{e}");
        // Another tune's parameters: header mismatch.
        let e = load_and_cut(&path, &names[..1], 1).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A history row written by a worker that failed before committing the state is cut off
    /// by the next append.
    #[test]
    fn uncommitted_history_rows_are_cut() {
        let dir = std::env::temp_dir().join(format!("wuzi-history-cut-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("history.csv");
        std::fs::write(&path, "header\n").expect("writes");
        let r = IterationRecord {
            iteration: 1,
            theta: vec![1.0],
            c_k: vec![2.0],
            a_k: vec![0.5],
            plus: vec![3.0],
            minus: vec![1.0],
            wins: 1,
            draws: 0,
            losses: 1,
        };
        let committed = append_committed(&path, 7, &r).expect("appends");
        // An uncommitted, half-written row after it.
        let mut text = std::fs::read_to_string(&path).expect("reads");
        text.push_str("2,1.5,2.0");
        std::fs::write(&path, &text).expect("writes");
        let next = append_committed(&path, committed, &r).expect("appends");
        let text = std::fs::read_to_string(&path).expect("reads");
        assert_eq!(text, format!("header\n{0}\n{0}\n", row(&r)));
        assert_eq!(next, text.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
