//! The picture of a grid: cages with thick borders and their clues in the corner,
//! row letters and column numbers as the step texts name them, each cell's digit
//! or pencil marks, and a step (or one proof of a step) drawn on it: the lines,
//! cages and cells that justify it shaded, its placements on a green disc, its
//! eliminations struck through on a red square. Each mark has a shape of its own
//! as well as a colour (the cells are hatched, the digits a step rests on
//! ringed), so that none is told from another by red against green alone. A
//! proof's picture adds what the `proof` module builds from it: forced digits on
//! blue squares with round corners, the emptied cage in a dashed outline, a
//! region's unknown parts dotted and keyed, lines under the grid and panels.

use crate::font::{num, Anchor, Fonts, Weight};
use crate::proof::Extra;
use crate::RenderError;
use kenken_model::{CellId, Digit, Digits, Puzzle, RegionKind};
use kenken_techniques::labels;
use kenken_techniques::position::Shown;
use kenken_techniques::proof::Proof;
use kenken_techniques::{Evidence, Layout, Step};
use std::fmt::Write;

/// A picture to draw: a puzzle, what each cell shows, and optionally a step and a
/// caption. [`Picture::svg`] is deterministic: the same picture gives the same
/// bytes.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    puzzle: &'a Puzzle,
    cells: Vec<Shown>,
    marks: Option<Marks>,
    /// What a proof draws around the grid: lines under it and panels.
    extra: Option<Box<Extra<'a>>>,
    title: Option<String>,
    note: Option<String>,
}

/// What is drawn on the grid for a step or a proof: the lines, cages and cells
/// shaded, the digits on green discs (placed, or assumed), on blue squares
/// (forced by a proof's chain) and struck in red; cages left with nothing in a
/// dashed outline; a region proof's unknown parts dotted, each keyed in a corner.
#[derive(Clone, Debug, Default)]
pub(crate) struct Marks {
    pub(crate) evidence: Evidence,
    pub(crate) placed: Vec<(CellId, Digit)>,
    pub(crate) forced: Vec<(CellId, Digit)>,
    pub(crate) struck: Vec<(CellId, Digit)>,
    pub(crate) emptied: Vec<kenken_model::CageId>,
    pub(crate) parts: Vec<CellId>,
    pub(crate) keys: Vec<(CellId, String)>,
}

/// A picture's elements without the SVG document around them.
pub(crate) struct Drawn {
    pub(crate) body: String,
    pub(crate) width: f32,
    pub(crate) height: f32,
}

/// Where the grid lies in a picture, in SVG units: its top-left corner, the side of
/// a cell, the number of cells a side, and the whole picture's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridFrame {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
    pub n: usize,
    pub width: f32,
    pub height: f32,
}

/// The colours, as SVG paints.
mod colour {
    pub const PAPER: &str = "#ffffff";
    pub const THIN: &str = "#bdbdbd";
    pub const BOX: &str = "#7a7a7a";
    pub const INK: &str = "#111111";
    pub const LABEL: &str = "#707070";
    pub const PENCIL: &str = "#5a5a5a";
    pub const REGION: &str = "#ffe27a";
    pub const CAGE: &str = "#8fc1ff";
    pub const CELL: &str = "#7ccf7c";
    pub const CELL_HATCH: &str = "#5fae62";
    pub const FOCUS_INK: &str = "#1d6b1d";
    pub const PLACE: &str = "#2f9e44";
    pub const STRUCK: &str = "#ffc9c9";
    pub const STRUCK_INK: &str = "#c92a2a";
    pub const FORCED: &str = "#1864ab";
    pub const EMPTIED: &str = "#c92a2a";
    pub const PART: &str = "#845ef7";
}

/// How highlights cover what is under them.
const HIGHLIGHT_OPACITY: &str = "0.45";

