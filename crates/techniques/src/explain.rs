//! Steps for people: what justifies a step ([`Evidence`], for pictures and hints),
//! a plain-English explanation written from the step's data
//! ([`Step::explanation`]), a nudge that points without telling
//! ([`Step::nudge`]), and the folding of a naked single that only repeats the
//! ladder step before it ([`Step::echoes`]). Every name is in the grid's labels
//! ([`labels`](crate::labels)).

use crate::labels::{self, and_list, cage_with_clue, region, row_letter};
use crate::step::{fish_name, subset_name, NakedSingle, Reason, Step};
use crate::Layout;
use kenken_model::{CageId, CellId, Digit, Digits, Puzzle, RegionKind, Size};

/// What a step rests on: the lines, cages and cells to look at, and the digits the
/// reasoning is about. A picture highlights them; a hint names them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Rows, columns or boxes (for a fish, the base lines then the cover lines).
    pub regions: Vec<RegionKind>,
    pub cages: Vec<CageId>,
    /// The cells the reasoning is about, reading order.
    pub cells: Vec<CellId>,
    /// The digits the reasoning is about (empty for sums and cage combinations).
    pub digits: Digits,
}

/// The words of one technique's steps. Each technique's reason type implements
/// it in the technique's own file, beside the code that finds the step; what
/// they share (names, lists, plurals) is in this module and in
/// [`labels`](crate::labels).
pub(crate) trait Words {
    /// The one-line text in the reference solver's wording: `r2c3` cells, cages
    /// by 0-based number ([`Step::text`]).
    fn reference_text(&self, step: &Step, size: Size) -> String;
    /// The one-line text in the grid's names ([`Step::labelled_text`]).
    fn labelled_text(&self, step: &Step, puzzle: &Puzzle) -> String;
    /// Why the step holds and what it removes, in plain English
    /// ([`Step::explanation`]).
    fn explanation(&self, step: &Step, layout: &Layout) -> String;
    /// Where to look, without saying what is there ([`Step::nudge`]).
    fn nudge(&self, puzzle: &Puzzle) -> String;
    /// What the step rests on ([`Step::evidence`]); cells are sorted after.
    fn evidence(&self, step: &Step, puzzle: &Puzzle, evidence: &mut Evidence);
}

impl Step {
    /// The technique's name for this step: `Hidden pair`, `X-Wing`, `Claiming
    /// candidates`, …
    pub fn technique_name(&self) -> String {
        match &self.reason {
            Reason::HiddenSubset(r) => subset_name(r.digits.len()),
            Reason::Fish(r) => fish_name(r.base.len()),
            _ => self.technique.name().to_string(),
        }
    }

    /// What the step rests on (see [`Evidence`]).
    pub fn evidence(&self, puzzle: &Puzzle) -> Evidence {
        let mut e = Evidence::default();
        self.reason.words().evidence(self, puzzle, &mut e);
        e.cells.sort_unstable();
        e.cells.dedup();
        e
    }

    /// Whether this step only repeats `ladder_step`, the last step of the ladder
    /// before it (naked singles between them aside): a naked single placing what
    /// that step placed (a hidden single leaves its cell with one candidate, which
    /// the propagation after it places). Explanations fold it away.
    pub fn echoes(&self, ladder_step: &Step) -> bool {
        match self.reason {
            Reason::NakedSingle(NakedSingle { cell, digit }) => {
                ladder_step.placements.contains(&(cell, digit))
            }
            _ => false,
        }
    }

    /// The cells a hint at the "cells" level names: those the step rests on, or
    /// its cages (`cage B3 (12×)`) when it names no cell.
    pub fn cells_to_look_at(&self, puzzle: &Puzzle) -> Vec<String> {
        let evidence = self.evidence(puzzle);
        if evidence.cells.is_empty() {
            return evidence
                .cages
                .iter()
                .map(|&c| cage_with_clue(puzzle, c))
                .collect();
        }
        evidence
            .cells
            .iter()
            .map(|&c| labels::cell(puzzle.size(), c))
            .collect()
    }

    /// A hint that points at where to look without saying what is there: `Look at
    /// row C: where can each of its missing digits go?`
    pub fn nudge(&self, puzzle: &Puzzle) -> String {
        self.reason.words().nudge(puzzle)
    }

    /// The first `limit` proofs of the step, and how many more there are.
    pub fn proofs_shown(&self, limit: usize) -> (&[crate::proof::Proof], usize) {
        let listed = &self.proofs[..self.proofs.len().min(limit)];
        (listed, self.proofs.len() - listed.len())
    }

