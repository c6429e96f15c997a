//! The cores search against checking every connected set on its own.

use super::super::connected_sets::{ListLinks, Partial, Walk};
use super::super::support::SupportCache;
use super::*;
use crate::{Grader, Ladder, Options, State};
use std::ops::ControlFlow;

/// The connected n-sets of the list that remove something, by checking each
/// one on its own: the reference the search from the combinations' side must
/// agree with.
fn removing_by_walk(state: &State, list: &[CageId], n: usize) -> Vec<Vec<usize>> {
    let layout = state.layout();
    let links = ListLinks::new(list.len(), |i, j| layout.linked(list[i], list[j]));
    let mut cache = SupportCache::new(layout.cage_count());
    let changed_at = vec![0; layout.cage_count()];
    let mut budget = Budget::unlimited();
    let mut scratch = Scratch::new(state, list, &mut cache, 0, &changed_at, &mut budget);
    let mut removing = Vec::new();
    let walk = Walk::new(&links, 0..list.len());
    let _ = walk.run(&mut Partial::default(), n, None, None, &mut |set| {
        let members = &set.members[..set.len];
        if !scratch.unsupported(members).unwrap().is_empty() {
            removing.push(members.to_vec());
        }
        ControlFlow::Continue(())
    });
    removing
}

/// At every state of the mode-c grading of puzzles of 5×5 to 7×7, with
/// operations shown and hidden: the first level from 2 up with a
/// set that removes something is found by checking every connected set; from
/// level 3 on, the search from the combinations' side must give exactly the
/// same sets at that level (and none at the levels below it), with and without
/// a solution to guide it, and again from the results it kept (brought up to
/// date with the cages each step changed).
#[test]
fn cores_agree_with_checking_every_set() {
    let ids = [
        ("5:_aa_5aa_b_c__a_a_aa__a__,m10a10s2m15a8m12d2s2a6s2d2", false),
        ("6:a_b_3a_14aa_ab_aaba_aa__aa_aa,m40a12a6m24s2m6m90m8s3d3a5a5s1a7d2s2", false),
        ("6:__aa_ba_aa_aa_3a__b_3a_5aa_3a_3a3_,m12d3s1s3m15m12a6a6m6a9m5s1s1d2s3a13d2", true),
        ("6:a3b__a__a_3a_3b_3a_10a__a3bba,d2a8m6s2m18a7m40s2d2m6s3m72a7s1d3a11", true),
        ("7:a__c_4a_4a__a4__b_3b_6a_4ba__aa_3a_4a__a4,d2m15d3m168a10s2a10d2a11d3m28s4s1s2a10a6d2m28m6m84s4s2a11", true),
        ("7:a6_aab_ba_a_a_4a__a3__a_7aa_4a_3a_4aa_aa,m48s4m20d3s1a7m24a7s3s1a6m105m24s1m36a8a6m12a10s3s4d2", false),
    ];
    let mut compared = [0usize; MAX_CAGE_SET + 1];
    for (id, hide) in ids {
        let mut p = kenken_formats::tatham::read(id).expect("puzzle");
        if hide {
            p = p.with_hidden_ops();
        }
        let solution = kenken_search::solve(&p).solution.expect("a solution");
        let grader = Grader::new(&p).expect("grader");
        let (mut s, _) = grader.start();
        let layout = grader.layout();
        let mut ladder = Ladder::new(layout, Options::cage_combinations_only());
        // The kept results with the support cache they were found with (its
        // universes, rebuilt as combinations die, number the combinations).
        let mut kept = CoreCache::default();
        let mut kept_support = SupportCache::new(layout.cage_count());
        // The same, asked only for the first set from a start on.
        let mut kept_first = CoreCache::default();
        let mut kept_first_support = SupportCache::new(layout.cage_count());
        let (mut clock, mut changed_at) = (0, vec![0; layout.cage_count()]);
        loop {
            let list: Vec<CageId> = p.cage_ids().filter(|&c| s.live_count(c) > 1).collect();
            let seeded: Vec<Option<u32>> = list
                .iter()
                .map(|&c| {
                    let digits: Vec<_> = layout
                        .cage_cells(c)
                        .iter()
                        .map(|x| solution[x.index()])
                        .collect();
                    (0..layout.table(c).len())
                        .find(|&i| layout.combination(c, i) == digits.as_slice())
                        .map(|i| i as u32)
                })
                .collect();
            for (n, compared_at_n) in compared
                .iter_mut()
                .enumerate()
                .take(list.len().min(6) + 1)
                .skip(2)
            {
                let expected = removing_by_walk(&s, &list, n);
                if n >= 3 {
                    let unguided = vec![None; list.len()];
                    for (guide, cache, support, at) in [
                        (
                            &seeded[..],
                            &mut CoreCache::default(),
                            &mut SupportCache::new(layout.cage_count()),
                            0,
                        ),
                        (
                            &unguided[..],
                            &mut CoreCache::default(),
                            &mut SupportCache::new(layout.cage_count()),
                            0,
                        ),
                        (&seeded[..], &mut kept, &mut kept_support, clock),
                    ] {
                        let mut budget = Budget::unlimited();
                        let mut scratch =
                            Scratch::new(&s, &list, support, at, &changed_at, &mut budget);
                        let got = removing_sets(
                            &mut scratch,
                            n,
                            guide,
                            (clock, &changed_at),
                            cache,
                            Wanted::All,
                        )
                        .expect("every smaller set removes nothing");
                        assert_eq!(got, expected, "{id} (hidden: {hide}), level {n}");
                    }
                    // From the middle of the sets on (the first set when there
                    // are fewer than two): the first there, and no others but
                    // removing sets.
                    let start = (expected.len() >= 2).then(|| &expected[expected.len() / 2][..]);
                    let mut budget = Budget::unlimited();
                    let mut scratch = Scratch::new(
                        &s,
                        &list,
                        &mut kept_first_support,
                        clock,
                        &changed_at,
                        &mut budget,
                    );
                    let got = removing_sets(
                        &mut scratch,
                        n,
                        &seeded,
                        (clock, &changed_at),
                        &mut kept_first,
                        Wanted::FirstFrom(start),
                    )
                    .expect("every smaller set removes nothing");
                    assert!(
                        got.iter().all(|set| expected.contains(set)),
                        "{id}, level {n}"
                    );
                    let first_from = |sets: &[Vec<usize>]| {
                        let lo = start.unwrap_or_default();
                        sets.iter()
                            .min_by_key(|&set| (&set[..] < lo, set.clone()))
                            .cloned()
                    };
                    assert_eq!(
                        first_from(&got),
                        first_from(&expected),
                        "{id} (hidden: {hide}), level {n}, the first from {start:?}"
                    );
                    *compared_at_n += 1;
                }
                if !expected.is_empty() {
                    break;
                }
            }
            let Some(step) = ladder.next_step(&s) else {
                break;
            };
            s.apply(&step);
            s.propagate().expect("a sound step");
            let changed = s.take_changed_cages();
            ladder.cages_changed(&changed);
            clock += 1;
            for c in &changed {
                changed_at[c.index()] = clock;
            }
        }
    }
    assert!(
        compared[3..6].iter().all(|&c| c >= 5),
        "levels compared: {compared:?}"
    );
}

