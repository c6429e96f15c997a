//! Shared test helpers: the reference data and a minimal Tatham reader.
#![allow(dead_code)]

use kenken_model::Puzzle;
use std::path::PathBuf;

pub fn shared_reference(file: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/reference")
        .join(file);
    assert!(
        p.exists(),
        "missing {} (the shared reference data must sit beside the repository)",
        p.display()
    );
    p
}

/// Reads a Tatham game ID (leniently, as the reference's test grids need).
pub fn tatham(id: &str) -> Puzzle {
    kenken_formats::read_any(id, Some(kenken_formats::Format::Tatham))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .puzzle
}
