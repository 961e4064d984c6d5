//! Shared chart machinery: the embedded font, rendering one plot to PNG and SVG, the title and
//! legend layout, colours and small numeric helpers.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::ChartError;
use crate::typeset::{Typeset, FONT_BYTES};

/// Family name under which the embedded font is registered. The SVG files name it in
/// `font-family`, where every viewer maps it to its own sans-serif face.
pub(crate) const FONT: &str = "sans-serif";

/// Title text size in pixels (shrunk for long titles).
pub(crate) const TITLE_SIZE: f64 = 26.0;
/// Axis description size.
pub(crate) const DESC_SIZE: f64 = 18.0;
/// Tick label, legend and annotation size.
pub(crate) const LABEL_SIZE: f64 = 15.0;

/// Default output width in pixels.
pub(crate) const WIDTH: u32 = 1000;
/// Default output height in pixels.
pub(crate) const HEIGHT: u32 = 620;

/// Text colour.
pub(crate) const INK: RGBColor = RGBColor(30, 30, 30);
/// Colour of reference lines (0 Elo, 50 %).
pub(crate) const REFERENCE: RGBColor = RGBColor(200, 40, 40);
/// Grey for "no data" notes and missing values.
pub(crate) const MUTED: RGBColor = RGBColor(120, 120, 120);

/// Ten well separated line colours (the "tab10" palette).
pub(crate) const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Registers the embedded font with plotters once per process (its text styles need a
/// registered family even though [`Typeset`] measures and draws the text).
fn ensure_font() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(ChartError::Font)
    }
}

/// A chart that can draw itself on any plotters backend.
pub(crate) trait Plot {
    /// Output size in pixels.
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    /// Draws the whole chart on `root` (already sized, not yet filled).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError>
    where
        DB::ErrorType: 'static;
}

/// Draws `plot` into `<stem>.png` and `<stem>.svg`, creating the parent directory if needed.
pub(crate) fn render(stem: &Path, plot: &impl Plot) -> Result<(), ChartError> {
    if stem.as_os_str().is_empty() {
        return Err(ChartError::InvalidData("empty output path".into()));
    }
    ensure_font()?;
    let (png, svg) = output_paths(stem);
    if let Some(dir) = png.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| ChartError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
    }
    let size = plot.size();
    {
        let root = Typeset::new(BitMapBackend::new(&png, size), true)?.into_drawing_area();
        plot.draw(&root)?;
        root.present()?;
    }
    {
        let root = Typeset::new(SVGBackend::new(&svg, size), false)?.into_drawing_area();
        plot.draw(&root)?;
        root.present()?;
    }
    Ok(())
}

/// A text style in the embedded font.
pub(crate) fn text(size: f64) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).color(&INK)
}

/// `text` anchored at the given horizontal and vertical position.
pub(crate) fn anchored(size: f64, h: HPos, v: VPos) -> TextStyle<'static> {
    text(size).pos(Pos::new(h, v))
}

/// Width in pixels of `s` drawn at `size` (an estimate from the font's advances).
pub(crate) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
) -> u32 {
    area.estimate_text_size(s, &text(size))
        .map(|(w, _)| w)
        .unwrap_or((s.chars().count() as f64 * size * 0.6) as u32)
}

