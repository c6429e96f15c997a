//! Generated puzzles look like Tatham's: their cage-size and operation mix stay
//! near those of Tatham's Keen (Unreasonable) at the same size, and they have no
//! more givens than allowed.

use crate::common;

use kenken_formats::tatham;
use kenken_generator::{Request, ShapeStats};
use kenken_model::Puzzle;
use kenken_techniques::Rating;
use std::path::Path;

fn tatham_corpus(size: usize) -> Vec<Puzzle> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../puzzles/tatham-{size}x{size}-unreasonable.json"
    ));
    let ids: Vec<String> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    ids.iter().map(|id| tatham::read(id).unwrap()).collect()
}

#[test]
fn cage_sizes_and_operations_are_near_tathams() {
    for (size, lo, hi) in [(6, 40, 44), (7, 40, 42)] {
        let request = Request::new(size, Rating(lo), Some(Rating(hi)));
        let ours: Vec<Puzzle> = common::run(&request, 9, 24, 400, 2)
            .into_iter()
            .map(|g| g.puzzle)
            .collect();
        assert_eq!(ours.len(), 24);
        let (ours, theirs) = (ShapeStats::of(&ours), ShapeStats::of(&tatham_corpus(size)));
        eprintln!("{size}x{size} ours:    {ours}\n{size}x{size} Tatham's: {theirs}");
        assert!(ours.most_givens <= request.rules.max_givens);
        assert!(ours.mean_cage_size() <= request.rules.max_mean_cage_size + 1e-9);
        assert!((ours.mean_cage_size() - theirs.mean_cage_size()).abs() < 0.3);
        assert!(
            ours.size_distance(&theirs) < 0.3,
            "sizes: ours {ours}, Tatham's {theirs}"
        );
        assert!(
            ours.op_distance(&theirs) < 0.3,
            "operations: ours {ours}, Tatham's {theirs}"
        );
        // Every operation is used, none dominates.
        assert!(
            ours.op_shares().iter().all(|&s| s > 0.03 && s < 0.6),
            "{ours}"
        );
    }
}
