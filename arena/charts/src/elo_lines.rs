//! Elo against one swept value, one line per setting of the other swept parameters.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::common::{
    cross, finite_range, frame, num, padded, render, signed, triangle, Glyph, LegendItem, Plot,
    INK, MUTED, REFERENCE,
};
use crate::draw::{
    baseline_mark, build, draw_line, hline, mesh, no_data, numeric_label_area, series_glyph,
    series_style, BASELINE_LEGEND, CLIPPED,
};
use crate::elo::{EloPoint, Shown, ELO_CAP};
use crate::error::ChartError;

/// One line of an [`elo_lines_chart`]: Elo against the swept value for one setting of the
/// other swept parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct EloSeries {
    /// Shown in the legend (for example `"w_open_four = 100"`).
    pub label: String,
    /// The points, in any order (drawn in `x` order).
    pub points: Vec<EloPoint>,
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
    render(
        stem,
        &EloLinesPlot {
            title,
            x_label,
            series,
            baseline,
        },
    )
}

/// Elo against a swept value, one line per setting of the other swept parameters.
pub(crate) struct EloLinesPlot<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub series: &'a [EloSeries],
    /// The baseline's own value of the swept parameter, marked at Elo 0.
    pub baseline: Option<f64>,
}

impl Plot for EloLinesPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let series: Vec<Vec<&EloPoint>> = self
            .series
            .iter()
            .map(|s| {
                let mut pts: Vec<&EloPoint> = s.points.iter().filter(|p| p.x.is_finite()).collect();
                pts.sort_by(|a, b| a.x.total_cmp(&b.x));
                pts
            })
            .collect();
        let all = || series.iter().flatten();
        let values = all()
            .flat_map(|p| [p.elo, p.low, p.high])
            .flatten()
            .filter(|v| v.is_finite() && v.abs() <= ELO_CAP);
        let (ylo, yhi) = finite_range(values.chain([0.0])).unwrap_or((0.0, 0.0));
        let (ylo, yhi) = padded(ylo, yhi, 0.1, 40.0);
        let baseline = self.baseline.filter(|b| b.is_finite());
        let (xlo, xhi) = match finite_range(all().map(|p| p.x).chain(baseline)) {
            Some((a, b)) => padded(a, b, 0.06, (a.abs() * 0.2).max(1.0)),
            None => (0.0, 1.0),
        };
        // Series side by side around each x so their whiskers do not hide each other.
        let mut xs: Vec<f64> = all().map(|p| p.x).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let gap = xs
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min);
        let gap = if gap.is_finite() { gap } else { xhi - xlo };
        let n = series.len().max(1) as f64;
        let dodge = |k: usize| (k as f64 - (n - 1.0) / 2.0) * gap * 0.3 / n;

        let mut legend: Vec<LegendItem> = self
            .series
            .iter()
            .enumerate()
            .map(|(k, s)| LegendItem::new(series_glyph(k), s.label.clone()))
            .collect();
        legend.push(LegendItem::new(
            Glyph::Whisker(INK),
            "Elo with 95 % interval",
        ));
        legend.push(LegendItem::new(
            Glyph::Dashed(REFERENCE),
            "0 Elo (equal strength)",
        ));
        if baseline.is_some() {
            legend.push(LegendItem::new(Glyph::Dashed(MUTED), BASELINE_LEGEND));
        }
        let shown: Vec<Vec<(f64, Shown, Shown, Shown)>> = series
            .iter()
            .enumerate()
            .map(|(k, pts)| {
                pts.iter()
                    .map(|p| {
                        (
                            p.x + dodge(k),
                            Shown::new(p.elo, ylo, yhi),
                            Shown::new(p.low, ylo, yhi),
                            Shown::new(p.high, ylo, yhi),
                        )
                    })
                    .collect()
            })
            .collect();
        let flat = || shown.iter().flatten();
        if flat().any(|(_, e, _, _)| matches!(e, Shown::Above(_) | Shown::Below(_))) {
            legend.push(LegendItem::new(
                Glyph::Triangle(CLIPPED),
                "clipped at the edge (±∞ or off scale)",
            ));
        }
        if flat().any(|(_, e, _, _)| matches!(e, Shown::Missing)) {
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
        if flat().next().is_none() {
            return no_data(&chart);
        }
        for (k, pts) in shown.iter().enumerate() {
            let (colour, pattern) = series_style(k);
            let line: Vec<(f64, f64)> = pts
                .iter()
                .filter_map(|&(x, e, _, _)| e.y(ylo, yhi).map(|y| (x, y)))
                .collect();
            draw_line(&mut chart, line, colour, pattern)?;
            for &(x, elo, low, high) in pts {
                let Some(ey) = elo.y(ylo, yhi) else {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((x, ylo)) + cross((0, -12), MUTED),
                    ))?;
                    continue;
                };
                let lo_y = low.y(ylo, yhi).unwrap_or(ey);
                let hi_y = high.y(ylo, yhi).unwrap_or(ey);
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, lo_y), (x, hi_y)],
                    colour.stroke_width(2),
                )))?;
                for (end, y) in [(low, lo_y), (high, hi_y)] {
                    if matches!(end, Shown::At(_)) {
                        chart.draw_series(std::iter::once(
                            EmptyElement::at((x, y))
                                + PathElement::new(vec![(-5, 0), (5, 0)], colour.stroke_width(2)),
                        ))?;
                    }
                }
                match elo {
                    Shown::At(v) => {
                        chart.draw_series(std::iter::once(Circle::new(
                            (x, v),
                            4,
                            colour.filled(),
                        )))?;
                    }
                    Shown::Above(_) => {
                        chart.draw_series(std::iter::once(
                            EmptyElement::at((x, yhi)) + triangle((0, 10), true, CLIPPED),
                        ))?;
                    }
                    Shown::Below(_) => {
                        chart.draw_series(std::iter::once(
                            EmptyElement::at((x, ylo)) + triangle((0, -10), false, CLIPPED),
                        ))?;
                    }
                    Shown::Missing => {}
                }
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
}
