//! Elo with its interval against one swept value.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::common::{
    cross, finite_range, frame, num, padded, render, signed, triangle, Glyph, LegendItem, Plot,
    INK, MUTED, REFERENCE,
};
use crate::draw::{
    baseline_mark, build, hline, mesh, no_data, numeric_label_area, tag, BASELINE_LEGEND, CLIPPED,
    SERIES,
};
use crate::error::ChartError;

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
    render(
        stem,
        &EloPlot {
            title,
            x_label,
            points,
            baseline,
        },
    )
}

/// How one Elo value is shown.
#[derive(Clone, Copy)]
pub(crate) enum Shown {
    /// Inside the scale.
    At(f64),
    /// Beyond the top (value or +∞), drawn at the top edge.
    Above(f64),
    /// Beyond the bottom, drawn at the bottom edge.
    Below(f64),
    /// No estimate.
    Missing,
}

impl Shown {
    pub(crate) fn new(v: Option<f64>, lo: f64, hi: f64) -> Shown {
        match v {
            None => Shown::Missing,
            Some(v) if v.is_nan() => Shown::Missing,
            Some(v) if v > hi => Shown::Above(v),
            Some(v) if v < lo => Shown::Below(v),
            Some(v) => Shown::At(v),
        }
    }

    /// The y coordinate drawn (edges for clipped values).
    pub(crate) fn y(self, lo: f64, hi: f64) -> Option<f64> {
        match self {
            Shown::At(v) => Some(v),
            Shown::Above(_) => Some(hi),
            Shown::Below(_) => Some(lo),
            Shown::Missing => None,
        }
    }
}

/// Largest Elo magnitude kept on the scale; beyond it values are clipped and marked.
pub(crate) const ELO_CAP: f64 = 800.0;

/// Elo against a swept value.
pub(crate) struct EloPlot<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub points: &'a [EloPoint],
    /// The baseline's own value of the swept parameter, marked at Elo 0.
    pub baseline: Option<f64>,
}

impl Plot for EloPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let mut points: Vec<&EloPoint> = self.points.iter().filter(|p| p.x.is_finite()).collect();
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        let values = || {
            points
                .iter()
                .flat_map(|p| [p.elo, p.low, p.high])
                .flatten()
                .filter(|v| v.is_finite() && v.abs() <= ELO_CAP)
        };
        let (ylo, yhi) = finite_range(values().chain([0.0])).unwrap_or((0.0, 0.0));
        let (ylo, yhi) = padded(ylo, yhi, 0.1, 40.0);
        let baseline = self.baseline.filter(|b| b.is_finite());
        let (xlo, xhi) = match finite_range(points.iter().map(|p| p.x).chain(baseline)) {
            Some((a, b)) => padded(a, b, 0.06, (a.abs() * 0.2).max(1.0)),
            None => (0.0, 1.0),
        };
        let shown: Vec<(f64, Shown, Shown, Shown)> = points
            .iter()
            .map(|p| {
                (
                    p.x,
                    Shown::new(p.elo, ylo, yhi),
                    Shown::new(p.low, ylo, yhi),
                    Shown::new(p.high, ylo, yhi),
                )
            })
            .collect();
        let any_clipped = shown
            .iter()
            .any(|(_, e, _, _)| matches!(e, Shown::Above(_) | Shown::Below(_)));
        let any_missing = shown.iter().any(|(_, e, _, _)| matches!(e, Shown::Missing));

        let mut legend = vec![
            LegendItem::new(Glyph::Whisker(SERIES), "Elo with 95 % interval"),
            LegendItem::new(Glyph::Dashed(REFERENCE), "0 Elo (equal strength)"),
        ];
        if baseline.is_some() {
            legend.push(LegendItem::new(Glyph::Dashed(MUTED), BASELINE_LEGEND));
        }
        if any_clipped {
            legend.push(LegendItem::new(
                Glyph::Triangle(CLIPPED),
                "clipped at the edge (±∞ or off scale)",
            ));
        }
        if any_missing {
            legend.push(LegendItem::new(Glyph::Cross(MUTED), "no estimate"));
        }
        let area = frame(root, self.title, &legend)?;
        let mut chart = build(
            &area,
            numeric_label_area(&area, "−8888"),
            (xlo, xhi),
            (ylo, yhi),
        )?;
        mesh(
            &mut chart,
            self.x_label,
            "Elo difference (95 % interval)",
            &|v| num(*v, 3),
            &|v| signed(*v, 1),
            10,
            10,
            false,
        )?;
        hline(&mut chart, 0.0, REFERENCE)?;
        if let Some(b) = baseline {
            baseline_mark(&mut chart, b)?;
        }
        if shown.is_empty() {
            return no_data(&chart);
        }

        // Trend line through every estimate (clipped ones at the edge).
        chart.draw_series(std::iter::once(PathElement::new(
            shown
                .iter()
                .filter_map(|&(x, e, _, _)| e.y(ylo, yhi).map(|y| (x, y)))
                .collect::<Vec<_>>(),
            SERIES.mix(0.5).stroke_width(2),
        )))?;

        let annotate = shown.len() <= 15;
        for &(x, elo, low, high) in &shown {
            let Some(ey) = elo.y(ylo, yhi) else {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((x, ylo)) + cross((0, -12), MUTED),
                ))?;
                continue;
            };
            // Whisker: each end at its bound, the edge if clipped, or the estimate if missing.
            let lo_y = low.y(ylo, yhi).unwrap_or(ey);
            let hi_y = high.y(ylo, yhi).unwrap_or(ey);
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, lo_y), (x, hi_y)],
                SERIES.stroke_width(2),
            )))?;
            for (end, y) in [(low, lo_y), (high, hi_y)] {
                if matches!(end, Shown::At(_)) {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(-6, 0), (6, 0)], SERIES.stroke_width(2)),
                    ))?;
                }
            }
            let (marker_text, offset) = match elo {
                Shown::At(v) => {
                    chart.draw_series(std::iter::once(Circle::new((x, v), 5, SERIES.filled())))?;
                    (signed(v, 1), -14)
                }
                Shown::Above(v) => {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((x, yhi)) + triangle((0, 10), true, CLIPPED),
                    ))?;
                    (
                        if v.is_infinite() {
                            "+∞".into()
                        } else {
                            signed(v, 0)
                        },
                        24,
                    )
                }
                Shown::Below(v) => {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((x, ylo)) + triangle((0, -10), false, CLIPPED),
                    ))?;
                    (
                        if v.is_infinite() {
                            "−∞".into()
                        } else {
                            signed(v, 0)
                        },
                        -26,
                    )
                }
                Shown::Missing => unreachable!("handled above"),
            };
            if annotate {
                tag(
                    &chart,
                    &area,
                    (x, ey),
                    (10, offset),
                    &marker_text,
                    HPos::Left,
                    INK,
                    WHITE,
                )?;
            }
        }
        Ok(())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::common;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
