//! Requests: the Host check, the routes and their methods, reading a JSON body
//! within the limits, computing on the bounded pool, and the answer's headers.

use crate::api::{self, Call};
use crate::server::State;
use crate::{ApiError, APP_JS, INDEX_HTML, MAX_BODY};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::header::HeaderValue;
use hyper::{Request, Response, StatusCode};
use kenken_model::Limits;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Puzzles listed by one `GET /api/puzzles`.
const MAX_LIST: usize = 1000;

/// A route and the methods it takes, as the `Allow` header lists them.
struct Route {
    path: &'static str,
    allow: &'static str,
}

const GET: &str = "GET, HEAD";
const POST: &str = "POST";

const ROUTES: &[Route] = &[
    Route {
        path: "/",
        allow: GET,
    },
    Route {
        path: "/index.html",
        allow: GET,
    },
    Route {
        path: "/app.js",
        allow: GET,
    },
    Route {
        path: "/api/openapi.json",
        allow: GET,
    },
    Route {
        path: "/api/ladder",
        allow: GET,
    },
    Route {
        path: "/api/puzzles",
        allow: GET,
    },
    Route {
        path: "/api/load",
        allow: POST,
    },
    Route {
        path: "/api/step",
        allow: POST,
    },
    Route {
        path: "/api/proof",
        allow: POST,
    },
    Route {
        path: "/api/board",
        allow: POST,
    },
    Route {
        path: "/api/check",
        allow: POST,
    },
    Route {
        path: "/api/hint",
        allow: POST,
    },
    Route {
        path: "/api/export",
        allow: POST,
    },
];

/// Every route the server answers, with the methods it takes (any other path is
/// 404, any other method 405).
pub fn routes() -> impl Iterator<Item = (&'static str, Vec<&'static str>)> {
    ROUTES
        .iter()
        .map(|r| (r.path, r.allow.split(", ").collect()))
}

/// Whether a connection is waiting for a request, or busy with one; and when it
/// last did something (for the read timeout).
pub(crate) struct Activity {
    now: Mutex<Now>,
    changed: Notify,
    /// The connection opened with HTTP/2's preface.
    http2: AtomicBool,
}

struct Now {
    /// Requests being answered (hyper takes one at a time; pipelined ones wait).
    in_flight: usize,
    /// When the connection started, the last answer was handed over, or the
    /// client last took some of it.
    since: Instant,
    /// Whether bytes were written and not yet flushed (the client is not
    /// reading them).
    unflushed: bool,
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            now: Mutex::new(Now {
                in_flight: 0,
                since: Instant::now(),
                unflushed: false,
            }),
            changed: Notify::new(),
            http2: AtomicBool::new(false),
        }
    }

    /// The connection opened with HTTP/2's preface.
    pub fn http2_preface(&self) {
        self.http2.store(true, Ordering::Relaxed);
    }

    pub fn opened_with_http2(&self) -> bool {
        self.http2.load(Ordering::Relaxed)
    }

    fn now(&self) -> MutexGuard<'_, Now> {
        self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin(self: &Arc<Activity>) -> InFlight {
        self.now().in_flight += 1;
        InFlight(Arc::clone(self))
    }

    /// Bytes are being written; `progress` when some went out.
    pub fn wrote(&self, progress: bool) {
        let mut now = self.now();
        now.unflushed = true;
        if progress {
            now.since = Instant::now();
        }
    }

    /// Everything written has gone out.
    pub fn flushed(&self) {
        let mut now = self.now();
        if now.unflushed {
            now.unflushed = false;
            now.since = Instant::now();
        }
    }

    pub fn unflushed(&self) -> bool {
        self.now().unflushed
    }

    /// Ends when no request has been in flight for `timeout`, nor has any of an
    /// answer gone out: the client sent nothing whole, or stopped reading.
    pub async fn silent_for(&self, timeout: Duration) {
        loop {
            let changed = self.changed.notified();
            let (busy, since) = {
                let now = self.now();
                (now.in_flight > 0, now.since)
            };
            if busy {
                changed.await;
                continue;
            }
            let deadline = since + timeout;
            if Instant::now() >= deadline {
                return;
            }
            tokio::select! {
                _ = tokio::time::sleep_until(deadline.into()) => {}
                _ = changed => {}
            }
        }
    }
}