impl<'a> Picture<'a> {
    /// The empty grid of a puzzle.
    pub fn new(puzzle: &'a Puzzle) -> Picture<'a> {
        Picture {
            puzzle,
            cells: vec![Shown::Candidates(Digits::EMPTY); puzzle.size().cell_count()],
            marks: None,
            extra: None,
            title: None,
            note: None,
        }
    }

    /// What each cell shows, reading order: a digit, or pencil marks (none for a
    /// blank cell).
    pub fn cells(mut self, cells: Vec<Shown>) -> Result<Picture<'a>, RenderError> {
        let expected = self.puzzle.size().cell_count();
        if cells.len() != expected {
            return Err(RenderError::WrongCellCount {
                expected,
                got: cells.len(),
            });
        }
        self.cells = cells;
        Ok(self)
    }

    /// A step to draw on the grid (the cells should show the grid before it).
    pub fn step(mut self, step: &Step) -> Picture<'a> {
        self.marks = Some(Marks {
            evidence: step.evidence(self.puzzle),
            placed: step.placements.clone(),
            struck: step.eliminations.clone(),
            ..Marks::default()
        });
        self
    }

    /// One proof of a step to draw on the grid (the cells should show the grid
    /// before the step). A cage comparison's whole chain: the removed
    /// combination's digits on green discs in their cage, each forced cage's
    /// digits on blue squares, the cage left with nothing in a dashed red outline
    /// with its digits that repeat a fixed one struck, the listed cages shaded; a
    /// branch of at most [`PANELS_AT_MOST`](crate::PANELS_AT_MOST) cases as one small panel per case;
    /// and under the grid a line per claim and the cut combinations the proof
    /// leans on ([`proof_lines`](crate::proof_lines)). A region total's: its lines shaded, the known
    /// parts' cells, the cages that lose totals, and the unknown parts dotted and
    /// keyed, with what each can make listed under the grid.
    pub fn proof(mut self, proof: &Proof, layout: &Layout) -> Picture<'a> {
        let (marks, extra) = crate::proof::marks_and_extra(self.puzzle, &self.cells, proof, layout);
        self.marks = Some(marks);
        self.extra = Some(Box::new(extra));
        self
    }

    /// The picture with these marks on its grid (a proof's panel).
    pub(crate) fn with_marks(mut self, marks: Marks) -> Picture<'a> {
        self.marks = Some(marks);
        self
    }

    /// A bold caption under the grid.
    pub fn title(mut self, text: impl Into<String>) -> Picture<'a> {
        self.title = Some(text.into());
        self
    }

    /// A caption paragraph under the title.
    pub fn note(mut self, text: impl Into<String>) -> Picture<'a> {
        self.note = Some(text.into());
        self
    }

    /// The picture as a PNG, `scale` pixels per SVG unit.
    pub fn png(&self, scale: f32) -> Result<Vec<u8>, RenderError> {
        crate::png::from_svg(&self.svg(), scale)
    }

    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        let mut fonts = Fonts::new();
        let drawn = self.draw(&mut fonts);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<defs>{}</defs>\n{}\n</svg>\n",
            fonts.defs(),
            drawn.body,
            w = num(drawn.width),
            h = num(drawn.height),
        )
    }

    /// Where the grid lies in the picture, in SVG units (for what a page draws
    /// over it, such as a pointer's cell).
    pub fn grid_frame(&self) -> GridFrame {
        let geo = Geometry::new(self.puzzle.size().get());
        let (width, height) = self.extent(&Fonts::new(), &geo);
        GridFrame {
            left: geo.x0,
            top: geo.y0,
            cell: geo.cell,
            n: geo.n,
            width,
            height,
        }
    }

    /// The picture's width and height.
    fn extent(&self, fonts: &Fonts, geo: &Geometry) -> (f32, f32) {
        let caption = self.caption_lines(fonts, geo);
        let caption_height: f32 = caption.iter().map(|l| l.size * LINE_HEIGHT).sum();
        let extra = self
            .extra
            .as_ref()
            .map_or(0.0, |e| e.height(fonts, geo, self.note_size(geo)));
        let height = geo.grid_bottom()
            + geo.margin
            + extra
            + if caption.is_empty() {
                0.0
            } else {
                caption_height + geo.margin / 2.0
            };
        (geo.width(), height)
    }

    /// The picture's elements, its glyphs defined in `fonts` (which a page of
    /// several pictures shares).
    pub(crate) fn draw(&self, fonts: &mut Fonts) -> Drawn {
        let geo = Geometry::new(self.puzzle.size().get());
        let caption = self.caption_lines(fonts, &geo);
        let (width, height) = self.extent(fonts, &geo);
        let mut body = String::new();
        let _ = write!(
            body,
            "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            num(width),
            num(height),
            colour::PAPER
        );
        if let Some(marks) = &self.marks {
            self.highlights(&mut body, &geo, &marks.evidence);
        }
        self.lines(&mut body, &geo);
        self.labels(&mut body, &geo, fonts);
        self.clues(&mut body, &geo, fonts);
        self.contents(&mut body, &geo, fonts, self.marks.as_ref());
        if let Some(marks) = &self.marks {
            self.outlines(&mut body, &geo, fonts, marks);
        }
        let mut y = geo.grid_bottom() + geo.margin;
        if let Some(extra) = &self.extra {
            y = extra.draw(&mut body, fonts, &geo, y, self.note_size(&geo));
        }
        for line in &caption {
            y += line.size * LINE_HEIGHT;
            fonts.text(
                &mut body,
                line.weight,
                &line.text,
                geo.margin,
                y - line.size * (LINE_HEIGHT - 1.0),
                line.size,
                Anchor::Start,
                colour::INK,
            );
        }
        Drawn {
            body,
            width,
            height,
        }
    }

    /// Shades the lines, cages and cells of the evidence (each a translucent layer,
    /// so where two meet reads darker).
    fn highlights(&self, out: &mut String, geo: &Geometry, e: &Evidence) {
        let (n, c) = (geo.n as f32, geo.cell);
        let _ = write!(
            out,
            "<g fill=\"{}\" fill-opacity=\"{HIGHLIGHT_OPACITY}\">",
            colour::REGION
        );
        for &region in &e.regions {
            let (x, y, w, h) = match region {
                RegionKind::Row(r) => (0.0, r as f32, n, 1.0),
                RegionKind::Col(col) => (col as f32, 0.0, 1.0, n),
                RegionKind::Box(b) => {
                    let (rows, cols) = self.puzzle.boxes().unwrap_or((geo.n, geo.n));
                    let across = geo.n / cols;
                    (
                        ((b % across) * cols) as f32,
                        ((b / across) * rows) as f32,
                        cols as f32,
                        rows as f32,
                    )
                }
            };
            rect(out, geo.x0 + x * c, geo.y0 + y * c, w * c, h * c);
        }
        out.push_str("</g>");
        let cage_cells: Vec<CellId> = e
            .cages
            .iter()
            .flat_map(|&id| self.puzzle.cage(id).cells.iter().copied())
            .collect();
        for (cells, fill) in [(&cage_cells, colour::CAGE), (&e.cells, colour::CELL)] {
            let _ = write!(
                out,
                "<g fill=\"{fill}\" fill-opacity=\"{HIGHLIGHT_OPACITY}\">"
            );
            for &cell in cells.iter() {
                let (x, y) = geo.corner(self.puzzle, cell);
                rect(out, x, y, c, c);
            }
            out.push_str("</g>");
        }
        // The cells are hatched as well: three diagonal strokes across each.
        let mut hatch = String::new();
        for &cell in &e.cells {
            let (x, y) = geo.corner(self.puzzle, cell);
            for k in 1..=3 {
                let at = c * k as f32 / 2.0;
                let (from, to) = if at <= c {
                    ((x, y + at), (x + at, y))
                } else {
                    ((x + at - c, y + c), (x + c, y + at - c))
                };
                let _ = write!(
                    hatch,
                    "M{} {}L{} {}",
                    num(from.0),
                    num(from.1),
                    num(to.0),
                    num(to.1)
                );
            }
        }
        stroke(out, &hatch, colour::CELL_HATCH, (c / 56.0).max(0.8));
    }

    /// Thin cell lines, KenDoku box lines, then thick cage borders and the frame.
    fn lines(&self, out: &mut String, geo: &Geometry) {
        let size = self.puzzle.size();
        let n = geo.n;
        let (x0, y0, c) = (geo.x0, geo.y0, geo.cell);
        let side = n as f32 * c;
        let mut thin = String::new();
        for i in 1..n {
            let at = i as f32 * c;
            let _ = write!(
                thin,
                "M{} {}h{}M{} {}v{}",
                num(x0),
                num(y0 + at),
                num(side),
                num(x0 + at),
                num(y0),
                num(side)
            );
        }
        stroke(out, &thin, colour::THIN, 1.0);
        // Edges between two cells, as (row, col, vertical): the edge right of or
        // below the cell.
        let edges =
            (0..n).flat_map(|r| (0..n).flat_map(move |col| [(r, col, true), (r, col, false)]));
        let across = |r: usize, col: usize, vertical: bool| {
            if vertical {
                (col + 1 < n).then(|| size.cell(r, col + 1))
            } else {
                (r + 1 < n).then(|| size.cell(r + 1, col))
            }
        };
        let edge_path = |path: &mut String, r: usize, col: usize, vertical: bool| {
            let (x, y) = (x0 + col as f32 * c, y0 + r as f32 * c);
            if vertical {
                let _ = write!(path, "M{} {}v{}", num(x + c), num(y), num(c));
            } else {
                let _ = write!(path, "M{} {}h{}", num(x), num(y + c), num(c));
            }
        };
        if self.puzzle.is_kendoku() {
            let mut boxes = String::new();
            for (r, col, vertical) in edges.clone() {
                if let Some(other) = across(r, col, vertical) {
                    if self.puzzle.box_of(size.cell(r, col)) != self.puzzle.box_of(other) {
                        edge_path(&mut boxes, r, col, vertical);
                    }
                }
            }
            stroke(out, &boxes, colour::BOX, geo.cage_line * 0.7);
        }
        let mut cages = String::new();
        for (r, col, vertical) in edges {
            if let Some(other) = across(r, col, vertical) {
                if self.puzzle.cage_of(size.cell(r, col)) != self.puzzle.cage_of(other) {
                    edge_path(&mut cages, r, col, vertical);
                }
            }
        }
        let _ = write!(
            cages,
            "M{} {}h{}v{}h{}Z",
            num(x0),
            num(y0),
            num(side),
            num(side),
            num(-side)
        );
        stroke(out, &cages, colour::INK, geo.cage_line);
    }

    /// Row letters down the left, column numbers along the top.
    fn labels(&self, out: &mut String, geo: &Geometry, fonts: &mut Fonts) {
        let size = geo.label * 0.5;
        let half_cap = fonts.cap_height(size) / 2.0;
        for i in 0..geo.n {
            let mid = i as f32 * geo.cell + geo.cell / 2.0;
            let letter = labels::row_letter(i).to_string();
            let left = geo.margin + geo.label / 2.0;
            let (x, y) = (left, geo.y0 + mid + half_cap);
            fonts.text(
                out,
                Weight::Regular,
                &letter,
                x,
                y,
                size,
                Anchor::Middle,
                colour::LABEL,
            );
            let number = (i + 1).to_string();
            let (x, y) = (geo.x0 + mid, left + half_cap);
            fonts.text(
                out,
                Weight::Regular,
                &number,
                x,
                y,
                size,
                Anchor::Middle,
                colour::LABEL,
            );
        }
    }

    /// Each cage's clue and operation in its clue cell's top-left corner.
    fn clues(&self, out: &mut String, geo: &Geometry, fonts: &mut Fonts) {
        let pad = geo.cell * 0.07;
        for cage in self.puzzle.cages() {
            let text = labels::clue(cage);
            // As large as the corner allows, and narrow enough for the cell.
            let fit = (geo.cell - 2.0 * pad) / fonts.width(Weight::Bold, &text, 1.0);
            let size = (geo.cell * 0.22).min(fit);
            let (x, y) = geo.corner(self.puzzle, cage.anchor());
            let baseline = y + pad + fonts.cap_height(geo.cell * 0.22);
            fonts.text(
                out,
                Weight::Bold,
                &text,
                x + pad,
                baseline,
                size,
                Anchor::Start,
                colour::INK,
            );
        }
    }

    /// Digits, pencil marks, and the step's marks on them.
    fn contents(&self, out: &mut String, geo: &Geometry, fonts: &mut Fonts, marks: Option<&Marks>) {
        let n = geo.n;
        let per_row = (1..=n).find(|k| k * k >= n).unwrap_or(n);
        let rows = n.div_ceil(per_row);
        let (left, top) = (geo.cell * 0.07, geo.cell * 0.31);
        let slot_w = geo.cell * 0.86 / per_row as f32;
        let slot_h = geo.cell * 0.64 / rows as f32;
        // Font sizes that fit the widest digit: pencil marks in their slot, a
        // placed digit in its cell.
        let widest = fonts.width(Weight::Regular, if n >= 10 { "16" } else { "8" }, 1.0);
        let pencil = (slot_h * 0.8).min(slot_w * 0.85 / widest);
        let radius = (slot_w.min(slot_h) * 0.47).min(pencil * 0.8);
        let big = (geo.cell * 0.5).min(geo.cell * 0.7 / widest);
        let placed = |cell: CellId, d: Digit| marks.is_some_and(|m| m.placed.contains(&(cell, d)));
        let forced = |cell: CellId, d: Digit| marks.is_some_and(|m| m.forced.contains(&(cell, d)));
        let struck = |cell: CellId, d: Digit| marks.is_some_and(|m| m.struck.contains(&(cell, d)));
        let focus = |cell: CellId, d: Digit| {
            marks.is_some_and(|m| m.evidence.cells.contains(&cell) && m.evidence.digits.contains(d))
        };
        for cell in self.puzzle.size().cells() {
            let (x, y) = geo.corner(self.puzzle, cell);
            match self.cells[cell.index()] {
                Shown::Digit(d) => {
                    let baseline = y + geo.cell * 0.62 + fonts.cap_height(big) / 2.0;
                    if placed(cell, d) || forced(cell, d) {
                        let colour = if placed(cell, d) {
                            colour::PLACE
                        } else {
                            colour::FORCED
                        };
                        let (cx, cy) = (x + geo.cell / 2.0, y + geo.cell * 0.62);
                        ring(
                            out,
                            cx,
                            cy,
                            geo.cell * 0.3,
                            colour,
                            (geo.cell / 24.0).max(1.5),
                        );
                    }
                    let text = d.to_string();
                    fonts.text(
                        out,
                        Weight::Regular,
                        &text,
                        x + geo.cell / 2.0,
                        baseline,
                        big,
                        Anchor::Middle,
                        colour::INK,
                    );
                }
                Shown::Candidates(candidates) => {
                    for d in candidates.iter() {
                        let i = usize::from(d) - 1;
                        let cx = x + left + (i % per_row) as f32 * slot_w + slot_w / 2.0;
                        let cy = y + top + (i / per_row) as f32 * slot_h + slot_h / 2.0;
                        // A placement on a disc, an elimination on a square
                        // (and struck through), a digit the step rests on in
                        // a ring.
                        let (ink, weight) = if placed(cell, d) {
                            circle(out, cx, cy, radius, colour::PLACE);
                            (colour::PAPER, Weight::Bold)
                        } else if forced(cell, d) {
                            let side = radius * 1.8;
                            let _ = write!(
                                out,
                                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\"/>",
                                num(cx - side / 2.0),
                                num(cy - side / 2.0),
                                num(side),
                                num(side),
                                num(side / 4.0),
                                colour::FORCED
                            );
                            (colour::PAPER, Weight::Bold)
                        } else if struck(cell, d) {
                            let side = radius * 1.7;
                            rect_filled(
                                out,
                                cx - side / 2.0,
                                cy - side / 2.0,
                                side,
                                colour::STRUCK,
                            );
                            (colour::STRUCK_INK, Weight::Bold)
                        } else if focus(cell, d) {
                            ring(
                                out,
                                cx,
                                cy,
                                radius * 0.92,
                                colour::FOCUS_INK,
                                (geo.cell / 48.0).max(1.0),
                            );
                            (colour::FOCUS_INK, Weight::Bold)
                        } else {
                            (colour::PENCIL, Weight::Regular)
                        };
                        let baseline = cy + fonts.cap_height(pencil) / 2.0;
                        fonts.text(
                            out,
                            weight,
                            &d.to_string(),
                            cx,
                            baseline,
                            pencil,
                            Anchor::Middle,
                            ink,
                        );
                        if struck(cell, d) {
                            let r = radius * 0.75;
                            let path = format!(
                                "M{} {}L{} {}",
                                num(cx - r),
                                num(cy + r),
                                num(cx + r),
                                num(cy - r)
                            );
                            stroke(out, &path, colour::STRUCK_INK, (geo.cell / 36.0).max(1.2));
                        }
                    }
                }
            }
        }
    }

    /// Adds to a path the square `inset` inside `cell`.
    fn inset_square(&self, path: &mut String, geo: &Geometry, cell: CellId, inset: f32) {
        let (x, y) = geo.corner(self.puzzle, cell);
        let side = geo.cell - 2.0 * inset;
        let _ = write!(
            path,
            "M{} {}h{}v{}h{}Z",
            num(x + inset),
            num(y + inset),
            num(side),
            num(side),
            num(-side)
        );
    }

    /// A proof's outlines over the grid: each cage left with nothing in a dashed
    /// red line inside its cells, each unknown part's cells in a dotted one, and
    /// the parts' keys in their first cell's top-right corner.
    fn outlines(&self, out: &mut String, geo: &Geometry, fonts: &mut Fonts, marks: &Marks) {
        let c = geo.cell;
        let inset = c * 0.06;
        let mut dashed = String::new();
        for &cage in &marks.emptied {
            for &cell in &self.puzzle.cage(cage).cells {
                self.inset_square(&mut dashed, geo, cell, inset);
            }
        }
        if !dashed.is_empty() {
            let _ = write!(
                out,
                "<path d=\"{dashed}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"/>",
                colour::EMPTIED,
                num((c / 28.0).max(1.5)),
                num(c / 10.0),
                num(c / 16.0)
            );
        }
        // The parts' cells: a dotted line just inside each.
        let mut dotted = String::new();
        let inset = c * 0.035;
        for &cell in &marks.parts {
            self.inset_square(&mut dotted, geo, cell, inset);
        }
        if !dotted.is_empty() {
            let _ = write!(
                out,
                "<path d=\"{dotted}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-dasharray=\"0 {}\"/>",
                colour::PART,
                num((c / 22.0).max(2.0)),
                num(c / 9.0)
            );
        }
        // Each part's key in its first cell's top-right corner, clear of the
        // clue and the pencil marks.
        let size = c * 0.22;
        for (cell, key) in &marks.keys {
            let (x, y) = geo.corner(self.puzzle, *cell);
            fonts.text(
                out,
                Weight::Bold,
                key,
                x + c - c * 0.1,
                y + c * 0.07 + fonts.cap_height(size),
                size,
                Anchor::End,
                colour::PART,
            );
        }
    }

    /// The size of a caption's note, and of a proof's lines under the grid.
    fn note_size(&self, geo: &Geometry) -> f32 {
        (geo.cell * 0.25).max(13.0) * 0.9
    }

    /// The caption's lines, wrapped to the picture's width.
    fn caption_lines(&self, fonts: &Fonts, geo: &Geometry) -> Vec<CaptionLine> {
        let width = geo.width() - 2.0 * geo.margin;
        let title_size = (geo.cell * 0.25).max(13.0);
        let note_size = title_size * 0.9;
        let mut lines = Vec::new();
        for (text, weight, size) in [
            (&self.title, Weight::Bold, title_size),
            (&self.note, Weight::Regular, note_size),
        ] {
            let Some(text) = text else { continue };
            for line in wrap(fonts, weight, text, size, width) {
                lines.push(CaptionLine {
                    text: line,
                    weight,
                    size,
                });
            }
        }
        lines
    }
}

