//! `wuzi-tune fit`: evaluation weights fitted to recorded games (Texel-style tuning).
//!
//! SPSA learns from the results of games played for each step; a fit learns from games that
//! were already played. It replays the arena's records, takes quiet positions, and adjusts the
//! chosen evaluation weights so that `sigmoid(K * eval)` predicts each game's result from the
//! side to move's view. Search parameters stay with SPSA.
//!
//! - [`sample`]: records to positions (filters, labels, dedupe, colour balance, split).
//! - [`model`]: the evaluation as a real function of the weights, with its gradient.
//! - [`optimize`]: the loss, K, and Adam with projection into the declared ranges.
//! - [`report`]: `fitted.toml`, `summary.json`, `epochs.csv` and the charts, written whole.
//! - [`error`]: the error type, [`FitError`].

pub mod error;
pub mod model;
pub mod optimize;
pub mod report;
pub mod sample;

use std::path::{Path, PathBuf};

use wuzi_engine::eval::code::code_names;
use wuzi_engine::eval::mask::mask_names;
use wuzi_engine::eval::table::TABLE_NAMES;
use wuzi_engine::eval::EVAL_PARAMS;
use wuzi_engine::Params;

pub use error::FitError;
pub use optimize::{EpochRecord, FitResult, FitSettings, Loss};
pub use report::FitSummary;
pub use sample::{Sample, SampleOptions};

/// Everything a fit needs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Arena run directories (or their `games.jsonl`).
    pub records: Vec<PathBuf>,
    /// The starting parameter file (`None`: the defaults).
    pub base: Option<PathBuf>,
    /// How positions are chosen.
    pub sample: SampleOptions,
    /// How the weights are fitted (an empty `params` list means every evaluation weight).
    pub fit: FitSettings,
    /// Weight of the recorded search score in the label, 0 (result only) to 1.
    pub score_weight: f64,
}

/// Progress of a fit, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub enum FitProgress<'a> {
    /// Games replayed so far, of the total.
    Replay(usize, usize),
    /// An epoch finished (epoch 0 is the start), of the total.
    Epoch(&'a EpochRecord, usize),
}

/// The outcome of [`fit`].
#[derive(Clone, Debug)]
pub struct FitOutcome {
    /// The starting parameters.
    pub base: Params,
    /// Where they came from.
    pub base_source: String,
    /// The positions.
    pub sample: Sample,
    /// K, the epochs and the fitted set.
    pub result: FitResult,
    /// The options.
    pub options: FitOptions,
}

/// Checks the fitted names: declared, evaluation weights (scalars, combination table,
/// threat-mask or pattern-code entries), no repeats; a trailing `*` takes every evaluation weight with that prefix. An
/// empty list means all scalar evaluation weights.
pub fn check_params(names: &[String]) -> Result<Vec<String>, FitError> {
    if names.is_empty() {
        return Ok(EVAL_PARAMS.iter().map(|s| s.to_string()).collect());
    }
    let all = || {
        EVAL_PARAMS
            .iter()
            .chain(TABLE_NAMES.iter())
            .chain(mask_names().iter())
            .chain(code_names().iter())
    };
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let matched: Vec<String> = if let Some(prefix) = n.strip_suffix('*') {
            let m: Vec<String> = all()
                .filter(|e| e.starts_with(prefix))
                .map(|e| e.to_string())
                .collect();
            if m.is_empty() {
                return Err(FitError::Options(format!(
                    "--param {n} matches no evaluation weight"
                )));
            }
            m
        } else {
            if Params::spec(n).is_none() {
                return Err(FitError::Param(wuzi_engine::ParamError::Unknown(n.clone())));
            }
            if !all().any(|e| e == n) {
                return Err(FitError::NotEval(n.clone(), EVAL_PARAMS.join(", ")));
            }
            vec![n.clone()]
        };
        for m in matched {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    Ok(out)
}

/// Reads the records, samples the positions and fits. Writes nothing (see
/// [`report::write_outputs`]).
pub fn fit(
    options: &FitOptions,
    progress: &(dyn Fn(FitProgress<'_>) + Sync),
) -> Result<FitOutcome, FitError> {
    let mut options = options.clone();
    options.fit.params = check_params(&options.fit.params)?;
    if options.fit.epochs == 0 {
        return Err(FitError::Options("--epochs must be at least 1".into()));
    }
    if options.fit.batch == 0 {
        return Err(FitError::Options("--batch must be at least 1".into()));
    }
    if !(options.fit.lr > 0.0 && options.fit.lr.is_finite()) {
        return Err(FitError::Options("--lr must be positive".into()));
    }
    if !(0.0..=1.0).contains(&options.score_weight) {
        return Err(FitError::Options(format!(
            "--score-weight {} is outside 0..=1",
            options.score_weight
        )));
    }
    if let Some(k) = options.fit.k {
        if !(k > 0.0 && k.is_finite()) {
            return Err(FitError::Options("--k must be positive".into()));
        }
    }
    let (base, base_source) = match &options.base {
        Some(path) => (
            Params::load(path).map_err(|error| FitError::ParamFile {
                path: path.clone(),
                error,
            })?,
            path.display().to_string(),
        ),
        None => (Params::default(), "defaults".to_string()),
    };
    let sample = sample::sample(&options.records, &options.sample, &|done, total| {
        progress(FitProgress::Replay(done, total))
    })?;
    let results: Vec<f64> = sample.positions.iter().map(|p| p.result).collect();
    let mut on_epoch = |r: &EpochRecord, total: usize| progress(FitProgress::Epoch(r, total));
    let result = if options.score_weight > 0.0 {
        // K from the results alone turns search scores into expected results; the labels
        // blend both, and K is fitted again on them.
        let train: Vec<usize> = (0..results.len())
            .filter(|&i| !sample.positions[i].validation)
            .collect();
        let evals = optimize::integer_evals(&sample.positions, &base, sample.rule);
        let data = optimize::Data::new(&sample.positions, &results);
        let k0 = options
            .fit
            .k
            .unwrap_or_else(|| optimize::fit_k(options.fit.loss, &data, &evals, &train, false).0);
        let lambda = options.score_weight;
        let labels: Vec<f64> = sample
            .positions
            .iter()
            .map(|p| match p.score {
                Some(s) => (1.0 - lambda) * p.result + lambda / (1.0 + (-k0 * f64::from(s)).exp()),
                None => p.result,
            })
            .collect();
        optimize::optimise(
            &options.fit,
            &base,
            sample.rule,
            &sample.positions,
            &labels,
            &mut on_epoch,
        )
    } else {
        optimize::optimise(
            &options.fit,
            &base,
            sample.rule,
            &sample.positions,
            &results,
            &mut on_epoch,
        )
    };
    Ok(FitOutcome {
        base,
        base_source,
        sample,
        result,
        options,
    })
}

/// The default output directory: `fits/<name of the first records directory>`.
pub fn default_out(records: &[PathBuf]) -> PathBuf {
    let name = records
        .first()
        .map(|p| {
            let p = if p.file_name().is_some_and(|n| n == "games.jsonl") {
                p.parent().unwrap_or(Path::new("fit"))
            } else {
                p.as_path()
            };
            p.file_name()
                .map_or_else(|| "fit".to_string(), |n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "fit".to_string());
    Path::new("fits").join(name)
}
