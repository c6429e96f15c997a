//! The support check against a brute force.

use super::*;
use crate::{Grader, Ladder, Options};

/// The combinations of a set's cages that some clash-free choice for the whole
/// set uses, by trying every choice: the from-scratch version of
/// [`Scratch::unsupported`].
fn supported_by_brute_force(s: &State, cages: &[CageId]) -> Vec<Vec<usize>> {
    let live: Vec<Vec<usize>> = cages
        .iter()
        .map(|&c| s.live_combinations(c).collect())
        .collect();
    let layout = s.layout();
    let clash = |a: CageId, i: usize, b: CageId, j: usize| {
        layout
            .cage_cells(a)
            .iter()
            .zip(layout.combination(a, i))
            .any(|(&x, &dx)| {
                layout
                    .cage_cells(b)
                    .iter()
                    .zip(layout.combination(b, j))
                    .any(|(&y, &dy)| dx == dy && s.puzzle().sees(x, y))
            })
    };
    let mut used: Vec<Vec<usize>> = vec![Vec::new(); cages.len()];
    let mut pick = vec![0usize; cages.len()];
    fn walk(
        k: usize,
        pick: &mut Vec<usize>,
        live: &[Vec<usize>],
        cages: &[CageId],
        clash: &dyn Fn(CageId, usize, CageId, usize) -> bool,
        used: &mut [Vec<usize>],
    ) {
        if k == cages.len() {
            for (u, &p) in used.iter_mut().zip(pick.iter()) {
                u.push(p);
            }
            return;
        }
        for &i in &live[k] {
            if (0..k).all(|j| !clash(cages[j], pick[j], cages[k], i)) {
                pick[k] = i;
                walk(k + 1, pick, live, cages, clash, used);
            }
        }
    }
    walk(0, &mut pick, &live, cages, &clash, &mut used);
    for u in &mut used {
        u.sort_unstable();
        u.dedup();
    }
    used
}

#[test]
fn a_pair_without_a_clash_loses_nothing() {
    // Cage 1 (r1c3, r1c4) is {3,4}; with r1c1, r1c2 in {1,2} nothing clashes.
    let p = kenken_formats::text::read(
        "# 4\n/ 2 A1 A2\n+ 7 A3 A4\n+ 30 B1 B2 B3 B4 C1 C2 C3 C4 D1 D2 D3 D4\n",
    )
    .expect("puzzle");
    let mut marks = vec![kenken_model::Digits::full(4); 16];
    marks[0] = [1, 2].into_iter().collect();
    marks[1] = marks[0];
    let s = State::with_candidates(&p, &marks).expect("consistent marks");
    let list = [CageId::new(1), CageId::new(0)];
    let mut cache = SupportCache::new(s.layout().cage_count());
    let changed_at = vec![0; s.layout().cage_count()];
    let mut budget = Budget::unlimited();
    let mut scratch = Scratch::new(&s, &list, &mut cache, 0, &changed_at, &mut budget);
    assert!(scratch.unsupported(&[0, 1]).unwrap().is_empty());
}

