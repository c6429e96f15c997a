//! The KenKen grader's local web page (`grader serve`).
//!
//! One self-contained page (`assets/index.html` and `assets/app.js`, compiled
//! into the binary: nothing is fetched from elsewhere) over a small JSON API on
//! the libraries:
//!
//! | route | what it gives |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/ladder` | the techniques and their ratings |
//! | `GET /api/puzzles?offset=&limit=` | puzzles of the server's FILE (404 without one) |
//! | `POST /api/load {"puzzle"}` | the puzzle read (any format), its rating, its step log, the empty board |
//! | `POST /api/step {"puzzle","n"}` | step n, explained, drawn on the grid before it |
//! | `POST /api/board {"puzzle","cells"}` | the picture of a position |
//! | `POST /api/check {"puzzle","cells"}` | which entries contradict the solution |
//! | `POST /api/hint {"puzzle","cells","level"}` | the next step, told at one of four levels |
//! | `POST /api/export {"puzzle","cells"}` | the position as K6C / D6C (422 when it cannot hold it) |
//!
//! Every request is bounded: a body of at most [`MAX_BODY`] bytes (413 past
//! it), a JSON body with `Content-Type: application/json` (415 otherwise, which
//! also keeps other web sites from posting to it), and the grading work of one
//! request within a deadline and the memory limit of [`Config`]. Errors are JSON
//! (`{"error": …}`) with the status that says what went wrong: 400 malformed
//! JSON, 403 a Host header that is not this machine's (a page elsewhere reaching
//! it through DNS rebinding), 404 an unknown route, 405 a known route with
//! another method, 413, 415, 422 a puzzle or position that cannot be used, 500 a
//! bug (a panic is caught and reported, never the end of the server).

#![forbid(unsafe_code)]

mod api;
mod cache;

use cache::Cache;
use kenken_formats::batch;
use kenken_model::Limits;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;
use tiny_http::{Header, Method, Request, Response};

/// The largest request body read: a puzzle and a position of a 16×16 take a few
/// KiB.
pub const MAX_BODY: usize = 64 * 1024;
/// The most puzzles kept from FILE.
pub const MAX_LIBRARY: usize = 100_000;
/// Puzzles listed by one `GET /api/puzzles`.
const MAX_LIST: usize = 1000;

static INDEX_HTML: &str = include_str!("../assets/index.html");
static APP_JS: &str = include_str!("../assets/app.js");

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: IpAddr,
    /// 0 picks a free port (see [`Server::addr`]).
    pub port: u16,
    /// The puzzles the page offers to pick from.
    pub library: Option<Library>,
    /// How long one request may compute.
    pub timeout: Duration,
    /// The most memory one request's grading may hold.
    pub memory: usize,
    /// Requests served side by side.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            library: None,
            timeout: Duration::from_secs(10),
            memory: 256 << 20,
            threads: 4,
        }
    }
}

/// The puzzles of a file, to pick from.
#[derive(Clone, Debug)]
pub struct Library {
    pub name: String,
    /// Each puzzle's number in the file (1-based) and its text.
    pub puzzles: Vec<(usize, String)>,
    /// Entries that are not puzzle strings, left out.
    pub skipped: usize,
    /// Whether the file held more than [`MAX_LIBRARY`] puzzles.
    pub truncated: bool,
}

impl Library {
    /// Reads a batch file (what `grader batch` reads).
    pub fn open(path: &Path) -> Result<Library, WebError> {
        let mut entries = batch::open(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let mut library = Library {
            name,
            puzzles: Vec::new(),
            skipped: 0,
            truncated: false,
        };
        for entry in entries.by_ref() {
            let entry = entry?;
            if library.puzzles.len() == MAX_LIBRARY {
                library.truncated = true;
                break;
            }
            match entry.puzzle() {
                Some(text) => library.puzzles.push((entry.index, text.to_string())),
                None => library.skipped += 1,
            }
        }
        Ok(library)
    }
}

/// Why the server cannot start.
#[derive(Debug, Error)]
pub enum WebError {
    #[error("cannot listen on {addr}: {message}")]
    Bind { addr: SocketAddr, message: String },
    #[error(transparent)]
    Batch(#[from] batch::BatchError),
}

/// An API error: its status, its message, and perhaps one more field.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
    extra: Option<(&'static str, Value)>,
}

impl ApiError {
    fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            extra: None,
        }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, message)
    }
    fn with(mut self, key: &'static str, value: Value) -> ApiError {
        self.extra = Some((key, value));
        self
    }
    fn body(&self) -> Value {
        let mut doc = json!({ "error": self.message });
        if let Some((key, value)) = &self.extra {
            doc[*key] = value.clone();
        }
        doc
    }
}

