//! The evaluation as a smooth function of real-valued weights, with its gradient.
//!
//! Given a position's counts ([`EvalFeatures`]), the engine's evaluation is
//! `V(me) - V(opponent) * defence / 100 + tempo`, where each colour's potential `V` sums the
//! line-pattern weights (diagonal ones scaled by `diagonal` %, renju black's by
//! `black_penalty` %) and the combination bonuses. This module computes that without the
//! engine's integer truncations, for real weights, together with its derivative in every
//! evaluation weight; the fitter follows the gradient and rounds at the end (the exact integer
//! evaluation is [`EvalFeatures::evaluate`]).

use wuzi_engine::eval::code::{code_names, parse_code_name, NCODE};
use wuzi_engine::eval::mask::{mask_names, NMASK};
use wuzi_engine::eval::table::{class_combo, parse_name, TABLE_NAMES};
use wuzi_engine::eval::{Combo, EvalFeatures, EVAL_PARAMS, NCLASS};
use wuzi_engine::{Params, Pattern, Rule};

/// Number of scalar evaluation weights ([`EVAL_PARAMS`]).
pub const NE: usize = EVAL_PARAMS.len();
/// Index of the first threat-mask entry.
pub const NT: usize = NE + TABLE_NAMES.len();
/// Index of the first pattern-code entry.
pub const NC: usize = NT + 2 * NMASK;
/// Number of weights: the scalars, the combination table's entries ([`TABLE_NAMES`]), the
/// threat-mask entries ([`mask_names`]), then the pattern-code entries ([`code_names`]).
pub const NW: usize = NC + 2 * NCODE;

/// Weight vector: [`EVAL_PARAMS`] in order, then [`TABLE_NAMES`], [`mask_names`] and
/// [`code_names`].
pub type Weights = Vec<f64>;

/// The position of a weight in a [`Weights`] vector, if it is an evaluation weight.
pub fn weight_index(name: &str) -> Option<usize> {
    EVAL_PARAMS
        .iter()
        .position(|n| *n == name)
        .or_else(|| TABLE_NAMES.iter().position(|n| *n == name).map(|i| NE + i))
        .or_else(|| {
            let (colour, m) = wuzi_engine::eval::mask::parse_mask_name(name)?;
            Some(NT + colour.index() * NMASK + m)
        })
        .or_else(|| {
            let (colour, k) = parse_code_name(name)?;
            Some(NC + colour.index() * NCODE + k)
        })
}

/// The name of weight `i`.
pub fn weight_name(i: usize) -> &'static str {
    if i < NE {
        EVAL_PARAMS[i]
    } else if i < NT {
        TABLE_NAMES[i - NE]
    } else if i < NC {
        mask_names()[i - NT]
    } else {
        code_names()[i - NC]
    }
}

/// Where each weight sits in a [`Weights`] vector, and where each combination class takes
/// its value from.
#[derive(Clone, Debug)]
pub struct Model {
    /// Per line pattern: its weight's index (`None`: dead and overline, worth nothing).
    line: [Option<usize>; 12],
    /// Per colour, per class: the weight giving its bonus: its table entry when the start
    /// overrides it or the fit moves it, else the hand weight that generates it (`None`:
    /// worth nothing).
    class: [[Option<usize>; NCLASS]; 2],
    defence: usize,
    black_penalty: usize,
    diagonal: usize,
    tempo: usize,
    double_four_line: usize,
}

fn index(name: &str) -> usize {
    weight_index(name).unwrap_or_else(|| panic!("{name} is an evaluation weight"))
}

impl Default for Model {
    fn default() -> Self {
        Model::new(&Params::default(), &[])
    }
}

impl Model {
    /// The layout for a fit of `fitted` (weight names) starting from `base`.
    pub fn new(base: &Params, fitted: &[String]) -> Model {
        let mut line = [None; 12];
        for (p, name) in [
            (Pattern::B1, "w_one"),
            (Pattern::F1, "w_open_one"),
            (Pattern::B2, "w_two"),
            (Pattern::F2, "w_open_two"),
            (Pattern::B3, "w_three"),
            (Pattern::F3, "w_open_three"),
            (Pattern::B4, "w_four"),
            (Pattern::F4, "w_open_four"),
            (Pattern::DoubleFour, "w_double_four_line"),
            (Pattern::Five, "w_five"),
        ] {
            line[p as usize] = Some(index(name));
        }
        let hand = |k: Combo| {
            index(match k {
                Combo::FourThree => "w_four_three",
                Combo::DoubleThree => "w_double_three",
                Combo::DoubleFour => "w_double_four",
                Combo::ThreeTwo => "w_three_two",
            })
        };
        let mut class = [[None; NCLASS]; 2];
        for (i, name) in TABLE_NAMES.iter().enumerate() {
            let (colour, k) = parse_name(name).expect("a table name");
            let own =
                base.combo.get(colour.index(), k).is_some() || fitted.iter().any(|f| f == name);
            class[colour.index()][k] = if own {
                Some(NE + i)
            } else {
                class_combo(k).map(hand)
            };
        }
        Model {
            line,
            class,
            defence: index("defence"),
            black_penalty: index("black_penalty"),
            diagonal: index("diagonal"),
            tempo: index("tempo"),
            double_four_line: index("w_double_four_line"),
        }
    }

