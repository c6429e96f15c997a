//! Connections: accepting them up to the cap, serving each with hyper's HTTP/1.1,
//! the read timeout that closes a silent or slow one, and a lingering close so
//! that a client still sending gets the last answer before the connection goes.
//!
//! Everything runs on one tokio runtime of [`RUNTIME_THREADS`] threads; the
//! computing of a request runs on the runtime's blocking pool, at most
//! [`Config::threads`] at a time (see `http::compute`).

use crate::http::{self, Activity};
use crate::{Config, WebError};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::runtime::Runtime;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The threads of the runtime that accepts connections and moves their bytes
/// (computing runs on up to [`Config::threads`] more).
pub const RUNTIME_THREADS: usize = 2;
/// Connections past the cap that are being answered 503 at once; past these too,
/// a connection is closed without a word.
const REFUSING: usize = 256;
/// The kernel's queue of connections not yet accepted.
const BACKLOG: u32 = 1024;
/// The largest request head (and read buffer) of a connection: past it, 431.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most header fields of a request head: past them, 431 (hyper's own
/// default, named here so that the docs can say it).
pub const MAX_HEADERS: usize = 100;
/// What a client that speaks HTTP/2 from the start sends first (RFC 9113).
const HTTP2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";
/// How long a closing connection waits for the client to close its side, reading
/// and dropping what it still sends (so that the answer is not lost to a reset).
const LINGER: Duration = Duration::from_secs(2);
/// The same for a connection refused past the cap (its 503 is written before
/// the request is read; this is the time the request has to arrive).
const LINGER_REFUSED: Duration = Duration::from_millis(500);
/// The most bytes read and dropped while lingering.
const LINGER_BYTES: usize = 1 << 20;
/// How long writing the 408 or 503 of a closing connection may take.
const LAST_WORD: Duration = Duration::from_secs(1);

/// What every connection shares.
pub(crate) struct State {
    pub config: Config,
    pub cache: crate::cache::Cache,
    /// The port listened on (a Host header may name it).
    pub port: u16,
    /// One permit for each request computed at a time.
    pub compute: Arc<Semaphore>,
}

/// A server bound to its address, not yet serving.
pub struct Server {
    runtime: Runtime,
    listener: TcpListener,
    state: Arc<State>,
    addr: SocketAddr,
}

impl Server {
    /// Checks `config`, starts the runtime and listens on its address.
    pub fn bind(config: Config) -> Result<Server, WebError> {
        config.validate()?;
        raise_file_limit(config.connections);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(RUNTIME_THREADS)
            .max_blocking_threads(config.threads)
            .thread_name("grader-serve")
            .enable_io()
            .enable_time()
            .build()
            .map_err(WebError::Runtime)?;
        let wanted = SocketAddr::new(config.host, config.port);
        let bind_error = |source| WebError::Bind {
            addr: wanted,
            source,
        };
        let listener = runtime
            .block_on(async {
                let socket = if wanted.is_ipv4() {
                    TcpSocket::new_v4()?
                } else {
                    TcpSocket::new_v6()?
                };
                socket.set_reuseaddr(true)?;
                socket.bind(wanted)?;
                socket.listen(BACKLOG)
            })
            .map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let state = Arc::new(State {
            cache: crate::cache::Cache::new(16),
            port: addr.port(),
            compute: Arc::new(Semaphore::new(config.threads)),
            config,
        });
        Ok(Server {
            runtime,
            listener,
            state,
            addr,
        })
    }

    /// The address it listens on (with the port picked when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until the process ends.
    pub fn run(self) {
        let Server {
            runtime,
            listener,
            state,
            ..
        } = self;
        runtime.block_on(accept(listener, state));
    }
}

/// Lets the process hold a file for each connection, and some to spare: the soft
/// limit is often 1024, the hard one far higher. (Past whatever limit holds, a
/// connection waits in the kernel's queue until one closes.)
fn raise_file_limit(connections: usize) {
    let wanted = u64::try_from(connections)
        .unwrap_or(u64::MAX)
        .saturating_add(64);
    let _ = rlimit::increase_nofile_limit(wanted);
}

async fn accept(listener: TcpListener, state: Arc<State>) {
    let held = Arc::new(Semaphore::new(state.config.connections));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of files, or a connection reset before it was accepted:
                // wait a little (a connection may close meanwhile), then go on.
                if !matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        match Arc::clone(&held).try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(serve(stream, Arc::clone(&state), permit));
            }
            Err(_) => {
                if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
                    tokio::spawn(refuse(stream, permit));
                }
            }
        }
    }
}

