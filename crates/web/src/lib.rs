//! The KenKen grader's local web page (`grader serve`).
//!
//! One self-contained page (`assets/index.html` and `assets/app.js`, compiled
//! into the binary: nothing is fetched from elsewhere) over a small JSON API on
//! the libraries. `assets/openapi.json` (served at `GET /api/openapi.json`)
//! describes every route, request and answer; in short:
//!
//! | route | what it gives |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/openapi.json` | the API's OpenAPI 3 description |
//! | `GET /api/ladder` | the techniques and their ratings |
//! | `GET /api/puzzles?offset=&limit=` | puzzles of the server's FILE (404 without one) |
//! | `POST /api/load {"puzzle"}` | the puzzle read (any format), its rating, its step log, the empty board, the cells' names, the puzzle as a Tatham ID and as text |
//! | `POST /api/step {"puzzle","n"}` | step n, explained, drawn on the grid before it |
//! | `POST /api/proof {"puzzle","n","k"}` | proof k of step n (why a removed cage combination cannot be), its text and its picture |
//! | `POST /api/board {"puzzle","cells"}` | the picture of a position |
//! | `POST /api/check {"puzzle","cells"}` | which entries contradict the solution |
//! | `POST /api/hint {"puzzle","cells","level"}` | the next step, told at one of four levels |
//! | `POST /api/export {"puzzle","cells"}` | the position as K6C / D6C (422 when it cannot hold it) |
//!
//! Every POST may add `"hide_ops": true`: the puzzle is read with every
//! operation hidden (a cage shows only its number) before anything else is
//! done, and cached apart from the puzzle as written; [`Config::hide_ops`] does
//! it for every request.
//!
//! Every request is bounded: a body of at most [`MAX_BODY`] bytes (413 past
//! it), a JSON body with `Content-Type: application/json` (415 otherwise, which
//! also keeps other web sites from posting to it), the grading work of one
//! request within a deadline and the memory limit of [`Config`], on at most
//! [`Config::threads`] threads side by side. Errors are JSON (`{"error": …}`)
//! with the status that says what went wrong: 400 a request that cannot be
//! parsed (HTTP or JSON syntax), 403 a Host header that is not this machine's (a
//! page elsewhere reaching it through DNS rebinding), 404 an unknown route, 405 a
//! known route with another method, 408 a request that did not arrive within
//! the read timeout, 413, 415, 422 well-formed JSON that cannot be used (a
//! field missing, unknown or of the wrong type, a value out of range, a puzzle
//! that cannot be read, a position that does not fit it), 500 a bug (a panic is
//! caught and reported, never the end of the server), 503 past the connection
//! cap.
//!
//! What the server holds is bounded too: at most [`Config::connections`]
//! connections (past the cap a connection is answered 503 and closed), each
//! given [`Config::read_timeout`] to send a request's head and then its body
//! (408 and closed otherwise), on a runtime of [`RUNTIME_THREADS`] threads.
//!
//! The server is the default feature `server`. Without it the crate is the page
//! and [`Engine`]: the same API answered in the caller's thread, with no HTTP,
//! for the page whose back end is the engine compiled to WebAssembly in a Web
//! Worker (`crates/wasm`).

#![forbid(unsafe_code)]

mod api;
mod cache;
mod engine;
#[cfg(feature = "server")]
mod http;
#[cfg(feature = "server")]
mod server;

use kenken_formats::batch_input;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::Path;
use std::time::Duration;
use thiserror::Error;

pub use engine::Engine;
#[cfg(feature = "server")]
pub use http::routes;
#[cfg(feature = "server")]
pub use server::{Server, RUNTIME_THREADS};

/// The largest request body read: a puzzle and a position of a 16×16 take a few
/// KiB.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest puzzle text taken, in characters (a 16×16 takes under 2 000 in
/// any format; with the largest position, even escaped, it stays under
/// [`MAX_BODY`]).
pub const MAX_PUZZLE: usize = 4096;
/// The most puzzles kept from FILE.
pub const MAX_LIBRARY: usize = 100_000;
/// The API's OpenAPI 3 description, as served at `GET /api/openapi.json`.
pub const OPENAPI: &str = include_str!("../assets/openapi.json");
/// The page, as served at `GET /`.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script, as served at `GET /app.js`.
pub const APP_JS: &str = include_str!("../assets/app.js");

