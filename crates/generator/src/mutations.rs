//! The moves of the search: each changes one or two cages of a draft (or, for a
//! refill, its solution) and keeps it a valid draft within the request's rules
//! (or gives None).

use crate::clues;
use crate::draft::{connected, Draft, DraftCage};
use crate::latin::random_square;
use crate::request::Request;
use crate::rng::AttemptRng;
use kenken_model::Op;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;

/// A move of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// Two neighbouring cages become one, with a new operation.
    Merge,
    /// A cage becomes two connected cages, each with a new operation.
    Split,
    /// A cell leaves its cage for a neighbouring one.
    MoveCell,
    /// A cage gets another operation.
    ChangeOp,
    /// The same cages on a new random solution: each keeps its operation where
    /// the rules allow it on its new digits (every clue changes).
    Refill,
}

impl Mutation {
    pub const ALL: [Mutation; 5] = [
        Mutation::Merge,
        Mutation::Split,
        Mutation::MoveCell,
        Mutation::ChangeOp,
        Mutation::Refill,
    ];
}

/// Applies `kind` to a cage chosen at random, preferring the cages of `focus`
/// cells when some are given (three times in four); None when the chosen cage
/// admits no such move within the rules.
pub fn mutate(
    kind: Mutation,
    draft: &Draft,
    request: &Request,
    focus: &[usize],
    rng: &mut AttemptRng,
) -> Option<Draft> {
    let cell = match focus.choose(rng) {
        Some(&c) if rng.random_bool(0.75) => c,
        _ => rng.random_range(0..draft.solution.len()),
    };
    let cage_of = draft.cage_of();
    let mut next = match kind {
        Mutation::Merge => merge(draft, request, &cage_of, cage_of[cell], rng),
        Mutation::Split => split(draft, request, cage_of[cell], rng),
        Mutation::MoveCell => move_cell(draft, request, &cage_of, cell, rng),
        Mutation::ChangeOp => change_op(draft, request, cage_of[cell], rng),
        Mutation::Refill => refill(draft, request, rng),
    }?;
    next.cages.sort_by_key(|c| c.cells[0]);
    next.admitted_by(&request.rules, request.largest_cage())
        .then_some(next)
}

/// The cages next to cage `id`.
fn neighbour_cages(draft: &Draft, cage_of: &[usize], id: usize) -> Vec<usize> {
    let mut out: Vec<usize> = draft.cages[id]
        .cells
        .iter()
        .flat_map(|&c| draft.neighbours(c))
        .map(|nb| cage_of[nb])
        .filter(|&o| o != id)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A new operation for these cells (None when the rules leave none).
fn new_cage(
    draft: &Draft,
    request: &Request,
    cells: Vec<usize>,
    rng: &mut AttemptRng,
) -> Option<DraftCage> {
    let op = clues::pick_op(&draft.digits(&cells), &request.rules, None, rng)?;
    Some(DraftCage { cells, op })
}

/// The cage keeps its operation if the rules still allow it on its new digits.
fn keep_or_new(
    draft: &Draft,
    request: &Request,
    cells: Vec<usize>,
    op: Op,
    rng: &mut AttemptRng,
) -> Option<DraftCage> {
    if clues::allowed(op, &draft.digits(&cells), &request.rules) {
        Some(DraftCage { cells, op })
    } else {
        new_cage(draft, request, cells, rng)
    }
}

fn merge(
    draft: &Draft,
    request: &Request,
    cage_of: &[usize],
    id: usize,
    rng: &mut AttemptRng,
) -> Option<Draft> {
    let largest = request.largest_cage();
    let len = draft.cages[id].cells.len();
    let partners: Vec<usize> = neighbour_cages(draft, cage_of, id)
        .into_iter()
        .filter(|&o| len + draft.cages[o].cells.len() <= largest)
        .collect();
    let &other = partners.choose(rng)?;
    let mut cells = draft.cages[id].cells.clone();
    cells.extend_from_slice(&draft.cages[other].cells);
    cells.sort_unstable();
    let cage = new_cage(draft, request, cells, rng)?;
    let mut next = draft.clone();
    next.cages[id] = cage;
    next.cages.swap_remove(other);
    Some(next)
}

fn split(draft: &Draft, request: &Request, id: usize, rng: &mut AttemptRng) -> Option<Draft> {
    let cells = &draft.cages[id].cells;
    if cells.len() < 2 {
        return None;
    }
    for _ in 0..4 {
        let target = rng.random_range(1..cells.len());
        let mut part = vec![*cells.choose(rng)?];
        while part.len() < target {
            let frontier: Vec<usize> = part
                .iter()
                .flat_map(|&c| draft.neighbours(c))
                .filter(|nb| cells.contains(nb) && !part.contains(nb))
                .collect();
            let Some(&next) = frontier.choose(rng) else {
                break;
            };
            part.push(next);
        }
        let rest: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|c| !part.contains(c))
            .collect();
        if !connected(draft.size, &rest) {
            continue;
        }
        part.sort_unstable();
        let a = new_cage(draft, request, part, rng)?;
        let b = new_cage(draft, request, rest, rng)?;
        let mut next = draft.clone();
        next.cages[id] = a;
        next.cages.push(b);
        return Some(next);
    }
    None
}

