//! Where things go on a page, in PDF points: a margin all round, the puzzles (or
//! answers) in a grid of equal slots, each headed by its number and caption, and
//! the page number at the foot.

use crate::{Item, Options, PageKind};
use kenken_model::Digit;
use kenken_render::{Anchor, Picture, Sheet, Weight};
use kenken_techniques::position::Shown;

/// Solutions on one answer-key page (3 across, 4 down).
pub const ANSWERS_PER_PAGE: usize = 12;
const ANSWER_GRID: (usize, usize) = (3, 4);

/// Half an inch.
const MARGIN: f32 = 36.0;
/// Between two slots.
const GAP: f32 = 18.0;
/// The largest cell of a puzzle (about 2 cm) and of an answer.
const MAX_CELL: f32 = 56.0;
const MAX_ANSWER_CELL: f32 = 24.0;
const INK: &str = "#111111";
const GREY: &str = "#707070";

/// Page `number` of `count`, showing `items` as `kind`.
pub(crate) fn page(
    options: Options,
    kind: PageKind,
    items: &[Item],
    number: usize,
    count: usize,
) -> Sheet {
    let (width, height) = options.paper.size();
    let mut sheet = Sheet::new(width, height);
    let mut top = MARGIN;
    if kind == PageKind::Answers {
        sheet.text(
            "Answers",
            MARGIN,
            top + 14.0,
            16.0,
            Weight::Bold,
            Anchor::Start,
            INK,
        );
        top += 28.0;
    }
    let footer = 22.0;
    let (cols, rows) = match kind {
        PageKind::Puzzles => options.per_page.grid(),
        PageKind::Answers => ANSWER_GRID,
    };
    let slot_w = (width - 2.0 * MARGIN - (cols - 1) as f32 * GAP) / cols as f32;
    let slot_h = (height - top - MARGIN - footer - (rows - 1) as f32 * GAP) / rows as f32;
    // Headings scale with the slot, within what reads well on paper.
    let heading = (slot_w / 24.0).clamp(10.0, 16.0);
    for (i, item) in items.iter().enumerate() {
        let x = MARGIN + (i % cols) as f32 * (slot_w + GAP);
        let y = top + (i / cols) as f32 * (slot_h + GAP);
        let baseline = y + heading;
        let picture_top = baseline + heading * 0.6;
        let picture = Picture::new(&item.puzzle);
        let picture = match kind {
            PageKind::Puzzles => picture,
            PageKind::Answers => picture
                .cells(solution_cells(&item.solution))
                .unwrap_or_else(|_| Picture::new(&item.puzzle)),
        };
        // As large as the slot allows, but a small grid's cells no larger than
        // MAX_CELL.
        let frame = picture.grid_frame();
        let cap = match kind {
            PageKind::Puzzles => MAX_CELL,
            PageKind::Answers => MAX_ANSWER_CELL,
        } / frame.cell;
        let (drawn_w, drawn_h) = Sheet::fitted(
            &picture,
            slot_w.min(frame.width * cap),
            (y + slot_h - picture_top).min(frame.height * cap),
        );
        let left = x + (slot_w - drawn_w) / 2.0;
        sheet.place(&picture, left, picture_top, drawn_w, drawn_h);
        let number = format!("No. {}", item.number);
        sheet.text(
            &number,
            left,
            baseline,
            heading,
            Weight::Bold,
            Anchor::Start,
            INK,
        );
        if kind == PageKind::Puzzles {
            let right = left + drawn_w;
            sheet.text(
                &item.caption(),
                right,
                baseline,
                heading * 0.85,
                Weight::Regular,
                Anchor::End,
                GREY,
            );
        }
    }
    sheet.text(
        &format!("{number} / {count}"),
        width / 2.0,
        height - MARGIN,
        9.0,
        Weight::Regular,
        Anchor::Middle,
        GREY,
    );
    sheet
}

fn solution_cells(solution: &[Digit]) -> Vec<Shown> {
    solution.iter().map(|&d| Shown::Digit(d)).collect()
}
