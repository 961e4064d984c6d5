//! `wuzi-tune verify`, and the verification match at the end of a tune: tuned against start,
//! played and recorded by the arena, with its summary, charts and report.

use std::path::{Path, PathBuf};

use crate::setting::Setting;
use wuzi_arena::opening::{progress_bar, show_progress};
use wuzi_arena::run::{default_concurrency, Progress};
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_arena::summary::{fmt_estimate, render};

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::spec::{load_openings, verify_openings_seed, TuneSpec};
use crate::verify::{load_tune, repeats_openings, verify as play, VERIFY_DIR};

use super::{bar, default_out, this_command, tune_report};

/// What `wuzi-tune verify` was asked for (its command-line options).
#[derive(Clone, Debug, clap::Args)]
pub struct VerifyArgs {
    /// The tune directory (or give --spec).
    #[arg(required_unless_present = "spec", conflicts_with = "spec")]
    pub dir: Option<PathBuf>,
    /// The tune's spec: verify the tune in its output directory (with the settings recorded
    /// when the tune started, unless options override them).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Game pairs (default: the spec's [verify] pairs); with --sprt, the most pairs.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// SPRT `elo0,elo1[,alpha,beta]`: stop when it decides.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Elo model of the SPRT bounds: logistic or normalized.
    #[arg(long, default_value = "logistic")]
    pub sprt_model: EloModel,
    /// Match seed (default: the spec's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Openings of the match: renju26, random[:COUNT[:STONES]] or a file (default: the
    /// spec's [verify] openings, else the tune's). Random openings are drawn from a seed
    /// derived from the match seed. --pairs defaults to their number.
    #[arg(long)]
    pub openings: Option<String>,
    /// Games played at once (default: all cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Directory of the match's records (default: DIR/verify, or DIR/verify-<pairs>-<seed>
    /// when the options differ from the spec's).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `wuzi-tune verify`: plays the tuned set of a tune against its start (with the settings
/// recorded when the tune started, unless the options override them), then writes the
/// tune's report.
pub fn verify(args: VerifyArgs) -> Result<()> {
    let VerifyArgs {
        dir,
        spec,
        pairs,
        sprt,
        sprt_model,
        seed,
        openings,
        concurrency,
        out,
        quiet,
    } = args;
    let dir = match (dir, spec) {
        (Some(d), _) => d,
        (None, Some(spec)) => default_out(&TuneSpec::load(&spec)?, &spec),
        (None, None) => return Err(TuneError::Usage("give the tune directory or --spec".into())),
    };
    let loaded = load_tune(&dir)?;
    let (mut config, start, tuned) = (loaded.config, loaded.start, loaded.tuned);
    if loaded.iteration < config.iterations() && !quiet {
        eprintln!(
            "note: the tune is at iteration {} of {}; verifying its current values",
            loaded.iteration,
            config.iterations()
        );
    }
    let spec_verify = config.verify.clone();
    if let Some(p) = pairs {
        if p == 0 {
            return Err(TuneError::Usage("--pairs must be at least 1".into()));
        }
        config.verify.pairs = p;
    }
    if let Some(s) = sprt {
        config.verify.sprt = Some(SprtParams::parse(&s, sprt_model)?);
    }
    if let Some(s) = seed {
        config.verify.seed = s;
    }
    if let Some(text) = &openings {
        let bar = progress_bar(quiet, "random openings");
        let set = load_openings(
            text,
            None,
            false,
            Path::new("."),
            &config.game,
            verify_openings_seed(config.verify.seed),
            pairs,
            &mut |done, total| show_progress(&bar, done, total),
        )?;
        bar.finish_and_clear();
        if pairs.is_none() {
            config.verify.pairs = set.list.len() as u64;
        }
        config.verify.openings = Some(set);
    }
    let out = out.unwrap_or_else(|| {
        if config.verify == spec_verify {
            dir.join(VERIFY_DIR)
        } else {
            let name: String = format!(
                "verify-{}-{}{}{}",
                config.verify.pairs,
                config.verify.seed,
                config
                    .verify
                    .sprt
                    .map(|s| format!("-sprt{}_{}", s.elo0, s.elo1))
                    .unwrap_or_default(),
                openings.map(|o| format!("-{o}")).unwrap_or_default()
            )
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
            dir.join(name)
        }
    });
    let concurrency = concurrency.unwrap_or_else(default_concurrency);
    if concurrency == 0 {
        return Err(TuneError::Usage("--concurrency must be at least 1".into()));
    }
    let verified = run_verify(&config, &tuned, &start, concurrency, &out, quiet);
    if matches!(verified, Err(TuneError::Interrupted)) {
        // The verification continues its recorded games when run again.
        wuzi_arena::outln!("resume with: {}", this_command());
    }
    verified?;
    tune_report(&dir);
    Ok(())
}

/// Plays the verification match of `tuned` against `start` into `out`, prints its summary and
/// writes its charts and report.
pub(super) fn run_verify(
    config: &TuneConfig,
    tuned: &Setting,
    start: &Setting,
    concurrency: usize,
    out: &Path,
    quiet: bool,
) -> Result<()> {
    if repeats_openings(config) {
        eprintln!(
            "WARNING: {} pairs on fewer openings replay identical games under node or depth \
             limits; the Elo interval will be too narrow (give [verify] openings, e.g. \
             random:{}, or fewer pairs)",
            config.verify.pairs, config.verify.pairs
        );
    }
    if !quiet {
        eprintln!(
            "verify | tuned vs start | {} pairs{} | records in {}",
            config.verify.pairs,
            config
                .verify
                .sprt
                .map(|s| format!(" | SPRT [{}, {}] {}", s.elo0, s.elo1, s.model))
                .unwrap_or_default(),
            out.display()
        );
    }
    let pb = bar(
        quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, eta {eta} | {msg}",
    );
    let mut observer = |p: &Progress<'_>| {
        pb.set_length(p.total);
        pb.set_position(p.done);
        if let [t] = p.tallies {
            pb.set_message(format!("Elo {}", fmt_estimate(t.penta.elo_estimate())));
        }
    };
    let outcome = play(config, tuned, start, concurrency, Some(out), &mut observer)?;
    pb.finish_and_clear();
    wuzi_arena::out!("{}", render(&outcome.run.summary));
    if !outcome.run.interrupted {
        wuzi_arena::outln!(
            "verification: tuned vs start Elo {}",
            fmt_estimate(outcome.elo)
        );
    }
    for c in crate::chart::write_verify_charts(out)? {
        eprintln!("chart: {}", c.display());
    }
    match wuzi_arena::report::write_run_report(out, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: verification report not written: {e:#}"),
    }
    if outcome.run.interrupted {
        return Err(TuneError::Interrupted);
    }
    Ok(())
}
