//! The booklet as PDF: each page's SVG is parsed by usvg (which resolves the glyph
//! uses, shapes and styles to plain paths in groups), and its paths are drawn on
//! a krilla page. A sheet holds only filled and stroked paths in solid colours,
//! groups with transforms and opacity: anything else is refused rather than
//! dropped.
//!
//! A filled path drawn many times (a glyph: the same outline under another
//! transform) is written once as a form XObject and placed wherever it is drawn,
//! which keeps the content streams, and the time spent compressing them, small.
//!
//! Pages are parsed in parallel a batch at a time and drawn in order, so memory
//! holds one batch of parsed pages besides the document (compressed as it grows).

use crate::{Booklet, BookletError};
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Transform};
use krilla::graphic::Graphic;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, LineCap, LineJoin, Stroke};
use krilla::surface::Surface;
use krilla::Document;
use rayon::prelude::*;
use resvg::tiny_skia::PathSegment;
use resvg::usvg;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Pages parsed side by side before they are drawn.
const BATCH: usize = 32;

/// Filled paths with more segments than this are drawn through a shared form
/// XObject (glyphs have dozens; cell lines and highlights a handful).
const SHARED_SEGMENTS: usize = 12;

/// The form XObjects made so far, by the path's outline and its fill.
type Shared = HashMap<(u64, [u8; 3], u32), Graphic>;

pub(crate) fn write(
    booklet: &Booklet,
    drawn: &mut dyn FnMut(usize),
) -> Result<Vec<u8>, BookletError> {
    let mut document = Document::new();
    let count = booklet.page_count();
    let options = usvg::Options::default();
    let mut shared = Shared::new();
    let mut start = 0;
    while start < count {
        let end = (start + BATCH).min(count);
        let trees: Vec<Result<usvg::Tree, BookletError>> = (start..end)
            .into_par_iter()
            .map(|index| {
                // In user units, one a point (usvg would turn `pt` into 4/3 pixels).
                let svg = booklet.sheet(index).svg("");
                usvg::Tree::from_str(&svg, &options).map_err(|e| BookletError::Page {
                    page: index + 1,
                    message: e.to_string(),
                })
            })
            .collect();
        for (tree, index) in trees.into_iter().zip(start..end) {
            let tree = tree?;
            let size = tree.size();
            let settings =
                PageSettings::from_wh(size.width(), size.height()).ok_or(BookletError::Page {
                    page: index + 1,
                    message: "the page has no area".to_string(),
                })?;
            let mut page = document.start_page_with(settings);
            let mut surface = page.surface();
            let result = draw_group(&mut surface, &mut shared, tree.root());
            surface.finish();
            page.finish();
            result.map_err(|message| BookletError::Page {
                page: index + 1,
                message,
            })?;
        }
        drawn(end - start);
        start = end;
    }
    document
        .finish()
        .map_err(|e| BookletError::Pdf(format!("{e:?}")))
}

fn draw_group(
    surface: &mut Surface,
    shared: &mut Shared,
    group: &usvg::Group,
) -> Result<(), String> {
    if group.clip_path().is_some() || group.mask().is_some() || !group.filters().is_empty() {
        return Err("a sheet has no clip paths, masks or filters".to_string());
    }
    let t = group.transform();
    surface.push_transform(&Transform::from_row(t.sx, t.ky, t.kx, t.sy, t.tx, t.ty));
    let opacity = group.opacity().get();
    if opacity < 1.0 {
        surface.push_opacity(NormalizedF32::new(opacity).unwrap_or(NormalizedF32::ONE));
    }
    let mut result = Ok(());
    for node in group.children() {
        result = match node {
            usvg::Node::Group(g) => draw_group(surface, shared, g),
            usvg::Node::Path(p) => draw_path(surface, shared, p),
            usvg::Node::Image(_) | usvg::Node::Text(_) => {
                Err("a sheet has no images and no text elements".to_string())
            }
        };
        if result.is_err() {
            break;
        }
    }
    if opacity < 1.0 {
        surface.pop();
    }
    surface.pop();
    result
}

