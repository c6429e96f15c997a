//! A candidate puzzle of an attempt: the attempt's solution, a partition of the
//! grid into cages and an operation per cage; the clues follow from the solution.

use crate::clues::{self, clue};
use crate::request::{Request, Rules};
use crate::rng::AttemptRng;
use kenken_model::{Cage, CellId, Digit, Op, Puzzle, Size};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// One cage of a draft: its cells (reading order) and operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DraftCage {
    pub cells: Vec<usize>,
    pub op: Op,
}

/// A candidate: every cell in exactly one cage, every cage edge-connected, every
/// operation giving a clue on the solution's digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub size: usize,
    pub solution: Vec<Digit>,
    pub boxes: Option<(usize, usize)>,
    pub cages: Vec<DraftCage>,
    /// Whether its puzzle shows the clues only ([`Request::hide_ops`]).
    pub hide_ops: bool,
}

impl Draft {
    /// The digits of a set of cells.
    pub fn digits(&self, cells: &[usize]) -> Vec<Digit> {
        cells.iter().map(|&c| self.solution[c]).collect()
    }

    /// For each cell, the index of its cage.
    pub fn cage_of(&self) -> Vec<usize> {
        let mut of = vec![0; self.size * self.size];
        for (i, cage) in self.cages.iter().enumerate() {
            for &c in &cage.cells {
                of[c] = i;
            }
        }
        of
    }

    /// A hash of the solution, layout and operations: equal drafts have equal
    /// fingerprints.
    pub fn fingerprint(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.solution.hash(&mut h);
        self.cages.hash(&mut h);
        h.finish()
    }

    /// The number of single-cell cages.
    pub fn givens(&self) -> usize {
        self.cages.iter().filter(|c| c.cells.len() == 1).count()
    }

    /// Whether the draft keeps the rules: cage sizes, givens, and an allowed
    /// operation on every cage.
    pub fn admitted_by(&self, rules: &Rules, largest: usize) -> bool {
        self.givens() <= rules.max_givens
            && (self.size * self.size) as f64 <= rules.max_mean_cage_size * self.cages.len() as f64
            && self.cages.iter().all(|cage| {
                let n = cage.cells.len();
                (n == 1 || (*rules.cage_sizes.start()..=largest).contains(&n))
                    && clues::allowed(cage.op, &self.digits(&cage.cells), rules)
            })
    }

    /// The puzzle (clues computed from the solution), its operations hidden when
    /// the request asks for that.
    ///
    /// # Panics
    ///
    /// When the draft is not a partition into connected cages with clues: the
    /// mutations keep that, so this would be a bug.
    pub fn puzzle(&self) -> Puzzle {
        let size = Size::new(self.size).expect("draft sizes are checked by the request");
        let cages = self
            .cages
            .iter()
            .map(|cage| {
                let value = clue(cage.op, &self.digits(&cage.cells))
                    .expect("a draft's operations give clues");
                Cage::new(
                    cage.cells.iter().map(|&c| CellId::new(c)).collect(),
                    cage.op,
                    value,
                )
            })
            .collect();
        let built = match self.boxes {
            None => Puzzle::new(size, cages),
            Some((r, c)) => Puzzle::new_kendoku(size, cages, r, c),
        };
        let puzzle = built.expect("a draft is a partition into connected cages");
        if self.hide_ops {
            puzzle.with_hidden_ops()
        } else {
            puzzle
        }
    }

    /// The edge neighbours of a cell.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        neighbours(self.size, cell)
    }
}

/// The edge neighbours of a cell of an `n`×`n` grid.
pub fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Whether a set of cells is one edge-connected piece (true when empty).
pub fn connected(n: usize, cells: &[usize]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut stack = vec![first];
    while let Some(c) = stack.pop() {
        for nb in neighbours(n, c) {
            if cells.contains(&nb) && !seen.contains(&nb) {
                seen.push(nb);
                stack.push(nb);
            }
        }
    }
    seen.len() == cells.len()
}