/// Line spacing of captions, in font sizes.
pub(crate) const LINE_HEIGHT: f32 = 1.35;

struct CaptionLine {
    text: String,
    weight: Weight,
    size: f32,
}

/// Words to lines no wider than `width` (a word wider than that gets a line of its
/// own).
pub(crate) fn wrap(
    fonts: &Fonts,
    weight: Weight,
    text: &str,
    size: f32,
    width: f32,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && fonts.width(weight, &candidate, size) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where things go, in SVG units.
pub(crate) struct Geometry {
    pub(crate) n: usize,
    pub(crate) cell: f32,
    pub(crate) margin: f32,
    /// The band of row and column labels.
    label: f32,
    cage_line: f32,
    /// The grid's top-left corner.
    x0: f32,
    y0: f32,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let cell = match n {
            ..=9 => 64.0,
            10..=12 => 52.0,
            _ => 44.0,
        };
        let margin = 12.0;
        let label = (cell * 0.42_f32).max(22.0);
        Geometry {
            n,
            cell,
            margin,
            label,
            cage_line: (cell / 16.0_f32).max(3.0),
            x0: margin + label,
            y0: margin + label,
        }
    }

    pub(crate) fn width(&self) -> f32 {
        self.x0 + self.n as f32 * self.cell + self.margin
    }

    pub(crate) fn grid_bottom(&self) -> f32 {
        self.y0 + self.n as f32 * self.cell
    }

    /// A cell's top-left corner.
    fn corner(&self, puzzle: &Puzzle, cell: CellId) -> (f32, f32) {
        let size = puzzle.size();
        (
            self.x0 + size.col(cell) as f32 * self.cell,
            self.y0 + size.row(cell) as f32 * self.cell,
        )
    }
}

fn rect(out: &mut String, x: f32, y: f32, w: f32, h: f32) {
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        num(x),
        num(y),
        num(w),
        num(h)
    );
}

fn circle(out: &mut String, cx: f32, cy: f32, r: f32, fill: &str) {
    let _ = write!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"/>",
        num(cx),
        num(cy),
        num(r)
    );
}

fn rect_filled(out: &mut String, x: f32, y: f32, side: f32, fill: &str) {
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
        num(x),
        num(y),
        num(side),
        num(side)
    );
}

fn ring(out: &mut String, cx: f32, cy: f32, r: f32, colour: &str, width: f32) {
    let _ = write!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
        num(cx),
        num(cy),
        num(r),
        num(width)
    );
}

fn stroke(out: &mut String, path: &str, colour: &str, width: f32) {
    if path.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<path d=\"{path}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"square\"/>",
        num(width)
    );
}
