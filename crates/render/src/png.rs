//! SVG to PNG through resvg.

use crate::RenderError;
use resvg::{tiny_skia, usvg};

/// The largest side, in pixels, a PNG may have (a 16×16 picture at scale 4 is
/// about 3 400).
const MAX_SIDE: u32 = 8192;

/// Rasterises an SVG document at `scale` pixels per unit, on white.
pub fn from_svg(svg: &str, scale: f32) -> Result<Vec<u8>, RenderError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RenderError::Scale(scale));
    }
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size();
    let side = |v: f32| (v * scale).ceil();
    let (w, h) = (side(size.width()), side(size.height()));
    if w > MAX_SIDE as f32 || h > MAX_SIDE as f32 {
        return Err(RenderError::TooLarge {
            width: w as u32,
            height: h as u32,
            max: MAX_SIDE,
        });
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32).ok_or(RenderError::Scale(scale))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}