    /// The step explained in plain English from its data: which line, which cages,
    /// which digits, why, and what it removes.
    pub fn explanation(&self, layout: &Layout) -> String {
        self.reason.words().explanation(self, layout)
    }

    /// `This removes 5 from E1 and E2, and 3 from F4.`, or what a step that removes
    /// no candidate yet still does.
    pub(crate) fn removals(&self, size: Size) -> String {
        if self.eliminations.is_empty() {
            return "No candidate goes yet, but fewer cage combinations are left.".to_string();
        }
        // Digit by digit, and digits that leave the same cells together: `2 and 4
        // from A1 and B1; 3 from C4`.
        let mut by_digit: Vec<(Digit, Vec<CellId>)> = Vec::new();
        for &(c, d) in &self.eliminations {
            match by_digit.iter_mut().find(|(x, _)| *x == d) {
                Some((_, cells)) => cells.push(c),
                None => by_digit.push((d, vec![c])),
            }
        }
        by_digit.sort_by_key(|(d, _)| *d);
        let mut groups: Vec<(Vec<Digit>, Vec<CellId>)> = Vec::new();
        for (d, mut cells) in by_digit {
            cells.sort_unstable();
            match groups.iter_mut().find(|(_, same)| *same == cells) {
                Some((digits, _)) => digits.push(d),
                None => groups.push((vec![d], cells)),
            }
        }
        let parts: Vec<String> = groups
            .into_iter()
            .map(|(digits, cells)| {
                let names: Vec<String> = cells.iter().map(|&c| labels::cell(size, c)).collect();
                format!("{} from {}", labels::digits(digits), and_list(names))
            })
            .collect();
        format!("This removes {}.", parts.join("; "))
    }
}

/// Whether a cell lies in a region.
pub(crate) fn in_region(puzzle: &Puzzle, region: RegionKind, cell: CellId) -> bool {
    let size = puzzle.size();
    match region {
        RegionKind::Row(r) => size.row(cell) == r,
        RegionKind::Col(c) => size.col(cell) == c,
        RegionKind::Box(b) => puzzle.box_of(cell) == Some(b),
    }
}

/// The verb for combinations going: `goes` for one, `go` for several.
pub(crate) fn go(count: usize) -> &'static str {
    if count == 1 {
        "goes"
    } else {
        "go"
    }
}

/// Lines of one kind in a sentence: `row C`, `rows C and D`, `columns 2, 4 and 5`.
pub(crate) fn sentence_lines(kinds: &[RegionKind]) -> String {
    if let [one] = kinds {
        return region(*one);
    }
    let names: Vec<String> = kinds
        .iter()
        .map(|r| match *r {
            RegionKind::Row(i) => row_letter(i).to_string(),
            RegionKind::Col(i) | RegionKind::Box(i) => (i + 1).to_string(),
        })
        .collect();
    let word = match kinds.first() {
        Some(RegionKind::Row(_)) => "rows",
        Some(RegionKind::Col(_)) => "columns",
        _ => "boxes",
    };
    format!("{word} {}", and_list(names))
}

/// `B3`, `B3 or B4`, `B3, B4 or B5`.
pub(crate) fn or_list(size: Size, cells: &[CellId]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| labels::cell(size, c)).collect();
    or_words(names)
}

/// `7`, `7 or 11`.
pub(crate) fn or_numbers(values: &[impl ToString]) -> String {
    or_words(values.iter().map(|v| v.to_string()).collect())
}

pub(crate) use crate::labels::or_list as or_words;

/// `1 combination`, `3 combinations`.
pub(crate) fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// `two`, `three`, … (a digit count: at most 16).
pub(crate) fn number(k: usize) -> &'static str {
    const WORDS: [&str; 17] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    ];
    WORDS.get(k).copied().unwrap_or("several")
}

pub(crate) use crate::labels::capitalised;

#[cfg(test)]
mod tests {
    use crate::{Grader, Options, Step, TechniqueKind};
    use kenken_model::{CageId, CellId, RegionKind};

    /// The first step of `kind` in the puzzle's log, with its grader.
    fn first(id: &str, kind: &str) -> (Grader, Step) {
        let kind = TechniqueKind::from_id(kind).expect("a registry id");
        let puzzle = kenken_formats::tatham::read(id).expect("puzzle");
        let grader = Grader::new(&puzzle).expect("grader");
        let mut options = Options::default();
        options.enable(kind);
        let grade = grader.grade(options, true);
        let step = grade
            .steps
            .into_iter()
            .find(|s| s.technique == kind)
            .expect("a step of that kind");
        (grader, step)
    }

