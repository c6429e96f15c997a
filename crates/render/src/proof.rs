//! What a proof's picture draws, built from the proof's data alone.
//!
//! A cage comparison's chain ([`CombinationProof::chain`]): the supposed digits on
//! green discs, each forced cage's digits on blue discs (numbered as the chain
//! takes them, in the lines under the grid), the cage left with nothing outlined
//! in dashed red with its digits that repeat a fixed one struck; a branch of at
//! most [`PANELS_AT_MOST`] cases drawn as small panels, one per case, each a copy
//! of the grid with that case's digits, its forced cages and its emptied cage; a
//! longer branch said in a line instead. Cut combinations the proof leans on
//! (a listed cage's `cut`, with its `narrowed_by` steps) are listed under the
//! grid. A region proof's unknown parts are shaded and keyed (`a`, `b`, …) with
//! the totals (or parities) each can make, listed under the grid.
//!
//! Every line is written from the data it describes ([`proof_lines`]), so a test
//! can check each against the proof.

use crate::picture::{Marks, Picture};
use kenken_model::{CageId, CellId, Digit, Puzzle};
use kenken_techniques::labels::{self, and_list, capitalised, or_list, tuple};
use kenken_techniques::position::Shown;
use kenken_techniques::proof::{ChainEntry, CombinationProof, Known, Proof, RegionProof};
use kenken_techniques::Layout;

/// The most cases of a branch drawn as panels; a branch with more is said in a
/// line.
pub const PANELS_AT_MOST: usize = 4;

/// The most options of a branch listed one by one in its line.
const OPTIONS_LISTED: usize = 8;

/// The most cut combinations of one cage listed one by one.
const CUT_LISTED: usize = 4;

/// What a proof adds to the grid: lines under it and panels.
#[derive(Clone, Debug, Default)]
pub(crate) struct Extra<'a> {
    pub(crate) lines: Vec<String>,
    pub(crate) panels: Vec<Panel<'a>>,
}

/// One case of a branch: a small copy of the grid, a title above it and lines
/// under it.
#[derive(Clone, Debug)]
pub(crate) struct Panel<'a> {
    pub(crate) title: String,
    pub(crate) picture: Picture<'a>,
    pub(crate) lines: Vec<String>,
}

/// The lines a proof's picture writes under its grid, then each panel's title and
/// lines, in drawing order: what [`Picture::proof`] draws, for a test to compare
/// with the proof's data.
pub fn proof_lines(puzzle: &Puzzle, proof: &Proof, layout: &Layout) -> Vec<String> {
    let cells = vec![Shown::Candidates(kenken_model::Digits::EMPTY); puzzle.size().cell_count()];
    let (_, extra) = marks_and_extra(puzzle, &cells, proof, layout);
    let mut lines = extra.lines;
    for panel in extra.panels {
        lines.push(panel.title);
        lines.extend(panel.lines);
    }
    lines
}

/// The marks on the grid and what is drawn around it, for `proof` on a grid
/// showing `cells`.
pub(crate) fn marks_and_extra<'a>(
    puzzle: &'a Puzzle,
    cells: &[Shown],
    proof: &Proof,
    layout: &Layout,
) -> (Marks, Extra<'a>) {
    match proof {
        Proof::Combination(p) => Chain::new(puzzle, cells, p, layout).draw(),
        Proof::Region(p) => region(puzzle, p),
    }
}

/// A cage comparison's chain being drawn.
struct Chain<'p, 'a> {
    puzzle: &'a Puzzle,
    cells: &'p [Shown],
    proof: &'p CombinationProof,
    layout: &'p Layout,
    /// The cages named so far (a hidden operation is said in full once).
    named: Vec<CageId>,
}

impl<'p, 'a> Chain<'p, 'a> {
    fn new(
        puzzle: &'a Puzzle,
        cells: &'p [Shown],
        proof: &'p CombinationProof,
        layout: &'p Layout,
    ) -> Chain<'p, 'a> {
        Chain {
            puzzle,
            cells,
            proof,
            layout,
            named: Vec::new(),
        }
    }