/// Past the cap: 503 at once, without reading the request, then close.
async fn refuse(mut stream: TcpStream, permit: OwnedSemaphorePermit) {
    let answer = http::last_word(
        503,
        "the server holds as many connections as it may; try again in a moment",
    );
    let _ = tokio::time::timeout(LAST_WORD, stream.write_all(&answer)).await;
    linger(stream, permit, LINGER_REFUSED).await;
}

/// Serves one connection until the client closes it, or stays silent past the
/// read timeout.
async fn serve(stream: TcpStream, state: Arc<State>, permit: OwnedSemaphorePermit) {
    let activity = Arc::new(Activity::new());
    let io = Connection {
        stream: Some(stream),
        permit: Some(permit),
        activity: Arc::clone(&activity),
        first: Vec::with_capacity(HTTP2_PREFACE.len()),
    };
    let service = {
        let activity = Arc::clone(&activity);
        let state = Arc::clone(&state);
        service_fn(move |request| http::handle(Arc::clone(&state), Arc::clone(&activity), request))
    };
    let mut conn = http1::Builder::new()
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .title_case_headers(true)
        .serve_connection(TokioIo::new(io), service);
    let silent = tokio::select! {
        biased;
        ended = &mut conn => {
            // hyper closes a connection that opens with HTTP/2's preface
            // without a word: it gets the 400 of any other HTTP version.
            if ended.is_err() && activity.opened_with_http2() {
                let mut io = conn.into_parts().io.into_inner();
                let answer = http::last_word(
                    400,
                    "this server speaks HTTP/1.1 only, not HTTP/2",
                );
                let _ = tokio::time::timeout(LAST_WORD, io.write_all(&answer)).await;
                return;
            }
            false
        }
        _ = activity.silent_for(state.config.read_timeout) => true,
    };
    if silent {
        // No request arrived (or none whole) within the read timeout, or the
        // client stopped reading its answer: take the socket back from hyper,
        // say 408 if the answer before went out whole, and close.
        let mut io = conn.into_parts().io.into_inner();
        if !activity.unflushed() {
            let answer = http::last_word(
                408,
                &format!(
                    "no whole request arrived within {} s",
                    state.config.read_timeout.as_secs_f64()
                ),
            );
            let _ = tokio::time::timeout(LAST_WORD, io.write_all(&answer)).await;
        }
    }
    // Dropping the connection lingers (see `Connection`'s `Drop`).
}

/// Closes the sending side, then reads and drops what the client still sends
/// for a moment: closing a socket with unread bytes resets it, and a reset can
/// destroy the answer before the client reads it.
async fn linger(mut stream: TcpStream, permit: OwnedSemaphorePermit, wait: Duration) {
    let _ = stream.shutdown().await;
    let _ = tokio::time::timeout(wait, async {
        let mut buf = vec![0u8; 4096];
        let mut dropped = 0;
        while dropped < LINGER_BYTES {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => dropped += n,
            }
        }
    })
    .await;
    drop(permit);
}

/// A connection's socket as hyper sees it: it tells [`Activity`] whether an
/// answer is still being written and how the connection opened, and when
/// dropped it lingers (holding the connection's place under the cap until
/// then).
struct Connection {
    stream: Option<TcpStream>,
    permit: Option<OwnedSemaphorePermit>,
    activity: Arc<Activity>,
    /// The connection's first bytes, up to the length of HTTP/2's preface.
    first: Vec<u8>,
}

impl Connection {
    fn stream(&mut self) -> io::Result<&mut TcpStream> {
        self.stream
            .as_mut()
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotConnected))
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let (Some(stream), Some(permit)) = (self.stream.take(), self.permit.take()) {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(linger(stream, permit, LINGER));
            }
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(self.stream()?).poll_read(cx, buf);
        let wanted = HTTP2_PREFACE.len() - self.first.len();
        if wanted > 0 && matches!(read, Poll::Ready(Ok(()))) {
            let new = &buf.filled()[before..];
            let new = &new[..new.len().min(wanted)];
            self.first.extend_from_slice(new);
            if self.first == HTTP2_PREFACE {
                self.activity.http2_preface();
            }
        }
        read
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(self.stream()?).poll_write(cx, buf);
        self.activity
            .wrote(matches!(written, Poll::Ready(Ok(n)) if n > 0));
        written
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(self.stream()?).poll_write_vectored(cx, bufs);
        self.activity
            .wrote(matches!(written, Poll::Ready(Ok(n)) if n > 0));
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.as_ref().is_some_and(|s| s.is_write_vectored())
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = Pin::new(self.stream()?).poll_flush(cx);
        if matches!(flushed, Poll::Ready(Ok(()))) {
            self.activity.flushed();
        }
        flushed
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(self.stream()?).poll_shutdown(cx)
    }
}