/// Every n-set from `lo` up to `hi` (in ascending lexicographic order) is one
/// [`Between`] describes, for every pair of 3-sets of 7 positions and from the
/// first set.
#[test]
fn between_describes_every_set_of_its_range() {
    let sets: Vec<Vec<usize>> = (0..7usize)
        .flat_map(|a| (a + 1..7).flat_map(move |b| (b + 1..7).map(move |c| vec![a, b, c])))
        .collect();
    let starts = std::iter::once(Vec::new()).chain(sets.iter().cloned());
    let mut described = 0;
    for lo in starts {
        for hi in sets.iter().filter(|hi| **hi > lo) {
            let range = Between::new(&lo, hi).expect("a set from lo up to hi");
            for u in sets.iter().filter(|u| **u >= lo && *u < hi) {
                let mask = u.iter().fold(0, |set, &p| set | bit(p));
                assert_eq!(mask & range.prefix, range.prefix, "{lo:?}..{hi:?}: {u:?}");
                assert_eq!(mask & range.below, 0, "{lo:?}..{hi:?}: {u:?}");
                assert_ne!(mask & range.window, 0, "{lo:?}..{hi:?}: {u:?}");
                described += 1;
            }
        }
        assert!(Between::new(&lo, &lo).is_none() || lo.is_empty());
    }
    assert!(described > 5_000, "{described}");
}
