//! Charts of match and tuning results, each written as a PNG and an SVG.
//!
//! Every function takes an output path *stem* and writes `<stem>.png` and `<stem>.svg` next to
//! each other (the extensions are appended, so `out/sweep.v2` gives `out/sweep.v2.png`), creating
//! the parent directory if needed. The inputs are plain data defined here, so the arena, the
//! tuner and tests can use the charts without anything else from this crate.
//!
//! | function | shows |
//! | --- | --- |
//! | [`score_chart`] | score with its 95 % interval per player, parameter set or sweep value |
//! | [`elo_chart`] | Elo with its 95 % interval against a swept parameter value, with the 0 line |
//! | [`elo_lines_chart`] | the same with one line per setting of the other swept parameters (grids) |
//! | [`sprt_chart`] | SPRT log-likelihood ratio against games, with both bounds and the verdict |
//! | [`colour_split_chart`] | black wins / white wins / draws as stacked bars |
//! | [`param_paths_chart`] | each tuned parameter's path, normalised to its range |
//! | [`running_score_chart`] | the tuner's running score of engine+ against engine− |
//!
//! Scores are given as fractions in `0..=1` and shown as percentages.
//!
//! **Empty and odd data.** No function panics on its data. Empty input (or input with no
//! drawable value) still writes both files: the axes, title and legend with a "no data" note.
//! Non-finite values are skipped, except that an infinite Elo (a 0 % or 100 % score) is clipped
//! to the edge of the chart and marked. The only data errors are
//! [`ChartError::InvalidData`]: a parameter range that is not finite or not increasing in
//! [`param_paths_chart`], SPRT bounds that are not finite with `lower < 0 < upper`, and an empty
//! output path.
//!
//! **Fonts.** PNG text is rasterised from DejaVu Sans, embedded in the binary from
//! `arena/charts/assets/fonts/` (licence beside it) and registered with plotters' `ab_glyph` font
//! support, so charts render identically on machines without any system fonts or fontconfig.
//! The SVG files name the `sans-serif` family and leave the face to the viewer.

#![warn(missing_docs)]

mod colour_split;
mod common;
mod draw;
mod elo;
mod elo_lines;
mod error;
mod lines;
mod param_paths;
mod running_score;
mod score;
mod sprt;
#[cfg(test)]
mod test_support;
mod typeset;

pub use colour_split::{colour_split_chart, ColourSplit};
pub use common::output_paths;
pub use elo::{elo_chart, sweep_elo_chart, EloPoint};
pub use elo_lines::{elo_lines_chart, sweep_elo_lines_chart, EloSeries};
pub use error::ChartError;
pub use lines::{lines_chart, LineData};
pub use param_paths::{param_paths_chart, ParamPath};
pub use running_score::{running_score_chart, RunningScore};
pub use score::{score_chart, ScoreEntry};
pub use sprt::{sprt_chart, SprtPoint, SprtSpec, SprtVerdict};

