//! `grader serve`: it prints its address and answers there (the page and its API
//! are tested in the kenken-web crate and in a real browser); `--hide-ops` hides
//! every puzzle's operations; a bad FILE, address or limit is refused; under a 2 GiB address-space limit it holds a thousand
//! idle connections and still serves the page at once.

use super::{bad_input, grader, GRADER};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `grader serve ARGS` through `sh -c PRELUDE; exec …` and returns it
/// with the address it printed.
fn serve(prelude: &str, args: &[&str]) -> (Child, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{prelude} exec \"$0\" \"$@\""))
        .arg(GRADER)
        .arg("serve")
        .args(args)
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
        .unwrap_or_else(|| panic!("{url:?}"))
        .to_string();
    (child, addr)
}

/// One request on its own connection; the whole answer.
fn ask(addr: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn it_prints_its_address_and_serves_the_page() {
    let (mut child, addr) = serve("", &["--port", "0", "../../puzzles/sample.json"]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let answer = ask(
        &addr,
        &format!("GET /api/puzzles?limit=1 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    child.kill().unwrap();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"total\":20"), "{answer}");
}

/// A POST of a JSON body on its own connection; the whole answer.
fn post(addr: &str, path: &str, body: &str) -> String {
    ask(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

#[test]
fn hide_ops_hides_every_puzzles_operations() {
    // The README's 4x4: unique as written, ambiguous with its operations hidden.
    let body = r#"{"puzzle": "4:_a_5a_bac_a__,d2m12a5m8s2d2s1", "hide_ops": false}"#;
    let (mut plain, addr) = serve("", &["--port", "0"]);
    let shown = post(&addr, "/api/load", body);
    plain.kill().unwrap();
    let _ = plain.wait();
    assert!(shown.contains("\"hide_ops\":false"), "{shown}");
    assert!(shown.contains("\"verdict\":\"unique\""), "{shown}");

    let (mut hiding, addr) = serve("", &["--port", "0", "--hide-ops"]);
    let hidden = post(&addr, "/api/load", body);
    hiding.kill().unwrap();
    let mut stderr = String::new();
    hiding
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = hiding.wait();
    assert!(hidden.starts_with("HTTP/1.1 200"), "{hidden}");
    assert!(hidden.contains("\"hide_ops\":true"), "{hidden}");
    assert!(hidden.contains("\"verdict\":\"ambiguous\""), "{hidden}");
    assert!(hidden.contains("\"tatham\":null"), "{hidden}");
    assert!(hidden.contains("? 12 A2 A3 B3"), "{hidden}");
    assert!(
        stderr.contains("every puzzle is read with its operations hidden"),
        "{stderr}"
    );
}

#[test]
fn a_bad_file_address_or_limit_is_refused() {
    let err = bad_input(grader(&["serve", "--port", "0", "no-such-file.json"]));
    assert!(err.contains("no such file"), "{err}");
    let err = bad_input(grader(&["serve", "--host", "localhost"]));
    assert!(err.contains("invalid IP address"), "{err}");
    let err = bad_input(grader(&["serve", "--port", "0", "--connections", "0"]));
    assert!(
        err.contains("--connections: the connection cap must be from 1 to 65536, not 0"),
        "{err}"
    );
    let err = bad_input(grader(&["serve", "--port", "0", "--threads", "65"]));
    assert!(err.contains("--threads: "), "{err}");
    // Every value out of range gets the same words, zero and NaN included.
    for (value, shown) in [
        ("0.01", "0.01 s"),
        ("0.05", "0.05 s"),
        ("0", "0 s"),
        ("-1", "-1 s"),
        ("nan", "nan"),
        ("1e300", "1e300 s"),
    ] {
        let err = bad_input(grader(&["serve", "--port", "0", "--read-timeout", value]));
        assert_eq!(
            err,
            format!("grader serve: error: --read-timeout: the read timeout must be from 0.1 s to 3600 s, not {shown}\n"),
            "{value}"
        );
    }
}

/// A field of `/proc/PID/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_thousand_idle_connections_under_2_gib() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // Linux only
    }
    // This process holds a thousand sockets too (the server raises its own
    // limit on open files).
    let _ = rlimit::increase_nofile_limit(4096);
    let (mut child, addr) = serve(
        "ulimit -v 2097152 &&",
        &["--port", "0", "--read-timeout", "60"],
    );
    let pid = child.id();
    let idle: Vec<TcpStream> = (0..1000)
        .map(|_| TcpStream::connect(&addr).expect("connect"))
        .collect();
    let held = || std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count());
    let waited = Instant::now();
    while held() < 1000 && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(held() >= 1000, "the server holds {} files", held());
    let page = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut times: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            let answer = ask(&addr, &page);
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(answer.contains("<script src=\"app.js\""));
            started.elapsed()
        })
        .collect();
    times.sort();
    // Grading still works within the limit.
    let body = format!("{{\"puzzle\": \"{}\"}}", super::README);
    let load = ask(
        &addr,
        &format!(
            "POST /api/load HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(load.starts_with("HTTP/1.1 200"), "{load}");
    eprintln!(
        "grader serve, 1000 idle connections, 2 GiB address space: GET / in {:?} (median), {:?} (slowest of 20); VmPeak {} MiB, VmHWM {} MiB",
        times[10],
        times[19],
        status_kib(pid, "VmPeak") / 1024,
        status_kib(pid, "VmHWM") / 1024
    );
    assert!(child.try_wait().unwrap().is_none(), "the server is alive");
    assert!(times[10] < Duration::from_millis(100), "{times:?}");
    drop(idle);
    std::thread::sleep(Duration::from_millis(300));
    let ladder = ask(
        &addr,
        &format!("GET /api/ladder HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert!(ladder.starts_with("HTTP/1.1 200"), "{ladder}");
    assert!(child.try_wait().unwrap().is_none(), "the server is alive");
    child.kill().unwrap();
    let _ = child.wait();
}