/// A request in flight, until its answer's body has been handed to hyper.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        {
            let mut now = self.0.now();
            now.in_flight -= 1;
            now.since = Instant::now();
        }
        self.0.changed.notify_one();
    }
}

/// An answer's body: all of it at once, and the request in flight until it is
/// taken.
pub(crate) struct Answer {
    body: Full<Bytes>,
    in_flight: Option<InFlight>,
}

impl Body for Answer {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        let frame = Pin::new(&mut this.body).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) {
            this.in_flight = None;
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A response's status, body and headers of note.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Bytes,
    allow: Option<&'static str>,
    /// The connection ends after this answer (its request was not read whole).
    close: bool,
}

const JSON: &str = "application/json; charset=utf-8";

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply {
            status,
            content_type: JSON,
            body: Bytes::from(serde_json::to_vec(value).unwrap_or_default()),
            allow: None,
            close: false,
        }
    }

    fn fixed(content_type: &'static str, text: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: Bytes::from_static(text.as_bytes()),
            allow: None,
            close: false,
        }
    }

    fn error(e: &ApiError) -> Reply {
        Reply {
            close: e.close,
            ..Reply::json(e.status, &e.body())
        }
    }

    fn into_response(self, in_flight: InFlight) -> Response<Answer> {
        let mut response = Response::new(Answer {
            body: Full::new(self.body),
            in_flight: Some(in_flight),
        });
        *response.status_mut() =
            StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let headers = response.headers_mut();
        let mut set = |name: &'static str, value: &'static str| {
            headers.insert(name, HeaderValue::from_static(value));
        };
        set("content-type", self.content_type);
        set("x-content-type-options", "nosniff");
        set("referrer-policy", "no-referrer");
        if self.content_type.starts_with("text/html") {
            set(
                "content-security-policy",
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
            );
            set("cache-control", "no-cache");
        } else {
            set("cache-control", "no-store");
        }
        if let Some(allow) = self.allow {
            set("allow", allow);
        }
        if self.close {
            set("connection", "close");
        }
        response
    }
}

/// The whole answer of a connection's last word (408 after its read timeout, 503
/// past the connection cap), written without hyper, which has let the socket
/// go or never had it.
pub(crate) fn last_word(status: u16, message: &str) -> Vec<u8> {
    let reason = StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let body = json!({ "error": message }).to_string();
    let retry = if status == 503 {
        "Retry-After: 1\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {JSON}\r\nContent-Length: {}\r\nConnection: close\r\n{retry}X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// hyper's service: one request, one answer, never an error (a panic included).
pub(crate) async fn handle(
    state: Arc<State>,
    activity: Arc<Activity>,
    request: Request<Incoming>,
) -> Result<Response<Answer>, Infallible> {
    let in_flight = activity.begin();
    let reply = CatchUnwind(Box::pin(route(state, request))).await;
    Ok(reply.into_response(in_flight))
}

async fn route(state: Arc<State>, request: Request<Incoming>) -> Reply {
    if let Err(e) = host_allowed(&state, &request) {
        return Reply::error(&e);
    }
    let path = request.uri().path();
    let Some(route) = ROUTES.iter().find(|r| r.path == path) else {
        return Reply::error(&ApiError::not_found(format!("no such page: {path}")));
    };
    let method = request.method().as_str();
    if !route.allow.split(", ").any(|m| m == method) {
        let mut reply = Reply::error(&ApiError::new(
            405,
            format!("{path} takes {}, not {method}", route.allow),
        ));
        reply.allow = Some(route.allow);
        return reply;
    }
    let result = match route.path {
        "/" | "/index.html" => return Reply::fixed("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => return Reply::fixed("text/javascript; charset=utf-8", APP_JS),
        "/api/openapi.json" => return Reply::fixed(JSON, crate::OPENAPI),
        "/api/ladder" => Ok(api::ladder()),
        "/api/puzzles" => puzzles(&state, request.uri().query().unwrap_or("")),
        post => match json_body(request, state.config.read_timeout).await {
            Err(e) => Err(e),
            Ok(body) => {
                let Some(answer) = api::post_route(post) else {
                    return Reply::error(&ApiError::not_found(format!("no such page: {post}")));
                };
                compute(&state, move |call| answer(call, body)).await
            }
        },
    };
    match result {
        Ok(value) => Reply::json(200, &value),
        Err(e) => Reply::error(&e),
    }
}

/// Runs `work` on the blocking pool once one of the [`crate::Config::threads`]
/// places is free, within the request's deadline and memory limit (counted
/// from when it starts).
async fn compute<F>(state: &Arc<State>, work: F) -> Result<Value, ApiError>
where
    F: FnOnce(Call<'_>) -> Result<Value, ApiError> + Send + 'static,
{
    let permit = Arc::clone(&state.compute)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::internal("the server is stopping"))?;
    let state = Arc::clone(state);
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let limits = Limits::new()
            .until(Some(Instant::now() + state.config.timeout))
            .with_memory(state.config.memory);
        work(Call {
            cache: &state.cache,
            limits,
            hide_ops: state.config.hide_ops,
        })
    })
    .await;
    match done {
        Ok(result) => result,
        Err(e) if e.is_panic() => Err(bug(e.into_panic())),
        Err(_) => Err(ApiError::internal("the request's work was cancelled")),
    }
}

fn bug(payload: Box<dyn std::any::Any + Send>) -> ApiError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    ApiError::internal(format!("a bug in the grader: {message}"))
}

