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

mod common;
mod plots;
mod typeset;

use std::path::{Path, PathBuf};

use plotters::drawing::DrawingAreaErrorKind;

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The output directory could not be created.
    // Not `source`: thiserror would make it the error's source, printed twice by `{:#}`.
    #[error("cannot create chart directory {path}: {error}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The embedded font could not be loaded (a corrupt build, not a data problem).
    #[error("the embedded chart font could not be loaded")]
    Font,
    /// Drawing or writing a file failed (for example a read-only output directory).
    #[error("drawing the chart failed: {0}")]
    Draw(String),
    /// The input cannot be charted as given (see the module documentation).
    #[error("invalid chart data: {0}")]
    InvalidData(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for ChartError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        ChartError::Draw(e.to_string())
    }
}

/// Width in pixels the charts are drawn at (their text sizes are chosen for it).
pub const DRAWN_WIDTH: u32 = common::WIDTH;

/// The PNG and SVG paths written for an output stem: `<stem>.png` and `<stem>.svg`.
pub fn output_paths(stem: &Path) -> (PathBuf, PathBuf) {
    let with = |ext: &str| {
        let mut s = stem.as_os_str().to_owned();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    (with("png"), with("svg"))
}

/// One bar of a [`score_chart`]: a score and its 95 % interval.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreEntry {
    /// Player, parameter set or sweep value, shown on the axis.
    pub label: String,
    /// Score as a fraction of the points, `0..=1` (wins + half the draws, over games).
    pub score: f64,
    /// Lower end of the 95 % interval, `0..=1`.
    pub low: f64,
    /// Upper end of the 95 % interval, `0..=1`.
    pub high: f64,
    /// Games behind the score, shown after the value.
    pub games: u64,
}

/// One point of an [`elo_chart`]: the Elo measured at one swept parameter value.
///
/// `None` and NaN mean "no estimate" (marked with a cross on the axis); infinite values (a
/// 0 % or 100 % score) are clipped to the chart's edge and marked with a triangle.
#[derive(Debug, Clone, PartialEq)]
pub struct EloPoint {
    /// The swept parameter's value.
    pub x: f64,
    /// Elo difference (positive: the swept player is stronger).
    pub elo: Option<f64>,
    /// Lower end of the 95 % interval.
    pub low: Option<f64>,
    /// Upper end of the 95 % interval.
    pub high: Option<f64>,
}

/// One line of an [`elo_lines_chart`]: Elo against the swept value for one setting of the
/// other swept parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct EloSeries {
    /// Shown in the legend (for example `"w_open_four = 100"`).
    pub label: String,
    /// The points, in any order (drawn in `x` order).
    pub points: Vec<EloPoint>,
}

/// The outcome of an SPRT, shown in the [`sprt_chart`] title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR reached the upper bound: H1 (Elo = elo1) is accepted.
    H1Accepted,
    /// The LLR reached the lower bound: H0 (Elo = elo0) is accepted.
    H0Accepted,
    /// Neither bound reached yet (or the run was stopped early).
    Undecided,
}

/// The test behind an [`sprt_chart`].
#[derive(Debug, Clone, PartialEq)]
pub struct SprtSpec {
    /// Elo of the null hypothesis H0.
    pub elo0: f64,
    /// Elo of the alternative hypothesis H1.
    pub elo1: f64,
    /// Lower LLR bound, `ln(β / (1 − α))` (negative): reaching it accepts H0.
    pub lower: f64,
    /// Upper LLR bound, `ln((1 − β) / α)` (positive): reaching it accepts H1.
    pub upper: f64,
    /// The outcome so far.
    pub verdict: SprtVerdict,
}

/// One point of an [`sprt_chart`]: the LLR after some games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtPoint {
    /// Games played so far.
    pub games: u64,
    /// Log-likelihood ratio after those games.
    pub llr: f64,
}

/// One bar of a [`colour_split_chart`]: how a player's (or a match's) games ended by colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourSplit {
    /// Player or match, shown on the axis.
    pub label: String,
    /// Games won by black (the first player).
    pub black_wins: u64,
    /// Games won by white.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

/// One line of a [`param_paths_chart`]: a tuned parameter's value over the iterations.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamPath {
    /// Parameter name, shown in the legend.
    pub name: String,
    /// Lower end of the parameter's range (normalised to 0).
    pub min: f64,
    /// Upper end of the parameter's range (normalised to 1); must exceed `min`.
    pub max: f64,
    /// `(iteration, value)` pairs in iteration order; non-finite values are skipped.
    pub points: Vec<(u64, f64)>,
}

