//! Black wins, white wins and draws as stacked bars.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::common::{
    anchored, frame, num, render, text_width, Glyph, LegendItem, Plot, INK, LABEL_SIZE, MUTED,
    REFERENCE, WIDTH,
};
use crate::draw::{
    bar_height, build, fitted_row_labels, mesh, no_data, row_labels, vline, x_scale, BLACK_WINS,
    DRAWS, WHITE_WINS,
};
use crate::error::ChartError;

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

/// Stacked horizontal bars of black wins, white wins and draws as shares of each row's games
/// (with counts), one row per entry. `category` names what the rows are (`"player"`,
/// `"match"`).
pub fn colour_split_chart(
    stem: &Path,
    title: &str,
    category: &str,
    rows: &[ColourSplit],
) -> Result<(), ChartError> {
    render(
        stem,
        &ColourPlot {
            title,
            category,
            rows,
        },
    )
}

/// Stacked colour results.
pub(crate) struct ColourPlot<'a> {
    pub title: &'a str,
    pub category: &'a str,
    pub rows: &'a [ColourSplit],
}

impl Plot for ColourPlot<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, bar_height(self.rows.len()))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static,
    {
        let legend = [
            LegendItem::new(Glyph::Swatch(BLACK_WINS), "black wins"),
            LegendItem::new(Glyph::Swatch(WHITE_WINS), "white wins"),
            LegendItem::new(Glyph::Swatch(DRAWS), "draws"),
            LegendItem::new(Glyph::Dashed(REFERENCE), "50 %"),
        ];
        let area = frame(root, self.title, &legend)?;
        let (labels, label_w) = fitted_row_labels(
            &area,
            self.rows.iter().map(|r| {
                let total = r.black_wins + r.white_wins + r.draws;
                format!("{} ({total} games)", r.label)
            }),
        );
        let n = self.rows.len().max(1) as f64;
        let mut chart = build(&area, label_w, (0.0, 100.0), (0.0, n))?;
        mesh(
            &mut chart,
            "share of games (%)",
            self.category,
            &|v| num(*v, 0),
            &|_| String::new(),
            11,
            0,
            true,
        )?;
        if self.rows.is_empty() {
            vline(&mut chart, 50.0, REFERENCE)?;
            return no_data(&chart);
        }
        let per_unit = x_scale(&chart);
        for (i, r) in self.rows.iter().enumerate() {
            let y = n - i as f64 - 0.5;
            let total = r.black_wins + r.white_wins + r.draws;
            if total == 0 {
                chart.draw_series(std::iter::once(Text::new(
                    "no games".to_string(),
                    (1.0, y),
                    anchored(LABEL_SIZE, HPos::Left, VPos::Center).color(&MUTED),
                )))?;
                continue;
            }
            let mut x = 0.0;
            for (count, fill, ink) in [
                (r.black_wins, BLACK_WINS, WHITE),
                (r.white_wins, WHITE_WINS, INK),
                (r.draws, DRAWS, INK),
            ] {
                let share = count as f64 / total as f64 * 100.0;
                let (x0, x1) = (x, x + share);
                x = x1;
                if count == 0 {
                    continue;
                }
                chart.draw_series([
                    Rectangle::new([(x0, y - 0.32), (x1, y + 0.32)], fill.filled()),
                    Rectangle::new([(x0, y - 0.32), (x1, y + 0.32)], INK.stroke_width(1)),
                ])?;
                let room = share * per_unit - 8.0;
                let label = [
                    format!("{} % ({count})", num(share, 1)),
                    format!("{} %", num(share, 0)),
                ]
                .into_iter()
                .find(|l| text_width(&area, l, LABEL_SIZE) as f64 <= room);
                if let Some(label) = label {
                    chart.draw_series(std::iter::once(Text::new(
                        label,
                        ((x0 + x1) / 2.0, y),
                        anchored(LABEL_SIZE, HPos::Center, VPos::Center).color(&ink),
                    )))?;
                }
            }
        }
        vline(&mut chart, 50.0, REFERENCE)?;
        row_labels(&chart, &area, &labels, n)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check, cleanup, temp_dir};

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
}
