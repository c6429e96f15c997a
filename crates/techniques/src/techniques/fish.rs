//! Fish (X-Wing, Swordfish, Jellyfish, …): for a digit, k rows whose possible
//! places lie in exactly k columns; those columns lose the digit in every other
//! row. Then the same with rows and columns swapped.

use super::subsets::first_tight_subset;
use crate::explain::{in_region, number, sentence_lines, Evidence, Words};
use crate::labels;
use crate::step::{fish_name, Reason};
use crate::technique::kinds;
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{CellId, Digit, Digits, Puzzle, RegionKind, Size, MAX_SIZE};
use std::fmt::Write;
use std::ops::RangeInclusive;

/// Fish, and what they keep for a run: per size k and digit d, whether the last search
/// found no fish of d there, with the candidates and placed cells it saw. A fish
/// of d reads nothing but where d can still go and where it is placed, so while no
/// cell gains or loses d as a candidate or gets d placed, the search of d would
/// find nothing again and is skipped. This changes no result, only the time.
struct FishFinder {
    kind: TechniqueKind,
    /// Per k (up to N/2), the digits known barren, as bits.
    barren: [u16; MAX_SIZE / 2 + 1],
    /// The grid as the last search saw it: candidates, and which cells are placed.
    seen: Vec<(Digits, bool)>,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(FishFinder {
        kind,
        barren: Default::default(),
        seen: Vec::new(),
    })
}

impl FishFinder {
    /// Forgets what is barren for the digits whose places changed since the last
    /// search, and notes the grid as it is now.
    fn catch_up(&mut self, state: &State) {
        let cells = state.puzzle().size().cells();
        if self.seen.is_empty() {
            self.seen = cells
                .map(|c| (state.candidates(c), state.is_placed(c)))
                .collect();
            return;
        }
        let mut changed = Digits::EMPTY;
        for (seen, c) in self.seen.iter_mut().zip(cells) {
            let now = (state.candidates(c), state.is_placed(c));
            if *seen != now {
                // Digits gained or lost, and those of a cell placed (or not) since.
                changed |= Digits::from_bits(seen.0.bits() ^ now.0.bits());
                if now.1 != seen.1 {
                    changed |= seen.0 | now.0;
                }
                *seen = now;
            }
        }
        for barren in &mut self.barren {
            *barren &= !changed.bits();
        }
    }
}

impl Technique for FishFinder {
    fn sizes(&self, state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        2..=state.n() / 2
    }

    fn find(&mut self, state: &State, ctx: &mut Context, k: usize) -> Option<Step> {
        let n = state.n();
        let size = state.puzzle().size();
        let memos = ctx.memos;
        let technique = self.kind;
        let mem = self;
        mem.catch_up(state);
        for d in 1..=n as u8 {
            let bit = 1u16 << (d - 1);
            if memos && mem.barren[k] & bit != 0 {
                continue;
            }
            // A pass over the grid, and the k-subsets of its lines.
            ctx.budget.spend((n * n * 4) as u64).ok()?;
            for rows_first in [true, false] {
                let cell = |line: usize, across: usize| {
                    if rows_first {
                        size.cell(line, across)
                    } else {
                        size.cell(across, line)
                    }
                };
                let kind = |line: usize, base: bool| {
                    if rows_first == base {
                        RegionKind::Row(line)
                    } else {
                        RegionKind::Col(line)
                    }
                };
                // Lines where d is still to be placed, with its possible places.
                let mut lines = [0usize; MAX_SIZE];
                let mut masks = [0u32; MAX_SIZE];
                let mut count = 0;
                'lines: for line in 0..n {
                    let mut mask = 0u32;
                    for across in 0..n {
                        let c = cell(line, across);
                        if state.is_placed(c) {
                            if state.candidates(c).contains(d) {
                                continue 'lines;
                            }
                        } else if state.candidates(c).contains(d) {
                            mask |= 1 << across;
                        }
                    }
                    if mask != 0 {
                        lines[count] = line;
                        masks[count] = mask;
                        count += 1;
                    }
                }
                let (lines, masks) = (&lines[..count], &masks[..count]);
                let step = first_tight_subset(masks, k, |picked, cover| {
                    // The base lines on the stack: most tight subsets remove nothing.
                    let mut base = [0usize; MAX_SIZE];
                    for (b, &i) in base.iter_mut().zip(picked) {
                        *b = lines[i];
                    }
                    let base = &base[..picked.len()];
                    let mut eliminations: Vec<(CellId, u8)> = Vec::new();
                    for line in 0..n {
                        if base.contains(&line) {
                            continue;
                        }
                        for across in (0..n).filter(|a| cover & (1 << a) != 0) {
                            let c = cell(line, across);
                            if !state.is_placed(c) && state.candidates(c).contains(d) {
                                eliminations.push((c, d));
                            }
                        }
                    }
                    if eliminations.is_empty() {
                        return None;
                    }
                    eliminations.sort();
                    Some(Step {
                        technique,
                        rating: technique.rate(k, 1),
                        reason: Reason::Fish(Fish {
                            digit: d,
                            base: base.iter().map(|&l| kind(l, true)).collect(),
                            cover: (0..n)
                                .filter(|a| cover & (1 << a) != 0)
                                .map(|a| kind(a, false))
                                .collect(),
                        }),
                        placements: Vec::new(),
                        eliminations,
                        cuts: Vec::new(),
                        proofs: Vec::new(),
                    })
                });
                if step.is_some() {
                    return step;
                }
            }
            mem.barren[k] |= bit;
        }
        None
    }
}

/// `digit` in the `base` lines lies only in the `cover` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fish {
    pub digit: Digit,
    pub base: Vec<RegionKind>,
    pub cover: Vec<RegionKind>,
}

impl Words for Fish {
    fn reference_text(&self, _step: &Step, _size: Size) -> String {
        let mut s = format!("{}: {} in ", fish_name(self.base.len()), self.digit);
        for (i, r) in self.base.iter().enumerate() {
            let label = r.to_string();
            if i == 0 {
                s.push_str(&label);
            } else {
                let _ = write!(s, ", {}", &label[1..]);
            }
        }
        s
    }

    fn labelled_text(&self, _step: &Step, _puzzle: &Puzzle) -> String {
        format!(
            "{}: {} in {}, {}",
            fish_name(self.base.len()),
            self.digit,
            labels::lines(&self.base),
            labels::lines(&self.cover)
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let (k, base, cover) = (
            number(self.base.len()),
            sentence_lines(&self.base),
            sentence_lines(&self.cover),
        );
        let digit = self.digit;
        format!(
            "In {base}, {digit} can only go in {cover}. Each of those {k} lines needs \
             a {digit}, so their {k} {digit}s fill {cover} between them, and no other \
             cell of {cover} can be {digit}. {}",
            step.removals(layout.puzzle().size())
        )
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: where can one digit go in each of them?",
            sentence_lines(&self.base)
        )
    }

    fn evidence(&self, _step: &Step, puzzle: &Puzzle, e: &mut Evidence) {
        e.regions.extend(&self.base);
        e.regions.extend(&self.cover);
        e.cells = puzzle
            .size()
            .cells()
            .filter(|&c| {
                self.base.iter().any(|&r| in_region(puzzle, r, c))
                    && self.cover.iter().any(|&r| in_region(puzzle, r, c))
            })
            .collect();
        e.digits.insert(self.digit);
    }
}