/// One point of a [`running_score_chart`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunningScore {
    /// Tuning iteration.
    pub iteration: u64,
    /// Running score of engine+ against engine− up to this iteration, `0..=1`.
    pub score: f64,
    /// Optional 95 % interval `(low, high)` of the running score, `0..=1`, drawn as a band.
    pub interval: Option<(f64, f64)>,
}

/// Horizontal bars of score (in %) with 95 % interval whiskers, one per entry, top to bottom
/// in the given order, with the 50 % line. `category` names what the entries are (for example
/// `"player"` or `"futility margin"`).
pub fn score_chart(
    stem: &Path,
    title: &str,
    category: &str,
    entries: &[ScoreEntry],
) -> Result<(), ChartError> {
    common::render(
        stem,
        &plots::ScorePlot {
            title,
            category,
            entries,
        },
    )
}

/// Elo with 95 % interval error bars against a swept parameter's value (`x_label`, with its
/// unit), joined in `x` order, with the 0 Elo line. Infinite and out-of-scale values are
/// clipped to the edge and marked with a triangle; missing estimates are marked with a cross.
pub fn elo_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    points: &[EloPoint],
) -> Result<(), ChartError> {
    sweep_elo_chart(stem, title, x_label, points, None)
}

/// [`elo_chart`] of a sweep, marking `baseline`, the baseline player's own value of the swept
/// parameter, with a vertical line and a point at Elo 0 labelled "baseline".
pub fn sweep_elo_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    points: &[EloPoint],
    baseline: Option<f64>,
) -> Result<(), ChartError> {
    common::render(
        stem,
        &plots::EloPlot {
            title,
            x_label,
            points,
            baseline,
        },
    )
}

/// Elo with 95 % interval error bars against a swept parameter's value, one coloured line per
/// series (named in the legend), series drawn side by side around each value so that their
/// whiskers stay apart, with the 0 Elo line. Clipped and missing values are marked as in
/// [`elo_chart`]. Meant for up to ten series (colours repeat, then dashed and dotted lines).
pub fn elo_lines_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    series: &[EloSeries],
) -> Result<(), ChartError> {
    sweep_elo_lines_chart(stem, title, x_label, series, None)
}

/// [`elo_lines_chart`] of a grid sweep, marking the baseline's own value of the swept
/// parameter as [`sweep_elo_chart`] does.
pub fn sweep_elo_lines_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    series: &[EloSeries],
    baseline: Option<f64>,
) -> Result<(), ChartError> {
    common::render(
        stem,
        &plots::EloLinesPlot {
            title,
            x_label,
            series,
            baseline,
        },
    )
}

/// The SPRT log-likelihood ratio against games played, with the lower (H0) and upper (H1)
/// bounds and the verdict appended to the title.
pub fn sprt_chart(
    stem: &Path,
    title: &str,
    spec: &SprtSpec,
    points: &[SprtPoint],
) -> Result<(), ChartError> {
    if !(spec.lower.is_finite() && spec.upper.is_finite() && spec.lower < 0.0 && spec.upper > 0.0) {
        return Err(ChartError::InvalidData(format!(
            "SPRT bounds must be finite with lower < 0 < upper, got {} and {}",
            spec.lower, spec.upper
        )));
    }
    common::render(
        stem,
        &plots::SprtPlot {
            title,
            spec,
            points,
        },
    )
}

/// Stacked horizontal bars of black wins, white wins and draws as shares of each row's games
/// (with counts), one row per entry. `category` names what the rows are (`"player"`,
/// `"match"`).
pub fn colour_split_chart(
    stem: &Path,
    title: &str,
    category: &str,
    rows: &[ColourSplit],
) -> Result<(), ChartError> {
    common::render(
        stem,
        &plots::ColourPlot {
            title,
            category,
            rows,
        },
    )
}