/// A future whose panic becomes a 500 answer.
struct CatchUnwind<F>(Pin<Box<F>>);

impl<F: Future<Output = Reply>> Future for CatchUnwind<F> {
    type Output = Reply;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Reply> {
        let inner = self.get_mut().0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(Reply::error(&bug(payload))),
        }
    }
}

/// Whether a request names this machine: an HTTP/1.1 request must have one
/// Host header (400 otherwise, as RFC 9112 says); when the server listens on a
/// loopback address (a server told to listen elsewhere takes any name), its
/// Host header and the host of an absolute-form target
/// (`GET http://localhost:8080/api/ladder`) must each be `localhost`,
/// `127.0.0.1`, `[::1]` or the address listened on, alone or with the
/// server's port (403 otherwise). An HTTP/1.0 request with no Host header and
/// an origin-form target (`GET /`) is taken.
fn host_allowed(state: &State, request: &Request<Incoming>) -> Result<(), ApiError> {
    let headers = request.headers();
    let mut values = headers.get_all(hyper::header::HOST).iter();
    let host = values.next();
    if host.is_none() && request.version() >= hyper::Version::HTTP_11 {
        return Err(ApiError::bad_request(
            "an HTTP/1.1 request must have a Host header",
        ));
    }
    if values.next().is_some() {
        return Err(ApiError::bad_request("the request has two Host headers"));
    }
    if !state.config.host.is_loopback() {
        return Ok(());
    }
    let not_here = |what: &str| ApiError::new(403, format!("{what} does not name this machine"));
    if let Some(value) = host {
        if !value.to_str().is_ok_and(|v| names_this_machine(state, v)) {
            return Err(not_here("the Host header"));
        }
    }
    if let Some(authority) = request.uri().authority() {
        if !names_this_machine(state, authority.as_str()) {
            return Err(not_here("the request's target"));
        }
    }
    Ok(())
}

/// Whether `value` (a Host header, or the authority of a target) is
/// `localhost`, `127.0.0.1`, `[::1]` or the address listened on, alone or with
/// the server's port.
fn names_this_machine(state: &State, value: &str) -> bool {
    let value = value.to_ascii_lowercase();
    let name = match value.rsplit_once(':') {
        // A port after the name (not the last group of a bare IPv6 address).
        Some((name, port))
            if !port.contains(']') && (name.ends_with(']') || !name.contains(':')) =>
        {
            if port != state.port.to_string() {
                return false;
            }
            name
        }
        _ => value.as_str(),
    };
    let listened = match state.config.host {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    matches!(name, "localhost" | "127.0.0.1" | "[::1]") || name == listened
}

/// The request's body, read within the read timeout and [`MAX_BODY`], as JSON.
async fn json_body(request: Request<Incoming>, read_timeout: Duration) -> Result<Value, ApiError> {
    let is_json = request
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError::new(
            415,
            "send the request body as JSON, with Content-Type: application/json",
        )
        .closing());
    }
    let too_large = || {
        ApiError::new(
            413,
            format!("the request body is larger than {} KiB", MAX_BODY / 1024),
        )
        .closing()
    };
    let body = request.into_body();
    if body
        .size_hint()
        .exact()
        .is_some_and(|n| n > MAX_BODY as u64)
    {
        return Err(too_large());
    }
    let bytes = match tokio::time::timeout(read_timeout, Limited::new(body, MAX_BODY).collect())
        .await
    {
        Err(_) => {
            return Err(ApiError::new(
                408,
                format!(
                    "the request body did not arrive whole within {} s",
                    read_timeout.as_secs_f64()
                ),
            )
            .closing())
        }
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large()),
        Ok(Err(e)) => {
            return Err(
                ApiError::bad_request(format!("the request body cannot be read: {e}")).closing(),
            )
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the request body is not JSON: {e}")))
}