/// The connection caps [`Config::connections`] may take.
pub const CONNECTIONS: RangeInclusive<usize> = 1..=65_536;
/// The numbers of requests computed side by side [`Config::threads`] may take.
pub const THREADS: RangeInclusive<usize> = 1..=64;
/// The read timeouts [`Config::read_timeout`] may take.
pub const READ_TIMEOUTS: RangeInclusive<Duration> =
    Duration::from_millis(100)..=Duration::from_secs(3600);

/// How the server runs. [`Config::default`] and the `with_*` constructors give
/// one that [`Server::bind`] takes; it checks the fields again (a struct literal
/// can set anything).
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
    /// Requests computed side by side (in [`THREADS`]).
    pub threads: usize,
    /// Connections held at once (in [`CONNECTIONS`]); past it, a new connection
    /// is answered 503 and closed.
    pub connections: usize,
    /// How long a client may take to send a request's head (from the
    /// connection's start, or from the end of the answer before), and then its
    /// body (in [`READ_TIMEOUTS`]); past it, 408 and the connection is closed.
    pub read_timeout: Duration,
    /// Read every puzzle with every operation hidden (a cage shows only its
    /// number), whatever a request's `hide_ops` says.
    pub hide_ops: bool,
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
            connections: 4096,
            read_timeout: Duration::from_secs(10),
            hide_ops: false,
        }
    }
}

impl Config {
    /// This configuration with `threads` requests computed side by side.
    pub fn with_threads(self, threads: usize) -> Result<Config, ConfigError> {
        check(THREADS, threads, ConfigError::Threads)?;
        Ok(Config { threads, ..self })
    }

    /// This configuration holding at most `connections` connections.
    pub fn with_connections(self, connections: usize) -> Result<Config, ConfigError> {
        check(CONNECTIONS, connections, ConfigError::Connections)?;
        Ok(Config {
            connections,
            ..self
        })
    }

    /// This configuration giving clients `read_timeout` to send a request.
    pub fn with_read_timeout(self, read_timeout: Duration) -> Result<Config, ConfigError> {
        if !READ_TIMEOUTS.contains(&read_timeout) {
            return Err(ConfigError::ReadTimeout(read_timeout.as_secs_f64()));
        }
        Ok(Config {
            read_timeout,
            ..self
        })
    }

    /// This configuration giving clients `secs` seconds to send a request (a
    /// number as a command line or a script gives it: anything outside
    /// [`READ_TIMEOUTS`], zero, negatives, NaN and infinities included, is
    /// refused with the same words).
    pub fn with_read_timeout_secs(self, secs: f64) -> Result<Config, ConfigError> {
        let (min, max) = (
            READ_TIMEOUTS.start().as_secs_f64(),
            READ_TIMEOUTS.end().as_secs_f64(),
        );
        if !(min..=max).contains(&secs) {
            return Err(ConfigError::ReadTimeout(secs));
        }
        self.with_read_timeout(Duration::from_secs_f64(secs))
    }

    /// Whether every field is in its range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.clone()
            .with_threads(self.threads)?
            .with_connections(self.connections)?
            .with_read_timeout(self.read_timeout)
            .map(drop)
    }
}

fn check(
    range: RangeInclusive<usize>,
    value: usize,
    error: fn(usize) -> ConfigError,
) -> Result<(), ConfigError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(error(value))
    }
}

/// A [`Config`] field out of its range.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ConfigError {
    #[error("the requests computed side by side must be from {min} to {max}, not {0}", min = THREADS.start(), max = THREADS.end())]
    Threads(usize),
    #[error("the connection cap must be from {min} to {max}, not {0}", min = CONNECTIONS.start(), max = CONNECTIONS.end())]
    Connections(usize),
    /// In seconds.
    #[error("the read timeout must be from {min} s to {max} s, not {secs}", min = READ_TIMEOUTS.start().as_secs_f64(), max = READ_TIMEOUTS.end().as_secs_f64(), secs = seconds_shown(*.0))]
    ReadTimeout(f64),
}