    /// The evaluation weights of a parameter set (table entries: overridden or generated).
    pub fn weights(p: &Params) -> Weights {
        (0..NW)
            .map(|i| f64::from(p.get(weight_name(i)).expect("declared")))
            .collect()
    }

    /// Colour `c`'s potential under `w`; adds `scale` times its gradient to `grad`.
    fn potential(
        &self,
        w: &[f64],
        f: &EvalFeatures,
        c: usize,
        scale: f64,
        mut grad: Option<&mut [f64]>,
    ) -> f64 {
        let renju_black = f.rule == Rule::Renju && c == 0;
        let m = if renju_black {
            w[self.black_penalty] / 100.0
        } else {
            1.0
        };
        let dg = w[self.diagonal] / 100.0;
        let (mut lines, mut diag) = (0.0, 0.0);
        for (p, slot) in self.line.iter().enumerate() {
            let Some(i) = *slot else { continue };
            if renju_black && i == self.double_four_line {
                continue;
            }
            let (s, d) = (f64::from(f.lines[c][0][p]), f64::from(f.lines[c][1][p]));
            lines += w[i] * (s + dg * d);
            diag += w[i] * d;
        }
        // Renju black's classes of two open threes or of an open four earn nothing.
        let live = |k: usize| {
            !(renju_black && matches!(class_combo(k), Some(Combo::DoubleThree | Combo::DoubleFour)))
        };
        let mut bonus = 0.0;
        for (k, &n) in f.classes[c].iter().enumerate() {
            if n == 0 || !live(k) {
                continue;
            }
            if let Some(i) = self.class[c][k] {
                bonus += w[i] * f64::from(n);
            }
        }
        if let Some(g) = grad.as_deref_mut() {
            for (p, slot) in self.line.iter().enumerate() {
                let Some(i) = *slot else { continue };
                if renju_black && i == self.double_four_line {
                    continue;
                }
                let (s, d) = (f64::from(f.lines[c][0][p]), f64::from(f.lines[c][1][p]));
                g[i] += scale * m * (s + dg * d);
            }
            g[self.diagonal] += scale * m * diag / 100.0;
            if renju_black {
                g[self.black_penalty] += scale * (lines + bonus) / 100.0;
            }
            for (k, &n) in f.classes[c].iter().enumerate() {
                if n == 0 || !live(k) {
                    continue;
                }
                if let Some(i) = self.class[c][k] {
                    g[i] += scale * m * f64::from(n);
                }
            }
        }
        // The pattern-code entries count under renju only and are not scaled by
        // black_penalty (see `EvalWeights::new`).
        let mut codes = 0.0;
        if f.rule == Rule::Renju {
            for (k, n) in f.codes_of(c) {
                let i = NC + c * NCODE + k;
                codes += w[i] * f64::from(n);
                if let Some(g) = grad.as_deref_mut() {
                    g[i] += scale * f64::from(n);
                }
            }
        }
        m * (lines + bonus) + codes
    }

