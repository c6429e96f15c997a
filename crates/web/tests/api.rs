//! The HTTP API of the page, over real sockets: what each route answers, and a
//! clear status for every bad request (never a crash, never a hang). One test
//! binary: the HTTP protocol's edges, the connections the server holds and the
//! OpenAPI document are modules of it.

#[path = "api/connections.rs"]
mod connections;
#[path = "api/hidden.rs"]
mod hidden;
#[path = "api/openapi.rs"]
mod openapi;
#[path = "api/protocol.rs"]
mod protocol;

use kenken_web::{Config, Library, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The 6x6 of `docs/formats.md`; its solution's first row is 4 6 1 2 5 3.
const SIX: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";
const FOUR: &str = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";
/// A 9x9 whose step 6 is a cage comparison that removes 5 combinations of cage
/// A5 (A5, A6, A7).
const NINE: &str = "9:a__bb__a_b__a_b__a4_4a_a_6a_11a_4a_6a_6a3_aba_3a_3a_a_3aba_baa_aa_a4,m18s2d2a16d2a8s1s3m216s3s2a13s4m24s4d2m8a11s4m126m6m18d3a9d4a9d2a15a7m64a12s2d2s4m108a8m8";

fn start(config: Config) -> SocketAddr {
    let server = Server::bind(Config { port: 0, ..config }).expect("the server binds");
    let addr = server.addr();
    std::thread::spawn(move || server.run());
    addr
}

/// One server with the sample puzzles as its FILE, shared by the tests.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/sample.json");
        start(Config {
            library: Some(Library::open(&file).expect("the sample file")),
            ..Config::default()
        })
    })
}

struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .expect("an error message")
            .to_string()
    }
}

/// Sends raw request bytes and reads the answer: its head, then as many bytes
/// of body as its Content-Length says (a server that drains an unread request
/// body may keep the connection open after answering).
fn send(addr: SocketAddr, head: &str, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(head.as_bytes()).expect("write the head");
    let is_head = head.starts_with("HEAD ");
    // The server may answer before the whole body is sent.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_len, body_len) = loop {
        let n = stream.read(&mut buf).expect("read the answer");
        assert!(n > 0, "the connection closed before the answer's head");
        raw.extend_from_slice(&buf[..n]);
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let answer = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = answer
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .expect("a Content-Length");
            // A HEAD's answer has a length and no body.
            break (end + 4, if is_head { 0 } else { length });
        }
    };
    while raw.len() < head_len + body_len {
        let n = stream.read(&mut buf).expect("read the body");
        assert!(n > 0, "the connection closed before the whole body");
        raw.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&raw[..head_len]).into_owned();
    let body = String::from_utf8_lossy(&raw[head_len..head_len + body_len]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    Reply { status, head, body }
}

/// What a raw exchange brought back: every byte read until the server closed
/// the connection (or `wait` passed), and when the first byte and the end came.
struct Exchange {
    text: String,
    first: Option<Duration>,
    closed: Option<Duration>,
}

impl Exchange {
    /// The statuses of the answers read, in order.
    fn statuses(&self) -> Vec<u16> {
        self.text
            .match_indices("HTTP/1.1 ")
            .filter_map(|(at, _)| self.text[at + 9..].get(..3)?.parse().ok())
            .collect()
    }
}

/// Writes `bytes` (whatever they are) and reads until the server closes the
/// connection or `wait` passes.
fn exchange(addr: SocketAddr, bytes: &[u8], wait: Duration) -> Exchange {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let started = Instant::now();
    let _ = stream.write_all(bytes);
    read_until_closed(&mut stream, started, wait)
}

fn read_until_closed(stream: &mut TcpStream, started: Instant, wait: Duration) -> Exchange {
    let mut raw = Vec::new();
    let mut first = None;
    let mut closed = None;
    let mut buf = [0u8; 8192];
    while started.elapsed() < wait {
        let left = wait
            .saturating_sub(started.elapsed())
            .max(Duration::from_millis(1));
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => {
                closed = Some(started.elapsed());
                break;
            }
            Ok(n) => {
                first.get_or_insert(started.elapsed());
                raw.extend_from_slice(&buf[..n]);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                break
            }
            Err(_) => {
                closed = Some(started.elapsed());
                break;
            }
        }
    }
    Exchange {
        text: String::from_utf8_lossy(&raw).into_owned(),
        first,
        closed,
    }
}

