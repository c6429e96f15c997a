//! Puzzle string formats (see issue 2).
