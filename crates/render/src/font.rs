//! Text as glyph outlines. The pictures carry no `<text>`: every character is a
//! path taken from an embedded font (DejaVu Sans and DejaVu Sans Bold, cut down to
//! the characters used; see `assets/`), defined once in `<defs>` and placed with
//! `<use>`. So a picture looks the same in any viewer and rasterises without
//! fonts, on any machine.

use std::collections::BTreeMap;
use std::fmt::Write;
use ttf_parser::{Face, GlyphId, OutlineBuilder};

static REGULAR: &[u8] = include_bytes!("../assets/DejaVuSans-subset.ttf");
static BOLD: &[u8] = include_bytes!("../assets/DejaVuSans-Bold-subset.ttf");

/// Which embedded face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    Regular,
    Bold,
}

impl Weight {
    fn prefix(self) -> char {
        match self {
            Weight::Regular => 'r',
            Weight::Bold => 'b',
        }
    }
}

/// Where a line of text sits relative to its x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// The two faces and the glyphs a picture has used, in the order first used (so
/// the `<defs>` come out the same for the same picture).
pub(crate) struct Fonts {
    regular: Face<'static>,
    bold: Face<'static>,
    units_per_em: f32,
    used: BTreeMap<(Weight, u16), usize>,
    defs: String,
}

impl Fonts {
    pub(crate) fn new() -> Fonts {
        // The embedded files are checked by the tests: a parse failure is a
        // build bug, not an input's.
        let regular = Face::parse(REGULAR, 0).expect("the embedded regular font parses");
        let bold = Face::parse(BOLD, 0).expect("the embedded bold font parses");
        Fonts {
            units_per_em: f32::from(regular.units_per_em()),
            regular,
            bold,
            used: BTreeMap::new(),
            defs: String::new(),
        }
    }

    fn face(&self, weight: Weight) -> &Face<'static> {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// The glyph of a character, or the `?` glyph for one the subset lacks.
    fn glyph(&self, weight: Weight, ch: char) -> GlyphId {
        let face = self.face(weight);
        face.glyph_index(ch)
            .or_else(|| face.glyph_index('?'))
            .unwrap_or(GlyphId(0))
    }

    /// The width of `text` at font size `size`.
    pub(crate) fn width(&self, weight: Weight, text: &str, size: f32) -> f32 {
        let face = self.face(weight);
        let units: f32 = text
            .chars()
            .map(|ch| f32::from(face.glyph_hor_advance(self.glyph(weight, ch)).unwrap_or(0)))
            .sum();
        units * size / self.units_per_em
    }

    /// The height of a capital (and of a digit) above the baseline, at font size
    /// `size`.
    pub(crate) fn cap_height(&self, size: f32) -> f32 {
        // DejaVu's OS/2 table is too old to carry it: its digits and capitals
        // stand 1493 of 2048 units tall.
        1493.0 * size / self.units_per_em
    }

    /// Writes `text` to `out` as glyph uses, its baseline at `y`, in `fill`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text(
        &mut self,
        out: &mut String,
        weight: Weight,
        text: &str,
        x: f32,
        y: f32,
        size: f32,
        anchor: Anchor,
        fill: &str,
    ) {
        let scale = size / self.units_per_em;
        let mut pen = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - self.width(weight, text, size) / 2.0,
            Anchor::End => x - self.width(weight, text, size),
        };
        let _ = write!(out, "<g fill=\"{fill}\">");
        for ch in text.chars() {
            let glyph = self.glyph(weight, ch);
            let advance = f32::from(self.face(weight).glyph_hor_advance(glyph).unwrap_or(0));
            if !ch.is_whitespace() {
                let id = self.define(weight, glyph);
                let _ = write!(
                    out,
                    "<use xlink:href=\"#{}{id}\" transform=\"matrix({} 0 0 {} {} {})\"/>",
                    weight.prefix(),
                    num(scale),
                    num(scale),
                    num(pen),
                    num(y)
                );
            }
            pen += advance * scale;
        }
        out.push_str("</g>");
    }

    /// The number of a glyph's definition, written to the defs on first use.
    fn define(&mut self, weight: Weight, glyph: GlyphId) -> usize {
        if let Some(&id) = self.used.get(&(weight, glyph.0)) {
            return id;
        }
        let id = self.used.len();
        self.used.insert((weight, glyph.0), id);
        let mut path = PathData(String::new());
        self.face(weight).outline_glyph(glyph, &mut path);
        let _ = write!(
            self.defs,
            "<path id=\"{}{id}\" d=\"{}\"/>",
            weight.prefix(),
            path.0.trim_end()
        );
        id
    }

    /// The glyph definitions used so far.
    pub(crate) fn defs(&self) -> &str {
        &self.defs
    }
}

/// An outline as SVG path data in font units, y pointing down (fonts point it
/// up).
struct PathData(String);

impl OutlineBuilder for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{} {}", num(x), num(-y));
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{} {}", num(x), num(-y));
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(self.0, "Q{} {} {} {}", num(x1), num(-y1), num(x), num(-y));
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "C{} {} {} {} {} {}",
            num(x1),
            num(-y1),
            num(x2),
            num(-y2),
            num(x),
            num(-y)
        );
    }

    fn close(&mut self) {
        self.0.push('Z');
    }
}

/// A number for SVG: at most three decimals, no trailing zeros, no `-0`.
pub(crate) fn num(v: f32) -> Num {
    Num((f64::from(v) * 1000.0).round() as i64)
}

/// A number in thousandths, written as [`num`] says. (Integer arithmetic, written
/// in place: a picture writes thousands of numbers, and exact float formatting
/// into strings was most of an SVG's time.)
pub(crate) struct Num(i64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, mut fraction) = (self.0.abs() / 1000, self.0.abs() % 1000);
        if fraction == 0 {
            return write!(f, "{sign}{whole}");
        }
        let mut width = 3;
        while fraction % 10 == 0 {
            fraction /= 10;
            width -= 1;
        }
        write!(f, "{sign}{whole}.{fraction:0width$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0).to_string(), "1");
        assert_eq!(num(0.5).to_string(), "0.5");
        assert_eq!(num(-0.0001).to_string(), "0");
        assert_eq!(num(12.34567).to_string(), "12.346");
        assert_eq!(num(-3.25).to_string(), "-3.25");
        assert_eq!(num(-0.25).to_string(), "-0.25");
        assert_eq!(num(2.05).to_string(), "2.05");
        assert_eq!(num(1234.001).to_string(), "1234.001");
    }

    #[test]
    fn every_character_the_pictures_write_is_in_the_subsets() {
        let fonts = Fonts::new();
        let wanted = (' '..='~').chain(['×', '÷', '−', '–', '—', '’', '…']);
        for weight in [Weight::Regular, Weight::Bold] {
            for ch in wanted.clone() {
                assert!(
                    fonts.face(weight).glyph_index(ch).is_some(),
                    "{ch:?} missing from {weight:?}"
                );
            }
        }
    }
}
