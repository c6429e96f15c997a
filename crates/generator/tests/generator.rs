//! Integration tests of the generator crate, in one test binary: determinism
//! whatever the threads (`determinism`), every puzzle unique and in its band,
//! checked from its written ID (`properties`), the cage-size and operation mix
//! against Tatham's (`shape`), `--strict` IDs played by Simon Tatham's own
//! program (`keen`), and the corpus of 9×9s rated 5.0 regraded (`seven_cage`,
//! a slow sweep).

#[path = "generator/common.rs"]
mod common;
#[path = "generator/determinism.rs"]
mod determinism;
#[path = "generator/keen.rs"]
mod keen;
#[path = "generator/properties.rs"]
mod properties;
#[path = "generator/seven_cage.rs"]
mod seven_cage;
#[path = "generator/shape.rs"]
mod shape;
