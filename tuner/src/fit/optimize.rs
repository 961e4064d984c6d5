//! The fit itself: the loss, the sigmoid scale K, and Adam on the chosen weights.
//!
//! The prediction for a position is `sigmoid(K * eval)`; the loss compares it with the label
//! (cross-entropy or squared error). K is fitted first, alone, on the starting weights (golden
//! section on log K; the cross-entropy is convex in K). Then the chosen weights follow Adam on
//! mini-batches of the training positions, using the real-valued evaluation of
//! [`super::model`] and its exact gradient, each weight measured in its SPSA step (`c_end`) so
//! that one learning rate suits weights of very different scales, projected back into its
//! declared range after every step. After each epoch the weights are rounded to integers and
//! the training and validation losses are measured with the engine's own integer evaluation;
//! the weights of the epoch with the lowest validation loss are kept (the training loss's
//! without validation positions; the start counts as epoch 0), so a fit that overfits late
//! does not keep its worst epoch. `keep_last` keeps the last epoch's instead, and
//! [`kept_reason`] says which was kept and why.
//!
//! Sums over positions run on fixed chunks in parallel and are added in chunk order, so the
//! result depends on the seed only, never on the number of threads.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use wuzi_engine::eval::EvalWeights;
use wuzi_engine::{Params, Rule};

use super::model::{weight_index, Model, Weights, NC, NT, NW};
use super::sample::Position;
use wuzi_engine::eval::mask::NMASK;

/// Positions per parallel chunk (fixed, for determinism).
const CHUNK: usize = 512;
/// Adam's unit for the colour offsets, in logits.
const OFFSET_STEP: f64 = 0.05;

/// What the fit minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// Mean cross-entropy of the label under the predicted probability.
    CrossEntropy,
    /// Mean squared error of the prediction (the classic Texel loss).
    Mse,
}

impl std::str::FromStr for Loss {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "ce" | "cross-entropy" | "xent" => Ok(Loss::CrossEntropy),
            "mse" | "squared" => Ok(Loss::Mse),
            _ => Err(format!("unknown loss '{s}' (ce or mse)")),
        }
    }
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Loss::CrossEntropy => "cross-entropy",
            Loss::Mse => "squared error",
        })
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Loss {
    /// The loss of logit `z` for label `y`.
    pub fn value(self, z: f64, y: f64) -> f64 {
        match self {
            // -y ln s(z) - (1-y) ln(1-s(z)) = softplus(z) - y z, computed stably.
            Loss::CrossEntropy => {
                let softplus = if z > 0.0 {
                    z + (-z).exp().ln_1p()
                } else {
                    z.exp().ln_1p()
                };
                softplus - y * z
            }
            Loss::Mse => (sigmoid(z) - y).powi(2),
        }
    }

    /// d loss / d z.
    pub fn slope(self, z: f64, y: f64) -> f64 {
        let s = sigmoid(z);
        match self {
            Loss::CrossEntropy => s - y,
            Loss::Mse => 2.0 * (s - y) * s * (1.0 - s),
        }
    }
}

/// Settings of the optimisation.
#[derive(Clone, Debug, Serialize)]
pub struct FitSettings {
    /// The weights fitted (names from [`wuzi_engine::eval::EVAL_PARAMS`] and the
    /// combination table).
    pub params: Vec<String>,
    /// The loss.
    pub loss: Loss,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size, in SPSA steps of each weight; it decays linearly to a tenth.
    pub lr: f64,
    /// Seed of the mini-batch order.
    pub seed: u64,
    /// Use this K instead of fitting it.
    pub k: Option<f64>,
    /// Fit a logit offset per colour to move beside the weights (not part of the
    /// evaluation): the results of most openings favour one colour, which the evaluation
    /// cannot express, and without the offsets the weights would bend to express it.
    pub colour_offsets: bool,
    /// Keep the last epoch's weights instead of those of the epoch with the lowest
    /// validation loss.
    pub keep_last: bool,
    /// A weight whose feature is non-zero in fewer training positions stays at its start.
    pub min_positions: usize,
    /// Pull towards the start: `l2 / 2` times the squared move in SPSA steps, per weight,
    /// is added to the loss.
    pub l2: f64,
}

