//! `grader serve [--port P] [--host H] [--hide-ops] [FILE]`: the local web page
//! of [`kenken_web`], with the puzzles of FILE to pick from. The ranges of
//! `--threads`, `--connections` and `--read-timeout` are the library's
//! ([`Config`]'s constructors check them).

use crate::exit::BAD_INPUT;
use crate::input::HideOps;
use clap::Args;
use kenken_web::{Config, Library, Server};
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A file of puzzles to pick from on the page (what `grader batch` reads; the
    /// first 100 000 are offered).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The port to listen on (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Only this machine can reach the default; another
    /// address (0.0.0.0 for every interface) opens the page to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    #[command(flatten)]
    pub hide: HideOps,
    /// How long one request may compute (read, grade, walk, hint or check one
    /// puzzle) before it answers with what it has, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", allow_hyphen_values = true,
          value_parser = crate::options::seconds)]
    pub timeout: Duration,
    /// Requests computed side by side (1 to 64); more wait their turn.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub threads: usize,
    /// Connections held at once (1 to 65 536); past it, a new connection is
    /// answered 503 and closed.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub connections: usize,
    /// How long a client may take to send a request's head, and then its body, in
    /// seconds (0.1 to 3600); past it, 408 and the connection is closed. An idle
    /// connection is closed the same way.
    #[arg(long, value_name = "SECONDS", default_value = "10", allow_hyphen_values = true,
          value_parser = crate::options::any_seconds)]
    pub read_timeout: f64,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let library = match &args.file {
        None => None,
        Some(path) => match Library::open(path) {
            Ok(library) => Some(library),
            Err(e) => {
                eprintln!("grader serve: error: {e}");
                return Ok(ExitCode::from(BAD_INPUT));
            }
        },
    };
    if let Some(library) = &library {
        let mut note = format!("{} puzzle(s) from {}", library.puzzles.len(), library.name);
        if library.skipped > 0 {
            note.push_str(&format!(
                " ({} entries that are not puzzle strings left out)",
                library.skipped
            ));
        }
        if library.truncated {
            note.push_str(&format!(
                " (the first {}; the rest left out)",
                kenken_web::MAX_LIBRARY
            ));
        }
        eprintln!("grader serve: {note}");
    }
    let config = Config {
        host: args.host,
        port: args.port,
        library,
        timeout: args.timeout,
        hide_ops: args.hide.hide_ops,
        ..Config::default()
    };
    let config = match config
        .with_threads(args.threads)
        .map_err(|e| ("--threads", e))
        .and_then(|c| {
            c.with_connections(args.connections)
                .map_err(|e| ("--connections", e))
        })
        .and_then(|c| {
            c.with_read_timeout_secs(args.read_timeout)
                .map_err(|e| ("--read-timeout", e))
        }) {
        Ok(config) => config,
        Err((flag, e)) => {
            eprintln!("grader serve: error: {flag}: {e}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    let server = match Server::bind(config) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("grader serve: error: {e}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    if !args.host.is_loopback() {
        eprintln!(
            "grader serve: warning: listening on {}: other machines can reach the page",
            args.host
        );
    }
    let addr = server.addr();
    let shown = match addr.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", addr.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", addr.port()),
    };
    // Standard output carries the address alone (a script or a test reads it).
    crate::report::print(&format!("http://{shown}/"))?;
    if args.hide.hide_ops {
        eprintln!("grader serve: every puzzle is read with its operations hidden");
    }
    eprintln!("grader serve: serving the page; press Ctrl-C to stop");
    server.run();
    Ok(ExitCode::SUCCESS)
}