/// What every worker shares.
struct State {
    config: Config,
    cache: Cache,
}

/// A server bound to its address, not yet serving.
pub struct Server {
    http: Arc<tiny_http::Server>,
    state: Arc<State>,
    addr: SocketAddr,
}

impl Server {
    pub fn bind(config: Config) -> Result<Server, WebError> {
        let wanted = SocketAddr::new(config.host, config.port);
        let http = tiny_http::Server::http(wanted).map_err(|e| WebError::Bind {
            addr: wanted,
            message: e.to_string(),
        })?;
        let addr = http.server_addr().to_ip().ok_or_else(|| WebError::Bind {
            addr: wanted,
            message: "not an IP address".to_string(),
        })?;
        Ok(Server {
            http: Arc::new(http),
            state: Arc::new(State {
                cache: Cache::new(16),
                config,
            }),
            addr,
        })
    }

    /// The address it listens on (with the port picked when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until the process ends, `threads` requests side by side.
    pub fn run(self) {
        let workers: Vec<_> = (0..self.state.config.threads.max(1))
            .map(|_| {
                let http = Arc::clone(&self.http);
                let state = Arc::clone(&self.state);
                let port = self.addr.port();
                std::thread::spawn(move || {
                    while let Ok(request) = http.recv() {
                        serve(&state, port, request);
                    }
                })
            })
            .collect();
        for worker in workers {
            let _ = worker.join();
        }
    }
}

/// A response's body and type.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow: Option<&'static str>,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: serde_json::to_vec(value).unwrap_or_default(),
            allow: None,
        }
    }

    fn error(e: &ApiError) -> Reply {
        Reply::json(e.status, &e.body())
    }
}

fn serve(state: &State, port: u16, mut request: Request) {
    let reply = match catch_unwind(AssertUnwindSafe(|| handle(state, port, &mut request))) {
        Ok(reply) => reply,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Reply::error(&ApiError::internal(format!(
                "a bug in the grader: {message}"
            )))
        }
    };
    let mut response = Response::from_data(reply.body).with_status_code(reply.status);
    let mut headers = vec![
        ("Content-Type", reply.content_type),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ];
    if reply.content_type.starts_with("text/html") {
        headers.push((
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        ));
        headers.push(("Cache-Control", "no-cache"));
    } else {
        headers.push(("Cache-Control", "no-store"));
    }
    if let Some(allow) = reply.allow {
        headers.push(("Allow", allow));
    }
    if reply.status == 413 {
        // The rest of the body is not read: end the connection instead.
        headers.push(("Connection", "close"));
    }
    for (name, value) in headers {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    // A client that went away is no concern of the server's.
    let _ = request.respond(response);
}

/// The routes and the methods each takes.
const ROUTES: &[(&str, &str)] = &[
    ("/", "GET, HEAD"),
    ("/index.html", "GET, HEAD"),
    ("/app.js", "GET, HEAD"),
    ("/api/ladder", "GET, HEAD"),
    ("/api/puzzles", "GET, HEAD"),
    ("/api/load", "POST"),
    ("/api/step", "POST"),
    ("/api/board", "POST"),
    ("/api/check", "POST"),
    ("/api/hint", "POST"),
    ("/api/export", "POST"),
];