/// Each parameter's value over the tuning iterations, normalised to its range (0 = `min`,
/// 1 = `max`), one line per parameter, with a legend giving the range and the last value.
/// Errors with [`ChartError::InvalidData`] if a range is not finite or `min >= max`.
pub fn param_paths_chart(stem: &Path, title: &str, params: &[ParamPath]) -> Result<(), ChartError> {
    if let Some(p) = params
        .iter()
        .find(|p| !(p.min.is_finite() && p.max.is_finite() && p.min < p.max))
    {
        return Err(ChartError::InvalidData(format!(
            "parameter {:?} has range [{}, {}]; need finite min < max",
            p.name, p.min, p.max
        )));
    }
    common::render(stem, &plots::ParamPlot { title, params })
}

/// One line of a [`lines_chart`].
#[derive(Debug, Clone, PartialEq)]
pub struct LineData {
    /// Shown in the legend.
    pub label: String,
    /// The points, drawn in the given order; non-finite values are skipped.
    pub points: Vec<(f64, f64)>,
}

/// Lines of `y` against `x` (a loss curve, say), one per series, named in a legend row under
/// the title, with an optional dashed vertical marker (`(x, legend text)`, e.g. the best
/// epoch). The y axis spans the finite values with a margin.
pub fn lines_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[LineData],
    marker: Option<(f64, &str)>,
) -> Result<(), ChartError> {
    common::render(
        stem,
        &plots::LinesPlot {
            title,
            x_label,
            y_label,
            series,
            marker,
        },
    )
}

