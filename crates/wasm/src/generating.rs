//! `generate(options, onProgress)`: unique puzzles whose max rating lies in a
//! band, made by the generator as `grader generate` makes them, as its NDJSON
//! rows.

use crate::given::Given;
use crate::{json, Failure};
use kenken_batch::generating::{attempts_text, band_text, closest_text, GeneratedRow};
use kenken_generator::{
    clock_seed, generate as run, Event, GenerateError, GenerateOptions, Stopped,
};
use kenken_model::clock::Instant;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A row as JSON, its `seed` (a 64-bit number, past what a JavaScript number
/// holds exactly) as a decimal string, which the JavaScript side turns into a
/// `BigInt`.
fn row_value(row: &GeneratedRow) -> Result<Value, Failure> {
    let mut value = serde_json::to_value(row)
        .map_err(|e| Failure::new("Error", format!("a row cannot be written: {e}")))?;
    value["seed"] = Value::String(row.seed.to_string());
    Ok(value)
}

/// The rows of a run of `options` (`grader generate`'s options by their Python
/// names: `size`, `min`, `max`, `count`, `seed`, `ops`, `strict`, `cage_sizes`,
/// `max_givens`, `max_mean_cage`, `kendoku`, `hide_ops`, `require`, `forbid`,
/// `max_depth`, `steps`, `max_tries`, `timeout`), as a JSON array.
/// `on_progress({found, tried})` is called as attempts end; a run stopped by
/// `max_tries` or `timeout` before its count is an `IncompleteError` with the
/// rows found (`puzzles`) and the attempts made (`tried`).
pub fn rows(
    options: GenerateOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<Vec<Value>, Failure> {
    let refused = |e: GenerateError| match e {
        GenerateError::Options(e) => Failure::from(e),
        e => Failure::new("GenerateError", e.to_string()),
    };
    let plan = options.plan().map_err(refused)?;
    let request = &plan.request;
    let count = plan.count;
    let mut found: Vec<Value> = Vec::new();
    if count == 0 {
        return Ok(found);
    }
    let seed = plan.seed.unwrap_or_else(clock_seed);
    let start = Instant::now();
    let limits = plan.limits(start);
    let mut failure: Option<Failure> = None;
    let report = run(request, seed, &limits, |event| match event {
        Event::Found(g) => {
            match GeneratedRow::new(g, found.len() + 1)
                .map_err(|e| Failure::new("GenerateError", e.to_string()))
                .and_then(|row| row_value(&row))
            {
                Ok(row) => {
                    found.push(row);
                    true
                }
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        }
        Event::Progress { found, tried } => {
            progress(found as u64, tried);
            true
        }
    })
    .map_err(refused)?;
    if let Some(e) = failure {
        return Err(e);
    }
    if report.stopped == Stopped::Done {
        return Ok(found);
    }
    let why = match report.stopped {
        Stopped::Tries => format!("max_tries={}", plan.max_tries),
        Stopped::Timeout => format!("timeout={}", plan.timeout.unwrap_or_default().as_secs_f64()),
        Stopped::Done | Stopped::Cancelled => "a cancellation".to_string(),
    };
    let closest = closest_text(report.closest(request), request);
    let mut incomplete = Failure::new(
        "IncompleteError",
        format!(
            "found {} of {count} puzzle(s) rated {} in {}, {:.1} s (seed {seed}): \
             stopped by {why}; among the attempts that missed, {closest}",
            report.found,
            band_text(request),
            attempts_text(report.tried, report.repeats),
            start.elapsed().as_secs_f64()
        ),
    );
    incomplete.details = Some(json(&serde_json::json!({
        "puzzles": found,
        "tried": report.tried,
    }))?);
    Err(incomplete)
}

#[wasm_bindgen]
pub fn generate(
    options: JsValue,
    on_progress: Option<js_sys::Function>,
) -> Result<String, JsValue> {
    let mut given = Given::new("generate", options)?;
    let options: GenerateOptions = given.take()?;
    given.finish()?;
    let progress = |found: u64, tried: u64| {
        if let Some(callback) = &on_progress {
            let report = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&report, &"found".into(), &(found as f64).into());
            let _ = js_sys::Reflect::set(&report, &"tried".into(), &(tried as f64).into());
            // A callback that throws does not stop the run.
            let _ = callback.call1(&JsValue::NULL, &report);
        }
    };
    Ok(json(&rows(options, progress)?)?)
}