fn draw_path(surface: &mut Surface, shared: &mut Shared, path: &usvg::Path) -> Result<(), String> {
    if !path.is_visible() {
        return Ok(());
    }
    if let (Some(fill), None) = (path.fill(), path.stroke()) {
        if path.data().len() > SHARED_SEGMENTS {
            let usvg::Paint::Color(c) = fill.paint() else {
                return Err("a sheet paints in plain colours only".to_string());
            };
            let mut hasher = DefaultHasher::new();
            for p in path.data().points() {
                (p.x.to_bits(), p.y.to_bits()).hash(&mut hasher);
            }
            path.data().verbs().hash(&mut hasher);
            let key = (
                hasher.finish(),
                [c.red, c.green, c.blue],
                fill.opacity().get().to_bits(),
            );
            let graphic = match shared.get(&key) {
                Some(g) => g.clone(),
                None => {
                    let mut builder = surface.stream_builder();
                    let mut inner = builder.surface();
                    draw_plain(&mut inner, path)?;
                    inner.finish();
                    let graphic = Graphic::new(builder.finish(), false);
                    shared.insert(key, graphic.clone());
                    graphic
                }
            };
            surface.draw_graphic(graphic);
            return Ok(());
        }
    }
    draw_plain(surface, path)
}

/// Draws a path's fill and stroke in the content stream itself.
fn draw_plain(surface: &mut Surface, path: &usvg::Path) -> Result<(), String> {
    let mut builder = PathBuilder::new();
    for segment in path.data().segments() {
        match segment {
            PathSegment::MoveTo(p) => builder.move_to(p.x, p.y),
            PathSegment::LineTo(p) => builder.line_to(p.x, p.y),
            PathSegment::QuadTo(a, p) => builder.quad_to(a.x, a.y, p.x, p.y),
            PathSegment::CubicTo(a, b, p) => builder.cubic_to(a.x, a.y, b.x, b.y, p.x, p.y),
            PathSegment::Close => builder.close(),
        }
    }
    let Some(data) = builder.finish() else {
        return Ok(());
    };
    let fill = path
        .fill()
        .map(|f| {
            Ok::<_, String>(Fill {
                paint: colour(f.paint())?.into(),
                opacity: normalized(f.opacity().get()),
                rule: match f.rule() {
                    usvg::FillRule::NonZero => FillRule::NonZero,
                    usvg::FillRule::EvenOdd => FillRule::EvenOdd,
                },
            })
        })
        .transpose()?;
    let stroke = path
        .stroke()
        .map(|s| {
            Ok::<_, String>(Stroke {
                paint: colour(s.paint())?.into(),
                width: s.width().get(),
                miter_limit: s.miterlimit().get(),
                line_cap: match s.linecap() {
                    usvg::LineCap::Butt => LineCap::Butt,
                    usvg::LineCap::Round => LineCap::Round,
                    usvg::LineCap::Square => LineCap::Square,
                },
                line_join: match s.linejoin() {
                    usvg::LineJoin::Miter | usvg::LineJoin::MiterClip => LineJoin::Miter,
                    usvg::LineJoin::Round => LineJoin::Round,
                    usvg::LineJoin::Bevel => LineJoin::Bevel,
                },
                opacity: normalized(s.opacity().get()),
                dash: None,
            })
        })
        .transpose()?;
    // SVG paints the fill first, then the stroke on top.
    if let Some(fill) = fill {
        surface.set_fill(Some(fill));
        surface.set_stroke(None);
        surface.draw_path(&data);
    }
    if let Some(stroke) = stroke {
        surface.set_fill(None);
        surface.set_stroke(Some(stroke));
        surface.draw_path(&data);
    }
    Ok(())
}

fn colour(paint: &usvg::Paint) -> Result<rgb::Color, String> {
    match paint {
        usvg::Paint::Color(c) => Ok(rgb::Color::new(c.red, c.green, c.blue)),
        _ => Err("a sheet paints in plain colours only".to_string()),
    }
}

fn normalized(v: f32) -> NormalizedF32 {
    NormalizedF32::new(v.clamp(0.0, 1.0)).unwrap_or(NormalizedF32::ONE)
}