/// The running score (in %) of engine+ against engine− over the tuning iterations, with an
/// optional 95 % band and the 50 % line.
pub fn running_score_chart(
    stem: &Path,
    title: &str,
    points: &[RunningScore],
) -> Result<(), ChartError> {
    common::render(stem, &plots::RunningPlot { title, points })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory under the system temp dir.
    fn temp_dir(name: &str) -> PathBuf {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "wuzi-chart-{}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed),
            name
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Removes a test's directory once it passed, unless `WUZI_KEEP_CHARTS` is set (to look at
    /// the pictures).
    fn cleanup(dir: &Path) {
        if std::env::var_os("WUZI_KEEP_CHARTS").is_none() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// Checks both files exist, the PNG decodes with `size` and the SVG holds `texts`.
    fn check(stem: &Path, size: Option<(u32, u32)>, texts: &[&str]) {
        let (png, svg) = output_paths(stem);
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.len() > 1000, "PNG too small: {}", bytes.len());
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .expect("PNG decodes");
        let (w, h) = (img.width(), img.height());
        match size {
            Some(s) => assert_eq!((w, h), s),
            None => assert!(w == common::WIDTH && h >= common::HEIGHT, "{w}x{h}"),
        }
        // Text was rasterised: the image is not just white, lines and a few colours.
        let rgb = img.to_rgb8();
        let grey_levels: std::collections::HashSet<u8> = rgb
            .pixels()
            .filter(|p| p[0] == p[1] && p[1] == p[2])
            .map(|p| p[0])
            .collect();
        assert!(grey_levels.len() > 20, "no anti-aliased text in {png:?}");

        let svg_text = std::fs::read_to_string(&svg).unwrap();
        assert!(svg_text.starts_with("<svg"), "{svg:?}");
        assert!(
            svg_text.contains(&format!("width=\"{w}\"")),
            "{svg:?} width"
        );
        for t in texts {
            assert!(svg_text.contains(t), "{svg:?} lacks {t:?}");
        }
    }

    fn scores() -> Vec<ScoreEntry> {
        vec![
            ScoreEntry {
                label: "wuzi (default)".into(),
                score: 0.62,
                low: 0.57,
                high: 0.67,
                games: 400,
            },
            ScoreEntry {
                label: "wuzi futility=120".into(),
                score: 0.48,
                low: 0.43,
                high: 0.53,
                games: 400,
            },
            ScoreEntry {
                label: "classic reference".into(),
                score: 0.21,
                low: 0.17,
                high: 0.26,
                games: 380,
            },
            ScoreEntry {
                label: "wuzi with a very long parameter set name that goes on".into(),
                score: 0.93,
                low: 0.88,
                high: 0.97,
                games: 120,
            },
        ]
    }

    #[test]
    fn score_chart_writes_png_and_svg() {
        let dir = temp_dir("score");
        let stem = dir.join("score");
        score_chart(&stem, "Gauntlet score", "player", &scores()).unwrap();
        check(
            &stem,
            None,
            &[
                "Gauntlet score",
                "score (%)",
                "player",
                "50 %",
                "classic reference",
            ],
        );
        cleanup(&dir);
    }

    #[test]
    fn elo_chart_writes_png_and_svg() {
        let dir = temp_dir("elo");
        let stem = dir.join("elo");
        let points: Vec<EloPoint> = [
            (40.0, -35.0, 20.0),
            (60.0, -12.0, 18.0),
            (80.0, 3.0, 17.0),
            (100.0, 14.0, 17.0),
            (120.0, 9.0, 18.0),
            (140.0, -4.0, 19.0),
        ]
        .iter()
        .map(|&(x, e, h)| EloPoint {
            x,
            elo: Some(e),
            low: Some(e - h),
            high: Some(e + h),
        })
        .collect();
        elo_chart(
            &stem,
            "Futility margin sweep",
            "futility margin (points)",
            &points,
        )
        .unwrap();
        check(
            &stem,
            Some((common::WIDTH, common::HEIGHT)),
            &[
                "Futility margin sweep",
                "futility margin (points)",
                "Elo",
                "0 Elo",
            ],
        );
        cleanup(&dir);
    }

    #[test]
    fn elo_chart_clips_infinite_and_missing() {
        let dir = temp_dir("elo-inf");
        let stem = dir.join("elo");
        let points = vec![
            EloPoint {
                x: 1.0,
                elo: Some(f64::NEG_INFINITY),
                low: Some(f64::NEG_INFINITY),
                high: Some(-300.0),
            },
            EloPoint {
                x: 2.0,
                elo: Some(-20.0),
                low: Some(-60.0),
                high: Some(20.0),
            },
            EloPoint {
                x: 3.0,
                elo: None,
                low: None,
                high: None,
            },
            EloPoint {
                x: 4.0,
                elo: Some(f64::NAN),
                low: Some(1.0),
                high: Some(f64::NAN),
            },
            EloPoint {
                x: 5.0,
                elo: Some(f64::INFINITY),
                low: Some(250.0),
                high: Some(f64::INFINITY),
            },
            EloPoint {
                x: f64::NAN,
                elo: Some(3.0),
                low: None,
                high: None,
            },
        ];
        elo_chart(&stem, "Depth sweep (clipped)", "depth (plies)", &points).unwrap();
        check(
            &stem,
            None,
            &["Depth sweep (clipped)", "clipped", "no estimate"],
        );
        cleanup(&dir);
    }

    #[test]
    fn elo_lines_chart_writes_png_and_svg() {
        let dir = temp_dir("elo-lines");
        let stem = dir.join("elo-lines");
        let series: Vec<EloSeries> = [100.0, 300.0, 700.0]
            .iter()
            .enumerate()
            .map(|(k, &other)| EloSeries {
                label: format!("w_open_four = {other}"),
                points: [20.0, 60.0, 110.0, 200.0]
                    .iter()
                    .map(|&x| {
                        let e = -150.0 + x * 0.8 + k as f64 * 30.0;
                        EloPoint {
                            x,
                            elo: Some(e),
                            low: Some(e - 40.0),
                            high: Some(e + 40.0),
                        }
                    })
                    .collect(),
            })
            .collect();
        elo_lines_chart(&stem, "Grid sweep", "w_open_three (weight)", &series).unwrap();
        check(
            &stem,
            Some((common::WIDTH, common::HEIGHT)),
            &[
                "Grid sweep",
                "w_open_three (weight)",
                "w_open_four = 700",
                "0 Elo",
            ],
        );
        elo_lines_chart(&dir.join("empty"), "Empty grid", "x", &[]).unwrap();
        check(&dir.join("empty"), None, &["Empty grid", "no data"]);
        cleanup(&dir);
    }

    #[test]
    fn sprt_chart_writes_png_and_svg() {
        let dir = temp_dir("sprt");
        let stem = dir.join("sprt");
        let spec = SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            lower: -2.944,
            upper: 2.944,
            verdict: SprtVerdict::H1Accepted,
        };
        let mut llr = 0.0;
        let points: Vec<SprtPoint> = (0..=60)
            .map(|i| {
                llr += if i % 7 == 3 { -0.25 } else { 0.1 };
                SprtPoint {
                    games: i * 40,
                    llr: if i == 60 { 2.96 } else { llr },
                }
            })
            .collect();
        sprt_chart(&stem, "SPRT new-eval vs master", &spec, &points).unwrap();
        check(
            &stem,
            None,
            &[
                "SPRT new-eval vs master",
                "H1 accepted",
                "games played",
                "LLR",
                "H0",
                "H1",
            ],
        );
        cleanup(&dir);
    }

    #[test]
    fn colour_split_chart_writes_png_and_svg() {
        let dir = temp_dir("colour");
        let stem = dir.join("colour");
        let rows = vec![
            ColourSplit {
                label: "wuzi".into(),
                black_wins: 210,
                white_wins: 150,
                draws: 40,
            },
            ColourSplit {
                label: "classic".into(),
                black_wins: 120,
                white_wins: 60,
                draws: 2,
            },
            ColourSplit {
                label: "idle".into(),
                black_wins: 0,
                white_wins: 0,
                draws: 0,
            },
        ];
        colour_split_chart(&stem, "Results by colour", "player", &rows).unwrap();
        check(
            &stem,
            None,
            &[
                "Results by colour",
                "black wins",
                "white wins",
                "draws",
                "share of games (%)",
            ],
        );
        cleanup(&dir);
    }

    fn paths() -> Vec<ParamPath> {
        let names = [
            ("futility_margin", 0.0, 400.0, 150.0),
            ("null_move_reduction", 1.0, 4.0, 2.0),
            ("open_three", 100.0, 2000.0, 600.0),
            ("four_bonus", 0.0, 5000.0, 4500.0),
            ("lmr_base", 0.0, 2.0, 0.4),
        ];
        names
            .iter()
            .enumerate()
            .map(|(k, &(name, min, max, start))| ParamPath {
                name: name.into(),
                min,
                max,
                points: (0..=200u64)
                    .step_by(5)
                    .map(|i| {
                        let t = i as f64;
                        let drift = (t / 60.0 + k as f64).sin() * 0.15 * (max - min);
                        (i, (start + drift * t / 200.0).clamp(min, max))
                    })
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn param_paths_chart_writes_png_and_svg() {
        let dir = temp_dir("params");
        let stem = dir.join("params");
        param_paths_chart(&stem, "SPSA parameter paths", &paths()).unwrap();
        check(
            &stem,
            None,
            &[
                "SPSA parameter paths",
                "iteration",
                "futility_margin",
                "normalised",
            ],
        );
        cleanup(&dir);
    }

    #[test]
    fn lines_chart_writes_png_and_svg() {
        let dir = temp_dir("lines");
        let stem = dir.join("loss");
        let series = [
            LineData {
                label: "training loss".into(),
                points: (0..=40)
                    .map(|e| (e as f64, 0.62 - 0.05 * (1.0 - (-(e as f64) / 8.0).exp())))
                    .collect(),
            },
            LineData {
                label: "validation loss".into(),
                points: (0..=40)
                    .map(|e| (e as f64, 0.63 - 0.04 * (1.0 - (-(e as f64) / 8.0).exp())))
                    .collect(),
            },
        ];
        lines_chart(
            &stem,
            "Fit loss",
            "epoch",
            "mean cross-entropy",
            &series,
            Some((31.0, "best epoch 31")),
        )
        .unwrap();
        check(
            &stem,
            None,
            &[
                "Fit loss",
                "epoch",
                "training loss",
                "validation loss",
                "best epoch 31",
            ],
        );
        cleanup(&dir);
    }

    #[test]
    fn running_score_chart_writes_png_and_svg() {
        let dir = temp_dir("running");
        let stem = dir.join("running");
        let points: Vec<RunningScore> = (1..=200u64)
            .map(|i| {
                let s = 0.5 + 0.04 * (i as f64 / 25.0).sin() + 0.02;
                let half = 0.5 / (i as f64 * 2.0).sqrt();
                RunningScore {
                    iteration: i,
                    score: s,
                    interval: Some((s - half, s + half)),
                }
            })
            .collect();
        running_score_chart(&stem, "SPSA engine+ vs engine−", &points).unwrap();
        check(
            &stem,
            None,
            &[
                "SPSA engine+ vs engine−",
                "iteration",
                "50 %",
                "running score",
            ],
        );
        cleanup(&dir);
    }

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
    fn output_paths_append_extensions() {
        let (png, svg) = output_paths(Path::new("out/sweep.v2"));
        assert_eq!(png, PathBuf::from("out/sweep.v2.png"));
        assert_eq!(svg, PathBuf::from("out/sweep.v2.svg"));
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
