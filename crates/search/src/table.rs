//! A cage's combination table in the form the search reads, made once and shared
//! by every puzzle that has a cage of the same kind.

use crate::engine::{self, PACKED};
use kenken_model::{Budget, CageId, Combinations, Exhausted, Limits, Puzzle};

/// The live combinations of a cage's table in the search's own form: each
/// combination as one digit bit per cell, the digit masks per cage position, and
/// for a cage of at most four cells each combination packed in one word.
///
/// Building these is most of what the search does to a small puzzle's tables
/// before it starts: a caller that meets the same kinds of cages over and over (a
/// batch) makes each table once and passes it to
/// [`count_solutions_prepared`](crate::count_solutions_prepared) as often as it
/// likes. It depends only on the combinations and the grid's size, not on where
/// the cage lies.
#[derive(Clone, Debug)]
pub struct SearchTable {
    /// The grid's size.
    pub(crate) n: usize,
    width: usize,
    /// Per combination, `width` digit bits.
    pub(crate) combos: Vec<u16>,
    /// See [`engine::encode`].
    pub(crate) masks: Vec<u64>,
    /// One word per combination when the cage has at most [`PACKED`] cells, else
    /// empty.
    pub(crate) packed: Vec<u64>,
}

impl SearchTable {
    /// The live combinations of `table`, for a grid of `n` × `n` (rows with a
    /// digit outside 1..=`n` can never be placed and are left out).
    pub fn new(table: &Combinations, n: usize) -> SearchTable {
        SearchTable::within(table, n, &mut Budget::new(Limits::new()))
            .expect("the default limits hold no deadline, and encoding spends no work")
    }

    /// [`SearchTable::new`] looking at `budget`'s deadline on the way.
    fn within(
        table: &Combinations,
        n: usize,
        budget: &mut Budget,
    ) -> Result<SearchTable, Exhausted> {
        let width = table.width();
        let mut combos = Vec::with_capacity(table.len() * width);
        for i in table.live_indices() {
            let row = table.row(i);
            if row.iter().all(|&d| (1..=n).contains(&usize::from(d))) {
                combos.extend(row.iter().map(|&d| 1u16 << (d - 1)));
            }
        }
        let count = combos.len() / width.max(1);
        let mut masks = vec![0; width * n * count.div_ceil(64)];
        let mut packed = vec![0; if width <= PACKED { count } else { 0 }];
        let words = (width <= PACKED).then_some(&mut packed[..]);
        engine::encode(&combos, width, n, &mut masks, words, budget)?;
        Ok(SearchTable {
            n,
            width,
            combos,
            masks,
            packed,
        })
    }

    /// The combinations of cage `id` of `puzzle` ([`Combinations::enumerate_within`]),
    /// in the search's form; the table's bytes stay reserved on `budget`.
    pub fn enumerate_within(
        puzzle: &Puzzle,
        id: CageId,
        budget: &mut Budget,
    ) -> Result<SearchTable, Exhausted> {
        let table = Combinations::enumerate_within(puzzle, id, budget)?;
        let search = SearchTable::within(&table, puzzle.size().get(), budget)?;
        // The masks and packed words, and a second byte per digit.
        budget.reserve(8 * (search.masks.len() + search.packed.len()) + search.combos.len())?;
        Ok(search)
    }

    /// Cells per combination.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of combinations.
    pub fn len(&self) -> usize {
        self.combos.len() / self.width.max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.combos.is_empty()
    }
}
