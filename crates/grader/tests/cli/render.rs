//! `grader render`: SVG on standard output, SVG or PNG files, each view (empty,
//! position, candidates, solution, a step), and bad arguments.

use super::reference::SIX;
use super::{bad_input, grader, ok};

fn tmp(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn svg_on_standard_output_is_deterministic() {
    let svg = ok(grader(&["render", SIX]));
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.ends_with("</svg>"));
    assert!(!svg.contains("<text"), "text is drawn as outlines");
    assert_eq!(svg, ok(grader(&["render", SIX])));
}

#[test]
fn each_view_differs() {
    let views: Vec<String> = [
        vec![],
        vec!["--candidates"],
        vec!["--solution"],
        vec!["--step", "2"],
        vec!["--step", "2", "--no-caption"],
        vec![
            "--state",
            "2 . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . [56]",
        ],
    ]
    .into_iter()
    .map(|extra| {
        let mut args = vec!["render", SIX];
        args.extend(extra);
        ok(grader(&args))
    })
    .collect();
    for (i, a) in views.iter().enumerate() {
        for b in &views[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // A caption makes the picture taller.
    let height = |svg: &str| {
        let at = svg.find("height=\"").unwrap() + 8;
        svg[at..at + svg[at..].find('"').unwrap()]
            .parse::<f32>()
            .unwrap()
    };
    assert!(height(&views[3]) > height(&views[4]));
}

#[test]
fn files_by_extension() {
    let png = tmp("cli-render-step.png");
    ok(grader(&[
        "render",
        SIX,
        "--step",
        "5",
        "-o",
        png.to_str().unwrap(),
    ]));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let svg = tmp("cli-render-step.svg");
    ok(grader(&[
        "render",
        SIX,
        "--step",
        "5",
        "-o",
        svg.to_str().unwrap(),
    ]));
    assert_eq!(
        std::fs::read_to_string(&svg).unwrap().trim_end(),
        ok(grader(&["render", SIX, "--step", "5"]))
    );
}

#[test]
fn bad_arguments() {
    let err = bad_input(grader(&["render", SIX, "--step", "999"]));
    assert!(err.contains("there is no step 999"), "{err}");
    let err = bad_input(grader(&["render", SIX, "-o", "picture.gif"]));
    assert!(err.contains("name it .svg or .png"), "{err}");
    let err = bad_input(grader(&["render", SIX, "--step", "1", "--solution"]));
    assert!(err.contains("cannot be used with"), "{err}");
    let err = bad_input(grader(&["render", SIX, "--state", "7 . . . . .\n"]));
    assert!(err.contains("'7' is not a digit of the grid"), "{err}");
    let two_ones = "1 1 . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .";
    let err = bad_input(grader(&[
        "render",
        SIX,
        "--candidates",
        "--state",
        two_ones,
    ]));
    assert!(err.contains("`grader check` names"), "{err}");
    let err = bad_input(grader(&["render", SIX, "--scale", "0"]));
    assert!(err.contains("scale"), "{err}");
}

#[test]
fn a_proof_is_drawn_with_its_text() {
    let puzzle = "6:a7b_a_a_3aa_a_a_7aa__a_5ba,s3a13d2a11s2a14d3s1a10s1s1s1a3s1m12";
    let svg = ok(grader(&["render", puzzle, "--step", "2", "--proof", "1"]));
    let step = ok(grader(&["render", puzzle, "--step", "2"]));
    assert!(svg.starts_with("<svg") && svg != step);
    // Each proof of the step draws differently.
    let second = ok(grader(&["render", puzzle, "--step", "2", "--proof", "2"]));
    assert_ne!(svg, second);
    let err = bad_input(grader(&["render", puzzle, "--step", "2", "--proof", "99"]));
    assert!(err.contains("step 2 has 6 proof(s), not 99"), "{err}");
    let err = bad_input(grader(&["render", puzzle, "--step", "1", "--proof", "1"]));
    assert!(err.contains("step 1 has 0 proof(s)"), "{err}");
    let err = bad_input(grader(&["render", puzzle, "--proof", "1"]));
    assert!(err.contains("--step"), "{err}");
}

/// `puzzles/generated-rare.json` #8: step 17's second proof forces a cage, then
/// branches on another with two cases, and leans on combinations cut earlier.
const RARE_8: &str = "6:_3b_4a_3a_b_4a_3a__b_a5_aa_b_b,s3s2a6a14s1m24s1s1a1a9a18s1d3s1s2";

#[test]
fn a_proof_picture_draws_its_chain_panels_and_cut_combinations() {
    let proof_2 = ["render", RARE_8, "--step", "17", "--proof", "2"];
    let svg = ok(grader(&[&proof_2[..], &["--no-caption"]].concat()));
    for line in [
        "Supposed (green): D4, D5, D6, E6, F6 are (1, 5, 4, 2, 6).",
        "1. Cage C3 (1−) must be (5, 6) (blue).",
        "Case 1 of 2: cage A3 is (2, 4)",
        "Case 2 of 2: cage A3 is (4, 2)",
        "Cage A4 (14+) has nothing left.",
        "Cage C3 (1−): (5, 4) out at step 6.",
    ] {
        assert!(svg.contains(&format!("data-text=\"{line}\"")), "{line}");
    }
    assert_eq!(svg.matches("<g data-panel=").count(), 2);
    // And as a PNG, through the same scene.
    let png = tmp("cli-render-proof.png");
    ok(grader(
        &[&proof_2[..], &["-o", png.to_str().unwrap()]].concat(),
    ));
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
}
