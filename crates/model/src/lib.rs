//! The KenKen/Calcudoku puzzle model: what a puzzle *is*, with no solving policy and
//! no I/O.
//!
//! * [`Size`], [`CellId`], [`CageId`]: typed grid coordinates (sizes 3..=16).
//! * [`Digits`]: a `Copy` bitset of candidate digits.
//! * [`Op`], [`Cage`], [`Puzzle`]: a validated puzzle whose cages partition the grid
//!   into edge-connected pieces.
//! * [`Combinations`]: every assignment of digits to a cage's cells that satisfies
//!   its clue, with a [`BitVector`] of the live ones so solvers can strike them off.
//! * [`Budget`]: the deadline, work and memory bounds every computation over a
//!   puzzle runs within.
//! * [`options`]: the checks of the numbers every front end is given (durations,
//!   sizes, thread counts), with one [`OptionsError`].

#![forbid(unsafe_code)]

mod bit_vector;
pub mod bits;
pub mod budget;
mod cage;
pub mod clock;
mod combinations;
mod digits;
mod error;
mod grid;
pub mod options;
mod product;
mod puzzle;

pub use bit_vector::{BitVector, BitView};
pub use budget::{Budget, Exhausted, Limits};
pub use cage::{Cage, Op};
pub use combinations::Combinations;
pub use digits::{Digit, Digits, DigitsIter};
pub use error::ModelError;
pub use grid::{CageId, CellId, Region, RegionKind, Size, MAX_SIZE, MIN_SIZE};
pub use options::OptionsError;
pub use product::Product;
pub use puzzle::Puzzle;
