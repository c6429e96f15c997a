//! The clock every deadline is read from: the standard library's on native
//! targets, and in a browser or Node (`wasm32-unknown-unknown`, where
//! `std::time::Instant::now` panics) the page's monotonic clock,
//! `performance.now()`. The types are `std::time`'s own on native targets, so
//! an `Instant` made by either is the same type there.

pub use web_time::{Instant, SystemTime, UNIX_EPOCH};
