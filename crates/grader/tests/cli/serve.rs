//! `grader serve`: it prints its address and answers there (the page and its API
//! are tested in the kenken-web crate and in a real browser); a bad FILE or
//! address is refused.

use super::{bad_input, grader, GRADER};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn it_prints_its_address_and_serves_the_page() {
    let mut child = Command::new(GRADER)
        .args(["serve", "--port", "0", "../../puzzles/sample.json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grader serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().to_string();
    let addr = url
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{url:?}"));
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/puzzles?limit=1 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"total\":20"), "{answer}");
}

#[test]
fn a_bad_file_or_address_is_refused() {
    let err = bad_input(grader(&["serve", "--port", "0", "no-such-file.json"]));
    assert!(err.contains("no such file"), "{err}");
    let err = bad_input(grader(&["serve", "--host", "localhost"]));
    assert!(err.contains("invalid IP address"), "{err}");
}
