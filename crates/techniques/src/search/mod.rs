//! Exhaustive solution counter (being written).
