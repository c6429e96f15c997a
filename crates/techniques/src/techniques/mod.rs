//! One file per technique, each a [`Technique`](crate::Technique) made for a run
//! by the registry. Each scans in the order the ladder fixes (`docs/ladder.md`) (rows, then
//! columns, then KenDoku boxes; digits ascending; cages in clue order) and returns
//! the first step that removes something.

pub(crate) mod cage_combination;
pub(crate) mod claiming;
pub(crate) mod fish;
pub(crate) mod hidden_single;
pub(crate) mod hidden_subset;
pub(crate) mod naked_single;
pub(crate) mod pointing;
pub(crate) mod region;
mod subsets;