/// A number of seconds as an error quotes it: `0.05 s`, `1e300 s`, `nan`,
/// `-inf` (as the libraries' other options quote numbers).
fn seconds_shown(secs: f64) -> String {
    if secs.is_nan() {
        "nan".to_string()
    } else if secs.is_infinite() {
        format!("{}inf", if secs < 0.0 { "-" } else { "" })
    } else if secs != 0.0 && (secs.abs() >= 1e9 || secs.abs() < 1e-4) {
        format!("{secs:e} s")
    } else {
        format!("{secs} s")
    }
}

/// The puzzles of a file, to pick from.
#[derive(Clone, Debug)]
pub struct Library {
    pub name: String,
    pub puzzles: Vec<LibraryPuzzle>,
    /// Entries that are not puzzle strings, left out.
    pub skipped: usize,
    /// Whether the file held more than [`MAX_LIBRARY`] puzzles.
    pub truncated: bool,
}

impl Library {
    /// Reads a batch file (what `grader batch` reads).
    pub fn open(path: &Path) -> Result<Library, WebError> {
        let mut entries = batch_input::open(path)?;
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
                Some(text) => library.puzzles.push(LibraryPuzzle {
                    number: entry.index,
                    text: text.to_string(),
                    hide_ops: entry.hide_ops,
                }),
                None => library.skipped += 1,
            }
        }
        Ok(library)
    }
}

/// One puzzle of a [`Library`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryPuzzle {
    /// Its number in the file (1-based).
    pub number: usize,
    pub text: String,
    /// Whether the file's entry asks for the puzzle with every operation hidden
    /// (`{"puzzle": …, "hide_ops": true}`).
    pub hide_ops: bool,
}

/// Why the server cannot start.
#[derive(Debug, Error)]
pub enum WebError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start the server's runtime: {0}")]
    Runtime(std::io::Error),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Batch(#[from] batch_input::BatchError),
}

/// An API error: its status, its message, and perhaps one more field.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
    extra: Option<(&'static str, serde_json::Value)>,
    /// The connection ends after the answer (the request was not read whole).
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    close: bool,
}

impl ApiError {
    fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            extra: None,
            close: false,
        }
    }
    #[cfg(feature = "server")]
    fn closing(self) -> ApiError {
        ApiError {
            close: true,
            ..self
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
    fn with(mut self, key: &'static str, value: serde_json::Value) -> ApiError {
        self.extra = Some((key, value));
        self
    }
    /// The answer's JSON: `{"error": …}`, and the extra field when there is one.
    pub fn body(&self) -> serde_json::Value {
        let mut doc = serde_json::json!({ "error": self.message });
        if let Some((key, value)) = &self.extra {
            doc[*key] = value.clone();
        }
        doc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructors_check_their_ranges() {
        let config = Config::default();
        assert!(config.validate().is_ok());
        assert_eq!(
            config.clone().with_connections(0).unwrap_err(),
            ConfigError::Connections(0)
        );
        assert_eq!(
            config.clone().with_threads(65).unwrap_err().to_string(),
            "the requests computed side by side must be from 1 to 64, not 65"
        );
        assert!(config
            .clone()
            .with_read_timeout(Duration::from_millis(10))
            .is_err());
        // Zero and a value below the range get the same words.
        for (secs, shown) in [
            (0.0, "0 s"),
            (0.05, "0.05 s"),
            (-1.0, "-1 s"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (3601.0, "3601 s"),
            (1e300, "1e300 s"),
            (1e-9, "1e-9 s"),
        ] {
            assert_eq!(
                config
                    .clone()
                    .with_read_timeout_secs(secs)
                    .unwrap_err()
                    .to_string(),
                format!("the read timeout must be from 0.1 s to 3600 s, not {shown}")
            );
        }
        let config = config
            .with_connections(1000)
            .and_then(|c| c.with_read_timeout(Duration::from_secs(2)))
            .unwrap();
        assert_eq!(config.connections, 1000);
        assert_eq!(config.read_timeout, Duration::from_secs(2));
        let bad = Config {
            threads: 0,
            ..Config::default()
        };
        assert_eq!(bad.validate(), Err(ConfigError::Threads(0)));
    }
}