/// One epoch's figures.
#[derive(Clone, Debug, Serialize)]
pub struct EpochRecord {
    /// 0 is the start.
    pub epoch: usize,
    /// Mean training loss of the rounded weights (engine's integer evaluation).
    pub train_loss: f64,
    /// Mean validation loss of the rounded weights, if positions were held out.
    pub validation_loss: Option<f64>,
    /// The fitted weights' real values after the epoch, in `params` order.
    pub values: Vec<f64>,
    /// The same, rounded and in range.
    pub rounded: Vec<i32>,
    /// Logit offsets with black and with white to move.
    pub offsets: [f64; 2],
}

/// The outcome of [`optimise`].
#[derive(Clone, Debug)]
pub struct FitResult {
    /// The sigmoid scale, per evaluation unit.
    pub k: f64,
    /// Epoch 0 (the start) to the last.
    pub epochs: Vec<EpochRecord>,
    /// The epoch whose weights were kept ([`kept_epoch`]).
    pub best_epoch: usize,
    /// The start with the fitted weights of the best epoch.
    pub fitted: Params,
    /// Chosen weights left as in the start: their feature is in too few training positions
    /// (not written: a rare table entry keeps following the hand weights).
    pub rare: Vec<String>,
}

/// Mean loss over `idx` of the integer evaluations `evals` (indexed like the positions),
/// with logit offset `off[side to move]`.
fn mean_loss(loss: Loss, k: f64, off: [f64; 2], d: &Data<'_>, evals: &[i32], idx: &[usize]) -> f64 {
    if idx.is_empty() {
        return f64::NAN;
    }
    let parts: Vec<f64> = idx
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|&i| loss.value(k * f64::from(evals[i]) + off[d.sides[i]], d.labels[i]))
                .sum::<f64>()
        })
        .collect();
    parts.into_iter().sum::<f64>() / idx.len() as f64
}

/// What an epoch is judged by: its validation loss, else its training loss.
fn judged(r: &EpochRecord) -> f64 {
    r.validation_loss.unwrap_or(r.train_loss)
}

/// The epoch of `epochs` (epoch 0, the start, first) whose weights a fit keeps: the one with
/// the lowest validation loss (training loss without validation positions; the earliest of
/// equals), or the last with `keep_last`.
pub fn kept_epoch(epochs: &[EpochRecord], keep_last: bool) -> usize {
    if keep_last {
        return epochs.len().saturating_sub(1);
    }
    let mut best = 0;
    for (i, r) in epochs.iter().enumerate() {
        if judged(r) < judged(&epochs[best]) {
            best = i;
        }
    }
    best
}

/// Why epoch `kept` was kept, in one line: the lowest loss and how the last epoch compares,
/// or, with `keep_last`, a warning when an earlier epoch had a lower validation loss.
pub fn kept_reason(epochs: &[EpochRecord], kept: usize, keep_last: bool) -> String {
    let last = epochs.len().saturating_sub(1);
    let which = if epochs[0].validation_loss.is_some() {
        "validation"
    } else {
        "training (no validation positions)"
    };
    let best = kept_epoch(epochs, false);
    if keep_last {
        return if best != last {
            format!(
                "the last (--keep-last); WARNING: the {which} loss was lowest at epoch {best} \
                 ({:.5}) and rose to {:.5}",
                judged(&epochs[best]),
                judged(&epochs[last])
            )
        } else {
            format!("the last (--keep-last), which has the lowest {which} loss")
        };
    }
    match kept {
        0 => format!(
            "the start: no epoch lowered the {which} loss ({:.5}; the last: {:.5})",
            judged(&epochs[0]),
            judged(&epochs[last])
        ),
        k if k == last => format!(
            "the lowest {which} loss ({:.5}), the last epoch",
            judged(&epochs[k])
        ),
        k => format!(
            "the lowest {which} loss ({:.5}); it rose to {:.5} by the last epoch, {last}",
            judged(&epochs[k]),
            judged(&epochs[last])
        ),
    }
}

/// Labels and sides to move of the positions.
pub struct Data<'a> {
    /// Per position: the target in [0, 1].
    pub labels: &'a [f64],
    /// Per position: the side to move's colour index.
    pub sides: Vec<usize>,
}