fn get(addr: SocketAddr, path: &str) -> Reply {
    send(
        addr,
        &format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            addr.port()
        ),
        b"",
    )
}

fn post_raw(addr: SocketAddr, path: &str, content_type: &str, body: &[u8]) -> Reply {
    send(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            addr.port(),
            body.len()
        ),
        body,
    )
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Reply {
    post_raw(addr, path, "application/json", body.to_string().as_bytes())
}

fn blank(n: usize) -> Vec<Value> {
    vec![json!(0); n * n]
}

#[test]
fn the_page_and_its_script_are_served() {
    let page = get(server(), "/");
    assert_eq!(page.status, 200);
    assert!(page.head.contains("text/html"), "{}", page.head);
    assert!(page.head.contains("Content-Security-Policy"));
    assert!(page.body.contains("<script src=\"app.js\""));
    // Nothing is fetched from elsewhere: no address but SVG's namespace, nor one
    // relative to the scheme (`"http"` alone names the page's back end).
    let elsewhere = |text: &str| {
        let text = text.replace("http://www.w3.org/2000/svg", "");
        text.contains("://") || text.contains("\"//") || text.contains("'//")
    };
    assert!(!elsewhere(&page.body));
    let script = get(server(), "/app.js");
    assert_eq!(script.status, 200);
    assert!(script.head.contains("text/javascript"));
    assert!(!elsewhere(&script.body));
}

#[test]
fn unknown_routes_and_wrong_methods() {
    let addr = server();
    let missing = get(addr, "/nothing/here");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.error(), "no such page: /nothing/here");
    let wrong = get(addr, "/api/load");
    assert_eq!(wrong.status, 405);
    assert!(wrong.head.contains("Allow: POST"), "{}", wrong.head);
    let wrong = post(addr, "/", json!({}));
    assert_eq!(wrong.status, 405);
    let delete = send(
        addr,
        &format!(
            "DELETE /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            addr.port()
        ),
        b"",
    );
    assert_eq!(delete.status, 405);
}

