//! Commands that read run folders: `summary`, `chart`, `report`, `export` (`replay` has its own
//! module).

use std::path::Path;

use anyhow::{bail, Context, Result};
use wuzi_arena::config::{RunConfig, RUN_FILE};
use wuzi_arena::record::{
    psq_file_name, read_records, to_move_line, to_psq, ExportFormat, GAMES_FILE,
};
use wuzi_arena::run::summarize_dir;
use wuzi_arena::sgf::{sgf_file_name, to_sgf};
use wuzi_arena::summary::{render, render_openings};
use wuzi_engine::Rule;

pub(crate) fn export(
    input: &Path,
    format: ExportFormat,
    out: Option<&Path>,
    size: Option<usize>,
    rule: Option<Rule>,
) -> Result<()> {
    if input.is_dir() && (input.join(RUN_FILE).exists() || !input.join(GAMES_FILE).exists()) {
        // A run's folder (its records checked against its run.json: a hand-edited record of
        // another run is refused, not exported), a shard's, or the shards of a run sharing one.
        let run_dir = wuzi_arena::run_dir::RunDir::open(input)?;
        let mut records = run_dir.records()?;
        records.sort_by_key(|r| r.key());
        let game = run_dir.config().game;
        let board = Board {
            size: size.unwrap_or(game.size),
            rule: rule.unwrap_or(game.rule),
        };
        return export_records(&records, format, out, board);
    }
    let (file, dir) = if input.is_dir() {
        (input.join(GAMES_FILE), Some(input.to_path_buf()))
    } else {
        (input.to_path_buf(), input.parent().map(Path::to_path_buf))
    };
    if !file.exists() {
        bail!("{}: no such records file", file.display());
    }
    let run = match dir.map(|d| d.join(RUN_FILE)).filter(|p| p.exists()) {
        Some(run_file) => Some(RunConfig::load(&run_file)?.game),
        None => None,
    };
    let records = read_records(&file)?;
    if records.truncated {
        eprintln!("{}: incomplete last line ignored", file.display());
    }
    let mut records = records.records;
    // Without options or a run.json, the records say what they were played on.
    let first = records.first();
    let board = Board {
        size: size
            .or(run.as_ref().map(|g| g.size))
            .or(first.and_then(|r| r.size))
            .unwrap_or(15),
        rule: rule
            .or(run.as_ref().map(|g| g.rule))
            .or(first.and_then(|r| r.rule))
            .unwrap_or(Rule::Renju),
    };
    records.sort_by_key(|r| r.key());
    export_records(&records, format, out, board)
}

/// The board the records are exported on: from the options, the run's `run.json` or the
/// records' own marks; every record must have been played on it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board {
    /// Board side.
    pub(crate) size: usize,
    /// Rule (written into SGF files).
    pub(crate) rule: Rule,
}

pub(crate) fn export_records(
    records: &[wuzi_arena::GameRecord],
    format: ExportFormat,
    out: Option<&Path>,
    board: Board,
) -> Result<()> {
    let size = board.size;
    for r in records {
        if let Err(e) = r.check_board(board.rule, board.size) {
            bail!("{e}: nothing exported (the records are of another rule or board)");
        }
    }
    match format {
        ExportFormat::Psq | ExportFormat::Sgf => {
            let name = if format == ExportFormat::Psq {
                "psq"
            } else {
                "sgf"
            };
            let out = out.with_context(|| format!("--out DIR is required for {name} export"))?;
            std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
            for r in records {
                let (path, text) = if format == ExportFormat::Psq {
                    (out.join(psq_file_name(r)), to_psq(r, size))
                } else {
                    (out.join(sgf_file_name(r)), to_sgf(r, size, board.rule))
                };
                std::fs::write(&path, text).with_context(|| path.display().to_string())?;
            }
            eprintln!("{} games written to {}", records.len(), out.display());
        }
        ExportFormat::Moves => {
            let text: String = records.iter().map(|r| to_move_line(r) + "\n").collect();
            match out {
                Some(path) => {
                    std::fs::write(path, text).with_context(|| path.display().to_string())?
                }
                None => wuzi_arena::out!("{text}"),
            }
        }
    }
    Ok(())
}

/// `wuzi-arena chart DIR`: the charts of a run folder.
pub(crate) fn chart(dir: &Path, out: Option<&Path>) -> Result<()> {
    let (_, written) = wuzi_arena::run_charts::chart_run_dir(dir, out)?;
    let mut text = String::new();
    for c in &written {
        text.push_str(&format!(
            "{}.png  {}.svg  {}\n",
            c.stem.display(),
            c.stem.display(),
            c.shows
        ));
    }
    wuzi_arena::out!("{text}");
    Ok(())
}

/// `wuzi-arena summary DIR`: the tables (or JSON) of a run folder, finished or not.
pub(crate) fn summary(dir: &Path, json: bool, per_opening: bool) -> Result<()> {
    let summary = summarize_dir(dir)?;
    let run_dir = wuzi_arena::run_dir::RunDir::open(dir)?;
    let missing = run_dir.missing_shards();
    if run_dir.entries.len() > 1 {
        let gaps = run_dir.unfinished_gaps(&run_dir.games()?);
        if gaps > 0 {
            eprintln!(
                "note: {gaps} pair(s) before the last finished one are not finished \
                 (shards still running or stopped); the counts and the SPRT state may \
                 change until they are"
            );
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|s| s.to_string()).collect();
        eprintln!(
            "note: shard(s) {} have no files in {} (not counted)",
            list.join(", "),
            dir.display()
        );
    }
    if json {
        wuzi_arena::outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        wuzi_arena::out!("{}", render(&summary));
        if per_opening {
            wuzi_arena::out!("\n{}", render_openings(&summary));
        }
    }
    if summary.completion != wuzi_arena::summary::Completion::Finished {
        let resume = format!("resume with: {}", run_dir.resume_command());
        if json {
            // Standard output stays JSON.
            if let Some(note) = wuzi_arena::summary::completion_note(&summary) {
                eprintln!("{note}");
            }
            eprintln!("{resume}");
        } else {
            wuzi_arena::outln!("{resume}");
        }
    }
    Ok(())
}

/// `wuzi-arena report DIR`: the HTML report of a run or gate folder.
pub(crate) fn report(dir: &Path, out: Option<&Path>, max_games: usize) -> Result<()> {
    let start = std::time::Instant::now();
    let path =
        wuzi_arena::gate::write_report(dir, out, &wuzi_arena::report::ReportOptions { max_games })?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "report: {} ({:.1} MB, {:.1} s)",
        path.display(),
        bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
