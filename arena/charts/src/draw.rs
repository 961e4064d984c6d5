//! Drawing pieces several charts share: the series and reference colours, the chart frame,
//! mesh and reference lines, value tags, row labels and the line styles of many series.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::common::{
    anchored, fit_text, note, num, text, text_width, Glyph, DESC_SIZE, HEIGHT, INK, LABEL_SIZE,
    MUTED, PALETTE,
};
use crate::error::ChartError;

/// Main series colour (estimates, LLR, running score).
pub(crate) const SERIES: RGBColor = RGBColor(31, 100, 170);
/// Fill of score bars.
pub(crate) const BAR: RGBColor = RGBColor(158, 196, 230);
/// Colour of clipped markers.
pub(crate) const CLIPPED: RGBColor = RGBColor(230, 120, 0);
/// Upper SPRT bound (H1).
pub(crate) const H1_COLOUR: RGBColor = RGBColor(30, 140, 60);
/// Lower SPRT bound (H0).
pub(crate) const H0_COLOUR: RGBColor = RGBColor(200, 40, 40);
/// Black wins.
pub(crate) const BLACK_WINS: RGBColor = RGBColor(35, 35, 35);
/// White wins.
pub(crate) const WHITE_WINS: RGBColor = RGBColor(255, 255, 255);
/// Draws.
pub(crate) const DRAWS: RGBColor = RGBColor(150, 175, 210);
/// Major and minor grid lines.
pub(crate) const GRID_BOLD: RGBColor = RGBColor(210, 210, 210);
pub(crate) const GRID_LIGHT: RGBColor = RGBColor(238, 238, 238);

/// Chart on which everything is drawn: f64 by f64.
pub(crate) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Height for a chart with one horizontal bar per row.
pub(crate) fn bar_height(rows: usize) -> u32 {
    HEIGHT.max(200 + 40 * rows as u32)
}

/// Where a data point lands on `area` (local pixels).
pub(crate) fn local<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    p: (f64, f64),
) -> (i32, i32) {
    let (x, y) = chart.backend_coord(&p);
    let (bx, by) = area.get_base_pixel();
    (x - bx, y - by)
}

/// `s` at a data point plus a pixel offset, vertically centred, on a translucent box of `bg` so
/// that lines behind it do not cross the letters.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tag<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    at: (f64, f64),
    offset: (i32, i32),
    s: &str,
    h: HPos,
    colour: RGBColor,
    bg: RGBColor,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let (px, py) = local(chart, area, at);
    let (x, y) = (px + offset.0, py + offset.1);
    let w = text_width(area, s, LABEL_SIZE) as i32;
    let half = (LABEL_SIZE / 1.24 / 2.0).ceil() as i32 + 3;
    let x0 = match h {
        HPos::Left => x,
        HPos::Center => x - w / 2,
        HPos::Right => x - w,
    };
    area.draw(&Rectangle::new(
        [(x0 - 3, y - half), (x0 + w + 3, y + half)],
        bg.mix(0.85).filled(),
    ))?;
    area.draw(&Text::new(
        s.to_string(),
        (x, y),
        anchored(LABEL_SIZE, h, VPos::Center).color(&colour),
    ))?;
    Ok(())
}

/// Pixels per data unit along x.
pub(crate) fn x_scale<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> f64 {
    let r = chart.x_range();
    let (w, _) = chart.plotting_area().dim_in_pixel();
    w as f64 / (r.end - r.start).max(f64::MIN_POSITIVE)
}

/// A horizontal dashed reference line across the chart at `y`.
pub(crate) fn hline<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    y: f64,
    colour: RGBColor,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let r = chart.x_range();
    chart.draw_series(std::iter::once(DashedPathElement::new(
        vec![(r.start, y), (r.end, y)],
        10,
        6,
        colour.stroke_width(2),
    )))?;
    Ok(())
}

/// A vertical dashed reference line across the chart at `x`.
pub(crate) fn vline<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: f64,
    colour: RGBColor,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let r = chart.y_range();
    chart.draw_series(std::iter::once(DashedPathElement::new(
        vec![(x, r.start), (x, r.end)],
        10,
        6,
        colour.stroke_width(2),
    )))?;
    Ok(())
}

/// The legend entry of [`baseline_mark`].
pub(crate) const BASELINE_LEGEND: &str = "baseline's own value (Elo 0 by definition)";

/// Marks a sweep baseline's own value `x`: a vertical dashed line, a hollow point at Elo 0
/// and the word "baseline" at the top of the line.
pub(crate) fn baseline_mark<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: f64,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    vline(chart, x, MUTED)?;
    let top = chart.y_range().end;
    chart.draw_series(std::iter::once(Circle::new(
        (x, 0.0),
        7,
        MUTED.stroke_width(3),
    )))?;
    chart.draw_series(std::iter::once(
        EmptyElement::at((x, top))
            + Text::new(
                "baseline".to_string(),
                (6, 4),
                anchored(LABEL_SIZE, HPos::Left, VPos::Top).color(&MUTED),
            ),
    ))?;
    Ok(())
}

