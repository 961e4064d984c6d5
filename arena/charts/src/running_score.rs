//! The tuner's running score of engine+ against engine−.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::common::{
    count, finite_range, frame, num, padded, render, Glyph, LegendItem, Plot, INK, REFERENCE,
};
use crate::draw::{build, hline, mesh, no_data, numeric_label_area, tag, SERIES};
use crate::error::ChartError;

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

/// The running score (in %) of engine+ against engine− over the tuning iterations, with an
/// optional 95 % band and the 50 % line.
pub fn running_score_chart(
    stem: &Path,
    title: &str,
    points: &[RunningScore],
) -> Result<(), ChartError> {
    render(stem, &RunningPlot { title, points })
}

/// Tuner running score.
pub(crate) struct RunningPlot<'a> {
    pub title: &'a str,
    pub points: &'a [RunningScore],
}

impl Plot for RunningPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let pts: Vec<&RunningScore> = self.points.iter().filter(|p| p.score.is_finite()).collect();
        let band = |p: &RunningScore| {
            p.interval
                .filter(|(a, b)| a.is_finite() && b.is_finite())
                .map(|(a, b)| {
                    let (a, b) = (a.min(b) * 100.0, a.max(b) * 100.0);
                    (a.clamp(0.0, 100.0), b.clamp(0.0, 100.0))
                })
        };
        let has_band = pts.iter().any(|p| band(p).is_some());
        let mut legend = vec![LegendItem::new(
            Glyph::Line(SERIES),
            "running score of engine+ against engine−",
        )];
        if has_band {
            legend.push(LegendItem::new(Glyph::Band(SERIES), "95 % interval"));
        }
        legend.push(LegendItem::new(
            Glyph::Dashed(REFERENCE),
            "50 % (no difference)",
        ));
        let area = frame(root, self.title, &legend)?;
        let values = pts.iter().flat_map(|p| {
            let s = (p.score * 100.0).clamp(0.0, 100.0);
            let (a, b) = band(p).unwrap_or((s, s));
            [s, a, b]
        });
        let (lo, hi) = finite_range(values.chain([50.0])).unwrap_or((50.0, 50.0));
        let (lo, hi) = padded(lo, hi, 0.1, 10.0);
        let (lo, hi) = (lo.max(0.0), hi.min(100.0));
        let max_iter = pts.iter().map(|p| p.iteration as f64).fold(10.0, f64::max);
        let mut chart = build(
            &area,
            numeric_label_area(&area, "88.8"),
            (0.0, max_iter),
            (lo, hi),
        )?;
        mesh(
            &mut chart,
            "SPSA iteration",
            "running score of engine+ vs engine− (%)",
            &count,
            &|v| num(*v, 1),
            10,
            10,
            false,
        )?;
        // Bands for each run of consecutive points that have an interval.
        let mut run: Vec<(f64, f64, f64)> = Vec::new();
        let mut runs = Vec::new();
        for p in &pts {
            match band(p) {
                Some((a, b)) => run.push((p.iteration as f64, a, b)),
                None => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for run in runs.into_iter().filter(|r| r.len() >= 2) {
            let polygon: Vec<(f64, f64)> = run
                .iter()
                .map(|&(x, _, b)| (x, b))
                .chain(run.iter().rev().map(|&(x, a, _)| (x, a)))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(
                polygon,
                SERIES.mix(0.18).filled(),
            )))?;
        }
        hline(&mut chart, 50.0, REFERENCE)?;
        let line: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.iteration as f64, (p.score * 100.0).clamp(0.0, 100.0)))
            .collect();
        let Some(&(last_x, last_y)) = line.last() else {
            return no_data(&chart);
        };
        chart.draw_series(LineSeries::new(line, SERIES.stroke_width(2)))?;
        chart.draw_series(std::iter::once(Circle::new(
            (last_x, last_y),
            5,
            SERIES.filled(),
        )))?;
        let below = last_y > (lo + hi) / 2.0;
        tag(
            &chart,
            &area,
            (last_x, last_y),
            (-12, if below { 20 } else { -20 }),
            &format!("{} % after iteration {}", num(last_y, 1), last_x),
            HPos::Right,
            INK,
            WHITE,
        )?;
        Ok(())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