    /// The evaluation for the side to move under real weights `w`; with `grad`, adds
    /// `scale` times its gradient.
    pub fn eval(
        &self,
        w: &[f64],
        f: &EvalFeatures,
        scale: f64,
        mut grad: Option<&mut [f64]>,
    ) -> f64 {
        let me = f.side.index();
        let def = w[self.defence] / 100.0;
        let own = self.potential(w, f, me, scale, grad.as_deref_mut());
        let opp = self.potential(w, f, 1 - me, -scale * def, grad.as_deref_mut());
        // The threat-mask table counts under renju only (see `EvalWeights::new`).
        let threat = (f.rule == Rule::Renju).then(|| NT + me * NMASK + usize::from(f.threat_mask));
        if let Some(g) = grad {
            g[self.defence] -= scale * opp / 100.0;
            g[self.tempo] += scale;
            if let Some(t) = threat {
                g[t] += scale;
            }
        }
        own - opp * def + w[self.tempo] + threat.map_or(0.0, |t| w[t])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_engine::{Board, Pos};

    fn positions() -> Vec<Board> {
        let mut out = Vec::new();
        for rule in [Rule::Renju, Rule::Freestyle] {
            let moves =
                Pos::parse_list("h8 h9 i9 g7 j10 i8 g8 j8 k11 f6 g10 g9 i10 h10 f9 j11", 15)
                    .unwrap();
            let mut b = Board::new(15, rule).unwrap();
            for m in moves {
                b.make(m).unwrap();
                out.push(b.clone());
            }
        }
        out
    }

    #[test]
    fn real_evaluation_is_close_to_the_engines_and_gradient_matches_differences() {
        let mut p = Params::default();
        // Values where the engine's integer truncations are small against the scores.
        p.set("black_penalty", 90).unwrap();
        p.set("defence", 80).unwrap();
        let mut with_table = p.clone();
        with_table.set("cmb_white_f0t1w0", 45).unwrap();
        with_table.set("cmb_black_f1t0w1", -120).unwrap();
        for (i, n) in mask_names().iter().enumerate() {
            with_table.set(n, (i % 97) as i64 * 7 - 300).unwrap();
        }
        for (i, n) in code_names().iter().enumerate() {
            with_table.set(n, (i % 89) as i64 * 5 - 200).unwrap();
        }
        let table: Vec<String> = TABLE_NAMES
            .iter()
            .chain(mask_names().iter())
            .chain(code_names().iter())
            .map(|n| n.to_string())
            .collect();
        // Hand weights only; a start with overrides; the whole table fitted.
        for (p, model) in [
            (&p, Model::new(&p, &[])),
            (&with_table, Model::new(&with_table, &[])),
            (&with_table, Model::new(&with_table, &table)),
        ] {
            let w = Model::weights(p);
            for b in positions() {
                let f = b.eval_features();
                let exact = f.evaluate_params(p) as f64;
                let mut g = vec![0.0; NW];
                let real = model.eval(&w, &f, 1.0, Some(&mut g));
                // The engine truncates each table entry (diagonal and black_penalty
                // percentages, under one unit per counted cell line or bonus) and the defence
                // product (one).
                let counts = |c: usize| -> f64 {
                    let lines: u32 = f.lines[c].iter().flatten().map(|&n| u32::from(n)).sum();
                    let classes: u32 = f.classes[c].iter().map(|&n| u32::from(n)).sum();
                    f64::from(lines + classes)
                };
                let me = f.side.index();
                let bound = counts(me) + counts(1 - me) * 0.8 + 1.0;
                assert!(
                    (real - exact).abs() <= bound,
                    "{real} vs {exact} (bound {bound})"
                );
                assert_eq!(model.eval(&w, &f, 1.0, None), real);
                for i in 0..NW {
                    let h = 1e-3 * w[i].abs().max(1.0);
                    let (mut up, mut down) = (w.clone(), w.clone());
                    up[i] += h;
                    down[i] -= h;
                    let num = (model.eval(&up, &f, 1.0, None) - model.eval(&down, &f, 1.0, None))
                        / (2.0 * h);
                    assert!(
                        (num - g[i]).abs() <= 1e-6 * num.abs().max(1.0),
                        "{}: analytic {} vs numeric {num}",
                        weight_name(i),
                        g[i]
                    );
                }
            }
        }
    }

    #[test]
    fn integer_weights_with_round_percentages_give_the_exact_evaluation() {
        // With diagonal, black_penalty and defence at 100 nothing is truncated, with or
        // without table overrides.
        let mut p = Params::default();
        for (n, v) in [("defence", 100), ("black_penalty", 100), ("diagonal", 100)] {
            p.set(n, v).unwrap();
        }
        let mut with_table = p.clone();
        with_table.set("cmb_white_f0t2w1", 333).unwrap();
        with_table.set("cmb_black_f1t1w0", 2222).unwrap();
        for p in [&p, &with_table] {
            let model = Model::new(p, &[]);
            let w = Model::weights(p);
            for b in positions() {
                let f = b.eval_features();
                assert_eq!(model.eval(&w, &f, 1.0, None), f.evaluate_params(p) as f64);
            }
        }
    }
}
