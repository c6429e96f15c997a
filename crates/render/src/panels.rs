//! Where a proof's lines and panels go under the grid: the lines wrapped to the
//! picture's width, then the panels two to a row, each a scaled copy of the grid
//! with its title above and its lines under it. Each line is drawn in a group
//! whose `data-text` holds the whole line, so that what the glyphs say can be
//! read back from the SVG.

use crate::font::{num, Anchor, Fonts, Weight};
use crate::picture::{wrap, Geometry, LINE_HEIGHT};
use crate::proof::{Extra, Panel};
use std::fmt::Write;

/// The most panels side by side.
const PER_ROW: usize = 2;

/// A panel's text size, in the lines' size.
const PANEL_TEXT: f32 = 0.85;

impl Extra<'_> {
    /// The height the lines and panels take, `size` the lines' font size.
    pub(crate) fn height(&self, fonts: &Fonts, geo: &Geometry, size: f32) -> f32 {
        let width = geo.width() - 2.0 * geo.margin;
        let lines = lines_height(fonts, &self.lines, Weight::Regular, size, width);
        let panels: f32 = self
            .panels
            .chunks(PER_ROW)
            .map(|row| row_height(fonts, geo, row, size) + geo.margin / 2.0)
            .sum();
        lines + if lines > 0.0 { geo.margin / 2.0 } else { 0.0 } + panels
    }

    /// Draws the lines and the panels from `top` down; returns where they end.
    pub(crate) fn draw(
        &self,
        out: &mut String,
        fonts: &mut Fonts,
        geo: &Geometry,
        top: f32,
        size: f32,
    ) -> f32 {
        let width = geo.width() - 2.0 * geo.margin;
        let mut y = draw_lines(
            out,
            fonts,
            &self.lines,
            Weight::Regular,
            size,
            (geo.margin, top),
            width,
        );
        if !self.lines.is_empty() {
            y += geo.margin / 2.0;
        }
        let (panel_width, scale) = panel_size(geo);
        let mut number = 0;
        for row in self.panels.chunks(PER_ROW) {
            let height = row_height(fonts, geo, row, size);
            for (i, panel) in row.iter().enumerate() {
                number += 1;
                let x = geo.margin + i as f32 * (panel_width + geo.margin);
                let _ = write!(out, "<g data-panel=\"{number}\">");
                let small = size * PANEL_TEXT;
                let below_title = draw_lines(
                    out,
                    fonts,
                    std::slice::from_ref(&panel.title),
                    Weight::Bold,
                    small,
                    (x, y),
                    panel_width,
                );
                let drawn = panel.picture.draw(fonts);
                let _ = write!(
                    out,
                    "<g transform=\"translate({} {}) scale({})\">{}</g>",
                    num(x),
                    num(below_title),
                    num(scale),
                    drawn.body
                );
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bdbdbd\"/>",
                    num(x),
                    num(below_title),
                    num(drawn.width * scale),
                    num(drawn.height * scale)
                );
                draw_lines(
                    out,
                    fonts,
                    &panel.lines,
                    Weight::Regular,
                    small,
                    (x, below_title + drawn.height * scale),
                    panel_width,
                );
                out.push_str("</g>");
            }
            y += height + geo.margin / 2.0;
        }
        y
    }
}

/// A panel's width and the scale of its grid.
fn panel_size(geo: &Geometry) -> (f32, f32) {
    let width = geo.width();
    let panel = (width - geo.margin * (PER_ROW as f32 + 1.0)) / PER_ROW as f32;
    (panel, panel / width)
}

/// The height of a row of panels: the tallest.
fn row_height(fonts: &Fonts, geo: &Geometry, row: &[Panel<'_>], size: f32) -> f32 {
    let (width, scale) = panel_size(geo);
    let small = size * PANEL_TEXT;
    row.iter()
        .map(|panel| {
            lines_height(
                fonts,
                std::slice::from_ref(&panel.title),
                Weight::Bold,
                small,
                width,
            ) + (geo.grid_bottom() + geo.margin) * scale
                + lines_height(fonts, &panel.lines, Weight::Regular, small, width)
        })
        .fold(0.0, f32::max)
}

fn lines_height(fonts: &Fonts, lines: &[String], weight: Weight, size: f32, width: f32) -> f32 {
    let count: usize = lines
        .iter()
        .map(|line| wrap(fonts, weight, line, size, width).len())
        .sum();
    count as f32 * size * LINE_HEIGHT
}

/// Draws each line wrapped to `width` from `(x, top)` down, in a group holding
/// the whole line; returns where they end.
fn draw_lines(
    out: &mut String,
    fonts: &mut Fonts,
    lines: &[String],
    weight: Weight,
    size: f32,
    (x, top): (f32, f32),
    width: f32,
) -> f32 {
    let mut y = top;
    for line in lines {
        let _ = write!(out, "<g data-text=\"{}\">", escaped(line));
        for part in wrap(fonts, weight, line, size, width) {
            y += size * LINE_HEIGHT;
            fonts.text(
                out,
                weight,
                &part,
                x,
                y - size * (LINE_HEIGHT - 1.0),
                size,
                Anchor::Start,
                "#111111",
            );
        }
        out.push_str("</g>");
    }
    y
}

/// Text for an attribute's value.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
