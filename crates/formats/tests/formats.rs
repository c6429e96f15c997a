//! Integration tests of the formats crate, in one test binary: hand-checked
//! K6C/D6C vectors (`k6c_vectors`), round trips of the reference puzzles (`reference/`)
//! (`reference`), conformance with Simon Tatham's own program (`sgt_keen`), and
//! mutation fuzzing of every reader (`fuzz`).

#[path = "formats/fuzz.rs"]
mod fuzz;
#[path = "formats/k6c_vectors.rs"]
mod k6c_vectors;
#[path = "formats/reference.rs"]
mod reference;
#[path = "formats/sgt_keen.rs"]
mod sgt_keen;