/// Shortens `s` with an ellipsis until it fits in `max_width` pixels.
pub(crate) fn fit_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
    max_width: u32,
) -> String {
    if text_width(area, s, size) <= max_width {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    for keep in (1..chars.len()).rev() {
        let candidate: String = chars[..keep].iter().collect::<String>() + "…";
        if text_width(area, &candidate, size) <= max_width {
            return candidate;
        }
    }
    "…".to_string()
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
pub(crate) enum Glyph {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A dotted line.
    Dotted(RGBColor),
    /// A filled box with a dark outline.
    Swatch(RGBColor),
    /// A translucent band (interval area).
    Band(RGBColor),
    /// A dot with a vertical whisker (estimate and interval).
    Whisker(RGBColor),
    /// A horizontal whisker with caps (interval).
    HWhisker(RGBColor),
    /// A hollow triangle (clipped value).
    Triangle(RGBColor),
    /// A cross (missing value).
    Cross(RGBColor),
}

/// One legend entry.
pub(crate) struct LegendItem {
    /// Marker.
    pub glyph: Glyph,
    /// Text after the marker.
    pub label: String,
}

impl LegendItem {
    /// A legend entry.
    pub fn new(glyph: Glyph, label: impl Into<String>) -> Self {
        LegendItem {
            glyph,
            label: label.into(),
        }
    }
}

const GLYPH_W: i32 = 30;
const LEGEND_ROW_H: i32 = 24;

/// Draws a legend marker centred vertically on `y`, starting at `x`.
fn draw_glyph<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    glyph: Glyph,
    x: i32,
    y: i32,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let mid = x + GLYPH_W / 2;
    match glyph {
        Glyph::Line(c) => {
            area.draw(&PathElement::new(
                vec![(x, y), (x + GLYPH_W, y)],
                c.stroke_width(3),
            ))?;
        }
        Glyph::Dashed(c) => {
            for k in 0..3 {
                let x0 = x + k * 11;
                area.draw(&PathElement::new(
                    vec![(x0, y), (x0 + 7, y)],
                    c.stroke_width(2),
                ))?;
            }
        }
        Glyph::Dotted(c) => {
            for k in 0..6 {
                let x0 = x + k * 6;
                area.draw(&PathElement::new(
                    vec![(x0, y), (x0 + 2, y)],
                    c.stroke_width(2),
                ))?;
            }
        }
        Glyph::Swatch(c) => {
            area.draw(&Rectangle::new(
                [(x + 4, y - 7), (x + GLYPH_W - 4, y + 7)],
                c.filled(),
            ))?;
            area.draw(&Rectangle::new(
                [(x + 4, y - 7), (x + GLYPH_W - 4, y + 7)],
                INK.stroke_width(1),
            ))?;
        }
        Glyph::Band(c) => {
            area.draw(&Rectangle::new(
                [(x, y - 7), (x + GLYPH_W, y + 7)],
                c.mix(0.25).filled(),
            ))?;
        }
        Glyph::Whisker(c) => {
            area.draw(&PathElement::new(
                vec![(mid, y - 9), (mid, y + 9)],
                c.stroke_width(2),
            ))?;
            for yy in [y - 9, y + 9] {
                area.draw(&PathElement::new(
                    vec![(mid - 5, yy), (mid + 5, yy)],
                    c.stroke_width(2),
                ))?;
            }
            area.draw(&Circle::new((mid, y), 4, c.filled()))?;
        }
        Glyph::HWhisker(c) => {
            area.draw(&PathElement::new(
                vec![(x + 2, y), (x + GLYPH_W - 2, y)],
                c.stroke_width(2),
            ))?;
            for xx in [x + 2, x + GLYPH_W - 2] {
                area.draw(&PathElement::new(
                    vec![(xx, y - 6), (xx, y + 6)],
                    c.stroke_width(2),
                ))?;
            }
        }
        Glyph::Triangle(c) => {
            area.draw(&triangle((mid, y), true, c))?;
        }
        Glyph::Cross(c) => {
            area.draw(&cross((mid, y), c))?;
        }
    }
    Ok(())
}

/// A hollow triangle pointing up or down, centred on `c` (pixels).
pub(crate) fn triangle(c: (i32, i32), up: bool, colour: RGBColor) -> PathElement<(i32, i32)> {
    let (x, y) = c;
    let s = if up { -1 } else { 1 };
    PathElement::new(
        vec![
            (x, y + 7 * s),
            (x - 7, y - 5 * s),
            (x + 7, y - 5 * s),
            (x, y + 7 * s),
        ],
        colour.stroke_width(2),
    )
}

/// An "x" cross centred on `c` (pixels), as one path.
pub(crate) fn cross(c: (i32, i32), colour: RGBColor) -> PathElement<(i32, i32)> {
    let (x, y) = c;
    PathElement::new(
        vec![
            (x - 6, y - 6),
            (x + 6, y + 6),
            (x, y),
            (x + 6, y - 6),
            (x - 6, y + 6),
        ],
        colour.stroke_width(2),
    )
}

/// Fills the background, draws the (possibly shrunk) title and a wrapped legend row under it,
/// and returns the area left for the plot.
pub(crate) fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[LegendItem],
) -> Result<DrawingArea<DB, Shift>, ChartError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let usable = w.saturating_sub(30);
    let mut size = TITLE_SIZE;
    while size > 13.0 && text_width(root, title, size) > usable {
        size -= 1.0;
    }
    let title = fit_text(root, title, size, usable);
    let (title_area, rest) = root.split_vertically(48);
    title_area.draw(&Text::new(
        title,
        ((w / 2) as i32, 26),
        anchored(size, HPos::Center, VPos::Center),
    ))?;

    // Lay the legend entries out in rows, centred.
    let mut rows: Vec<Vec<(&LegendItem, i32)>> = vec![Vec::new()];
    let mut row_w = 0;
    for item in legend {
        let item_w = GLYPH_W + 6 + text_width(root, &item.label, LABEL_SIZE) as i32 + 24;
        if row_w + item_w > usable as i32 && !rows.last().is_some_and(Vec::is_empty) {
            rows.push(Vec::new());
            row_w = 0;
        }
        rows.last_mut().expect("one row").push((item, item_w));
        row_w += item_w;
    }
    if legend.is_empty() {
        return Ok(rest);
    }
    let legend_h = rows.len() as i32 * LEGEND_ROW_H + 6;
    let (legend_area, plot) = rest.split_vertically(legend_h);
    for (r, row) in rows.iter().enumerate() {
        let total: i32 = row.iter().map(|(_, iw)| iw).sum::<i32>() - 24;
        let mut x = (w as i32 - total) / 2;
        let y = r as i32 * LEGEND_ROW_H + LEGEND_ROW_H / 2;
        for (item, item_w) in row {
            draw_glyph(&legend_area, item.glyph, x, y)?;
            legend_area.draw(&Text::new(
                item.label.clone(),
                (x + GLYPH_W + 6, y),
                anchored(LABEL_SIZE, HPos::Left, VPos::Center),
            ))?;
            x += item_w;
        }
    }
    Ok(plot)
}