    struct Case {
        puzzle: &'static str,
        kind: &'static str,
        text: &'static str,
        explanation: &'static str,
        nudge: &'static str,
    }

    /// One puzzle per step kind (the snapshots' puzzles): its first step of that
    /// kind in the grid's names, explained, and as a nudge.
    const CASES: &[Case] = &[
        Case {
            puzzle: "6:__b_6a__a_aa_a_aab_b_4aa_a_3a__a3,m72m12m60m5m4m15m12m12m4m6m10m30m6m12m30m4",
            kind: "region-product",
            text: "Region product: row A must multiply to 720; cages A1, A2's cells within it must multiply to 12; cages A1, A2 reduced from 3, 2 combinations to 1, 1",
            explanation: "Row A holds 1 to 6 once, so it multiplies to 720. The parts of the other cages in it are known and multiply to 60, which leaves 12 for the cells of cage A1 (72×) and cage A2 (12×) in it, together. Only some of their possible totals can make that up together: cage A1 loses the 2 combinations that give 3 or 4 there, from 3 to 1 and cage A2 loses the 1 combination that gives 6 there, from 2 to 1. This removes 2 from B2; 3 and 4 from A1; 6 from A2, B1 and C1.",
            nudge: "Look at what row A multiplies to.",
        },
        Case {
            puzzle: "3:_a__cb_,m6a4m18",
            kind: "naked-single",
            text: "Naked single: 1 in A2",
            explanation: "Only 1 is left for A2 (every other digit is ruled out by its row, its column or its cage), so A2 is 1.",
            nudge: "Look at A2: how many digits can it still hold?",
        },
        Case {
            puzzle: "3:_a_a3_a,a5m6m3s1",
            kind: "hidden-single",
            text: "Hidden single: 1 in C1 (column 1)",
            explanation: "Column 1 needs a 1, and C1 is the only cell of it that can still hold one. So C1 is 1.",
            nudge: "Look at column 1: where can each of its missing digits go?",
        },
        Case {
            puzzle: "4:_a_aabb_7a__,s2s1m12d2m12d2a6a4",
            kind: "claiming",
            text: "Claiming candidates: cage A1 must contain 1 in A1, B1: from 4 combinations to 2",
            explanation: "Column 1 needs a 1, and every cell of it that can still hold one is in cage A1 (2−), whose cells there are A1 and B1. So that cage must put a 1 in A1 or B1: its 2 combinations without one there go, from 4 to 2. This removes 2 and 4 from A1 and B1.",
            nudge: "Look at column 1: are the places left for one of its digits all in one cage?",
        },
        Case {
            puzzle: "4:__a_a3_ba_3a_a,m12m6s2d2a9s1d2",
            kind: "pointing",
            text: "Pointing candidates: all combinations for cage B3 contain 2 in row B; eliminations in B2",
            explanation: "Every combination still possible for cage B3 (2÷) puts a 2 in row B, so the 2 of row B is inside the cage, and no other cell of row B can be 2. This removes 2 from B2.",
            nudge: "Look at cage B3 (2÷): which digits must it put in one line?",
        },
        Case {
            puzzle: "5:_a__a_a__a__ad_7a5_,m60d2d2s1m5a7s2s1a7d2m60",
            kind: "hidden-subset",
            text: "Hidden pair: 3, 5 in A1, A5 (row A)",
            explanation: "In row A, the digits 3 and 5 can only go in A1 and A5. Two digits for two cells: those cells hold 3 and 5 between them, so every other candidate goes from them. This removes 1 from A1; 4 from A1 and A5.",
            nudge: "Look at row A: which of its digits have only a few places left?",
        },
        Case {
            puzzle: "5:_abaa_a_5aa_a__a_a_3b_a,m16a7m15a6s2s1d2s2a6m12s3",
            kind: "hidden-subset",
            text: "Hidden triple: 2, 3, 4 in C4, D4, E4 (column 4)",
            explanation: "In column 4, the digits 2, 3 and 4 can only go in C4, D4 and E4. Three digits for three cells: those cells hold 2, 3 and 4 between them, so every other candidate goes from them. This removes 1 from C4, D4 and E4.",
            nudge: "Look at column 4: which of its digits have only a few places left?",
        },
        Case {
            puzzle: "4:a_7a__ababa,m24d2m8s1a7s2d2",
            kind: "fish",
            text: "X-Wing: 2 in rows C, D, columns 1, 2",
            explanation: "In rows C and D, 2 can only go in columns 1 and 2. Each of those two lines needs a 2, so their two 2s fill columns 1 and 2 between them, and no other cell of columns 1 and 2 can be 2. This removes 2 from A1 and B2.",
            nudge: "Look at rows C and D: where can one digit go in each of them?",
        },
        Case {
            puzzle: "6:aa__b_a_4b__a_b__a3_7a3_ba_aa__,s1s3a9s3m24m40a16a5d3m6m15m12d2a7s1",
            kind: "fish",
            text: "Swordfish: 5 in rows C, D, E, columns 2, 3, 4",
            explanation: "In rows C, D and E, 5 can only go in columns 2, 3 and 4. Each of those three lines needs a 5, so their three 5s fill columns 2, 3 and 4 between them, and no other cell of columns 2, 3 and 4 can be 5. This removes 5 from A2, A3, A4, B2, B3, B4 and F2.",
            nudge: "Look at rows C, D and E: where can one digit go in each of them?",
        },
        Case {
            puzzle: "4:ac__aa__aa_4b,d2m3a7m96s2s2",
            kind: "region-parity",
            text: "Region parity: column 1 must sum to an even number; cage B1's cells within it must sum to an even number; reduced from 3 combinations to 1",
            explanation: "Column 1 holds 1 to 4 once, so it adds up to 10, an even number. Every other cage's part in it has a known parity, so the cells of cage B1 (7+) in it must add up to an even number: its 2 combinations giving an odd total there go, from 3 to 1. This removes 1 and 3 from B1; 2 from B2 and B3.",
            nudge: "Look at what column 1 adds up to: odd or even?",
        },
        Case {
            puzzle: "4:__a_a__a_baa_a_a,m6a5s1d2m24s2a5",
            kind: "region-parity",
            text: "Region parity: rows C, D must sum to an even number; cage A1's cells within them must sum to an even number; reduced from 2 combinations to 1",
            explanation: "Every row holds 1 to 4 once and adds up to 10, so rows C and D add up to 20, an even number. Every other cage's part in them has a known parity, so the cells of cage A1 (6×) in them must add up to an even number: its 1 combination giving an odd total there goes, from 2 to 1. This removes 1 from C1; 2 from A1.",
            nudge: "Look at what rows C and D add up to: odd or even?",
        },
        Case {
            puzzle: "4:_a_7a4_a3,a3m12a5d2s2m12s1d2",
            kind: "region-sum",
            text: "Region sum: column 4 must sum to 10; cage C4's cells within it must sum to 5; reduced from 4 combinations to 1",
            explanation: "Column 4 holds 1 to 4 once, so it adds up to 10. The parts of the other cages in it are known and add up to 5, which leaves 5 for the cells of cage C4 (1−) in it. Any other total there is impossible: cage C4 loses the 3 combinations that give 3 or 7 there, from 4 to 1. This removes 1 from D4; 3 from C4; 4 from C4 and D4.",
            nudge: "Look at what column 4 adds up to.",
        },
        Case {
            puzzle: "4:b_7a_ba_a3,m6a5m8s1a5s1s1",
            kind: "region-sum",
            text: "Region sum: column 3 must sum to 10; cages A1, D2's cells within it must sum to 5; cage D2 reduced from 6 combinations to 3",
            explanation: "Column 3 holds 1 to 4 once, so it adds up to 10. The parts of the other cages in it are known and add up to 5, which leaves 5 for the cells of cage A1 (6×) and cage D2 (1−) in it, together. Only some of their possible totals can make that up together: cage D2 loses the 3 combinations that give 1 or 2 there, from 6 to 3. This removes 1 from D2 and D3; 2 from D3.",
            nudge: "Look at what column 3 adds up to.",
        },
        Case {
            puzzle: "4:_b_a_3a4_a__a,a5m12s1m8a5s1d2",
            kind: "cage-combination",
            text: "Cage comparison: cages C4, B3 interact such that cage B3 has incongruous combinations; reduced from 3 to 2 combinations",
            explanation: "Cage C4 (1−) and cage B3 (8×) are linked by the lines they share, so their combinations must fit together without repeating a digit in a line. Cage B3 (8×) loses 1 combination (1, 2, 4 for B3, B4, C3) that no choice for the others fits, from 3 to 2. This removes 1 from B3; 2 from B4.",
            nudge: "Look at how cages C4 and B3 fit together.",
        },
        Case {
            puzzle: "6:ca__a_3a_a_3a__adca_3a_5a_3aca,a18a13s5s3a7a17s1s3s1a8a3a17",
            kind: "cage-combination",
            text: "Cage comparison: cages B2, B4 interact such that cage B4 has incongruous combinations; reduced from 6 to 4 combinations",
            explanation: "Cage B2 (5−) and cage B4 (7+) are linked by the lines they share, so their combinations must fit together without repeating a digit in a line. Cage B4 (7+) loses 2 combinations (1, 6 and 6, 1 for B4, B5) that no choice for the others fits, from 6 to 4. This removes 1 and 6 from B4 and B5.",
            nudge: "Look at how cages B2 and B4 fit together.",
        },
        Case {
            puzzle: "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2",
            kind: "pointing",
            text: "Pointing candidates: all combinations for cage B1 contain 1, 3, 6 in column 1; eliminations in A1, E1, F1",
            explanation: "Every combination still possible for cage B1 (18×) puts a 1, a 3 and a 6 in column 1, so those digits of column 1 are inside the cage, and no other cell of column 1 can hold them. This removes 1 from A1, E1 and F1; 3 and 6 from A1.",
            nudge: "Look at cage B1 (18×): which digits must it put in one line?",
        },
    ];

