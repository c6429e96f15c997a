//! Puzzles the CLI tests use: rows of `reference/reference-ratings.ndjson`
//! (Tatham IDs with the reference solver's mode-n max and total and mode-c depth and
//! step count), and a few hand-made puzzles with no or several solutions.

/// One reference row.
pub struct Row {
    pub puzzle: &'static str,
    /// As the reference prints it (and our TSV does).
    pub max: &'static str,
    pub total: &'static str,
    pub depth: usize,
    /// The reference's mode-c step count, where ours agrees (the count depends on
    /// the cage-set search order; max and depth do not).
    pub cc_steps: Option<usize>,
}

pub const ROWS: &[Row] = &[
    Row {
        puzzle: "4:aa__a_d__a_a_a_,m2s1m36d2s2a10",
        max: "0",
        total: "0",
        depth: 1,
        cc_steps: Some(0),
    },
    Row {
        puzzle: "4:_a_5a_bac_a__,d2m12a5m8s2d2s1",
        max: "1",
        total: "3",
        depth: 2,
        cc_steps: Some(7),
    },
    Row {
        puzzle: "4:aa_a3__aa_3a_a,m4s1s2a5m8a5s1",
        max: "1.5",
        total: "6",
        depth: 3,
        cc_steps: Some(8),
    },
    Row {
        puzzle: "5:a__a_5a__a5_a4__a_3,s2d2a7s1m16a5s2m5s3a5m4m6",
        max: "3.1",
        total: "4.1",
        depth: 2,
        cc_steps: Some(4),
    },
    Row {
        puzzle: "4:__a_3a_cb__a_a_,a5s1d2m8s1a5m12",
        max: "4",
        total: "11",
        depth: 3,
        cc_steps: Some(8),
    },
    Row {
        puzzle: "4:a_7a3_aac_,a5s1m8a5s1m12d2",
        max: "3.2",
        total: "15.9",
        depth: 2,
        cc_steps: Some(7),
    },
    Row {
        puzzle: "5:aa_a_a_6b__b_3a_a_abb,d2a6m6m24s1s1s2m20a13a5",
        max: "2.1",
        total: "14.1",
        depth: 3,
        cc_steps: Some(16),
    },
    Row {
        puzzle: SIX,
        max: "2",
        total: "12",
        depth: 3,
        cc_steps: None,
    },
    Row {
        puzzle: "7:_c__ba_3a__a_5a__aa__aa_bb_3b__a_6a_4abaabb_,m24m105m60m42m12m105m70m20m12m36m28m120m3m4m42m12m6m20m7",
        max: "4.4",
        total: "13.4",
        depth: 4,
        cc_steps: None,
    },
    Row {
        puzzle: "9:_b_a3__a_a__a_9b_4a_3b_10a_4a3_baa_a_4aa_3a3_aa_aa_a_b__a_a__a_a__a__a__a_ab,d3m48s3s4s1a13m9a13d4a9m216m6d4s6m100a11s2s3m56m8d3a10m72d3m120s3d2s5s5a8d3a9a15s4a9a11m288",
        max: "1",
        total: "8",
        depth: 2,
        cc_steps: None,
    },
];

/// The first reference row (6dx): max 2, total 12, its log starts with a hidden
/// single.
pub const SIX: &str = "6:aa_aa_3a_6a__baa_a_3a_4a_3a3_aa__,m6a6m12a9m6m12d2s3a8s1d2s3d2s1d3s3a5d2";

/// Its unique solution.
pub const SIX_SOLUTION: &str =
    "2 3 1 5 6 4\n1 6 3 4 2 5\n3 4 6 2 5 1\n6 1 5 3 4 2\n4 5 2 6 1 3\n5 2 4 1 3 6";

/// The first steps of the reference's log of [`SIX`] (reference-logs.ndjson).
pub const SIX_LOG_START: &[&str] = &[
    "1: (1) Hidden single: 5 in r2c6",
    "2: (0) Naked single: 4 in r1c6",
    "3: (0) Naked single: 5 in r2c6",
    "4: (1.5) Claiming candidates: cage 4 must contain 1 in r2c1, r2c2: from 4 combinations to 2",
    "5: (1.5) Claiming candidates: cage 5 must contain 3 in r2c3, r2c4: from 4 combinations to 2",
    "6: (1) Hidden single: 2 in r2c5",
];

/// Every row of a 3x3 adds up to 6 whatever the digits: twelve solutions.
pub const AMBIGUOUS: &str = "# 3\n+ 6 A1 A2 A3\n+ 6 B1 B2 B3\n+ 6 C1 C2 C3";

/// No row of a 3x3 adds up to 7.
pub const IMPOSSIBLE: &str = "# 3\n+ 7 A1 A2 A3\n+ 6 B1 B2 B3\n+ 5 C1 C2 C3";
