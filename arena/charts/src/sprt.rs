//! The SPRT log-likelihood ratio path between its two bounds.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::common::{
    count, finite_range, frame, num, padded, render, signed, Glyph, LegendItem, Plot, INK,
};
use crate::draw::{
    build, hline, mesh, no_data, numeric_label_area, tag, Chart, H0_COLOUR, H1_COLOUR, SERIES,
};
use crate::error::ChartError;

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
    render(
        stem,
        &SprtPlot {
            title,
            spec,
            points,
        },
    )
}

/// SPRT LLR path.
pub(crate) struct SprtPlot<'a> {
    pub title: &'a str,
    pub spec: &'a SprtSpec,
    pub points: &'a [SprtPoint],
}

impl Plot for SprtPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let s = self.spec;
        let verdict = match s.verdict {
            SprtVerdict::H1Accepted => "H1 accepted",
            SprtVerdict::H0Accepted => "H0 accepted",
            SprtVerdict::Undecided => "undecided",
        };
        let title = format!("{} — verdict: {verdict}", self.title);
        let h1 = format!(
            "upper bound {}: accept H1 (Elo = {})",
            signed(s.upper, 2),
            num(s.elo1, 2)
        );
        let h0 = format!(
            "lower bound {}: accept H0 (Elo = {})",
            num(s.lower, 2),
            num(s.elo0, 2)
        );
        let legend = [
            LegendItem::new(Glyph::Line(SERIES), "LLR"),
            LegendItem::new(Glyph::Dashed(H1_COLOUR), h1.clone()),
            LegendItem::new(Glyph::Dashed(H0_COLOUR), h0.clone()),
        ];
        let area = frame(root, &title, &legend)?;
        let pts: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter(|p| p.llr.is_finite())
            .map(|p| (p.games as f64, p.llr))
            .collect();
        let max_games = pts.iter().map(|p| p.0).fold(0.0, f64::max).max(10.0);
        let (lo, hi) = finite_range(pts.iter().map(|p| p.1).chain([s.lower, s.upper]))
            .unwrap_or((s.lower, s.upper));
        let (lo, hi) = padded(lo, hi, 0.12, 1.0);
        let mut chart = build(
            &area,
            numeric_label_area(&area, "−88.8"),
            (0.0, max_games * 1.02),
            (lo, hi),
        )?;
        mesh(
            &mut chart,
            "games played",
            "log-likelihood ratio (LLR)",
            &count,
            &|v| num(*v, 2),
            10,
            10,
            false,
        )?;
        hline(&mut chart, s.upper, H1_COLOUR)?;
        hline(&mut chart, s.lower, H0_COLOUR)?;
        let Some(&(last_games, last_llr)) = pts.last() else {
            bound_labels(&chart, &area, s)?;
            return no_data(&chart);
        };
        chart.draw_series(LineSeries::new(pts.iter().copied(), SERIES.stroke_width(2)))?;
        bound_labels(&chart, &area, s)?;
        chart.draw_series(std::iter::once(Circle::new(
            (last_games, last_llr),
            5,
            SERIES.filled(),
        )))?;
        // The final value, on the side away from the bound it is near.
        let below = last_llr > (s.lower + s.upper) / 2.0;
        tag(
            &chart,
            &area,
            (last_games, last_llr),
            (-12, if below { 20 } else { -20 }),
            &format!("LLR {} after {} games", num(last_llr, 2), last_games),
            HPos::Right,
            INK,
            WHITE,
        )?;
        Ok(())
    }
}

/// Names the SPRT bound lines at their left end (where the LLR path starts, near 0).
fn bound_labels<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    s: &SprtSpec,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let left = chart.x_range().start;
    tag(
        chart,
        area,
        (left, s.upper),
        (10, -14),
        &format!("H1 bound {} (Elo = {})", signed(s.upper, 2), num(s.elo1, 2)),
        HPos::Left,
        H1_COLOUR,
        WHITE,
    )?;
    tag(
        chart,
        area,
        (left, s.lower),
        (10, 14),
        &format!("H0 bound {} (Elo = {})", num(s.lower, 2), num(s.elo0, 2)),
        HPos::Left,
        H0_COLOUR,
        WHITE,
    )
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