/// Width in pixels the charts are drawn at (their text sizes are chosen for it).
pub const DRAWN_WIDTH: u32 = common::WIDTH;
#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::test_support::{check, cleanup, paths, temp_dir};

    #[test]
    fn empty_inputs_draw_no_data_charts() {
        let dir = temp_dir("empty");
        let spec = SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            lower: -2.94,
            upper: 2.94,
            verdict: SprtVerdict::Undecided,
        };
        score_chart(&dir.join("score"), "Empty score", "player", &[]).unwrap();
        elo_chart(&dir.join("elo"), "Empty Elo", "x (units)", &[]).unwrap();
        sprt_chart(&dir.join("sprt"), "Empty SPRT", &spec, &[]).unwrap();
        colour_split_chart(&dir.join("colour"), "Empty colours", "player", &[]).unwrap();
        param_paths_chart(&dir.join("params"), "Empty params", &[]).unwrap();
        running_score_chart(&dir.join("running"), "Empty running", &[]).unwrap();
        for (stem, title) in [
            ("score", "Empty score"),
            ("elo", "Empty Elo"),
            ("sprt", "Empty SPRT"),
            ("colour", "Empty colours"),
            ("params", "Empty params"),
            ("running", "Empty running"),
        ] {
            check(&dir.join(stem), None, &[title, "no data"]);
        }
        cleanup(&dir);
    }

    #[test]
    fn non_finite_values_do_not_panic() {
        let dir = temp_dir("nonfinite");
        let nan = f64::NAN;
        let inf = f64::INFINITY;
        score_chart(
            &dir.join("score"),
            "Odd scores",
            "player",
            &[
                ScoreEntry {
                    label: "nan".into(),
                    score: nan,
                    low: nan,
                    high: nan,
                    games: 0,
                },
                ScoreEntry {
                    label: "out of range".into(),
                    score: 1.5,
                    low: -inf,
                    high: inf,
                    games: 3,
                },
                ScoreEntry {
                    label: String::new(),
                    score: 0.5,
                    low: 0.6,
                    high: 0.4,
                    games: 1,
                },
            ],
        )
        .unwrap();
        elo_chart(
            &dir.join("elo"),
            "All infinite",
            "x",
            &[EloPoint {
                x: inf,
                elo: Some(inf),
                low: Some(nan),
                high: None,
            }],
        )
        .unwrap();
        let spec = SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            lower: -2.94,
            upper: 2.94,
            verdict: SprtVerdict::H0Accepted,
        };
        sprt_chart(
            &dir.join("sprt"),
            "Odd SPRT",
            &spec,
            &[
                SprtPoint { games: 0, llr: nan },
                SprtPoint { games: 5, llr: inf },
                SprtPoint {
                    games: 10,
                    llr: -9.0,
                },
            ],
        )
        .unwrap();
        param_paths_chart(
            &dir.join("params"),
            "Odd params",
            &[ParamPath {
                name: "x".into(),
                min: 0.0,
                max: 1.0,
                points: vec![(0, nan), (1, inf), (2, 7.0), (3, 0.5)],
            }],
        )
        .unwrap();
        running_score_chart(
            &dir.join("running"),
            "Odd running",
            &[
                RunningScore {
                    iteration: 1,
                    score: nan,
                    interval: Some((nan, inf)),
                },
                RunningScore {
                    iteration: 2,
                    score: 1.0,
                    interval: None,
                },
            ],
        )
        .unwrap();
        for stem in ["score", "elo", "sprt", "params", "running"] {
            check(&dir.join(stem), None, &[]);
        }
        cleanup(&dir);
    }

    #[test]
    fn invalid_inputs_are_errors() {
        let dir = temp_dir("invalid");
        let bad_range = ParamPath {
            name: "flat".into(),
            min: 3.0,
            max: 3.0,
            points: vec![(0, 3.0)],
        };
        assert!(matches!(
            param_paths_chart(&dir.join("p"), "t", &[bad_range]),
            Err(ChartError::InvalidData(_))
        ));
        let spec = SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            lower: 1.0,
            upper: f64::NAN,
            verdict: SprtVerdict::Undecided,
        };
        assert!(matches!(
            sprt_chart(&dir.join("s"), "t", &spec, &[]),
            Err(ChartError::InvalidData(_))
        ));
        assert!(matches!(
            score_chart(Path::new(""), "t", "c", &[]),
            Err(ChartError::InvalidData(_))
        ));
        cleanup(&dir);
    }

    #[test]
    fn many_entries_grow_the_chart() {
        let dir = temp_dir("many");
        let entries: Vec<ScoreEntry> = (0..40)
            .map(|i| ScoreEntry {
                label: format!("sweep value {i}"),
                score: i as f64 / 40.0,
                low: (i as f64 / 40.0 - 0.05).max(0.0),
                high: (i as f64 / 40.0 + 0.05).min(1.0),
                games: 100,
            })
            .collect();
        score_chart(&dir.join("score"), "Forty entries", "value", &entries).unwrap();
        check(
            &dir.join("score"),
            None,
            &["Forty entries", "sweep value 39"],
        );
        let mut many = paths();
        for k in 0..20 {
            let mut p = many[k % 5].clone();
            p.name = format!("{}_{k}", p.name);
            many.push(p);
        }
        param_paths_chart(&dir.join("params"), "Twenty-five parameters", &many).unwrap();
        check(&dir.join("params"), None, &["Twenty-five parameters"]);
        cleanup(&dir);
    }
}
