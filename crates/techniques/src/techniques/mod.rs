//! One file per technique. Each scans in the order the ladder spec fixes (rows, then
//! columns, then KenDoku boxes; digits ascending; cages in clue order) and returns the
//! first step that removes something.

pub mod cage_combination;
pub mod cage_support;
pub mod claiming;
pub mod fish;
pub mod hidden_single;
pub mod hidden_subset;
pub mod pointing;
pub mod region_parity;
pub mod region_sum;
pub mod region_totals;
pub mod subsets;