/// `GET /api/puzzles?offset=&limit=`: a page of the FILE's puzzles.
fn puzzles(state: &State, query: &str) -> Result<Value, ApiError> {
    let library =
        state.config.library.as_ref().ok_or_else(|| {
            ApiError::not_found("the server was started without a FILE of puzzles")
        })?;
    let mut offset = None;
    let mut limit = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (key, value) = (query_text(key)?, query_text(value)?);
        let slot = match key.as_str() {
            "offset" => &mut offset,
            "limit" => &mut limit,
            _ => {
                return Err(ApiError::unprocessable(format!(
                    "unknown parameter {key:?}: /api/puzzles takes offset and limit"
                )))
            }
        };
        if slot.is_some() {
            return Err(ApiError::unprocessable(format!("{key} is given twice")));
        }
        *slot = Some(count(&value).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "{key} must be a whole number from 0, not {value:?}"
            ))
        })?);
    }
    let offset = offset.unwrap_or(0);
    let limit = limit.unwrap_or(100).min(MAX_LIST);
    let items: Vec<Value> = library
        .puzzles
        .iter()
        .skip(offset)
        .take(limit)
        .map(|listed| {
            json!({
                "number": listed.number,
                "puzzle": listed.text,
                "hide_ops": listed.hide_ops,
            })
        })
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

/// A query's key or value decoded as a form writes it: `%31` is `1`, `+` a
/// space; an escape that is not two hex digits, or bytes that are not UTF-8,
/// get 422.
fn query_text(part: &str) -> Result<String, ApiError> {
    let bytes = part.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => decoded.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .filter(|_| bytes[i + 1].is_ascii_hexdigit())
                    .ok_or_else(|| {
                        ApiError::unprocessable(format!(
                            "the query's {part:?} has a % that is not followed by two hex digits"
                        ))
                    })?;
                decoded.push(hex);
                i += 2;
            }
            b => decoded.push(b),
        }
        i += 1;
    }
    String::from_utf8(decoded).map_err(|_| {
        ApiError::unprocessable(format!(
            "the query's {part:?} does not decode to UTF-8 text"
        ))
    })
}

/// A query's whole number: decimal digits only, however many (past `usize`, the
/// largest).
fn count(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_500() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let reply = runtime.block_on(CatchUnwind(Box::pin(async {
            if Instant::now().elapsed() < Duration::from_secs(3600) {
                panic!("on purpose");
            }
            Reply::json(200, &json!({}))
        })));
        assert_eq!(reply.status, 500);
        let doc: Value = serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(doc["error"], "a bug in the grader: on purpose");
    }

    #[test]
    fn queries_are_percent_decoded() {
        assert_eq!(query_text("%31").unwrap(), "1");
        assert_eq!(query_text("off%73et").unwrap(), "offset");
        assert_eq!(query_text("1+2").unwrap(), "1 2");
        assert_eq!(query_text("%E2%9C%93").unwrap(), "✓");
        for bad in ["%", "%3", "%zz", "%+1", "%ff"] {
            assert_eq!(query_text(bad).unwrap_err().status, 422, "{bad}");
        }
    }

    #[test]
    fn counts() {
        assert_eq!(count("12"), Some(12));
        assert_eq!(count("99999999999999999999999"), Some(usize::MAX));
        for bad in ["", "-1", "+1", "1.5", "x", " 1"] {
            assert_eq!(count(bad), None, "{bad}");
        }
    }
}
