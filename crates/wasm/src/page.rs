//! The page's API for the static site's Web Worker: `grader serve`'s routes
//! answered by [`kenken_web::Engine`], the same documents and the same errors
//! with their statuses, within the server's time and memory for each call.

use kenken_web::{Config, Engine};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// The page's back end in a worker: one engine (and its cache of puzzles
/// already graded) for the page's life.
#[wasm_bindgen]
pub struct Page {
    engine: Engine,
}

#[wasm_bindgen]
impl Page {
    /// An engine that answers as `grader serve` does (with `hide_ops`, as
    /// `grader serve --hide-ops`).
    #[wasm_bindgen(constructor)]
    pub fn new(hide_ops: bool) -> Page {
        let config = Config {
            hide_ops,
            ..Config::default()
        };
        Page {
            engine: Engine::new(&config),
        }
    }

    /// The answer to `method` `path` with `body` (a POST's JSON text, empty for a
    /// GET), as JSON text: `{"status": 200, "body": …}`, or the error's status
    /// and `{"error": …}` body, as the server answers.
    pub fn answer(&self, method: &str, path: &str, body: &str) -> String {
        answer(&self.engine, method, path, body).to_string()
    }
}

/// [`Page::answer`] as a JSON value.
pub fn answer(engine: &Engine, method: &str, path: &str, body: &str) -> Value {
    let parsed = if body.trim().is_empty() {
        Ok(Value::Null)
    } else {
        serde_json::from_str(body)
    };
    let result = match parsed {
        Ok(body) => engine.answer(method, path, body),
        Err(e) => Err(kenken_web::ApiError::bad_request(format!(
            "the request body is not JSON: {e}"
        ))),
    };
    match result {
        Ok(doc) => json!({ "status": 200, "body": doc }),
        Err(e) => json!({ "status": e.status, "body": e.body() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_carry_the_servers_statuses() {
        let engine = Engine::default();
        let load = answer(
            &engine,
            "POST",
            "/api/load",
            r#"{"puzzle": "3:_a_aa_aa,s1m3a6m6"}"#,
        );
        assert_eq!(load["status"], 200);
        assert_eq!(load["body"]["size"], 3);
        let bad = answer(&engine, "POST", "/api/load", "{");
        assert_eq!(bad["status"], 400);
        assert!(bad["body"]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("the request body is not JSON")));
        let missing = answer(&engine, "GET", "/api/puzzles", "");
        assert_eq!(missing["status"], 404);
    }
}