    fn draw(mut self) -> (Marks, Extra<'a>) {
        let p = self.proof;
        let assumed = self.digits_of(p.cage, &p.digits);
        let mut lines = vec![format!(
            "Supposed (green): {} are {}.",
            labels::cells(self.puzzle.size(), self.layout.cage_cells(p.cage)),
            tuple(&p.digits)
        )];
        let mut forced = Vec::new();
        let mut panels = Vec::new();
        let mut emptied = Vec::new();
        for (i, entry) in p.chain.iter().enumerate() {
            let number = i + 1;
            match entry {
                ChainEntry::Forced { cage, digits } => {
                    lines.push(format!(
                        "{number}. {} must be {} (blue).",
                        capitalised(&self.name(*cage)),
                        tuple(digits)
                    ));
                    forced.extend(self.digits_of(*cage, digits));
                }
                ChainEntry::Empty { cage } => {
                    lines.push(format!(
                        "{number}. {} has nothing left (dashed red): each of its combinations \
                         repeats a digit struck in red.",
                        capitalised(&self.name(*cage))
                    ));
                    emptied.push(*cage);
                }
                ChainEntry::Branch { cage, cases } => {
                    let name = capitalised(&self.name(*cage));
                    if cases.len() <= PANELS_AT_MOST {
                        let options: Vec<String> = cases.iter().map(|c| tuple(&c.digits)).collect();
                        lines.push(format!(
                            "{number}. {name} could be {}: one panel per case below, each ending \
                             with a cage left with nothing.",
                            or_list(options)
                        ));
                        for (k, case) in cases.iter().enumerate() {
                            let mut supposed = assumed.clone();
                            supposed.extend(self.digits_of(*cage, &case.digits));
                            let (marks, case_lines) =
                                self.case(supposed, forced.clone(), &case.chain);
                            panels.push(Panel {
                                title: format!(
                                    "Case {} of {}: {} is {}",
                                    k + 1,
                                    cases.len(),
                                    labels::cage(self.puzzle, *cage),
                                    tuple(&case.digits)
                                ),
                                picture: Picture::new(self.puzzle)
                                    .cells(self.cells.to_vec())
                                    .unwrap_or_else(|_| Picture::new(self.puzzle))
                                    .with_marks(marks),
                                lines: case_lines,
                            });
                        }
                    } else {
                        let options = if cases.len() <= OPTIONS_LISTED {
                            or_list(cases.iter().map(|c| tuple(&c.digits)).collect())
                        } else {
                            format!("any of {} combinations", cases.len())
                        };
                        lines.push(format!(
                            "{number}. {name} could be {options}: {} cases, more than the \
                             {PANELS_AT_MOST} drawn as panels, so the proof's text goes through \
                             them; each ends with a cage left with nothing.",
                            cases.len()
                        ));
                    }
                }
            }
        }
        lines.extend(self.cut_lines());
        let mut fixed = assumed.clone();
        fixed.extend(forced.iter().copied());
        let marks = self.marks(assumed, forced, emptied, &fixed);
        (marks, Extra { lines, panels })
    }

    /// A case's marks (its supposed digits, the forced ones above it and its own,
    /// its emptied cage) and lines.
    fn case(
        &mut self,
        supposed: Vec<(CellId, Digit)>,
        mut forced: Vec<(CellId, Digit)>,
        chain: &[ChainEntry],
    ) -> (Marks, Vec<String>) {
        let mut lines = Vec::new();
        let mut emptied = Vec::new();
        for entry in chain {
            let name = capitalised(&self.name(entry.cage()));
            match entry {
                ChainEntry::Forced { cage, digits } => {
                    lines.push(format!("{name} must be {}.", tuple(digits)));
                    forced.extend(self.digits_of(*cage, digits));
                }
                ChainEntry::Empty { cage } => {
                    lines.push(format!("{name} has nothing left."));
                    emptied.push(*cage);
                }
                ChainEntry::Branch { cases, .. } => {
                    let options: Vec<String> = cases.iter().map(|c| tuple(&c.digits)).collect();
                    lines.push(format!(
                        "{name} could be {}; each of the {} cases ends with a cage left with \
                         nothing.",
                        or_list(options),
                        entry.leaves()
                    ));
                }
            }
        }
        let mut fixed = supposed.clone();
        fixed.extend(forced.iter().copied());
        (self.marks(supposed, forced, emptied, &fixed), lines)
    }

    /// The grid's marks: the listed cages shaded, supposed and forced digits on
    /// discs, and in the listed cages each candidate repeating a fixed digit in
    /// a line struck.
    fn marks(
        &self,
        placed: Vec<(CellId, Digit)>,
        forced: Vec<(CellId, Digit)>,
        emptied: Vec<CageId>,
        fixed: &[(CellId, Digit)],
    ) -> Marks {
        let mut marks = Marks::default();
        marks.evidence.cages = self.proof.cages.iter().map(|c| c.cage).collect();
        for listed in &self.proof.cages {
            for &cell in self.layout.cage_cells(listed.cage) {
                let Shown::Candidates(candidates) = self.cells[cell.index()] else {
                    continue;
                };
                for d in candidates.iter() {
                    let repeats = fixed
                        .iter()
                        .any(|&(at, e)| e == d && at != cell && self.puzzle.sees(at, cell));
                    if repeats {
                        marks.struck.push((cell, d));
                    }
                }
            }
        }
        marks.placed = placed;
        marks.forced = forced;
        marks.emptied = emptied;
        marks
    }