impl<'a> Data<'a> {
    /// The data of `positions` with `labels`.
    pub fn new(positions: &[Position], labels: &'a [f64]) -> Data<'a> {
        Data {
            labels,
            sides: positions.iter().map(|p| p.features.side.index()).collect(),
        }
    }
}

/// The per-colour logit offsets that minimise the loss for a given K (Newton steps; the loss
/// is convex in each offset).
fn fit_offsets(loss: Loss, k: f64, d: &Data<'_>, evals: &[i32], idx: &[usize]) -> [f64; 2] {
    let mut off = [0.0; 2];
    for _ in 0..12 {
        let parts: Vec<[f64; 4]> = idx
            .par_chunks(CHUNK)
            .map(|c| {
                let mut a = [0.0; 4];
                for &i in c {
                    let side = d.sides[i];
                    let z = k * f64::from(evals[i]) + off[side];
                    let h = 1e-4;
                    let g = loss.slope(z, d.labels[i]);
                    let g2 = (loss.slope(z + h, d.labels[i]) - loss.slope(z - h, d.labels[i]))
                        / (2.0 * h);
                    a[side] += g;
                    a[2 + side] += g2.max(1e-9);
                }
                a
            })
            .collect();
        let mut a = [0.0; 4];
        for p in parts {
            for j in 0..4 {
                a[j] += p[j];
            }
        }
        for side in 0..2 {
            if a[2 + side] > 0.0 {
                off[side] = (off[side] - a[side] / a[2 + side]).clamp(-5.0, 5.0);
            }
        }
    }
    off
}

/// The engine's integer evaluation of every position under `p`.
pub fn integer_evals(positions: &[Position], p: &Params, rule: Rule) -> Vec<i32> {
    let w = EvalWeights::new(p, rule);
    positions
        .par_iter()
        .map(|pos| pos.features.evaluate(&w))
        .collect()
}

/// The K (and, with `offsets`, the per-colour logit offsets) minimising the mean loss of
/// `evals` over `idx`: golden section on ln K in [1e-6, 1].
pub fn fit_k(
    loss: Loss,
    d: &Data<'_>,
    evals: &[i32],
    idx: &[usize],
    offsets: bool,
) -> (f64, [f64; 2]) {
    let off_for = |k: f64| {
        if offsets {
            fit_offsets(loss, k, d, evals, idx)
        } else {
            [0.0; 2]
        }
    };
    let f = |lnk: f64| {
        let k = lnk.exp();
        mean_loss(loss, k, off_for(k), d, evals, idx)
    };
    let (mut a, mut b) = ((1e-6f64).ln(), 0.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut dd = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(dd));
    for _ in 0..60 {
        if fc < fd {
            b = dd;
            dd = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = dd;
            fc = fd;
            dd = a + r * (b - a);
            fd = f(dd);
        }
    }
    let k = ((a + b) / 2.0).exp();
    (k, off_for(k))
}

/// A parameter set with the fitted weights rounded and clamped into their ranges.
fn rounded(
    base: &Params,
    names: &[(usize, &'static wuzi_engine::ParamSpec)],
    w: &Weights,
) -> Params {
    let mut p = base.clone();
    for &(i, spec) in names {
        let v = (w[i].round() as i64).clamp(spec.min as i64, spec.max as i64);
        p.set(spec.name, v).expect("clamped into range");
    }
    p
}

/// Fits K, then the chosen weights. `labels` are per position; `on_epoch` sees every epoch
/// record as it is made (epoch 0 first).
pub fn optimise(
    settings: &FitSettings,
    base: &Params,
    rule: Rule,
    positions: &[Position],
    labels: &[f64],
    on_epoch: &mut dyn FnMut(&EpochRecord, usize),
) -> FitResult {
    let model = Model::new(base, &settings.params);
    let fitted: Vec<(usize, &'static wuzi_engine::ParamSpec)> = settings
        .params
        .iter()
        .map(|n| {
            (
                weight_index(n).expect("checked"),
                Params::spec(n).expect("checked"),
            )
        })
        .collect();
    let train: Vec<usize> = (0..positions.len())
        .filter(|&i| !positions[i].validation)
        .collect();
    let valid: Vec<usize> = (0..positions.len())
        .filter(|&i| positions[i].validation)
        .collect();
    // How many training positions move each weight (a non-zero gradient at the start).
    let start = Model::weights(base);
    let seen: Vec<usize> = train
        .par_chunks(CHUNK)
        .map(|c| {
            let mut n = vec![0usize; NW];
            let mut g = vec![0.0; NW];
            for &i in c {
                g.fill(0.0);
                model.eval(&start, &positions[i].features, 1.0, Some(&mut g));
                for (n, g) in n.iter_mut().zip(&g) {
                    *n += usize::from(*g != 0.0);
                }
            }
            n
        })
        .reduce(
            || vec![0; NW],
            |mut a, b| {
                for (a, b) in a.iter_mut().zip(&b) {
                    *a += b;
                }
                a
            },
        );
    let rare: Vec<String> = fitted
        .iter()
        .filter(|&&(i, _)| seen[i] < settings.min_positions)
        .map(|&(_, s)| s.name.to_string())
        .collect();
    let moving: Vec<(usize, &'static wuzi_engine::ParamSpec)> = fitted
        .iter()
        .copied()
        .filter(|&(i, _)| seen[i] >= settings.min_positions)
        .collect();
    // The rare ones are not fitted: a rare table entry keeps following the hand weights.
    let moving_names: Vec<String> = moving.iter().map(|&(_, s)| s.name.to_string()).collect();
    let model = Model::new(base, &moving_names);
    let data = Data::new(positions, labels);
    let start_evals = integer_evals(positions, base, rule);
    let (k, mut off) = match settings.k {
        Some(k) => (
            k,
            if settings.colour_offsets {
                fit_offsets(settings.loss, k, &data, &start_evals, &train)
            } else {
                [0.0; 2]
            },
        ),
        None => fit_k(
            settings.loss,
            &data,
            &start_evals,
            &train,
            settings.colour_offsets,
        ),
    };
    let record = |epoch: usize, w: &Weights, off: [f64; 2]| {
        let p = rounded(base, &moving, w);
        let evals = integer_evals(positions, &p, rule);
        EpochRecord {
            epoch,
            train_loss: mean_loss(settings.loss, k, off, &data, &evals, &train),
            validation_loss: (!valid.is_empty())
                .then(|| mean_loss(settings.loss, k, off, &data, &evals, &valid)),
            offsets: off,
            values: fitted.iter().map(|&(i, _)| w[i]).collect(),
            rounded: fitted
                .iter()
                .map(|&(_, s)| p.get(s.name).expect("declared"))
                .collect(),
        }
    };
    let mut w = Model::weights(base);
    let mut epochs = vec![record(0, &w, off)];
    on_epoch(&epochs[0], settings.epochs);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let (mut m, mut v) = (vec![0.0; NW], vec![0.0; NW]);
    let (mut mo, mut vo) = ([0.0; 2], [0.0; 2]);
    let batch = settings.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch).max(1);
    let total_steps = (steps_per_epoch * settings.epochs).max(1);
    let mut t = 0usize;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut order = train.clone();
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            let parts: Vec<(Weights, [f64; 2])> = chunk
                .par_chunks(CHUNK)
                .map(|c| {
                    let mut g = vec![0.0; NW];
                    let mut go = [0.0; 2];
                    for &i in c {
                        let pos = &positions[i];
                        let side = data.sides[i];
                        let e = model.eval(&w, &pos.features, 1.0, None);
                        let slope = settings.loss.slope(k * e + off[side], labels[i]);
                        go[side] += slope;
                        model.eval(&w, &pos.features, slope * k, Some(&mut g));
                    }
                    (g, go)
                })
                .collect();
            let mut g = vec![0.0; NW];
            let mut go = [0.0; 2];
            for (part, po) in parts {
                for i in 0..NW {
                    g[i] += part[i];
                }
                go[0] += po[0];
                go[1] += po[1];
            }
            t += 1;
            let lr = settings.lr * (1.0 - 0.9 * (t - 1) as f64 / total_steps as f64);
            for &(i, spec) in &moving {
                // Adam in units of the weight's SPSA step.
                let gi = g[i] / chunk.len() as f64 * spec.step
                    + settings.l2 * (w[i] - start[i]) / spec.step;
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                let mh = m[i] / (1.0 - b1.powi(t as i32));
                let vh = v[i] / (1.0 - b2.powi(t as i32));
                w[i] -= lr * spec.step * mh / (vh.sqrt() + eps);
                w[i] = w[i].clamp(f64::from(spec.min), f64::from(spec.max));
            }
            if settings.colour_offsets {
                for side in 0..2 {
                    let gi = go[side] / chunk.len() as f64 * OFFSET_STEP;
                    mo[side] = b1 * mo[side] + (1.0 - b1) * gi;
                    vo[side] = b2 * vo[side] + (1.0 - b2) * gi * gi;
                    let mh = mo[side] / (1.0 - b1.powi(t as i32));
                    let vh = vo[side] / (1.0 - b2.powi(t as i32));
                    off[side] -= lr * OFFSET_STEP * mh / (vh.sqrt() + eps);
                }
            }
        }
        if settings.colour_offsets {
            centre_threat(&mut w, &mut off, k, positions, &data, &train, &moving);
        }
        let r = record(epoch, &w, off);
        on_epoch(&r, settings.epochs);
        epochs.push(r);
    }
    let best = kept_epoch(&epochs, settings.keep_last);
    let mut best_w = Model::weights(base);
    for (k, &(i, _)) in fitted.iter().enumerate() {
        best_w[i] = epochs[best].values[k];
    }
    FitResult {
        k,
        fitted: rounded(base, &moving, &best_w),
        epochs,
        best_epoch: best,
        rare,
    }
}

/// Moves the level of each colour's fitted threat-mask entries into its logit offset.
///
/// With colour offsets fitted, adding a constant to every threat-mask entry of one colour to
/// move and taking `k` times it from that colour's offset leaves every prediction as it was:
/// the level is not determined by the data, and one fit drifted to -1,431 for every black
/// mask while the offset rose to match, a bias the engine would then play with. So after each
/// epoch the entries of each colour are shifted to a zero mean over that colour's training
/// positions (those whose mask is fitted), and the offset takes the shift.
fn centre_threat(
    w: &mut [f64],
    off: &mut [f64; 2],
    k: f64,
    positions: &[Position],
    data: &Data<'_>,
    train: &[usize],
    moving: &[(usize, &'static wuzi_engine::ParamSpec)],
) {
    let fitted: std::collections::HashSet<usize> = moving
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| (NT..NC).contains(&i))
        .collect();
    if fitted.is_empty() {
        return;
    }
    let (mut sum, mut n) = ([0.0; 2], [0usize; 2]);
    for &i in train {
        let side = data.sides[i];
        let idx = NT + side * NMASK + usize::from(positions[i].features.threat_mask);
        if fitted.contains(&idx) {
            sum[side] += w[idx];
            n[side] += 1;
        }
    }
    for side in 0..2 {
        if n[side] == 0 {
            continue;
        }
        let mean = sum[side] / n[side] as f64;
        for &(i, spec) in moving {
            if (NT + side * NMASK..NT + (side + 1) * NMASK).contains(&i) {
                w[i] = (w[i] - mean).clamp(f64::from(spec.min), f64::from(spec.max));
            }
        }
        off[side] += k * mean;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threat_entries_are_centred_without_changing_a_prediction() {
        // Black-to-move positions with masks 0 and 5, one white-to-move position with mask 5:
        // after centring, each colour's entries average 0 over its positions, and every
        // position's k * eval + offset is what it was.
        use wuzi_engine::eval::EvalFeatures;
        use wuzi_engine::Stone;
        let pos = |side, mask: u16| {
            let mut features = EvalFeatures::empty(Rule::Renju, side);
            features.threat_mask = mask;
            Position {
                features,
                result: 0.5,
                score: None,
                validation: false,
            }
        };
        let positions = vec![
            pos(Stone::Black, 0),
            pos(Stone::Black, 0),
            pos(Stone::Black, 5),
            pos(Stone::White, 5),
        ];
        let labels = vec![0.5; 4];
        let data = Data::new(&positions, &labels);
        let spec = Params::spec("thr_black_m00000_o00000").unwrap();
        let moving: Vec<_> = [NT, NT + 5, NT + NMASK + 5]
            .into_iter()
            .map(|i| (i, spec))
            .collect();
        let mut w = vec![0.0; NW];
        w[NT] = 300.0;
        w[NT + 5] = 900.0;
        w[NT + NMASK + 5] = -200.0;
        let k = 0.001;
        let mut off = [0.1, -0.2];
        let logit = |w: &[f64], off: &[f64; 2], i: usize| {
            let side = data.sides[i];
            let m = usize::from(positions[i].features.threat_mask);
            k * w[NT + side * NMASK + m] + off[side]
        };
        let before: Vec<f64> = (0..4).map(|i| logit(&w, &off, i)).collect();
        centre_threat(
            &mut w,
            &mut off,
            k,
            &positions,
            &data,
            &[0, 1, 2, 3],
            &moving,
        );
        assert!(
            (2.0 * w[NT] + w[NT + 5]).abs() < 1e-9,
            "{} {}",
            w[NT],
            w[NT + 5]
        );
        assert!(w[NT + NMASK + 5].abs() < 1e-9);
        for (i, b) in before.iter().enumerate() {
            assert!((logit(&w, &off, i) - b).abs() < 1e-12);
        }
    }

    fn epoch(epoch: usize, train: f64, validation: Option<f64>) -> EpochRecord {
        EpochRecord {
            epoch,
            train_loss: train,
            validation_loss: validation,
            values: Vec::new(),
            rounded: Vec::new(),
            offsets: [0.0; 2],
        }
    }

    /// The fit: the validation loss fell to 0.71048 and rose to 0.71647 by the last
    /// epoch, and the last epoch was kept without a word.
    #[test]
    fn the_epoch_with_the_lowest_validation_loss_is_kept() {
        let v = [0.7200, 0.7130, 0.71048, 0.7120, 0.71647];
        let epochs: Vec<EpochRecord> = v
            .iter()
            .enumerate()
            .map(|(i, &v)| epoch(i, 0.70 - 0.01 * i as f64, Some(v)))
            .collect();
        assert_eq!(kept_epoch(&epochs, false), 2);
        let why = kept_reason(&epochs, 2, false);
        assert!(why.contains("0.71048") && why.contains("0.71647"), "{why}");
        // --keep-last keeps the last, with a warning naming the better epoch.
        assert_eq!(kept_epoch(&epochs, true), 4);
        let why = kept_reason(&epochs, 4, true);
        assert!(why.contains("WARNING") && why.contains("epoch 2"), "{why}");
        // Without validation positions the training loss decides (here: falling, the last).
        let train: Vec<EpochRecord> = (0..4)
            .map(|i| epoch(i, 0.7 - 0.01 * i as f64, None))
            .collect();
        assert_eq!(kept_epoch(&train, false), 3);
        assert!(kept_reason(&train, 3, false).contains("training"));
        // An epoch that never beats the start keeps the start.
        let worse: Vec<EpochRecord> = (0..3)
            .map(|i| epoch(i, 0.7, Some(0.7 + 0.01 * i as f64)))
            .collect();
        assert_eq!(kept_epoch(&worse, false), 0);
        assert!(kept_reason(&worse, 0, false).starts_with("the start"));
    }

    #[test]
    fn losses_and_slopes() {
        for loss in [Loss::CrossEntropy, Loss::Mse] {
            for (z, y) in [
                (0.3, 1.0),
                (-2.0, 0.0),
                (5.0, 0.5),
                (-40.0, 1.0),
                (40.0, 0.0),
            ] {
                let h = 1e-6;
                let num = (loss.value(z + h, y) - loss.value(z - h, y)) / (2.0 * h);
                assert!((num - loss.slope(z, y)).abs() < 1e-5, "{loss} {z} {y}");
                assert!(loss.value(z, y).is_finite());
            }
        }
        assert!((Loss::CrossEntropy.value(0.0, 1.0) - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!("mse".parse::<Loss>().unwrap(), Loss::Mse);
        assert!("l1".parse::<Loss>().is_err());
    }
}
