//! The KenKen grader compiled to WebAssembly (`wasm32-unknown-unknown`, through
//! wasm-bindgen): the engine under the npm package (`js/kenken.js`) and under
//! the static site's Web Worker (`js/worker.js`).
//!
//! Nothing here solves, grades, generates or draws: every call reads its
//! arguments into the libraries' own types (the options through the same serde
//! types and checks as `grader` and the Python package), calls the libraries,
//! and hands back what they make as JSON text, the documents and rows `grader`
//! prints. The JavaScript side parses that text and turns a failed call into the
//! package's error classes.
//!
//! * [`calls`]: `read`, `write`, `grade`, `grade_many`, `batch`, `solve`, `steps`,
//!   `hint`, `check`, `render_svg`, `techniques`.
//! * [`generating`]: `generate`, with progress told to a callback.
//! * [`page`]: the page's API (`grader serve`'s routes) for the site's worker.
//!
//! A panic is a bug: the hook keeps its message ([`last_panic`]) before the
//! WebAssembly instance traps, and the JavaScript side reports it as an error
//! and replaces the instance.

#![forbid(unsafe_code)]

pub mod calls;
pub mod generating;
mod given;
pub mod page;

use std::sync::Mutex;
use wasm_bindgen::prelude::*;

/// Why a call failed: the package's error class and the message (`grader`'s
/// words), and what the error carries besides (a generation cut short: the rows
/// found before).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// `FormatError`, `OptionsError`, `GenerateError`, `RenderError`,
    /// `IncompleteError`, `BatchInputError` or `TypeError`.
    pub kind: &'static str,
    pub message: String,
    /// A JSON object whose fields the JavaScript error carries: an
    /// `IncompleteError`'s `puzzles` and `tried`, a `BatchInputError`'s `rows`.
    pub details: Option<String>,
}

impl Failure {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
            details: None,
        }
    }

    pub fn format(message: impl Into<String>) -> Failure {
        Failure::new("FormatError", message)
    }

    pub fn options(message: impl Into<String>) -> Failure {
        Failure::new("OptionsError", message)
    }
}

impl From<kenken_model::OptionsError> for Failure {
    fn from(e: kenken_model::OptionsError) -> Failure {
        Failure::options(e.to_string())
    }
}

impl From<Failure> for JsValue {
    /// A JavaScript `Error` named after the kind, with `details` (JSON text)
    /// when there are any.
    fn from(failure: Failure) -> JsValue {
        let error = js_sys::Error::new(&failure.message);
        error.set_name(failure.kind);
        if let Some(details) = &failure.details {
            // Setting a property of a fresh Error object cannot fail.
            let _ = js_sys::Reflect::set(&error, &"details".into(), &details.into());
        }
        error.into()
    }
}

/// A document as the JSON text handed to JavaScript.
fn json(value: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string(value)
        .map_err(|e| Failure::new("Error", format!("a document cannot be written: {e}")))
}

/// The message of the last panic, kept by the hook that [`start`] sets.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Set when the module is instantiated: a panic's message is kept for
/// [`last_panic`] (the instance then traps, and its caller asks for it).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = match info.payload().downcast_ref::<&str>() {
            Some(s) => s.to_string(),
            None => info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "unknown panic".to_string()),
        };
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let mut last = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
        *last = Some(format!("{message}{place}"));
    }));
}

/// The message of the panic that made the instance trap, if one did (then the
/// instance is not to be used again: its caller makes a new one).
#[wasm_bindgen]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Panics on purpose, for the tests of how a bug is reported.
#[wasm_bindgen]
pub fn panic_for_test(message: &str) {
    panic!("{message}");
}

/// The package's version (the workspace's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