    /// `Cut by earlier steps:` and a line per listed cage the proof leans on cut
    /// combinations of: `cage B2 (1−): (3, 2) out at step 12`.
    fn cut_lines(&mut self) -> Vec<String> {
        let narrowed: Vec<_> = self
            .proof
            .cages
            .iter()
            .filter(|c| !c.cut.is_empty())
            .collect();
        if narrowed.is_empty() {
            return Vec::new();
        }
        let mut lines = vec!["Cut by earlier steps, though the candidates allow them:".to_string()];
        for listed in narrowed {
            let what = if listed.cut.len() <= CUT_LISTED {
                and_list(listed.cut.iter().map(|c| tuple(c)).collect())
            } else {
                format!("{} combinations", listed.cut.len())
            };
            let at = match listed.narrowed_by.as_slice() {
                [] => "at an earlier step".to_string(),
                [one] => format!("at step {}", one + 1),
                many => format!(
                    "at steps {}",
                    and_list(many.iter().map(|s| (s + 1).to_string()).collect())
                ),
            };
            lines.push(format!(
                "{}: {what} out {at}.",
                capitalised(&self.name(listed.cage))
            ));
        }
        lines
    }

    /// `cage A1 (18×)`; a hidden operation in full the first time, `(10?)` after.
    fn name(&mut self, cage: CageId) -> String {
        if self.named.contains(&cage) {
            labels::cage_with_short_clue(self.puzzle, cage)
        } else {
            self.named.push(cage);
            labels::cage_with_clue(self.puzzle, cage)
        }
    }

    fn digits_of(&self, cage: CageId, digits: &[Digit]) -> Vec<(CellId, Digit)> {
        self.layout
            .cage_cells(cage)
            .iter()
            .copied()
            .zip(digits.iter().copied())
            .collect()
    }
}

/// A region proof: its lines shaded, the known parts' cells hatched, the cages
/// that lose totals shaded, and each unknown part keyed with what it can make.
fn region<'a>(puzzle: &'a Puzzle, p: &RegionProof) -> (Marks, Extra<'a>) {
    let mut marks = Marks::default();
    marks.evidence.regions = labels::slice_regions(&p.slice);
    marks.evidence.cages = p.losses.iter().map(|l| l.cage).collect();
    marks.evidence.cells = p
        .known
        .iter()
        .flat_map(|k| k.cells.iter().copied())
        .collect();
    let size = puzzle.size();
    let mut lines = vec![format!(
        "The unknown parts (keyed a, b, …) must make {} between them.",
        amount(p.left)
    )];
    for (i, part) in p.parts.iter().enumerate() {
        let key = part_key(i);
        if let Some(&first) = part.cells.first() {
            marks.keys.push((first, key.clone()));
        }
        marks.parts.extend(part.cells.iter().copied());
        let totals: Vec<String> = part.totals.iter().map(|&t| amount(t)).collect();
        let verb = if matches!(part.totals.first(), Some(Known::Parity(_))) {
            "can be"
        } else {
            "can make"
        };
        lines.push(format!(
            "{key}: {} in {} {verb} {}.",
            labels::cage_with_clue(puzzle, part.cage),
            labels::cells(size, &part.cells),
            or_list(totals)
        ));
    }
    for loss in &p.losses {
        let totals: Vec<String> = loss.totals.iter().map(|&t| amount(t)).collect();
        lines.push(format!(
            "{} loses {} here (shaded).",
            capitalised(&labels::cage_with_clue(puzzle, loss.cage)),
            and_list(totals)
        ));
    }
    (
        marks,
        Extra {
            lines,
            panels: Vec::new(),
        },
    )
}

/// `12`, `odd`.
fn amount(known: Known) -> String {
    match known {
        Known::Total(t) => t.to_string(),
        Known::Parity(odd) => labels::parity(odd).to_string(),
    }
}

/// `a` … `z`, then `27`, `28`, ….
fn part_key(i: usize) -> String {
    match u8::try_from(i) {
        Ok(k) if k < 26 => char::from(b'a' + k).to_string(),
        _ => (i + 1).to_string(),
    }
}
