//! Snapshots of whole step logs in the reference solver's wording
//! (`--reference-text`): for each technique and rating level of the ladder
//! one small puzzle whose hardest step is that one (from the reference's logs and
//! test grids, checked here), plus stuck, impossible and ambiguous puzzles. Each
//! snapshot is the exact `grader grade` output (naked singles included), and the
//! `--json` document with one step per line, so a change to any step's text, rating,
//! order or removals shows up as a reviewable diff.
//!
//! Snapshots live in `cli/snapshots/`, named after their test:
//! `cli__snapshots__<test>__log.snap` and `…__json.snap`. After an intended change run the tests with `INSTA_UPDATE=always`
//! (or review the `.snap.new` files insta writes) and check `git diff`.

use super::{grader, ok};
use serde_json::Value;

/// The `grade --json` document with its top-level fields and each step on a line of
/// their own: still JSON, but a changed step is a one-line diff.
fn json_layout(doc: &Value) -> String {
    let compact = |v: &Value| serde_json::to_string(v).unwrap();
    let fields: Vec<String> = doc
        .as_object()
        .expect("a JSON object")
        .iter()
        .map(|(key, value)| match (key.as_str(), value) {
            ("steps", Value::Array(steps)) => {
                let lines: Vec<String> = steps
                    .iter()
                    .map(|s| format!("    {}", compact(s)))
                    .collect();
                format!("  \"steps\": [\n{}\n  ]", lines.join(",\n"))
            }
            _ => format!(
                "  {}: {}",
                compact(&Value::from(key.as_str())),
                compact(value)
            ),
        })
        .collect();
    format!("{{\n{}\n}}", fields.join(",\n"))
}

/// Grades `puzzle` with `args`, checks the log still shows what the case is named
/// after (its max, and a step or ending), and compares the log and the JSON document
/// with the snapshots `<name>__log` and `<name>__json`.
fn check(name: &str, puzzle: &str, args: &[&str], max: &str, shows: &str) {
    let mut argv = vec!["grade", puzzle];
    argv.extend(args);
    let description = format!("grader {}", argv.join(" "));
    // The reference solver's wording, which the snapshots keep.
    argv.push("--reference-text");
    let log = ok(grader(&argv));
    assert!(
        log.contains(&format!("Max difficulty: {max};")),
        "{name}: the max is no longer {max}:\n{log}"
    );
    assert!(log.contains(shows), "{name}: no {shows:?} any more:\n{log}");
    argv.push("--json");
    let doc: Value = serde_json::from_str(&ok(grader(&argv))).unwrap();
    insta::with_settings!({ description => description, omit_expression => true }, {
        insta::assert_snapshot!(format!("{name}__log"), log);
        insta::assert_snapshot!(format!("{name}__json"), json_layout(&doc));
    });
}

/// One test per case: `name: puzzle, [grade options], max, shown fragment;` — the
/// max the log must end with and a step text or status it must contain (guards that
/// the puzzle still shows what its name says).
macro_rules! snapshot_tests {
    ($($(#[$doc:meta])* $name:ident: $puzzle:literal, [$($arg:literal),*], $max:literal, $shows:literal;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                check(stringify!($name), $puzzle, &[$($arg),*], $max, $shows);
            }
        )*
    };
}