/// The relative frequency of each multi-cell cage size in a fresh layout, in
/// thousandths: Tatham's Keen at every size has about 80 % dominoes, 17 %
/// three-cell, 3 % four-cell and a few larger cages.
fn size_weight(cells: usize) -> u32 {
    match cells {
        2 => 780,
        3 => 180,
        4 => 35,
        5 => 4,
        _ => 1,
    }
}

/// A random layout on `solution` with operations, as Tatham's generator makes
/// them (mostly dominoes); None when a dozen tries all break the rules (e.g.
/// operations that fit no cage).
pub fn random_draft(
    request: &Request,
    solution: Vec<Digit>,
    rng: &mut AttemptRng,
) -> Option<Draft> {
    let n = request.size;
    let rules = &request.rules;
    let lo = *rules.cage_sizes.start();
    let hi = request.largest_cage();
    let weights: Vec<(usize, u32)> = (lo..=hi).map(|s| (s, size_weight(s))).collect();
    let total: u32 = weights.iter().map(|w| w.1).sum();
    for _ in 0..12 {
        let mut owner = vec![usize::MAX; n * n];
        let mut cages: Vec<Vec<usize>> = Vec::new();
        let mut order: Vec<usize> = (0..n * n).collect();
        order.shuffle(rng);
        for &start in &order {
            if owner[start] != usize::MAX {
                continue;
            }
            let mut x = rng.random_range(0..total);
            let mut target = lo;
            for &(s, w) in &weights {
                if x < w {
                    target = s;
                    break;
                }
                x -= w;
            }
            let id = cages.len();
            let mut cells = vec![start];
            owner[start] = id;
            while cells.len() < target {
                let frontier: Vec<usize> = cells
                    .iter()
                    .flat_map(|&c| neighbours(n, c))
                    .filter(|&nb| owner[nb] == usize::MAX)
                    .collect();
                let Some(&next) = frontier.choose(rng) else {
                    break;
                };
                owner[next] = id;
                cells.push(next);
            }
            cages.push(cells);
        }
        // A lone cell joins the smallest neighbouring cage that has room, unless
        // the rules leave room for it as a given.
        for id in 0..cages.len() {
            if cages[id].len() != 1 {
                continue;
            }
            let cell = cages[id][0];
            let mut hosts: Vec<usize> = neighbours(n, cell)
                .map(|nb| owner[nb])
                .filter(|&o| o != id && !cages[o].is_empty() && cages[o].len() < hi)
                .collect();
            hosts.sort_by_key(|&o| (cages[o].len(), o));
            hosts.dedup();
            if let Some(&host) = hosts.first() {
                cages[host].push(cell);
                owner[cell] = host;
                cages[id].clear();
            }
        }
        let mut draft = Draft {
            size: n,
            solution: solution.clone(),
            boxes: request.boxes(),
            cages: Vec::new(),
            hide_ops: request.hide_ops,
        };
        let mut ok = true;
        for mut cells in cages.into_iter().filter(|c| !c.is_empty()) {
            cells.sort_unstable();
            match clues::pick_op(&draft.digits(&cells), rules, None, rng) {
                Some(op) => draft.cages.push(DraftCage { cells, op }),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        draft.cages.sort_by_key(|c| c.cells[0]);
        if ok && draft.admitted_by(rules, hi) {
            return Some(draft);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latin::random_square;
    use crate::rng::attempt_rng;
    use kenken_techniques::Rating;

    #[test]
    fn random_drafts_are_valid_puzzles_with_the_solution() {
        for n in [3, 4, 6, 9, 12] {
            let request = Request::new(n, Rating(0), None);
            let mut rng = attempt_rng(n as u64);
            let solution = random_square(n, None, &mut rng);
            let draft = random_draft(&request, solution.clone(), &mut rng).unwrap();
            let puzzle = draft.puzzle();
            for cage in puzzle.cages() {
                let digits: Vec<Digit> = cage.cells.iter().map(|c| solution[c.index()]).collect();
                assert!(cage.op.holds(&digits, cage.clue));
            }
            assert!(draft.givens() <= 1);
        }
    }

    #[test]
    fn connectivity() {
        assert!(connected(4, &[0, 1, 5]));
        assert!(!connected(4, &[0, 5]));
        assert!(connected(4, &[]));
    }
}
