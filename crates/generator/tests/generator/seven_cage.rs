//! `puzzles/seven-cage/seven-cage.json`, the 9×9s `grader generate --min 5.0`
//! made (a band Tatham's generator never reaches): each is unique and rated
//! 5.0 by a fresh grader within `grader grade`'s default limits, its hardest
//! step a combination of seven cages. 3–6 s a puzzle, so it runs with the
//! slow sweeps (`cargo test --release -- --ignored seven_cage`).

use kenken_formats::{tatham, Strictness};
use kenken_model::Limits;
use kenken_search::{count_solutions, Verdict};
use kenken_techniques::{Grader, Options, Rating, Status};
use std::path::Path;

#[test]
#[ignore = "about a minute: the slow sweep runs it"]
fn seven_cage_puzzles_are_unique_and_rated_5() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/seven-cage/seven-cage.json");
    let ids: Vec<String> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(!ids.is_empty());
    for id in &ids {
        let (puzzle, _) = tatham::read_with(id, Strictness::Lenient).unwrap();
        assert_eq!(puzzle.size().get(), 9, "{id}");
        assert_eq!(count_solutions(&puzzle, 2).verdict, Verdict::Unique, "{id}");
        let grader = Grader::with_limits(&puzzle, Limits::new()).unwrap();
        let summary = grader.rate(Options::default());
        assert_eq!(summary.status, Status::Solved, "{id}");
        assert_eq!(summary.max, Rating(50), "{id}");
        assert_eq!(summary.depth, 7, "{id}");
    }
}
