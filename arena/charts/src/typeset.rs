//! Text measurement and rasterisation from the embedded font.
//!
//! [`Typeset`] wraps a plotters backend. It measures every text with the embedded DejaVu Sans
//! (so the PNG and SVG layouts agree) and, for bitmap backends, rasterises text itself with
//! `ab_glyph`: plotters' own `ab_glyph` drawing places glyphs by their ink box and ignores side
//! bearings, which leaves visible gaps inside words ("Futili ty"). Everything else is delegated.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

use crate::error::ChartError;

/// DejaVu Sans 2.37 (Bitstream Vera licence, see `arena/charts/assets/fonts/`), compiled into the
/// binary so that PNG text never depends on system fonts or fontconfig.
pub(crate) static FONT_BYTES: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The parsed embedded font.
pub(crate) fn font() -> Result<&'static FontRef<'static>, ChartError> {
    static FONT: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).ok())
        .as_ref()
        .ok_or(ChartError::Font)
}

/// plotters' text size is 1.24 × the em size (the SVG backend writes `font-size = size / 1.24`);
/// the same em is used here so that PNG and SVG text have the same size.
fn em(size: f64) -> f32 {
    (size / 1.24) as f32
}

/// The `ab_glyph` scale (pixel height of ascent − descent) that gives an em of `em` pixels.
fn scale(font: &FontRef<'static>, em: f32) -> PxScale {
    let units = font.units_per_em().unwrap_or(2048.0);
    PxScale::from(em * font.height_unscaled() / units)
}

/// Width (advances and kerning) and height (one em) of `text` in pixels.
fn measure(font: &FontRef<'static>, text: &str, size: f64) -> (f32, f32) {
    let em = em(size);
    let sf = font.as_scaled(scale(font, em));
    let mut width = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = sf.glyph_id(c);
        if let Some(p) = prev {
            width += sf.kern(p, id);
        }
        width += sf.h_advance(id);
        prev = Some(id);
    }
    (width, em)
}

/// A backend whose text is measured, and on bitmaps drawn, with the embedded font.
pub(crate) struct Typeset<B> {
    inner: B,
    raster: bool,
    font: &'static FontRef<'static>,
}

impl<B: DrawingBackend> Typeset<B> {
    /// Wraps `inner`; `raster` draws text as pixels (bitmaps) rather than delegating (SVG).
    pub fn new(inner: B, raster: bool) -> Result<Self, ChartError> {
        Ok(Typeset {
            inner,
            raster,
            font: font()?,
        })
    }
}

impl<B: DrawingBackend> DrawingBackend for Typeset<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let (w, h) = measure(self.font, text, style.size());
        Ok((w.ceil() as u32, h.ceil() as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if !self.raster {
            return self.inner.draw_text(text, style, pos);
        }
        let color = style.color();
        if color.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        let font = self.font;
        let (width, em) = measure(font, text, style.size());
        let scale = scale(font, em);
        let sf = font.as_scaled(scale);
        // The anchor box is `width` × one em; the baseline sits at 0.84 em, which centres mixed
        // capitals and lower case on `VPos::Center` as the SVG's `dy` offsets do.
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let top = match style.anchor().v_pos {
            VPos::Top => 0.0,
            VPos::Center => -em / 2.0,
            VPos::Bottom => -em,
        };
        let baseline = top + 0.84 * em;
        let transform = style.transform();
        let mut pixels: Vec<(i32, i32, f32)> = Vec::new();
        let mut pen = dx;
        let mut prev = None;
        for c in text.chars() {
            let id = sf.glyph_id(c);
            if let Some(p) = prev {
                pen += sf.kern(p, id);
            }
            let glyph = id.with_scale_and_position(scale, point(pen, baseline));
            if let Some(outline) = font.outline_glyph(glyph) {
                let bounds = outline.px_bounds();
                outline.draw(|x, y, coverage| {
                    if coverage > 0.02 {
                        pixels.push((
                            bounds.min.x as i32 + x as i32,
                            bounds.min.y as i32 + y as i32,
                            coverage.min(1.0),
                        ));
                    }
                });
            }
            pen += sf.h_advance(id);
            prev = Some(id);
        }
        for (x, y, coverage) in pixels {
            let (x, y) = transform.transform(x, y);
            self.inner.draw_pixel(
                (pos.0 + x, pos.1 + y),
                BackendColor {
                    alpha: color.alpha * f64::from(coverage),
                    rgb: color.rgb,
                },
            )?;
        }
        Ok(())
    }
}