fn move_cell(
    draft: &Draft,
    request: &Request,
    cage_of: &[usize],
    cell: usize,
    rng: &mut AttemptRng,
) -> Option<Draft> {
    let from = cage_of[cell];
    let source = &draft.cages[from];
    if source.cells.len() < 2 {
        return None;
    }
    let largest = request.largest_cage();
    let mut targets: Vec<usize> = draft
        .neighbours(cell)
        .map(|nb| cage_of[nb])
        .filter(|&o| o != from && draft.cages[o].cells.len() < largest)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets.shuffle(rng);
    let &to = targets.first()?;
    let rest: Vec<usize> = source
        .cells
        .iter()
        .copied()
        .filter(|&c| c != cell)
        .collect();
    if !connected(draft.size, &rest) {
        return None;
    }
    let mut grown = draft.cages[to].cells.clone();
    grown.push(cell);
    grown.sort_unstable();
    let a = keep_or_new(draft, request, rest, source.op, rng)?;
    let b = keep_or_new(draft, request, grown, draft.cages[to].op, rng)?;
    let mut next = draft.clone();
    next.cages[from] = a;
    next.cages[to] = b;
    Some(next)
}

fn refill(draft: &Draft, request: &Request, rng: &mut AttemptRng) -> Option<Draft> {
    let mut next = draft.clone();
    next.solution = random_square(draft.size, draft.boxes, rng);
    for cage in &mut next.cages {
        let digits: Vec<_> = cage.cells.iter().map(|&c| next.solution[c]).collect();
        if !clues::allowed(cage.op, &digits, &request.rules) {
            cage.op = clues::pick_op(&digits, &request.rules, None, rng)?;
        }
    }
    Some(next)
}

