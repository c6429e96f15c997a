//! Solving techniques (see issue 3).

pub mod search;
