//! The evaluation as a smooth function of real-valued weights, with its gradient.
//!
//! Given a position's counts ([`EvalFeatures`]), the engine's evaluation is
//! `V(me) - V(opponent) * defence / 100 + tempo`, where each colour's potential `V` sums the
//! line-pattern weights (diagonal ones scaled by `diagonal` %, renju black's by
//! `black_penalty` %) and the combination bonuses. This module computes that without the
//! engine's integer truncations, for real weights, together with its derivative in every
//! evaluation weight; the fitter follows the gradient and rounds at the end (the exact integer
//! evaluation is [`EvalFeatures::evaluate`]).

use wuzi_engine::eval::{Combo, EvalFeatures, EVAL_PARAMS};
use wuzi_engine::{Params, Pattern, Rule};

/// Number of evaluation weights (the length of a weight vector).
pub const NW: usize = EVAL_PARAMS.len();

/// Weight vector, indexed like [`EVAL_PARAMS`].
pub type Weights = [f64; NW];

/// Where each weight sits in a [`Weights`] vector.
#[derive(Clone, Debug)]
pub struct Model {
    /// Per line pattern: its weight's index (`None`: dead and overline, worth nothing).
    line: [Option<usize>; 12],
    /// Per combination bonus: its weight's index.
    combo: [usize; 4],
    defence: usize,
    black_penalty: usize,
    diagonal: usize,
    tempo: usize,
    double_four_line: usize,
}

fn index(name: &str) -> usize {
    EVAL_PARAMS
        .iter()
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("{name} is an evaluation weight"))
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl Model {
    /// The layout of [`EVAL_PARAMS`].
    pub fn new() -> Model {
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
        let mut combo = [0; 4];
        for (k, name) in [
            (Combo::FourThree, "w_four_three"),
            (Combo::DoubleThree, "w_double_three"),
            (Combo::DoubleFour, "w_double_four"),
            (Combo::ThreeTwo, "w_three_two"),
        ] {
            combo[k as usize] = index(name);
        }
        Model {
            line,
            combo,
            defence: index("defence"),
            black_penalty: index("black_penalty"),
            diagonal: index("diagonal"),
            tempo: index("tempo"),
            double_four_line: index("w_double_four_line"),
        }
    }

    /// The evaluation weights of a parameter set.
    pub fn weights(p: &Params) -> Weights {
        let mut w = [0.0; NW];
        for (i, name) in EVAL_PARAMS.iter().enumerate() {
            w[i] = f64::from(p.get(name).expect("declared"));
        }
        w
    }

    /// Colour `c`'s potential under `w`; adds `scale` times its gradient to `grad`.
    fn potential(
        &self,
        w: &Weights,
        f: &EvalFeatures,
        c: usize,
        scale: f64,
        grad: Option<&mut Weights>,
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
        let count = |k: Combo| f64::from(f.combos[c][k as usize]);
        let scaled_bonus = w[self.combo[Combo::FourThree as usize]] * count(Combo::FourThree)
            + w[self.combo[Combo::ThreeTwo as usize]] * count(Combo::ThreeTwo);
        let plain_bonus = if renju_black {
            0.0
        } else {
            w[self.combo[Combo::DoubleThree as usize]] * count(Combo::DoubleThree)
                + w[self.combo[Combo::DoubleFour as usize]] * count(Combo::DoubleFour)
        };
        if let Some(g) = grad {
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
                g[self.black_penalty] += scale * (lines + scaled_bonus) / 100.0;
            } else {
                g[self.combo[Combo::DoubleThree as usize]] += scale * count(Combo::DoubleThree);
                g[self.combo[Combo::DoubleFour as usize]] += scale * count(Combo::DoubleFour);
            }
            g[self.combo[Combo::FourThree as usize]] += scale * m * count(Combo::FourThree);
            g[self.combo[Combo::ThreeTwo as usize]] += scale * m * count(Combo::ThreeTwo);
        }
        m * (lines + scaled_bonus) + plain_bonus
    }

    /// The evaluation for the side to move under real weights `w`; with `grad`, adds
    /// `scale` times its gradient.
    pub fn eval(
        &self,
        w: &Weights,
        f: &EvalFeatures,
        scale: f64,
        mut grad: Option<&mut Weights>,
    ) -> f64 {
        let me = f.side.index();
        let def = w[self.defence] / 100.0;
        let own = self.potential(w, f, me, scale, grad.as_deref_mut());
        let opp = self.potential(w, f, 1 - me, -scale * def, grad.as_deref_mut());
        if let Some(g) = grad {
            g[self.defence] -= scale * opp / 100.0;
            g[self.tempo] += scale;
        }
        own - opp * def + w[self.tempo]
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
        let model = Model::new();
        let mut p = Params::default();
        // Values where the engine's integer truncations are small against the scores.
        p.set("black_penalty", 90).unwrap();
        p.set("defence", 80).unwrap();
        let w = Model::weights(&p);
        for b in positions() {
            let f = b.eval_features();
            let exact = f.evaluate_params(&p) as f64;
            let mut g = [0.0; NW];
            let real = model.eval(&w, &f, 1.0, Some(&mut g));
            // The engine truncates each table entry (diagonal and black_penalty percentages,
            // under one unit per counted cell line or bonus) and the defence product (one).
            let counts = |c: usize| -> f64 {
                let lines: u32 = f.lines[c].iter().flatten().map(|&n| u32::from(n)).sum();
                let combos: u32 = f.combos[c].iter().map(|&n| u32::from(n)).sum();
                f64::from(lines + combos)
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
                let (mut up, mut down) = (w, w);
                up[i] += h;
                down[i] -= h;
                let num =
                    (model.eval(&up, &f, 1.0, None) - model.eval(&down, &f, 1.0, None)) / (2.0 * h);
                assert!(
                    (num - g[i]).abs() <= 1e-6 * num.abs().max(1.0),
                    "{}: analytic {} vs numeric {num}",
                    EVAL_PARAMS[i],
                    g[i]
                );
            }
        }
    }

    #[test]
    fn integer_weights_with_round_percentages_give_the_exact_evaluation() {
        // With diagonal, black_penalty and defence at 100 nothing is truncated.
        let model = Model::new();
        let mut p = Params::default();
        for (n, v) in [("defence", 100), ("black_penalty", 100), ("diagonal", 100)] {
            p.set(n, v).unwrap();
        }
        let w = Model::weights(&p);
        for b in positions() {
            let f = b.eval_features();
            assert_eq!(model.eval(&w, &f, 1.0, None), f.evaluate_params(&p) as f64);
        }
    }
}
