//! The bindings in headless Chromium (wasm-bindgen-test), as the site's worker
//! and the npm package call them: documents as JSON text, errors as JavaScript
//! errors named after their class, deadlines kept by the browser's clock and
//! memory limits as on native.
//!
//! ```sh
//! CHROMEDRIVER=/usr/bin/chromedriver \
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=target/tools/bin/wasm-bindgen-test-runner \
//!   cargo test --profile wasm --target wasm32-unknown-unknown -p kenken-wasm --test web
//! ```
#![cfg(target_arch = "wasm32")]

use kenken_model::clock::Instant;
use kenken_wasm::{calls, generating, page::Page};
use serde_json::Value;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const FOUR: &str = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";
/// The 9x9 of the README: with its operations hidden, minutes of grading and far
/// more memory than 1 MiB.
const NINE: &str = "9:a__bb__a_b__a_b__a4_4a_a_6a_11a_4a_6a_6a3_aba_3a_3a_a_3aba_baa_aa_a4,m18s2d2a16d2a8s1s3m216s3s2a13s4m24s4d2m8a11s4m126m6m18d3a9d4a9d2a15a7m64a12s2d2s4m108a8m8";

/// An options object from JSON text.
fn options(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// The name and message of a JavaScript error.
fn error(value: JsValue) -> (String, String) {
    let error: js_sys::Error = value.dyn_into().unwrap();
    (error.name().into(), error.message().into())
}

#[wasm_bindgen_test]
fn a_puzzle_is_read_graded_and_solved() {
    let read = parse(&calls::read(FOUR, JsValue::UNDEFINED).unwrap());
    assert_eq!(read["size"], 4);
    assert_eq!(read["cages"][0]["cells"], serde_json::json!(["A1", "B1"]));
    let row = parse(&calls::grade(FOUR, None, false, JsValue::UNDEFINED).unwrap());
    assert_eq!(row["status"], "solved");
    assert_eq!(row["max"], 1.0);
    assert_eq!(row["cc_steps"], 7);
    let solved = parse(&calls::solve(FOUR, None, false, JsValue::UNDEFINED).unwrap());
    assert_eq!(solved["solution"][0], serde_json::json!([4, 3, 1, 2]));
    let hidden = parse(&calls::grade(FOUR, None, true, options(r#"{"mode": "n"}"#)).unwrap());
    assert_eq!(hidden["status"], "ambiguous");
}

#[wasm_bindgen_test]
fn errors_are_javascript_errors_named_by_class() {
    let (name, message) = error(calls::read("17:_a,a1", JsValue::UNDEFINED).unwrap_err());
    assert_eq!(name, "FormatError");
    assert!(
        message.contains("Grid size must be between 3 and 9"),
        "{message}"
    );
    let bad_depth = calls::grade(FOUR, None, false, options(r#"{"maxDepth": 9}"#));
    assert_eq!(
        error(bad_depth.unwrap_err()),
        (
            "OptionsError".into(),
            "max_depth must be 2 to 8, not 9".into()
        )
    );
    let unknown = calls::grade(FOUR, None, false, options(r#"{"colour": "red"}"#));
    assert_eq!(
        error(unknown.unwrap_err()),
        (
            "TypeError".into(),
            "grade() got an unknown option 'colour'".into()
        )
    );
    let step = calls::render_svg(FOUR, None, false, options(r#"{"step": 1000}"#));
    assert_eq!(error(step.unwrap_err()).0, "RenderError");
}

#[wasm_bindgen_test]
fn the_clock_is_the_browsers() {
    let start = Instant::now();
    // The wall clock moves on while the engine computes.
    let _ = calls::grade(FOUR, None, false, JsValue::UNDEFINED).unwrap();
    assert!(start.elapsed() < Duration::from_secs(60));
    assert!(kenken_model::clock::SystemTime::now() > kenken_model::clock::UNIX_EPOCH);
}

#[wasm_bindgen_test]
fn a_timeout_cuts_grading_short() {
    let start = Instant::now();
    let row = parse(
        &calls::grade(
            NINE,
            None,
            false,
            options(r#"{"mode": "n", "hideOps": true, "timeout": 0.05}"#),
        )
        .unwrap(),
    );
    assert_eq!(row["status"], "timeout", "{row}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[wasm_bindgen_test]
fn a_memory_limit_holds_as_on_native() {
    // As `grader batch --mode n --max-memory 1M --hide-ops` grades it.
    let limited = options(r#"{"mode": "n", "maxMemory": "1M", "hideOps": true}"#);
    let row = parse(&calls::grade(NINE, None, false, limited).unwrap());
    assert_eq!(row["status"], "limit", "{row}");
    assert_eq!(
        row["error"],
        "stopped: it needs more memory than the limit of 1 MiB"
    );
}

#[wasm_bindgen_test]
fn generation_tells_its_progress() {
    let options: kenken_generator::GenerateOptions =
        serde_json::from_str(r#"{"size": 4, "min": 1, "max": 1.5, "seed": 3, "count": 2}"#)
            .unwrap();
    let mut calls = 0;
    let rows = generating::rows(options, |_, _| calls += 1).unwrap();
    // `grader generate --size 4 --min 1 --max 1.5 --seed 3` finds its first
    // puzzle in its third attempt.
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["index"], 1);
    assert!(rows[0]["seed"].is_string());
    assert!(calls > 0);
}

#[wasm_bindgen_test]
fn the_page_is_answered_as_the_server_answers() {
    let page = Page::new(false);
    let load = parse(&page.answer("POST", "/api/load", &format!(r#"{{"puzzle": "{FOUR}"}}"#)));
    assert_eq!(load["status"], 200);
    assert_eq!(load["body"]["cell_names"][15], "D4");
    let missing = parse(&page.answer("POST", "/api/load", "{}"));
    assert_eq!(missing["status"], 422);
    let hidden = Page::new(true);
    let load = parse(&hidden.answer("POST", "/api/load", &format!(r#"{{"puzzle": "{FOUR}"}}"#)));
    assert_eq!(load["body"]["hide_ops"], true);
}

#[wasm_bindgen_test]
fn the_techniques_and_the_version() {
    let listed = parse(&calls::techniques().unwrap());
    assert_eq!(listed[0]["id"], "naked-single");
    assert_eq!(kenken_wasm::version(), env!("CARGO_PKG_VERSION"));
}