snapshot_tests! {
    naked_singles_only: "3:_a__cb_,m6a4m18", [], "0", "(0) Naked single";
    hidden_single_only: "3:_a_a3_a,a5m6m3s1", [], "1", "(1) Hidden single";
    claiming: "4:_a_aabb_7a__,s2s1m12d2m12d2a6a4", [], "1.5", "(1.5) Claiming candidates";
    pointing: "4:__a_a3_ba_3a_a,m12m6s2d2a9s1d2", [], "1.5", "(1.5) Pointing candidates";
    hidden_pair: "5:_a__a_a__a__ad_7a5_,m60d2d2s1m5a7s2s1a7d2m60", [], "2", "(2) Hidden pair";
    hidden_triple: "5:_abaa_a_5aa_a__a_a_3b_a,m16a7m15a6s2s1d2s2a6m12s3", [], "2.1", "(2.1) Hidden triple";
    x_wing: "4:a_7a__ababa,m24d2m8s1a7s2d2", [], "2", "(2) X-Wing";
    swordfish: "6:aa__b_a_4b__a_b__a3_7a3_ba_aa__,s1s3a9s3m24m40a16a5d3m6m15m12d2a7s1", [], "2.1", "(2.1) Swordfish";
    region_parity_one_line: "4:ac__aa__aa_4b,d2m3a7m96s2s2", [], "3", "(3) Region parity: Col 1";
    region_parity_several_lines: "4:__a_a__a_baa_a_a,m6a5s1d2m24s2a5", [], "3.1", "(3.1) Region parity: Rows 3, 4";
    region_sum_1_unknown_one_line: "4:_a_7a4_a3,a3m12a5d2s2m12s1d2", [], "3", "(3) Region sum: Col";
    region_sum_1_unknown_several_lines: "4:__a_aa_aab_6a,d2s1a5s2m3a7d2m2", [], "3.1", "(3.1) Region sum: Rows";
    region_sum_2_unknowns_one_line: "4:b_7a_ba_a3,m6a5m8s1a5s1s1", [], "3.2", "(3.2) Region sum: Col";
    region_sum_2_unknowns_several_lines: "4:a__a_a4_3a_aa,m12a7d2s2s1m12d2", [], "3.3", "(3.3) Region sum: Rows";
    /// Three unknowns are only allowed once a 2-cage combination has been tried,
    /// so the max is 4; the log has a 3.4 (one line) and a 3.5 (several lines).
    region_sum_3_unknowns_one_and_several_lines: "6:a_a_a_b__b_4a_3a3__a_4aa__aa_3aa_b,a10m24a8m20s2d2s2d3a9d2a11m24d3m6s4s1", [], "4", "(3.5) Region sum: Rows";
    /// Off by default: a Tatham 6x6 of multiplication cages with `--enable`.
    region_product: "6:__b_6a__a_aa_a_aab_b_4aa_a_3a__a3,m72m12m60m5m4m15m12m12m4m6m10m30m6m12m30m4", ["--enable", "region-product"], "3.2", "(3.2) Region product: Row 1";
    cage_combination_2_cages: "4:_b_a_3a4_a__a,a5m12s1m8a5s1d2", [], "4", "(4) Cage comparison: ";
    /// The reference's test grid "Unreasonable" 6x6 with max 4.2.
    cage_combination_3_cages: "6:ca__a_3a_a_3a__adca_3a_5a_3aca,a18a13s5s3a7a17s1s3s1a8a3a17", [], "4.2", "(4.2) Cage comparison: ";
    cage_combination_4_cages: "6:a__a_10a__a_3b_ca_a__ba3ba4_,m200m18m6m24m12m15m24m2m12m10m24m5m30m72", [], "4.4", "(4.4) Cage comparison: ";
    mode_c_cage_combinations_only: "4:_b_a_3a4_a__a,a5m12s1m8a5s1d2", ["--mode", "c"], "4.2", "Max depth: 3";
    /// The 2-cage puzzle above without its last technique.
    stuck_without_cage_combinations: "4:_b_a_3a4_a__a,a5m12s1m8a5s1d2", ["--disable", "cage-combination"], "1.5", "Status: stuck";
    /// The 4-cage puzzle above with at most 3 cages combined.
    stuck_at_max_depth_3: "6:a__a_10a__a_3b_ca_a__ba3ba4_,m200m18m6m24m12m15m24m2m12m10m24m5m30m72", ["--max-depth", "3"], "1", "Status: stuck";
    /// puzzles/edge-cases.json #19: a Tatham puzzle with one clue changed.
    impossible_after_some_steps: "6:aab_12a_6aa_aa_a4_a3b_a_a,a9a5m60s1d3m8d2d2a7m120s4d2a8s2m4s1", [], "1.5", "Status: impossible";
    /// puzzles/edge-cases.json #21: a Tatham puzzle with one clue changed.
    ambiguous_after_some_steps: "4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1", [], "1.5", "Status: ambiguous";
}
