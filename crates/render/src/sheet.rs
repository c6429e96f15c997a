//! A sheet: several pictures and lines of text placed on one page, written as one
//! SVG document whose glyphs are defined once (what a printed booklet's page is
//! made of).

use crate::font::{num, Anchor, Fonts, Weight};
use crate::Picture;
use std::fmt::Write;

/// A page being composed, in its own units (PDF points for a printed page).
pub struct Sheet {
    width: f32,
    height: f32,
    fonts: Fonts,
    body: String,
}

impl Sheet {
    /// A blank white page `width` by `height` units.
    pub fn new(width: f32, height: f32) -> Sheet {
        let mut body = String::new();
        let _ = write!(
            body,
            "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
            num(width),
            num(height)
        );
        Sheet {
            width,
            height,
            fonts: Fonts::new(),
            body,
        }
    }

    /// The size a picture takes when drawn `width` units wide or `height` units
    /// high, whichever is smaller, keeping its proportions.
    pub fn fitted(picture: &Picture, width: f32, height: f32) -> (f32, f32) {
        let frame = picture.grid_frame();
        let scale = (width / frame.width).min(height / frame.height);
        (frame.width * scale, frame.height * scale)
    }

    /// Draws a picture as large as fits in the box with its top-left corner at
    /// `(x, y)`, centred across it, and returns the size drawn.
    pub fn place(
        &mut self,
        picture: &Picture,
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    ) -> (f32, f32) {
        let drawn = picture.draw(&mut self.fonts);
        let scale = (width / drawn.width).min(height / drawn.height);
        let left = x + (width - drawn.width * scale) / 2.0;
        let _ = write!(
            self.body,
            "<g transform=\"matrix({s} 0 0 {s} {} {})\">{}</g>",
            num(left),
            num(y),
            drawn.body,
            s = num(scale)
        );
        (drawn.width * scale, drawn.height * scale)
    }

    /// Writes a line of text with its baseline at `y`, placed at `x` by `anchor`.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        text: &str,
        x: f32,
        y: f32,
        size: f32,
        weight: Weight,
        anchor: Anchor,
        colour: &str,
    ) {
        self.fonts
            .text(&mut self.body, weight, text, x, y, size, anchor, colour);
    }

    /// A straight line.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, colour: &str) {
        let _ = write!(
            self.body,
            "<path d=\"M{} {}L{} {}\" stroke=\"{colour}\" stroke-width=\"{}\" fill=\"none\"/>",
            num(from.0),
            num(from.1),
            num(to.0),
            num(to.1),
            num(width)
        );
    }

    /// The page as an SVG document, `unit` naming the unit of its size (`pt` for a
    /// printed page, empty for plain user units).
    pub fn svg(&self, unit: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{w}{unit}\" height=\"{h}{unit}\" viewBox=\"0 0 {w} {h}\">\n<defs>{}</defs>\n{}\n</svg>\n",
            self.fonts.defs(),
            self.body,
            w = num(self.width),
            h = num(self.height),
        )
    }
}
