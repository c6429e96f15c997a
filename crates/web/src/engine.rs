//! The page's API answered in the caller's thread, without HTTP: the back end of
//! the page when it runs on the engine compiled to WebAssembly, in a Web Worker
//! (`crates/wasm`). Each route gives the document `grader serve` answers with,
//! and each error the status and body it answers with, from the same code
//! ([`crate::api`]); only what needs a server is missing (`/api/puzzles`, which
//! lists the server's FILE, is 404 as on a server started without one).

use crate::api::{self, Call};
use crate::cache::Cache;
use crate::{ApiError, Config};
use kenken_model::clock::Instant;
use kenken_model::Limits;
use serde_json::Value;
use std::time::Duration;

/// Puzzles kept graded, as the server keeps them.
const CACHED: usize = 16;

/// The API of the page, computed where it is called.
pub struct Engine {
    cache: Cache,
    /// How long one call may compute.
    timeout: Duration,
    /// The most memory one call's grading may hold.
    memory: usize,
    /// Read every puzzle with every operation hidden.
    hide_ops: bool,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(&Config::default())
    }
}

impl Engine {
    /// An engine computing each call within `config`'s timeout and memory, and
    /// hiding every operation when it says so (its other fields are the
    /// server's).
    pub fn new(config: &Config) -> Engine {
        Engine {
            cache: Cache::new(CACHED),
            timeout: config.timeout,
            memory: config.memory,
            hide_ops: config.hide_ops,
        }
    }

    /// The answer to `method` `path` (`GET /api/ladder`, `POST /api/load`, …) with
    /// `body` (a POST's JSON): the document the server answers with, or the error
    /// with its status (404 for a path the API does not have, 405 for another
    /// method, 422 for a body it cannot use).
    pub fn answer(&self, method: &str, path: &str, body: Value) -> Result<Value, ApiError> {
        // A query (`/api/puzzles?offset=0`) does not change the route.
        let path = path.split('?').next().unwrap_or_default();
        let gets = ["/api/ladder", "/api/openapi.json", "/api/puzzles"];
        let post = api::post_route(path);
        // The methods each route takes, as the server's `Allow` lists them.
        let allowed = match (gets.contains(&path), post.is_some()) {
            (true, _) => "GET, HEAD",
            (_, true) => "POST",
            _ => return Err(ApiError::not_found(format!("no such page: {path}"))),
        };
        if !allowed.split(", ").any(|m| m == method) {
            return Err(ApiError::new(
                405,
                format!("{path} takes {allowed}, not {method}"),
            ));
        }
        match (path, post) {
            (_, Some(answer)) => answer(self.call(), body),
            ("/api/ladder", None) => Ok(api::ladder()),
            ("/api/openapi.json", None) => serde_json::from_str(crate::OPENAPI)
                .map_err(|e| ApiError::internal(format!("the API's description: {e}"))),
            _ => Err(ApiError::not_found(
                "this page has no FILE of puzzles (only `grader serve FILE` lists one)",
            )),
        }
    }

    /// One call's limits, its deadline counted from now.
    fn call(&self) -> Call<'_> {
        Call {
            cache: &self.cache,
            limits: Limits::new()
                .until(Some(Instant::now() + self.timeout))
                .with_memory(self.memory),
            hide_ops: self.hide_ops,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FOUR: &str = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";

    #[test]
    fn the_routes_answer_as_the_server_does() {
        let engine = Engine::default();
        let load = engine
            .answer("POST", "/api/load", json!({ "puzzle": FOUR }))
            .unwrap();
        assert_eq!(load["status"], "solved");
        assert_eq!(load["size"], 4);
        let ladder = engine.answer("GET", "/api/ladder", Value::Null).unwrap();
        assert!(ladder["techniques"].as_array().is_some_and(|t| t.len() > 5));
        let step = engine
            .answer("POST", "/api/step", json!({ "puzzle": FOUR, "n": 1 }))
            .unwrap();
        assert!(step["svg"].as_str().is_some_and(|s| s.starts_with("<svg")));
        let openapi = engine
            .answer("GET", "/api/openapi.json", Value::Null)
            .unwrap();
        assert_eq!(openapi["openapi"].as_str().map(|v| &v[..2]), Some("3."));
    }

    #[test]
    fn errors_carry_the_servers_statuses() {
        let engine = Engine::default();
        let status = |method, path, body| engine.answer(method, path, body).unwrap_err().status;
        assert_eq!(status("GET", "/api/nothing", Value::Null), 404);
        assert_eq!(status("GET", "/api/load", Value::Null), 405);
        assert_eq!(status("POST", "/api/ladder", json!({})), 405);
        assert_eq!(status("GET", "/api/puzzles?offset=0", Value::Null), 404);
        assert_eq!(
            status("POST", "/api/load", json!({ "puzzle": "7:no" })),
            422
        );
        let e = engine
            .answer("POST", "/api/step", json!({ "puzzle": FOUR, "n": 10000 }))
            .unwrap_err();
        assert_eq!(
            e.body()["error"],
            "there is no step 10000: the log has 19 (n is from 1 to 19)"
        );
    }
}
