//! The search itself: the puzzle flattened into index-based vectors, and a
//! backtracking search over per-level copies of a small state.
//!
//! Everything is plain integers in flat vectors (cells as `u16`, digit sets as raw
//! `u16` masks, live combinations as `u64` words) because the inner loops run
//! millions of times on hard puzzles and must not chase pointers or allocate.
//!
//! * `encoding`: a cage's combinations as per-digit masks and packed words (what
//!   [`SearchTable`](crate::SearchTable) keeps);
//! * `flat`: the [`FlatPuzzle`], a puzzle and its live combinations in flat vectors;
//! * `propagate`: propagation to a fixed point on one level's state;
//! * `search`: the backtracking [`Search`] over per-level copies of that state.
//!
//! Here: the buffers a thread keeps from one search to the next ([`Buffers`]).

mod encoding;
mod flat;
mod propagate;
mod search;

pub(crate) use encoding::{encode, PACKED};
pub(super) use flat::FlatPuzzle;
pub(super) use search::{Search, SearchBuffers};

/// Sets `v` to `len` copies of `value`, in the memory it already has when that is
/// enough.
fn refill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// Everything a search allocates: a flat puzzle and the search's vectors. A thread
/// keeps one set between searches (see `count_solutions_within`), so a batch of
/// small puzzles allocates almost nothing per puzzle.
#[derive(Default)]
pub(super) struct Buffers {
    pub flat: FlatPuzzle,
    pub search: SearchBuffers,
}

impl Buffers {
    /// Kept for the next search only up to this many bytes, so that one large
    /// puzzle does not leave its memory with the thread.
    pub const KEEP: usize = 1 << 20;

    /// The bytes its vectors hold.
    pub fn capacity_bytes(&self) -> usize {
        self.flat.capacity_bytes() + self.search.capacity_bytes()
    }
}
