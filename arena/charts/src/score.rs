//! Score bars with their 95 % interval whiskers.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::common::{
    frame, num, render, text_width, Glyph, LegendItem, Plot, INK, LABEL_SIZE, MUTED, REFERENCE,
    WIDTH,
};
use crate::draw::{
    bar_height, build, fitted_row_labels, mesh, no_data, pct, row_labels, tag, vline, x_scale, BAR,
    SERIES,
};
use crate::error::ChartError;

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

/// Horizontal bars of score (in %) with 95 % interval whiskers, one per entry, top to bottom
/// in the given order, with the 50 % line. `category` names what the entries are (for example
/// `"player"` or `"futility margin"`).
pub fn score_chart(
    stem: &Path,
    title: &str,
    category: &str,
    entries: &[ScoreEntry],
) -> Result<(), ChartError> {
    render(
        stem,
        &ScorePlot {
            title,
            category,
            entries,
        },
    )
}

/// Score bars with whiskers.
pub(crate) struct ScorePlot<'a> {
    pub title: &'a str,
    pub category: &'a str,
    pub entries: &'a [ScoreEntry],
}

impl Plot for ScorePlot<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, bar_height(self.entries.len()))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let legend = [
            LegendItem::new(Glyph::Swatch(BAR), "score"),
            LegendItem::new(Glyph::HWhisker(INK), "95 % interval"),
            LegendItem::new(Glyph::Dashed(REFERENCE), "50 % (even score)"),
        ];
        let area = frame(root, self.title, &legend)?;
        let (labels, label_w) = fitted_row_labels(
            &area,
            self.entries.iter().map(|e| {
                if e.label.is_empty() {
                    "(unnamed)".to_string()
                } else {
                    e.label.clone()
                }
            }),
        );
        let rows = self.entries.len().max(1) as f64;
        let mut chart = build(&area, label_w, (0.0, 100.0), (0.0, rows))?;
        mesh(
            &mut chart,
            "score (%)",
            self.category,
            &|v| num(*v, 0),
            &|_| String::new(),
            11,
            0,
            true,
        )?;
        if self.entries.is_empty() {
            vline(&mut chart, 50.0, REFERENCE)?;
            return no_data(&chart);
        }
        let bar = |e: &ScoreEntry| (e.score * 100.0).clamp(0.0, 100.0);
        for (i, e) in self.entries.iter().enumerate() {
            let y = rows - i as f64 - 0.5;
            if e.score.is_finite() {
                let s = bar(e);
                chart.draw_series([
                    Rectangle::new([(0.0, y - 0.3), (s, y + 0.3)], BAR.filled()),
                    Rectangle::new([(0.0, y - 0.3), (s, y + 0.3)], SERIES.stroke_width(1)),
                ])?;
            }
        }
        vline(&mut chart, 50.0, REFERENCE)?;
        let per_unit = x_scale(&chart);
        for (i, e) in self.entries.iter().enumerate() {
            let y = rows - i as f64 - 0.5;
            if !e.score.is_finite() {
                tag(
                    &chart,
                    &area,
                    (0.0, y),
                    (8, 0),
                    "no score",
                    HPos::Left,
                    MUTED,
                    WHITE,
                )?;
                continue;
            }
            let s = bar(e);
            let (lo, hi) = (e.low * 100.0, e.high * 100.0);
            let interval = (!lo.is_nan() && !hi.is_nan())
                .then(|| (lo.min(hi).clamp(0.0, 100.0), lo.max(hi).clamp(0.0, 100.0)));
            let (mut left, mut right) = (s, s);
            if let Some((lo, hi)) = interval {
                chart.draw_series([
                    PathElement::new(vec![(lo, y), (hi, y)], INK.stroke_width(2)),
                    PathElement::new(vec![(lo, y - 0.17), (lo, y + 0.17)], INK.stroke_width(2)),
                    PathElement::new(vec![(hi, y - 0.17), (hi, y + 0.17)], INK.stroke_width(2)),
                ])?;
                (left, right) = (lo.min(s), hi.max(s));
            }
            let mut label = pct(e.score);
            if let Some((lo, hi)) = interval {
                label += &format!("  [{} – {}]", num(lo, 1), num(hi, 1));
            }
            label += &format!("  n = {}", e.games);
            // Right of the whisker if there is room, else left of it, else inside at the right.
            let need = (text_width(&area, &label, LABEL_SIZE) as f64 + 16.0) / per_unit;
            let (x, dx, h) = if right + need <= 100.0 {
                (right, 8, HPos::Left)
            } else if left - need >= 0.0 {
                (left, -8, HPos::Right)
            } else {
                (100.0, -8, HPos::Right)
            };
            let bg = if matches!(h, HPos::Right) && x <= s {
                BAR
            } else {
                WHITE
            };
            tag(&chart, &area, (x, y), (dx, 0), &label, h, INK, bg)?;
        }
        row_labels(&chart, &area, &labels, rows)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