/// Draws a vertical legend list in `area` (used when there are many series).
pub(crate) fn legend_column<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    heading: &str,
    items: &[LegendItem],
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let (w, _) = area.dim_in_pixel();
    if items.is_empty() {
        return Ok(());
    }
    area.draw(&Text::new(
        heading.to_string(),
        (8, 14),
        anchored(LABEL_SIZE, HPos::Left, VPos::Center),
    ))?;
    let text_room = w.saturating_sub(GLYPH_W as u32 + 20);
    for (i, item) in items.iter().enumerate() {
        let y = 14 + (i as i32 + 1) * 22;
        draw_glyph(area, item.glyph, 8, y)?;
        area.draw(&Text::new(
            fit_text(area, &item.label, LABEL_SIZE, text_room),
            (8 + GLYPH_W + 6, y),
            anchored(LABEL_SIZE, HPos::Left, VPos::Center),
        ))?;
    }
    Ok(())
}

/// Writes a centred note (such as "no data") over a plotting area.
pub(crate) fn note<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    message: &str,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let (cx, cy) = ((w / 2) as i32, (h / 2) as i32);
    let half_w = text_width(area, message, 22.0) as i32 / 2 + 10;
    area.draw(&Rectangle::new(
        [(cx - half_w, cy - 18), (cx + half_w, cy + 18)],
        WHITE.filled(),
    ))?;
    area.draw(&Text::new(
        message.to_string(),
        (cx, cy),
        anchored(22.0, HPos::Center, VPos::Center).color(&MUTED),
    ))?;
    Ok(())
}

/// `(lo, hi)` padded by `frac` of the span (at least `min_span` wide).
pub(crate) fn padded(lo: f64, hi: f64, frac: f64, min_span: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (lo.min(hi), lo.max(hi));
    if hi - lo < min_span {
        let mid = (lo + hi) / 2.0;
        lo = mid - min_span / 2.0;
        hi = mid + min_span / 2.0;
    }
    let pad = (hi - lo) * frac;
    (lo - pad, hi + pad)
}

/// Minimum and maximum of the finite values, if any.
pub(crate) fn finite_range(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// A number for a tick label or annotation: integers without decimals, others with at most
/// `decimals` digits, and a true minus sign.
pub(crate) fn num(v: f64, decimals: usize) -> String {
    let s = if (v - v.round()).abs() < 1e-9 && v.abs() < 1e15 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s.replace('-', "−")
    }
}

/// Tick labels of a count axis (games, iterations): whole numbers only.
pub(crate) fn count(v: &f64) -> String {
    let v = *v;
    if (v - v.round()).abs() < 1e-9 {
        num(v, 0)
    } else {
        String::new()
    }
}

/// A signed number (`+12`, `−3.5`, `0`).
pub(crate) fn signed(v: f64, decimals: usize) -> String {
    let s = num(v, decimals);
    if v > 0.0 && s != "0" {
        format!("+{s}")
    } else {
        s
    }
}

/// The PNG and SVG paths written for an output stem: `<stem>.png` and `<stem>.svg`.
pub fn output_paths(stem: &Path) -> (PathBuf, PathBuf) {
    let with = |ext: &str| {
        let mut s = stem.as_os_str().to_owned();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    (with("png"), with("svg"))
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_append_extensions() {
        let (png, svg) = output_paths(Path::new("out/sweep.v2"));
        assert_eq!(png, PathBuf::from("out/sweep.v2.png"));
        assert_eq!(svg, PathBuf::from("out/sweep.v2.svg"));
    }
}
