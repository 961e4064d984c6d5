//! Each tuned parameter's path over the iterations, normalised to its range.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::common::{
    count, frame, legend_column, num, render, text_width, LegendItem, Plot, HEIGHT, LABEL_SIZE,
    WIDTH,
};
use crate::draw::{
    build, draw_line, mesh, no_data, numeric_label_area, series_glyph, series_style,
};
use crate::error::ChartError;

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
    render(stem, &ParamPlot { title, params })
}

/// Tuner parameter paths.
pub(crate) struct ParamPlot<'a> {
    pub title: &'a str,
    pub params: &'a [ParamPath],
}

impl Plot for ParamPlot<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT.max(150 + 22 * self.params.len() as u32))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let area = frame(root, self.title, &[])?;
        let normalised: Vec<Vec<(f64, f64)>> = self
            .params
            .iter()
            .map(|p| {
                p.points
                    .iter()
                    .filter(|(_, v)| v.is_finite())
                    .map(|&(i, v)| (i as f64, ((v - p.min) / (p.max - p.min)).clamp(0.0, 1.0)))
                    .collect()
            })
            .collect();
        let items: Vec<LegendItem> = self
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let last = p
                    .points
                    .iter()
                    .rev()
                    .find(|(_, v)| v.is_finite())
                    .map(|&(_, v)| format!(" = {}", num(v, 3)))
                    .unwrap_or_default();
                LegendItem::new(
                    series_glyph(k),
                    format!("{}{last}  [{}, {}]", p.name, num(p.min, 3), num(p.max, 3)),
                )
            })
            .collect();
        let (w, _) = area.dim_in_pixel();
        let legend_w = items
            .iter()
            .map(|i| text_width(&area, &i.label, LABEL_SIZE) + 60)
            .max()
            .unwrap_or(0)
            .clamp(220, w * 2 / 5);
        let (plot_area, legend_area) = area.split_horizontally(w - legend_w);
        let max_iter = normalised
            .iter()
            .flatten()
            .map(|p| p.0)
            .fold(0.0, f64::max)
            .max(10.0);
        let mut chart = build(
            &plot_area,
            numeric_label_area(&plot_area, "0.88") + 20,
            (0.0, max_iter),
            (-0.03, 1.03),
        )?;
        mesh(
            &mut chart,
            "SPSA iteration",
            "normalised value (0 = range min, 1 = range max)",
            &count,
            &|v| {
                if (-1e-9..=1.0 + 1e-9).contains(v) {
                    num(*v, 1)
                } else {
                    String::new()
                }
            },
            10,
            12,
            false,
        )?;
        if normalised.iter().all(Vec::is_empty) {
            no_data(&chart)?;
        }
        for (k, pts) in normalised.into_iter().enumerate() {
            let (colour, pattern) = series_style(k);
            if pts.len() == 1 {
                chart.draw_series(std::iter::once(Circle::new(pts[0], 4, colour.filled())))?;
            }
            draw_line(&mut chart, pts, colour, pattern)?;
        }
        legend_column(
            &legend_area.margin(16, 0, 0, 0),
            "parameter = last value  [range]",
            &items,
        )
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, paths, temp_dir};

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
}