/// Every connected set of 2 and 3 cages (and the first few of 4) of a few
/// puzzles, at each state of the first steps of their mode-c grading, with one
/// support cache for the whole run as the technique keeps it (pair tables
/// outlive dead combinations): the cuts must be exactly the brute-force ones,
/// and a second check of the same set (reusing the scratch's buffers; a pair
/// through its table where the first check tested footprints directly) must
/// agree. Sizes 4 to 8: footprints of one word (4×4, 5×5) and two (6×6 to
/// 8×8), so the first, direct check of a pair takes the single-word path
/// (`small_pair`, which reads the state's live words) whenever each of its cages
/// has at most 64 combinations in its table, and the live-list path otherwise.
#[test]
fn support_agrees_with_brute_force() {
    let ids = [
        "4:aa_4c_a_aa__b,s2a7s2d2m36m24",
        "5:_aa_5aa_b_c__a_a_aa__a__,m10a10s2m15a8m12d2s2a6s2d2",
        "6:a_b_3a_14aa_ab_aaba_aa__aa_aa,m40a12a6m24s2m6m90m8s3d3a5a5s1a7d2s2",
        "7:a6_aab_ba_a_a_4a__a3__a_7aa_4a_3a_4aa_aa,m48s4m20d3s1a7m24a7s3s1a6m105m24s1m36a8a6m12a10s3s4d2",
        "8:a_a3_aa_a3_4a_a_7a__a_a_3aa_5a_a_3a3_a_5a_6aa_3aa__a_ba3,s5m5d3a12m32s5s1s5a10a12s5d2m5m18d2a8a13a10a6m24a12m40d2s2s3s1m24m5d2s6m6",
    ];
    let mut checked = 0;
    for id in ids {
        let p = kenken_formats::tatham::read(id).expect("puzzle");
        let grader = Grader::new(&p).expect("grader");
        let (mut s, _) = grader.start();
        let cages = p.cages().len();
        let mut ladder = Ladder::new(grader.layout(), Options::cage_combinations_only());
        let mut cache = SupportCache::new(cages);
        let (mut clock, mut changed_at) = (0u32, vec![0u32; cages]);
        for _round in 0..8 {
            let list: Vec<CageId> = p.cage_ids().filter(|&c| s.live_count(c) > 1).collect();
            let mut budget = Budget::unlimited();
            let mut scratch = Scratch::new(&s, &list, &mut cache, clock, &changed_at, &mut budget);
            let m = list.len();
            let mut sets: Vec<Vec<usize>> = Vec::new();
            for a in 0..m {
                for b in a + 1..m {
                    sets.push(vec![a, b]);
                    for c in b + 1..m {
                        sets.push(vec![a, b, c]);
                        if a == 0 && b == 1 {
                            for d in c + 1..m {
                                sets.push(vec![a, b, c, d]);
                            }
                        }
                    }
                }
            }
            for set in sets {
                let cages: Vec<CageId> = set.iter().map(|&i| list[i]).collect();
                let linked = |x: CageId, y: CageId| s.layout().linked(x, y);
                // Connected sets only, as the technique asks.
                let mut reached = vec![false; cages.len()];
                reached[0] = true;
                for _ in 0..cages.len() {
                    for i in 0..cages.len() {
                        for j in 0..cages.len() {
                            if reached[i] && linked(cages[i], cages[j]) {
                                reached[j] = true;
                            }
                        }
                    }
                }
                if reached.contains(&false) {
                    continue;
                }
                let used = supported_by_brute_force(&s, &cages);
                // Pairs checked directly first, then through their pair tables.
                scratch.set_pair_tables(false);
                let first = scratch.unsupported(&set).unwrap();
                scratch.set_pair_tables(true);
                let again = scratch.unsupported(&set).unwrap();
                for (k, &cage) in cages.iter().enumerate() {
                    let expected: Vec<u32> = s
                        .live_combinations(cage)
                        .filter(|i| used[k].binary_search(i).is_err())
                        .map(|i| i as u32)
                        .collect();
                    let got = |cuts: &[CageCut]| {
                        cuts.iter()
                            .find(|c| c.cage == cage)
                            .map(|c| c.removed.clone())
                            .unwrap_or_default()
                    };
                    assert_eq!(got(&first), expected, "{id}: set {cages:?}, cage {cage:?}");
                    assert_eq!(got(&again), expected, "{id}: again, set {cages:?}");
                }
                checked += 1;
            }
            // The next mode-c step, as a grading run takes it.
            let Some(step) = ladder.next_step(&s) else {
                break;
            };
            s.apply(&step);
            s.propagate().expect("a sound step");
            let changed = s.take_changed_cages();
            ladder.cages_changed(&changed);
            clock += 1;
            for c in changed {
                changed_at[c.index()] = clock;
            }
        }
    }
    assert!(checked > 1000, "only {checked} sets checked");
}