/// Configures and draws the grid, tick labels and axis descriptions.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x_desc: &str,
    y_desc: &str,
    x_fmt: &dyn Fn(&f64) -> String,
    y_fmt: &dyn Fn(&f64) -> String,
    x_labels: usize,
    y_labels: usize,
    horizontal_bars: bool,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let mut m = chart.configure_mesh();
    m.x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(text(DESC_SIZE))
        .label_style(text(LABEL_SIZE))
        .x_label_formatter(x_fmt)
        .y_label_formatter(y_fmt)
        .x_labels(x_labels)
        .y_labels(y_labels)
        .bold_line_style(GRID_BOLD)
        .light_line_style(GRID_LIGHT)
        .max_light_lines(1)
        .axis_style(INK.stroke_width(1));
    if horizontal_bars {
        m.disable_y_mesh();
    }
    m.draw()?;
    Ok(())
}

/// The "no data" note over an empty chart's plotting area.
pub(crate) fn no_data<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    note(&chart.plotting_area().strip_coord_spec(), "no data")
}

/// Builds a chart with the usual margins on `area`.
pub(crate) fn build<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    y_label_width: u32,
    x: (f64, f64),
    y: (f64, f64),
) -> Result<Chart<'a, DB>, ChartError>
where
    DB::ErrorType: 'static,
{
    Ok(ChartBuilder::on(area)
        .margin_top(10)
        .margin_bottom(6)
        .margin_left(12)
        .margin_right(34)
        .x_label_area_size(58)
        .y_label_area_size(y_label_width)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)?)
}

/// Width of the y label area for numeric tick labels up to `widest` characters.
pub(crate) fn numeric_label_area<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    widest: &str,
) -> u32 {
    text_width(area, widest, LABEL_SIZE) + 50
}

/// Draws row labels left of a horizontal bar chart, right-aligned against the axis.
pub(crate) fn row_labels<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    labels: &[String],
    rows: f64,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let x0 = chart.x_range().start;
    for (i, label) in labels.iter().enumerate() {
        let (px, py) = local(chart, area, (x0, rows - i as f64 - 0.5));
        area.draw(&Text::new(
            label.clone(),
            (px - 10, py),
            anchored(LABEL_SIZE, HPos::Right, VPos::Center),
        ))?;
    }
    Ok(())
}

/// Row labels shortened to fit, and the label area they need (labels + axis description).
pub(crate) fn fitted_row_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: impl Iterator<Item = String>,
) -> (Vec<String>, u32) {
    let (w, _) = area.dim_in_pixel();
    let max = (w as f64 * 0.36) as u32;
    let labels: Vec<String> = labels
        .map(|l| fit_text(area, &l, LABEL_SIZE, max))
        .collect();
    let widest = labels
        .iter()
        .map(|l| text_width(area, l, LABEL_SIZE))
        .max()
        .unwrap_or(0)
        .max(30);
    (labels, widest + 50)
}

/// A percentage for annotations (`62.3 %`).
pub(crate) fn pct(v: f64) -> String {
    format!("{} %", num(v * 100.0, 1))
}

/// Line pattern of a series.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    Solid,
    Dashed,
    Dotted,
}

/// Colour and pattern of the `k`-th series: ten colours, solid, then dashed, then dotted.
pub(crate) fn series_style(k: usize) -> (RGBColor, Pattern) {
    let pattern = match (k / PALETTE.len()) % 3 {
        0 => Pattern::Solid,
        1 => Pattern::Dashed,
        _ => Pattern::Dotted,
    };
    (PALETTE[k % PALETTE.len()], pattern)
}

/// The legend glyph of the `k`-th series (its colour and pattern, as [`series_style`]).
pub(crate) fn series_glyph(k: usize) -> Glyph {
    match series_style(k) {
        (colour, Pattern::Solid) => Glyph::Line(colour),
        (colour, Pattern::Dashed) => Glyph::Dashed(colour),
        (colour, Pattern::Dotted) => Glyph::Dotted(colour),
    }
}

/// Draws one series solid or dashed.
pub(crate) fn draw_line<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    pts: Vec<(f64, f64)>,
    colour: RGBColor,
    pattern: Pattern,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let style = colour.stroke_width(2);
    match pattern {
        Pattern::Solid => chart.draw_series(std::iter::once(PathElement::new(pts, style)))?,
        Pattern::Dashed => {
            chart.draw_series(std::iter::once(DashedPathElement::new(pts, 8, 5, style)))?
        }
        Pattern::Dotted => {
            chart.draw_series(std::iter::once(DashedPathElement::new(pts, 2, 4, style)))?
        }
    };
    Ok(())
}
