//! A per-thread cache of cage combination tables, so that a batch enumerates each
//! kind of cage once.
//!
//! A cage's table depends only on N, its operation and clue, and its shape: which
//! of its cells share a row or column, i.e. their positions relative to its first
//! cell. Batches are full of the same small cages (`3-` on two cells side by side,
//! `6×` on an L of three, …), and for a small puzzle the enumeration is a tenth of
//! the grading. KenDoku cages are not cached (their boxes depend on where they
//! are), nor cages of more than [`MAX_CELLS`] cells.
//!
//! The cache is bounded: once its tables take [`MAX_BYTES`] (digits, packed words
//! and line words; the whole reference file needs under 2 MiB) it is emptied and
//! starts again. Tables are shared read-only ([`Arc`]), so a table a layout still
//! uses outlives its eviction.

use kenken_model::{Budget, CageId, CellId, Combinations, Exhausted, Op, Puzzle};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

/// The largest cage cached (cells).
const MAX_CELLS: usize = 12;

/// The most bytes of tables the cache of one thread holds (see [`CageTable::bytes`]).
const MAX_BYTES: usize = 1 << 24;

/// What a cage's table depends on, packed: the clue, and N, the operation, the
/// cell count and, per cell after the first, its row and column offsets from the
/// first cell (4 and 5 bits; the column offset shifted to be non-negative).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    clue: u64,
    shape: u128,
}

impl Key {
    /// The key of a cage, or `None` when it is not cached.
    fn of(puzzle: &Puzzle, id: CageId) -> Option<Key> {
        let cage = puzzle.cage(id);
        if puzzle.boxes().is_some() || cage.cells.len() > MAX_CELLS {
            return None;
        }
        let size = puzzle.size();
        let (first, rest) = cage.cells.split_first()?;
        let (r0, c0) = (size.row(*first), size.col(*first));
        let op = match cage.op {
            Op::Add => 0,
            Op::Sub => 1,
            Op::Mul => 2,
            Op::Div => 3,
            Op::Given => 4,
            Op::Hidden => 5,
        };
        // 16 bits, then 9 per cell after the first: at most 115 bits.
        let head = (size.get() as u128) << 7 | op << 4 | cage.cells.len() as u128;
        // Cells are in reading order: never above the first, and at most N − 1
        // columns either side (N ≤ 16: offsets below 16 and 31).
        let shape = rest.iter().fold(head, |key, &cell| {
            let dr = size.row(cell) - r0;
            let dc = size.col(cell) + size.get() - 1 - c0;
            key << 9 | (dr as u128) << 5 | dc as u128
        });
        Some(Key {
            clue: cage.clue,
            shape,
        })
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.clue ^ (self.shape as u64) ^ (self.shape >> 64) as u64);
    }
}

/// A hasher for [`Key`]s: one multiply (SipHash costs more than the lookup saves,
/// and the keys come from the puzzles being graded, not from an adversary).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

#[derive(Default)]
struct Cache {
    /// By N: a batch grades a size at a time, and one size's map is then a compact
    /// block in the caches instead of entries scattered through every size's.
    tables: Vec<HashMap<Key, Arc<CageTable>, BuildHasherDefault<KeyHasher>>>,
    bytes: usize,
}

/// A cage's combination table and what depends on it and the cage's shape alone
/// (so on its cache key):
///
/// * `packed`: its combinations one word each, when they fit (cage cells × N ≤ 64:
///   every cage of up to 7 cells on a 9×9 grid). Bit `pos × N + d − 1` is digit
///   `d` at cage position `pos`; the combination filter, the core of propagation,
///   then tests a combination against the cells' candidates with one AND.
/// * `lines`: per combination, the digits it puts in each row and each column the
///   cage touches, relative to the cage's first row and leftmost column (bit
///   `(row − first row) × N + d − 1`, and the same for columns), when a grid's
///   footprints fit two words (N ≤ 8, no KenDoku boxes): a layout shifts them into
///   place instead of building every footprint digit by digit (see
///   [`Layout::footprint`](crate::Layout::footprint)).
#[derive(Debug)]
pub(crate) struct CageTable {
    pub combos: Combinations,
    pub packed: Option<Box<[u64]>>,
    pub lines: Option<Box<[(u64, u64)]>>,
}

impl CageTable {
    fn new(combos: Combinations, puzzle: &Puzzle, id: CageId) -> CageTable {
        let size = puzzle.size();
        let n = size.get();
        let packed = (combos.width() * n <= 64).then(|| {
            (0..combos.len())
                .map(|i| {
                    combos
                        .row(i)
                        .iter()
                        .enumerate()
                        .fold(0u64, |bits, (pos, &d)| {
                            debug_assert!(
                                (1..=n).contains(&(d as usize)),
                                "digits come from 1..=N"
                            );
                            bits | 1 << (pos * n + d as usize - 1)
                        })
                })
                .collect()
        });
        let cells = &puzzle.cage(id).cells;
        let lines = (n <= 8 && puzzle.boxes().is_none()).then(|| {
            let (r0, c0) = line_origin(puzzle, cells);
            (0..combos.len())
                .map(|i| {
                    combos.row(i).iter().zip(cells).fold(
                        (0u64, 0u64),
                        |(rows, cols), (&d, &cell)| {
                            let d = d as usize - 1;
                            (
                                rows | 1 << ((size.row(cell) - r0) * n + d),
                                cols | 1 << ((size.col(cell) - c0) * n + d),
                            )
                        },
                    )
                })
                .collect()
        });
        CageTable {
            combos,
            packed,
            lines,
        }
    }

