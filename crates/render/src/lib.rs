//! Pictures of KenKen grids and solving steps.
//!
//! [`Picture`] draws a puzzle (sizes 3 to 16, KenDoku boxes included) as SVG: thick
//! cage borders, each clue and operation in its cage's corner, row letters and
//! column numbers as the step texts name cells (`B3`), digits and pencil marks,
//! and a step drawn on the grid before it. Text is drawn as glyph outlines from an
//! embedded font, so the SVG is self-contained and byte-identical for the same
//! input; [`Picture::png`] rasterises it with resvg. A [`Sheet`] places several
//! pictures and lines of text on one page (a printed booklet's page). [`scene`]
//! draws what the front ends show: a position, the solution, the candidates, or
//! a step of the log with its caption. [`Picture::proof`] draws one proof of a
//! step whole: a cage comparison's chain (forced cages, the cage left with
//! nothing, a short branch as one panel per case, the cut combinations it leans
//! on), or a region proof with its unknown parts.
//!
//! ```
//! use kenken_render::Picture;
//! let puzzle = kenken_formats::tatham::read("3:_a__cb_,m6a4m18").unwrap();
//! let svg = Picture::new(&puzzle).svg();
//! assert!(svg.starts_with("<svg"));
//! ```

#![forbid(unsafe_code)]

mod font;
mod panels;
mod picture;
mod png;
mod proof;
mod scene;
mod sheet;

pub use font::{Anchor, Weight};
pub use picture::{GridFrame, Picture};
pub use png::from_svg as png_from_svg;
pub use proof::{proof_lines, PANELS_AT_MOST};
pub use scene::{caption, scene, SceneError, Subject};
pub use sheet::Sheet;

use thiserror::Error;

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RenderError {
    #[error("contents for {got} cells, the grid has {expected}")]
    WrongCellCount { expected: usize, got: usize },
    #[error("the scale must be a positive number, not {0}")]
    Scale(f32),
    #[error("a {width}x{height} picture is larger than {max} pixels a side")]
    TooLarge { width: u32, height: u32, max: u32 },
    #[error("the SVG cannot be read: {0}")]
    Svg(String),
    #[error("the PNG cannot be encoded: {0}")]
    Png(String),
}