fn change_op(draft: &Draft, request: &Request, id: usize, rng: &mut AttemptRng) -> Option<Draft> {
    let cage = &draft.cages[id];
    if cage.cells.len() < 2 {
        return None;
    }
    let op = clues::pick_op(
        &draft.digits(&cage.cells),
        &request.rules,
        Some(cage.op),
        rng,
    )?;
    let mut next = draft.clone();
    next.cages[id].op = op;
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::random_draft;
    use crate::rng::attempt_rng;
    use kenken_techniques::Rating;

    fn start(n: usize, seed: u64) -> (Request, Draft, AttemptRng) {
        start_with(n, seed, |_| {})
    }

    fn start_with(
        n: usize,
        seed: u64,
        change: impl FnOnce(&mut Request),
    ) -> (Request, Draft, AttemptRng) {
        let mut request = Request::new(n, Rating(0), None);
        // Room to merge: a fresh layout is near the default bound.
        request.rules.max_mean_cage_size = 4.0;
        change(&mut request);
        let mut rng = attempt_rng(seed);
        let solution = random_square(n, None, &mut rng);
        let draft = random_draft(&request, solution, &mut rng).unwrap();
        (request, draft, rng)
    }

    /// Applies `kind` until it succeeds (some cages admit no such move).
    fn first(kind: Mutation, draft: &Draft, request: &Request, rng: &mut AttemptRng) -> Draft {
        (0..200)
            .find_map(|_| mutate(kind, draft, request, &[], rng))
            .unwrap_or_else(|| panic!("{kind:?} never applied"))
    }

    fn sizes(d: &Draft) -> Vec<usize> {
        let mut s: Vec<usize> = d.cages.iter().map(|c| c.cells.len()).collect();
        s.sort_unstable();
        s
    }

    /// Every mutated draft is a valid puzzle whose clues the solution satisfies
    /// and which keeps the rules.
    fn check_valid(d: &Draft, request: &Request) {
        let p = d.puzzle();
        for cage in p.cages() {
            let digits: Vec<u8> = cage.cells.iter().map(|c| d.solution[c.index()]).collect();
            assert!(cage.op.holds(&digits, cage.clue));
        }
        assert!(d.admitted_by(&request.rules, request.largest_cage()));
    }

    #[test]
    fn merge_joins_two_neighbouring_cages() {
        let (request, draft, mut rng) = start(6, 1);
        let next = first(Mutation::Merge, &draft, &request, &mut rng);
        assert_eq!(next.cages.len(), draft.cages.len() - 1);
        // One new cage is the union of two old ones; the others are unchanged.
        let new: Vec<&DraftCage> = next
            .cages
            .iter()
            .filter(|c| !draft.cages.iter().any(|o| o.cells == c.cells))
            .collect();
        assert_eq!(new.len(), 1);
        let gone: Vec<&DraftCage> = draft
            .cages
            .iter()
            .filter(|c| !next.cages.iter().any(|o| o.cells == c.cells))
            .collect();
        assert_eq!(gone.len(), 2);
        let mut union: Vec<usize> = gone.iter().flat_map(|c| c.cells.clone()).collect();
        union.sort_unstable();
        assert_eq!(union, new[0].cells);
        check_valid(&next, &request);
    }

    #[test]
    fn split_cuts_a_cage_into_two_connected_ones() {
        let (mut request, draft, mut rng) = start(6, 2);
        request.rules.max_givens = 36;
        let next = first(Mutation::Split, &draft, &request, &mut rng);
        assert_eq!(next.cages.len(), draft.cages.len() + 1);
        assert_eq!(sizes(&next).iter().sum::<usize>(), 36);
        for c in &next.cages {
            assert!(connected(6, &c.cells));
        }
        check_valid(&next, &request);
    }

    #[test]
    fn move_cell_keeps_the_cage_count_and_moves_one_cell() {
        let (request, draft, mut rng) = start(6, 3);
        let next = first(Mutation::MoveCell, &draft, &request, &mut rng);
        assert_eq!(next.cages.len(), draft.cages.len());
        assert_ne!(next, draft);
        // Without the moved cell, both partitions are the same.
        let without = |d: &Draft, x: usize| {
            let mut cages: Vec<Vec<usize>> = d
                .cages
                .iter()
                .map(|c| c.cells.iter().copied().filter(|&y| y != x).collect())
                .collect();
            cages.sort();
            cages
        };
        let moved: Vec<usize> = (0..36)
            .filter(|&x| without(&draft, x) == without(&next, x))
            .collect();
        assert!(!moved.is_empty());
        check_valid(&next, &request);
    }

    #[test]
    fn change_op_changes_only_an_operation() {
        let (request, draft, mut rng) = start(6, 4);
        let next = first(Mutation::ChangeOp, &draft, &request, &mut rng);
        assert_eq!(next.cage_of(), draft.cage_of());
        let changed = next
            .cages
            .iter()
            .zip(&draft.cages)
            .filter(|(a, b)| a.op != b.op)
            .count();
        assert_eq!(changed, 1);
        check_valid(&next, &request);
    }

    #[test]
    fn refill_keeps_the_cages_on_a_new_solution() {
        let (request, draft, mut rng) = start(5, 7);
        let next = first(Mutation::Refill, &draft, &request, &mut rng);
        assert_eq!(next.cage_of(), draft.cage_of());
        assert_ne!(next.solution, draft.solution);
        let mut rows = next.solution.clone();
        rows.sort_unstable();
        assert_eq!(rows, (1..=5).flat_map(|d| [d; 5]).collect::<Vec<u8>>());
        for r in 0..5 {
            let mut row: Vec<u8> = next.solution[5 * r..5 * r + 5].to_vec();
            let mut col: Vec<u8> = (0..5).map(|c| next.solution[5 * c + r]).collect();
            row.sort_unstable();
            col.sort_unstable();
            assert_eq!(row, vec![1, 2, 3, 4, 5]);
            assert_eq!(col, vec![1, 2, 3, 4, 5]);
        }
        // An operation the new digits allow is kept.
        for (a, b) in next.cages.iter().zip(&draft.cages) {
            if clues::allowed(b.op, &next.digits(&b.cells), &request.rules) {
                assert_eq!(a.op, b.op);
            }
        }
        check_valid(&next, &request);
    }

    #[test]
    fn mutations_never_break_the_rules() {
        let (mut request, mut draft, mut rng) = start(7, 5);
        request.rules.cage_sizes = 2..=3;
        request.rules.max_givens = 0;
        for i in 0..2000 {
            let kind = Mutation::ALL[i % 5];
            if let Some(next) = mutate(kind, &draft, &request, &[], &mut rng) {
                check_valid(&next, &request);
                assert!(next.cages.iter().all(|c| (2..=3).contains(&c.cells.len())));
                draft = next;
            }
        }
    }

    #[test]
    fn strict_rules_keep_sub_and_div_on_dominoes() {
        let (request, mut draft, mut rng) = start_with(6, 6, |r| r.rules.strict = true);
        let mut changes = 0;
        for i in 0..2000 {
            if let Some(next) = mutate(Mutation::ALL[i % 5], &draft, &request, &[], &mut rng) {
                draft = next;
                changes += 1;
                for c in &draft.cages {
                    assert!(c.cells.len() == 2 || !matches!(c.op, Op::Sub | Op::Div));
                }
            }
        }
        assert!(changes > 100);
    }
}
