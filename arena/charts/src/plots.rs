//! The seven charts, each a [`Plot`] drawn once per backend.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::common::{
    anchored, count, cross, finite_range, fit_text, frame, legend_column, note, num, padded,
    signed, text, text_width, triangle, Glyph, LegendItem, Plot, DESC_SIZE, HEIGHT, INK,
    LABEL_SIZE, MUTED, PALETTE, REFERENCE, WIDTH,
};
use crate::{
    ChartError, ColourSplit, EloPoint, EloSeries, LineData, ParamPath, RunningScore, ScoreEntry,
    SprtPoint, SprtSpec, SprtVerdict,
};

/// Main series colour (estimates, LLR, running score).
const SERIES: RGBColor = RGBColor(31, 100, 170);
/// Fill of score bars.
const BAR: RGBColor = RGBColor(158, 196, 230);
/// Colour of clipped markers.
const CLIPPED: RGBColor = RGBColor(230, 120, 0);
/// Upper SPRT bound (H1).
const H1_COLOUR: RGBColor = RGBColor(30, 140, 60);
/// Lower SPRT bound (H0).
const H0_COLOUR: RGBColor = RGBColor(200, 40, 40);
/// Black wins.
const BLACK_WINS: RGBColor = RGBColor(35, 35, 35);
/// White wins.
const WHITE_WINS: RGBColor = RGBColor(255, 255, 255);
/// Draws.
const DRAWS: RGBColor = RGBColor(150, 175, 210);
/// Major and minor grid lines.
const GRID_BOLD: RGBColor = RGBColor(210, 210, 210);
const GRID_LIGHT: RGBColor = RGBColor(238, 238, 238);

/// Chart on which everything is drawn: f64 by f64.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Height for a chart with one horizontal bar per row.
fn bar_height(rows: usize) -> u32 {
    HEIGHT.max(200 + 40 * rows as u32)
}

/// Where a data point lands on `area` (local pixels).
fn local<DB: DrawingBackend>(
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
fn tag<DB: DrawingBackend>(
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
fn x_scale<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> f64 {
    let r = chart.x_range();
    let (w, _) = chart.plotting_area().dim_in_pixel();
    w as f64 / (r.end - r.start).max(f64::MIN_POSITIVE)
}

/// A horizontal dashed reference line across the chart at `y`.
fn hline<DB: DrawingBackend>(
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
fn vline<DB: DrawingBackend>(
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
const BASELINE_LEGEND: &str = "baseline's own value (Elo 0 by definition)";

/// Marks a sweep baseline's own value `x`: a vertical dashed line, a hollow point at Elo 0
/// and the word "baseline" at the top of the line.
fn baseline_mark<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, x: f64) -> Result<(), ChartError>
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
fn mesh<DB: DrawingBackend>(
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
fn no_data<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    note(&chart.plotting_area().strip_coord_spec(), "no data")
}

/// Builds a chart with the usual margins on `area`.
fn build<'a, DB: DrawingBackend>(
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
fn numeric_label_area<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, widest: &str) -> u32 {
    text_width(area, widest, LABEL_SIZE) + 50
}

/// Draws row labels left of a horizontal bar chart, right-aligned against the axis.
fn row_labels<DB: DrawingBackend>(
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
fn fitted_row_labels<DB: DrawingBackend>(
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
fn pct(v: f64) -> String {
    format!("{} %", num(v * 100.0, 1))
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

/// How one Elo value is shown.
#[derive(Clone, Copy)]
enum Shown {
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
    fn new(v: Option<f64>, lo: f64, hi: f64) -> Shown {
        match v {
            None => Shown::Missing,
            Some(v) if v.is_nan() => Shown::Missing,
            Some(v) if v > hi => Shown::Above(v),
            Some(v) if v < lo => Shown::Below(v),
            Some(v) => Shown::At(v),
        }
    }

    /// The y coordinate drawn (edges for clipped values).
    fn y(self, lo: f64, hi: f64) -> Option<f64> {
        match self {
            Shown::At(v) => Some(v),
            Shown::Above(_) => Some(hi),
            Shown::Below(_) => Some(lo),
            Shown::Missing => None,
        }
    }
}

/// Largest Elo magnitude kept on the scale; beyond it values are clipped and marked.
const ELO_CAP: f64 = 800.0;

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

/// Line pattern of a series.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pattern {
    Solid,
    Dashed,
    Dotted,
}

/// Colour and pattern of the `k`-th series: ten colours, solid, then dashed, then dotted.
fn series_style(k: usize) -> (RGBColor, Pattern) {
    let pattern = match (k / PALETTE.len()) % 3 {
        0 => Pattern::Solid,
        1 => Pattern::Dashed,
        _ => Pattern::Dotted,
    };
    (PALETTE[k % PALETTE.len()], pattern)
}

/// The legend glyph of the `k`-th series (its colour and pattern, as [`series_style`]).
fn series_glyph(k: usize) -> Glyph {
    match series_style(k) {
        (colour, Pattern::Solid) => Glyph::Line(colour),
        (colour, Pattern::Dashed) => Glyph::Dashed(colour),
        (colour, Pattern::Dotted) => Glyph::Dotted(colour),
    }
}

/// Draws one series solid or dashed.
fn draw_line<DB: DrawingBackend>(
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