    #[test]
    fn every_step_kind_is_explained() {
        let mut kinds = Vec::new();
        for case in CASES {
            let (grader, step) = first(case.puzzle, case.kind);
            let puzzle = grader.puzzle();
            assert_eq!(step.labelled_text(puzzle), case.text, "{}", case.puzzle);
            assert_eq!(
                step.explanation(grader.layout()),
                case.explanation,
                "{}",
                case.puzzle
            );
            assert_eq!(step.nudge(puzzle), case.nudge, "{}", case.puzzle);
            kinds.push(case.kind);
        }
        for kind in TechniqueKind::all() {
            assert!(kinds.contains(&kind.id()), "no case for {kind}");
        }
    }

    #[test]
    fn evidence_names_what_the_picture_highlights() {
        let (grader, step) = first("4:_a_aabb_7a__,s2s1m12d2m12d2a6a4", "claiming");
        let e = step.evidence(grader.puzzle());
        assert_eq!(e.regions, [RegionKind::Col(0)]);
        assert_eq!(e.cages, [CageId::new(0)]);
        assert_eq!(e.cells, [CellId::new(0), CellId::new(4)]);
        assert_eq!(e.digits.iter().collect::<Vec<_>>(), [1]);
        // A fish: its base and cover lines, the cells where they cross.
        let (grader, step) = first("4:a_7a__ababa,m24d2m8s1a7s2d2", "fish");
        let e = step.evidence(grader.puzzle());
        let lines = [
            RegionKind::Row(2),
            RegionKind::Row(3),
            RegionKind::Col(0),
            RegionKind::Col(1),
        ];
        assert_eq!(e.regions, lines);
        assert_eq!(e.cells, [8, 9, 12, 13].map(CellId::new));
        // Cage combinations rest on cages alone.
        let (grader, step) = first("4:_b_a_3a4_a__a,a5m12s1m8a5s1d2", "cage-combination");
        let e = step.evidence(grader.puzzle());
        assert_eq!(e.cages, [CageId::new(5), CageId::new(3)]);
        assert!(e.cells.is_empty() && e.regions.is_empty() && e.digits.is_empty());
    }