fn handle(state: &State, port: u16, request: &mut Request) -> Reply {
    if !host_allowed(state, port, request) {
        return Reply::error(&ApiError::new(
            403,
            "the Host header does not name this machine",
        ));
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let Some(&(route, allow)) = ROUTES.iter().find(|(r, _)| *r == path) else {
        return Reply::error(&ApiError::not_found(format!("no such page: {path}")));
    };
    let method = request.method().clone();
    let allowed = match method {
        Method::Get | Method::Head => allow.starts_with("GET"),
        Method::Post => allow == "POST",
        _ => false,
    };
    if !allowed {
        let mut reply = Reply::error(&ApiError::new(
            405,
            format!("{path} takes {allow}, not {}", method.as_str()),
        ));
        reply.allow = Some(allow);
        return reply;
    }
    let limits = Limits::new()
        .until(Some(Instant::now() + state.config.timeout))
        .with_memory(state.config.memory);
    let cache = &state.cache;
    let result = match route {
        "/" | "/index.html" => {
            return Reply {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: INDEX_HTML.as_bytes().to_vec(),
                allow: None,
            }
        }
        "/app.js" => {
            return Reply {
                status: 200,
                content_type: "text/javascript; charset=utf-8",
                body: APP_JS.as_bytes().to_vec(),
                allow: None,
            }
        }
        "/api/ladder" => Ok(api::ladder()),
        "/api/puzzles" => puzzles(state, query),
        "/api/load" => body(request).and_then(|r| api::load(cache, limits, r)),
        "/api/step" => body(request).and_then(|r| api::step(cache, limits, r)),
        "/api/board" => body(request).and_then(|r| api::board(cache, r)),
        "/api/check" => body(request).and_then(|r| api::check(cache, limits, r)),
        "/api/hint" => body(request).and_then(|r| api::hint(cache, limits, r)),
        "/api/export" => body(request).and_then(|r| api::export(cache, r)),
        _ => Err(ApiError::not_found(format!("no such page: {path}"))),
    };
    match result {
        Ok(value) => Reply::json(200, &value),
        Err(e) => Reply::error(&e),
    }
}

/// Whether the Host header names this machine, when it listens on a loopback
/// address (a server told to listen elsewhere takes any name).
fn host_allowed(state: &State, port: u16, request: &Request) -> bool {
    if !state.config.host.is_loopback() {
        return true;
    }
    let Some(host) = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_ascii_lowercase())
    else {
        // HTTP/1.0 clients may send none.
        return true;
    };
    let name = match host.rsplit_once(':') {
        Some((name, p)) if !name.is_empty() && !host.ends_with(']') => {
            if p != port.to_string() {
                return false;
            }
            name.to_string()
        }
        _ => host.clone(),
    };
    matches!(name.as_str(), "localhost" | "127.0.0.1" | "[::1]" | "::1") || name.starts_with("127.")
}

/// The request's JSON body, read up to [`MAX_BODY`] bytes.
fn body<T: DeserializeOwned>(request: &mut Request) -> Result<T, ApiError> {
    let is_json = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .is_some_and(|h| {
            h.value
                .as_str()
                .split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
    if !is_json {
        return Err(ApiError::new(
            415,
            "send the request body as JSON, with Content-Type: application/json",
        ));
    }
    let too_large = || {
        ApiError::new(
            413,
            format!("the request body is larger than {} KiB", MAX_BODY / 1024),
        )
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_large());
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad_request(format!("the request body is not the JSON expected: {e}"))
    })
}

/// `GET /api/puzzles?offset=&limit=`: a page of the FILE's puzzles.
fn puzzles(state: &State, query: &str) -> Result<Value, ApiError> {
    let library =
        state.config.library.as_ref().ok_or_else(|| {
            ApiError::not_found("the server was started without a FILE of puzzles")
        })?;
    let mut offset = 0usize;
    let mut limit = 100usize;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = || {
            value.parse::<usize>().map_err(|_| {
                ApiError::bad_request(format!("{key} must be a number, not {value:?}"))
            })
        };
        match key {
            "offset" => offset = number()?,
            "limit" => limit = number()?.min(MAX_LIST),
            _ => return Err(ApiError::bad_request(format!("unknown parameter {key:?}"))),
        }
    }
    let items: Vec<Value> = library
        .puzzles
        .iter()
        .skip(offset)
        .take(limit)
        .map(|(number, text)| json!({ "number": number, "puzzle": text }))
        .collect();
    Ok(json!({
        "name": library.name,
        "total": library.puzzles.len(),
        "skipped": library.skipped,
        "truncated": library.truncated,
        "offset": offset,
        "items": items,
    }))
}
