//! Shared test helpers: the reference data and a minimal Tatham reader.

use kenken_model::Puzzle;
use std::path::PathBuf;

/// A file of the repository's `reference/` (the reference solver's ratings, logs
/// and test grids).
pub fn reference_file(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../reference")
        .join(file)
}

/// Reads a Tatham game ID (leniently, as the reference's test grids need).
pub fn tatham(id: &str) -> Puzzle {
    kenken_formats::read_any(id, Some(kenken_formats::Format::Tatham))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .puzzle
}