    #[test]
    fn a_naked_single_after_the_step_that_placed_it_is_an_echo() {
        let puzzle = kenken_formats::tatham::read("4:__a_a3_ba_3a_a,m12m6s2d2a9s1d2").unwrap();
        let grade = Grader::new(&puzzle)
            .unwrap()
            .grade(Options::default(), false);
        let steps = &grade.steps;
        assert_eq!(steps[0].technique.id(), "hidden-single");
        assert!(steps[1].echoes(&steps[0]));
        assert!(!steps[0].echoes(&steps[1]));
        // A naked single of its own (after a pointing step) is no echo.
        let own = steps
            .iter()
            .position(|s| s.technique.id() == "pointing")
            .unwrap()
            + 1;
        assert!(!steps[own].echoes(&steps[own - 1]));
        // Other singles may come between: here the hidden single in B6 is followed
        // by the single in A6 (its own), then by the one in B6.
        let puzzle = kenken_formats::tatham::read(
            "6:aa_aa_3a_6a__baa_a_3a_4a_3a3_aa__,m6a6m12a9m6m12d2s3a8s1d2s3d2s1d3s3a5d2",
        )
        .unwrap();
        let steps = Grader::new(&puzzle)
            .unwrap()
            .grade(Options::default(), false)
            .steps;
        assert!(!steps[1].echoes(&steps[0]));
        assert!(steps[2].echoes(&steps[0]));
    }
}
