//! The puzzles the criterion benchmarks in `benches/benches/` run on.
//!
//! They live in `data/puzzles.json`, chosen from the reference ratings by
//! `data/select.py` (its docstring gives the rules), and are compiled into the bench
//! binaries with `include_str!` so that a benchmark measures the same puzzles
//! wherever it is run from, with no file to find at run time.

#![forbid(unsafe_code)]

use kenken_model::Puzzle;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// One benchmark puzzle, with the reference's figures kept so that a reader of a
/// result can see what kind of puzzle it was.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    /// Tatham game ID.
    pub puzzle: String,
    /// The Tatham params it was generated with (`9du` = 9×9 Unreasonable).
    pub tatham_level: String,
    /// The reference's mode-n max rating.
    pub max: f64,
    /// The reference's wall time for both modes, in ms.
    pub ms: u64,
    /// Its 1-based line in `reference-ratings.ndjson`.
    pub line: usize,
}

#[derive(Deserialize)]
struct Data {
    groups: BTreeMap<String, Vec<Entry>>,
}

static DATA: LazyLock<Data> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../data/puzzles.json"))
        .expect("benches/data/puzzles.json is not valid; regenerate it with data/select.py")
});

/// Per size (4×4, 6×6, 9×9): one puzzle per Tatham level, so that a group's time is
/// not one outlier's.
pub const SIZE_GROUPS: [&str; 3] = ["size4", "size6", "size9"];
/// Per hardness (`bandK`: 6×6 puzzles whose reference max rating is K.x), all one
/// size so that the bands differ in the techniques needed, not in grid size.
pub const BAND_GROUPS: [&str; 5] = ["band0", "band1", "band2", "band3", "band4"];
/// 100 puzzles spread evenly over the whole reference file, all sizes and levels:
/// what a batch run sees.
pub const SAMPLE_GROUP: &str = "sample100";
/// 50 puzzles the reference grades in at most 2 ms (3×3 to 5×5): where the fixed
/// cost of a puzzle weighs most.
pub const QUICK_GROUP: &str = "quick50";

/// A group's entries.
///
/// # Panics
///
/// When the group is not in the data file: a bench naming a group that does not
/// exist is a bug to fix, not a case to skip silently.
pub fn group(name: &str) -> &'static [Entry] {
    DATA.groups
        .get(name)
        .unwrap_or_else(|| panic!("no group {name:?} in benches/data/puzzles.json"))
}

/// A group's puzzles, read as Tatham IDs (outside any timed loop).
///
/// # Panics
///
/// When an ID does not read: every one came from the reference file, which the
/// formats crate reads in full, so that would be a regression.
pub fn puzzles(name: &str) -> Vec<Puzzle> {
    group(name)
        .iter()
        .map(|e| {
            kenken_formats::tatham::read(&e.puzzle)
                .unwrap_or_else(|err| panic!("{name}: {}: {err}", e.puzzle))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_search as search;

    #[test]
    fn every_group_is_there_and_the_size_of_its_rule() {
        for name in SIZE_GROUPS.iter().chain(&BAND_GROUPS) {
            let n = group(name).len();
            assert!((3..=5).contains(&n), "{name} has {n} puzzles");
        }
        assert_eq!(group(SAMPLE_GROUP).len(), 100);
        assert_eq!(group(QUICK_GROUP).len(), 50);
    }

    #[test]
    fn groups_hold_what_their_names_say() {
        for (name, size) in SIZE_GROUPS.iter().zip([4, 6, 9]) {
            for p in puzzles(name) {
                assert_eq!(p.size().get(), size, "{name}");
            }
        }
        for (band, name) in BAND_GROUPS.iter().enumerate() {
            for e in group(name) {
                assert!(e.puzzle.starts_with("6:"), "{name}: {}", e.puzzle);
                assert_eq!(e.max.trunc() as usize, band, "{name}: {}", e.puzzle);
            }
        }
        for e in group(QUICK_GROUP) {
            assert!(e.ms <= 2, "{QUICK_GROUP}: {} took {} ms", e.puzzle, e.ms);
        }
    }

    /// The benches time real work only if every puzzle is a proper one.
    #[test]
    fn every_puzzle_reads_and_has_one_solution() {
        let names = SIZE_GROUPS
            .iter()
            .chain(&BAND_GROUPS)
            .chain([&SAMPLE_GROUP, &QUICK_GROUP]);
        for name in names {
            for (e, p) in group(name).iter().zip(puzzles(name)) {
                let outcome = search::solve(&p);
                assert!(outcome.is_unique(), "{name}: {}", e.puzzle);
            }
        }
    }
}