    /// About what the table takes: a byte per digit, the packed words and the line
    /// words.
    pub(crate) fn bytes(&self) -> usize {
        let words = |w: Option<usize>| w.unwrap_or(0) * 8;
        self.combos.len() * self.combos.width()
            + words(self.packed.as_ref().map(|p| p.len()))
            + words(self.lines.as_ref().map(|l| 2 * l.len()))
    }
}

/// The first row and the leftmost column of a cage's cells (reading order: the
/// first cell's row is the first row), which [`CageTable::lines`] are relative to.
pub(crate) fn line_origin(puzzle: &Puzzle, cells: &[CellId]) -> (usize, usize) {
    let size = puzzle.size();
    let first_row = cells.first().map_or(0, |&c| size.row(c));
    let left = cells.iter().map(|&c| size.col(c)).min().unwrap_or(0);
    (first_row, left)
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The combination table of a cage ([`Puzzle::combinations`]), from this thread's
/// cache when a cage of the same kind was enumerated before. Its bytes are reserved
/// on `budget` (which the layout holding it answers for), whether it was made now
/// or found in the cache.
pub(crate) fn combinations(
    puzzle: &Puzzle,
    id: CageId,
    budget: &mut Budget,
) -> Result<Arc<CageTable>, Exhausted> {
    let Some(key) = Key::of(puzzle, id) else {
        return make(puzzle, id, budget).map(Arc::new);
    };
    let n = puzzle.size().get();
    CACHE.with(|cache| {
        if let Some(table) = cache.borrow().tables.get(n).and_then(|t| t.get(&key)) {
            budget.reserve(table.bytes())?;
            return Ok(Arc::clone(table));
        }
        let table = Arc::new(make(puzzle, id, budget)?);
        let mut cache = cache.borrow_mut();
        let bytes = table.bytes();
        if cache.bytes + bytes > MAX_BYTES {
            cache.tables.clear();
            cache.bytes = 0;
        }
        cache.bytes += bytes;
        if cache.tables.len() <= n {
            cache.tables.resize_with(n + 1, HashMap::default);
        }
        cache.tables[n].insert(key, Arc::clone(&table));
        Ok(table)
    })
}

/// Enumerates a cage's table and what depends on it, reserving its bytes.
fn make(puzzle: &Puzzle, id: CageId, budget: &mut Budget) -> Result<CageTable, Exhausted> {
    let combos = Combinations::enumerate_within(puzzle, id, budget)?;
    // The enumeration reserved the digits; the packed and line words come on top.
    let rows = combos.len();
    let n = puzzle.size().get();
    let packed = if combos.width() * n <= 64 {
        8 * rows
    } else {
        0
    };
    let lines = if n <= 8 && puzzle.boxes().is_none() {
        16 * rows
    } else {
        0
    };
    budget.reserve(packed + lines)?;
    budget.spend((rows * combos.width()) as u64)?;
    Ok(CageTable::new(combos, puzzle, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cached tables are the tables enumerated afresh, cage by cage of puzzles of
    /// one size whose cages repeat (so most come from the cache), and a cage met
    /// again gets the very same table.
    #[test]
    fn cached_tables_are_enumerated_tables() {
        let ids = [
            "6:aa_aa_3a_6a__baa_a_3a_4a_3a3_aa__,m6a6m12a9m6m12d2s3a8s1d2s3d2s1d3s3a5d2",
            "6:aa_4a_4a3_a_a3_aba_3a_4ba_3a_b,s1d3a11m5s4m24d3a11a8m36d3a17s4m20d3",
            "6:_aa_11a__a_3a_ca__a_3a_a3_a3b_,m10a5m30a7d3d2s4d3m4m60s3a5s2d3s1d2a7",
            "6:c_10a_a_6a__a7_aa_b_aa_a_,a21d2s1s3d3a9d2a7a6d2s3m12m30m8m6s1",
            "6:__aa__aa_a_8a_a_b_c_a_aa_3b_a__aa_,a6s3m6m12s1d3a5m24m30m36d3s1a9s1s2a7",
            "4:aa__a_d__a_a_a_,m2s1m36d2s2a10",
            "4:_a_5a_bac_a__,d2m12a5m8s2d2s1",
        ];
        for id in ids {
            let p = kenken_formats::tatham::read(id).expect("puzzle");
            for cage in p.cage_ids() {
                let first = combinations(&p, cage, &mut Budget::unlimited()).expect("table");
                assert_eq!(
                    first.combos,
                    p.combinations(cage).expect("table"),
                    "{id} {cage:?}"
                );
                let again = combinations(&p, cage, &mut Budget::unlimited()).expect("table");
                assert!(Arc::ptr_eq(&first, &again));
            }
        }
    }
}
