//! Generic lines of y against x (loss curves).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::common::{count, finite_range, frame, num, render, Glyph, LegendItem, Plot, REFERENCE};
use crate::draw::{
    build, draw_line, mesh, no_data, numeric_label_area, series_glyph, series_style, vline,
};
use crate::error::ChartError;

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
    render(
        stem,
        &LinesPlot {
            title,
            x_label,
            y_label,
            series,
            marker,
        },
    )
}

/// Generic lines (loss curves).
pub(crate) struct LinesPlot<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub series: &'a [LineData],
    pub marker: Option<(f64, &'a str)>,
}

impl Plot for LinesPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let lines: Vec<Vec<(f64, f64)>> = self
            .series
            .iter()
            .map(|s| {
                s.points
                    .iter()
                    .copied()
                    .filter(|(x, y)| x.is_finite() && y.is_finite())
                    .collect()
            })
            .collect();
        let mut legend: Vec<LegendItem> = self
            .series
            .iter()
            .enumerate()
            .map(|(k, s)| LegendItem::new(series_glyph(k), s.label.clone()))
            .collect();
        if let Some((_, text)) = self.marker {
            legend.push(LegendItem::new(Glyph::Dashed(REFERENCE), text));
        }
        let area = frame(root, self.title, &legend)?;
        let (x_lo, x_hi) = finite_range(lines.iter().flatten().map(|p| p.0)).unwrap_or((0.0, 1.0));
        let x_hi = if x_hi > x_lo { x_hi } else { x_lo + 1.0 };
        let (y_lo, y_hi) = finite_range(lines.iter().flatten().map(|p| p.1)).unwrap_or((0.0, 1.0));
        let span = (y_hi - y_lo).max(y_hi.abs() * 1e-3).max(1e-9);
        let (y_lo, y_hi) = (y_lo - 0.08 * span, y_hi + 0.08 * span);
        let decimals = (3 - span.log10().floor() as i32).clamp(0, 8) as usize;
        let widest = num(y_hi.abs().max(y_lo.abs()), decimals);
        let mut chart = build(
            &area,
            numeric_label_area(&area, &format!("-{widest}")),
            (x_lo, x_hi),
            (y_lo, y_hi),
        )?;
        mesh(
            &mut chart,
            self.x_label,
            self.y_label,
            &count,
            &|v| num(*v, decimals),
            10,
            10,
            false,
        )?;
        if lines.iter().all(Vec::is_empty) {
            return no_data(&chart);
        }
        if let Some((x, _)) = self.marker {
            vline(&mut chart, x, REFERENCE)?;
        }
        for (k, pts) in lines.into_iter().enumerate() {
            let (colour, pattern) = series_style(k);
            if pts.len() == 1 {
                chart.draw_series(std::iter::once(Circle::new(pts[0], 4, colour.filled())))?;
            }
            draw_line(&mut chart, pts, colour, pattern)?;
        }
        Ok(())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
