//! `wuzi-tune fit`: evaluation weights fitted to recorded games, with a progress bar, the
//! summary table and the files written.

use std::path::Path;

use crate::error::{Result, TuneError};
use crate::fit::report::write_outputs;
use crate::fit::{fit as run, FitOptions, FitProgress, FitSummary};

use super::bar;

/// Runs the fit of `options` on `threads` worker threads (default: all cores) and writes its
/// files to `dir`.
pub fn fit(options: &FitOptions, dir: &Path, threads: Option<usize>, quiet: bool) -> Result<()> {
    if threads == Some(0) {
        return Err(TuneError::Usage("--threads must be at least 1".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let pb = bar(quiet, "{elapsed_precise} [{bar:30}] {pos}/{len} {msg}");
    let progress = |p: FitProgress<'_>| match p {
        FitProgress::Replay(done, total) => {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
            pb.set_message("games replayed");
        }
        FitProgress::Epoch(r, total) => {
            pb.set_length(total as u64);
            pb.set_position(r.epoch as u64);
            pb.set_message(format!(
                "epochs | train {:.5} | validation {}",
                r.train_loss,
                r.validation_loss
                    .map_or_else(|| "-".to_string(), |v| format!("{v:.5}"))
            ));
        }
    };
    let outcome = pool.install(|| run(options, &progress))?;
    pb.finish_and_clear();
    for s in outcome.sample.sources.iter().filter(|s| s.truncated) {
        eprintln!(
            "note: {}: the last line of games.jsonl was cut off (an interrupted run) and was ignored",
            s.path.display()
        );
    }
    wuzi_arena::out!("{}", FitSummary::new(&outcome).table());
    for f in write_outputs(dir, &outcome)? {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}