#[test]
fn malformed_bodies() {
    let addr = server();
    let r = post_raw(addr, "/api/load", "application/json", b"{\"puzzle\": ");
    assert_eq!(r.status, 400);
    assert!(
        r.error().starts_with("the request body is not JSON: "),
        "{}",
        r.error()
    );
    // Well-formed JSON of the wrong shape: 422, said in words.
    let r = post(addr, "/api/load", json!({"puzzle": SIX, "extra": 1}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "unknown field \"extra\": /api/load takes \"puzzle\" (and, optionally, \"hide_ops\")"
    );
    let r = post(addr, "/api/load", json!({"puzzle": 12}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "\"puzzle\" must be a string (a puzzle in any format the grader reads), not a number"
    );
    let r = post(addr, "/api/load", json!([SIX]));
    assert_eq!(r.status, 422);
    let r = post(addr, "/api/step", json!({"puzzle": SIX}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "the field \"n\" is missing: /api/step takes \"puzzle\", \"n\" (and, optionally, \"hide_ops\")"
    );
    let r = post_raw(addr, "/api/load", "text/plain", b"{\"puzzle\": \"x\"}");
    assert_eq!(r.status, 415);
    let r = post_raw(addr, "/api/load", "application/json", b"\xff\xfe");
    assert_eq!(r.status, 400);
}

#[test]
fn a_huge_body_is_refused_without_reading_it() {
    let addr = server();
    // Announced too long: refused at once, the connection closed.
    let started = Instant::now();
    let head = format!(
        "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 500000000\r\n\r\n",
        addr.port()
    );
    let r = send(addr, &head, &vec![b' '; 1 << 20]);
    assert_eq!(r.status, 413);
    assert!(r.error().contains("larger than 64 KiB"), "{}", r.error());
    assert!(started.elapsed() < Duration::from_secs(10));
    // Sent in chunks with no length: cut at the limit.
    let head = format!(
        "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        addr.port()
    );
    let chunk = vec![b'a'; 0x8000];
    let mut body = Vec::new();
    for _ in 0..8 {
        body.extend_from_slice(b"8000\r\n");
        body.extend_from_slice(&chunk);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let r = send(addr, &head, &body);
    assert_eq!(r.status, 413);
    // Just under the limit is read (and is not a puzzle).
    let text = format!("{{\"puzzle\": \"{}\"}}", "a".repeat(60_000));
    let r = post_raw(addr, "/api/load", "application/json", text.as_bytes());
    assert_eq!(r.status, 422);
    // The server is still there.
    assert_eq!(get(addr, "/api/ladder").status, 200);
}

#[test]
fn malformed_puzzles_and_positions() {
    let addr = server();
    let r = post(addr, "/api/load", json!({"puzzle": "6:a_a_aa_a_,s2a9"}));
    assert_eq!(r.status, 422);
    assert!(
        r.error().starts_with("the puzzle cannot be read: "),
        "{}",
        r.error()
    );
    let r = post(addr, "/api/load", json!({"puzzle": "hello"}));
    assert_eq!(r.status, 422);
    let r = post(
        addr,
        "/api/check",
        json!({"puzzle": SIX, "cells": blank(4)}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "bad position: the position has 16 cells, the grid has 36"
    );
    let mut cells = blank(6);
    let allowed = "a cell is 0 for a blank, a digit from 1 to 6, or an array of distinct pencil marks from 1 to 6";
    // A digit past the grid's size, past a byte, below 0, or not whole: one
    // status, and words that say which cell and what it may hold.
    for (digit, shown) in [
        (json!(7), "7"),
        (json!(256), "256"),
        (json!(-1), "-1"),
        (json!(2.5), "2.5"),
    ] {
        cells[7] = digit;
        let r = post(
            addr,
            "/api/hint",
            json!({"puzzle": SIX, "cells": cells, "level": "full"}),
        );
        assert_eq!(r.status, 422, "{shown}");
        assert_eq!(
            r.error(),
            format!("cells[7] (B2): {shown} is not a digit of a 6×6 grid; {allowed}")
        );
    }
    cells[7] = json!([1, 9]);
    let r = post(addr, "/api/board", json!({"puzzle": SIX, "cells": cells}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        format!("cells[7] (B2): the pencil mark 9 is not a digit of a 6×6 grid; {allowed}")
    );
    cells[7] = json!([2, 2]);
    let r = post(addr, "/api/check", json!({"puzzle": SIX, "cells": cells}));
    assert_eq!(r.status, 422);
    assert!(r.error().contains("the pencil mark 2 is given twice"));
    cells[7] = json!("x");
    let r = post(addr, "/api/board", json!({"puzzle": SIX, "cells": cells}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        format!("cells[7] (B2): a string is not a cell; {allowed}")
    );
    // An empty array of pencil marks is a blank.
    cells[7] = json!([]);
    let r = post(addr, "/api/board", json!({"puzzle": SIX, "cells": cells}));
    assert_eq!(r.status, 200);
    let r = post(addr, "/api/check", json!({"puzzle": SIX, "cells": "x"}));
    assert_eq!(r.status, 422);
    let r = post(
        addr,
        "/api/hint",
        json!({"puzzle": SIX, "cells": blank(6), "level": "all"}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "\"level\" must be one of \"nudge\", \"technique\", \"cells\", \"full\", not \"all\""
    );
    // A step that is not in the log: 422 (404 is for routes that do not exist).
    for n in [json!(0), json!(-3), json!(1.5), json!("7")] {
        let r = post(addr, "/api/step", json!({"puzzle": SIX, "n": n}));
        assert_eq!(r.status, 422, "{n}");
        assert!(r.error().starts_with("\"n\" must be a whole number from 1"));
    }
    // A whole number written as a float is quoted as the number it is: `-0`
    // (which JSON readers take as the float -0.0) is 0, `2e0` is 2.
    for (n, shown) in [("-0", "0"), ("-0.0", "0"), ("-2e0", "-2"), ("1.5", "1.5")] {
        let body = format!("{{\"puzzle\": \"{SIX}\", \"n\": {n}}}");
        let r = post_raw(addr, "/api/step", "application/json", body.as_bytes());
        assert_eq!(r.status, 422, "{n}");
        assert_eq!(
            r.error(),
            format!("\"n\" must be a whole number from 1 (the step to show), not {shown}"),
            "{n}"
        );
    }
    let r = post(addr, "/api/step", json!({"puzzle": SIX, "n": 10_000}));
    assert_eq!(r.status, 422);
    assert!(
        r.error()
            .starts_with("there is no step 10000: the log has "),
        "{}",
        r.error()
    );
    let r = post(addr, "/api/load", json!({"puzzle": "a".repeat(5000)}));
    assert_eq!(r.status, 422);
    assert_eq!(r.error(), "\"puzzle\" is longer than 4096 characters");
}

#[test]
fn another_host_name_is_refused() {
    let addr = server();
    let r = send(
        addr,
        "GET /api/ladder HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n",
        b"",
    );
    assert_eq!(r.status, 403);
    let r = send(
        addr,
        &format!(
            "GET /api/ladder HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
            addr.port()
        ),
        b"",
    );
    assert_eq!(r.status, 200);
}

#[test]
fn load_step_board_check_hint_and_export() {
    let addr = server();
    let load = post(addr, "/api/load", json!({"puzzle": SIX}));
    assert_eq!(load.status, 200, "{}", load.body);
    let info = load.json();
    assert_eq!(info["size"], 6);
    assert_eq!(info["status"], "solved");
    assert_eq!(info["max"], 3.1);
    assert_eq!(info["hardest"], "Region parity");
    let steps = info["steps"].as_array().unwrap().len();
    assert!(steps > 30);
    assert!(info["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(info["frame"]["n"], 6);

    let step = post(addr, "/api/step", json!({"puzzle": SIX, "n": 7})).json();
    // The step as every front end gives it (StepReport): the id, the name, the
    // combinations it removes and its proof.
    assert_eq!(step["step"]["technique"], "region-parity");
    assert_eq!(step["step"]["name"], "Region parity");
    assert_eq!(step["step"]["combinations"][0]["cage"], "B1");
    assert_eq!(step["step"]["proof"].as_array().unwrap().len(), 1);
    assert!(step["step"]["explanation"]
        .as_str()
        .unwrap()
        .contains("even number"));
    let last = post(addr, "/api/step", json!({"puzzle": SIX, "n": steps})).json();
    assert_eq!(last["count"], steps);

    let mut cells = blank(6);
    cells[0] = json!(5);
    cells[1] = json!(6);
    cells[6] = json!([1, 3]);
    let board = post(addr, "/api/board", json!({"puzzle": SIX, "cells": cells}));
    assert_eq!(board.status, 200);
    let check = post(addr, "/api/check", json!({"puzzle": SIX, "cells": cells})).json();
    assert_eq!(check["status"], "conflicts");
    assert_eq!(
        check["message"],
        "A1: the 5 entered there is wrong.\nB1: its pencil marks leave out the digit it needs."
    );
    assert_eq!(check["conflicts"][0]["index"], 0);
    let hint = post(
        addr,
        "/api/hint",
        json!({"puzzle": SIX, "cells": cells, "level": "nudge"}),
    )
    .json();
    assert_eq!(hint["status"], "conflict");

    cells[0] = json!(4);
    cells[6] = json!(0);
    let mut said = Vec::new();
    for level in ["nudge", "technique", "cells", "full"] {
        let hint = post(
            addr,
            "/api/hint",
            json!({"puzzle": SIX, "cells": cells, "level": level}),
        );
        assert_eq!(hint.status, 200, "{}", hint.body);
        let hint = hint.json();
        assert_eq!(hint["status"], "step");
        said.push(hint);
    }
    assert!(said[0].get("technique").is_none());
    assert!(said[1]["technique"].is_string() && said[1].get("cells").is_none());
    assert!(said[2]["cells"].is_array() && said[2].get("step").is_none());
    assert!(said[3]["step"]["explanation"].is_string() && said[3]["svg"].is_string());

    let export = post(addr, "/api/export", json!({"puzzle": SIX, "cells": cells})).json();
    let k6c = export["text"].as_str().unwrap();
    assert!(k6c.starts_with("K6C"));
    let again = post(addr, "/api/load", json!({"puzzle": k6c})).json();
    assert_eq!(again["progress"][0], 4);
    assert_eq!(again["progress"][1], 6);

    let four = post(
        addr,
        "/api/export",
        json!({"puzzle": FOUR, "cells": blank(4)}),
    );
    assert_eq!(four.status, 422);
    assert!(four.error().contains("only 6x6"), "{}", four.error());
    assert_eq!(four.json()["grid"], ". . . .\n. . . .\n. . . .\n. . . .");
}

#[test]
fn the_proofs_of_a_step() {
    let addr = server();
    // A cage comparison: one proof for each combination it removes, in order.
    let step = post(addr, "/api/step", json!({"puzzle": NINE, "n": 6})).json();
    let report = &step["step"];
    assert_eq!(report["technique"], "cage-combination");
    let combinations = report["combinations"].as_array().unwrap();
    assert_eq!(combinations.len(), 1);
    assert_eq!(combinations[0]["cage"], "A5");
    assert_eq!(combinations[0]["cells"], json!(["A5", "A6", "A7"]));
    let removed = combinations[0]["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 5);
    let proofs = report["proof"].as_array().unwrap();
    assert_eq!(proofs.len(), 5);
    for (k, (proof, digits)) in proofs.iter().zip(removed).enumerate() {
        assert_eq!(&proof["digits"], digits);
        let r = post(
            addr,
            "/api/proof",
            json!({"puzzle": NINE, "n": 6, "k": k + 1}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let doc = r.json();
        assert_eq!(doc["n"], 6);
        assert_eq!(doc["k"], k + 1);
        assert_eq!(doc["count"], 5);
        assert_eq!(doc["text"], proof["text"]);
        assert!(doc["svg"].as_str().unwrap().starts_with("<svg"));
    }
    let first = post(addr, "/api/proof", json!({"puzzle": NINE, "n": 6, "k": 1})).json();
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .starts_with("If A5, A6, A7 were 1, 9, 6, cage A1 (18×) could only be"),
        "{}",
        first["text"]
    );
    // Each proof has its own picture: another combination ringed.
    let second = post(addr, "/api/proof", json!({"puzzle": NINE, "n": 6, "k": 2})).json();
    assert_ne!(first["svg"], second["svg"]);
    // The proof's picture is not the step's.
    assert_ne!(first["svg"], step["svg"]);

    // A region parity: one proof for the whole step.
    let region = post(addr, "/api/proof", json!({"puzzle": SIX, "n": 7, "k": 1})).json();
    assert_eq!(region["count"], 1);
    assert!(region["text"]
        .as_str()
        .unwrap()
        .starts_with("Every row holds 1 to 6 once"));

    // A proof the step does not have, a step without proofs, a step past the
    // log, and fields that cannot be used: 422, said in words.
    let r = post(addr, "/api/proof", json!({"puzzle": NINE, "n": 6, "k": 6}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "step 6 has no proof 6: it has 5 (k is from 1 to 5)"
    );
    let r = post(addr, "/api/proof", json!({"puzzle": NINE, "n": 1, "k": 1}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "step 1 (Claiming candidates) has no proof: only cage comparisons and region totals and parities carry one"
    );
    let r = post(
        addr,
        "/api/proof",
        json!({"puzzle": SIX, "n": 10_000, "k": 1}),
    );
    assert_eq!(r.status, 422);
    assert!(r
        .error()
        .starts_with("there is no step 10000: the log has "));
    for k in [json!(0), json!(-1), json!(1.5), json!("1"), json!(null)] {
        let r = post(addr, "/api/proof", json!({"puzzle": SIX, "n": 7, "k": k}));
        assert_eq!(r.status, 422, "{k}");
        assert_eq!(
            r.error(),
            format!("\"k\" must be a whole number from 1 (the proof to show), not {k}")
        );
    }
    let r = post(addr, "/api/proof", json!({"puzzle": SIX, "n": 0, "k": 1}));
    assert_eq!(r.status, 422);
    assert!(r.error().starts_with("\"n\" must be a whole number from 1"));
    let r = post(addr, "/api/proof", json!({"puzzle": SIX, "n": 7}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "the field \"k\" is missing: /api/proof takes \"puzzle\", \"n\", \"k\" (and, optionally, \"hide_ops\")"
    );
    let r = post(
        addr,
        "/api/proof",
        json!({"puzzle": SIX, "n": 7, "k": 1, "cells": []}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "unknown field \"cells\": /api/proof takes \"puzzle\", \"n\", \"k\" (and, optionally, \"hide_ops\")"
    );
    let r = post(
        addr,
        "/api/proof",
        json!({"puzzle": "hello", "n": 1, "k": 1}),
    );
    assert_eq!(r.status, 422);
    assert!(r.error().starts_with("the puzzle cannot be read: "));
}

#[test]
fn the_file_of_puzzles() {
    let addr = server();
    let list = get(addr, "/api/puzzles?offset=2&limit=3").json();
    assert_eq!(list["total"], 20);
    assert_eq!(list["items"].as_array().unwrap().len(), 3);
    assert_eq!(list["items"][0]["number"], 3);
    // Parameters that cannot be used: 422, as for a body's fields.
    for query in [
        "limit=x",
        "limit=-1",
        "offset=1.5",
        "colour=blue",
        "limit=1&limit=2",
    ] {
        assert_eq!(
            get(addr, &format!("/api/puzzles?{query}")).status,
            422,
            "{query}"
        );
    }
    // Parameters are percent-decoded as a form writes them.
    for query in ["offset=%31", "off%73et=1", "offset=1&limit=%32%30"] {
        let list = get(addr, &format!("/api/puzzles?{query}")).json();
        assert_eq!(list["items"][0]["number"], 2, "{query}");
        assert_eq!(list["offset"], 1, "{query}");
    }
    for (query, error) in [
        (
            "offset=%zz",
            "the query's \"%zz\" has a % that is not followed by two hex digits",
        ),
        (
            "offset=%ff",
            "the query's \"%ff\" does not decode to UTF-8 text",
        ),
        (
            "offset=1+",
            "offset must be a whole number from 0, not \"1 \"",
        ),
    ] {
        let r = get(addr, &format!("/api/puzzles?{query}"));
        assert_eq!((r.status, r.error().as_str()), (422, error), "{query}");
    }
    // Any whole number is taken (at most 1000 are listed).
    let all = get(addr, "/api/puzzles?offset=0&limit=99999999999999999999999").json();
    assert_eq!(all["items"].as_array().unwrap().len(), 20);
    let bare = start(Config::default());
    let r = get(bare, "/api/puzzles");
    assert_eq!(r.status, 404);
    assert!(r.error().contains("without a FILE"));
}

#[test]
fn a_request_ends_within_its_time_limit() {
    // The reference's hardest 9x9 takes tens of milliseconds; 1 ms is not enough.
    let addr = start(Config {
        timeout: Duration::from_millis(1),
        threads: 1,
        ..Config::default()
    });
    let hardest = "9:b3a_3a_10a_a_a_b_a_a_a_10a_3abbdbb_a_a_10a_3aa_b_aa_3a_10a_a_b3,a21m60a25s6a11s4a13a8a8a2a9a11a24a13a25s3a17a2a3s1a13s1a11a26a1m16a6a12a7a25s1m378m3";
    let started = Instant::now();
    let r = post(addr, "/api/load", json!({"puzzle": hardest}));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        r.status == 200 || r.status == 422,
        "{} {}",
        r.status,
        r.body
    );
    if r.status == 200 {
        let doc = r.json();
        assert_ne!(doc["status"], "solved", "{doc}");
    }
    // Still serving.
    assert_eq!(get(addr, "/api/ladder").status, 200);
}
