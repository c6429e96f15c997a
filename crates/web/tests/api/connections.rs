//! What the server holds: idle, slow and pipelined clients, the connection cap,
//! and a thousand idle connections under a 2 GiB address-space limit.

use super::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A server whose clients get one second to send a request.
fn impatient() -> SocketAddr {
    start(Config {
        read_timeout: Duration::from_secs(1),
        ..Config::default()
    })
}

fn assert_408_after_a_second(r: &Exchange) {
    assert_eq!(r.statuses(), [408], "{}", r.text);
    assert!(r.text.contains("Connection: close"), "{}", r.text);
    let first = r.first.unwrap();
    assert!(
        first >= Duration::from_millis(900) && first < Duration::from_secs(3),
        "answered after {first:?}"
    );
    let closed = r.closed.expect("the server closes the connection");
    assert!(closed < Duration::from_secs(4), "closed after {closed:?}");
}

#[test]
fn an_idle_client_gets_408_and_is_closed() {
    let r = exchange(impatient(), b"", Duration::from_secs(10));
    assert_408_after_a_second(&r);
    assert!(r.text.contains("no whole request arrived within 1 s"));
}

#[test]
fn headers_dripped_slowly_get_408() {
    let addr = impatient();
    let mut stream = TcpStream::connect(addr).unwrap();
    let started = Instant::now();
    let mut writer = stream.try_clone().unwrap();
    let drip = std::thread::spawn(move || {
        // A byte every 100 ms, for longer than the read timeout: the head is
        // never whole in time, however steadily it comes.
        for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
            if writer.write_all(&[*byte]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let r = read_until_closed(&mut stream, started, Duration::from_secs(10));
    assert_408_after_a_second(&r);
    let _ = drip.join();
}

#[test]
fn a_keep_alive_connection_idle_after_an_answer_gets_408() {
    let addr = impatient();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/ladder HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let started = Instant::now();
    let r = read_until_closed(&mut stream, started, Duration::from_secs(10));
    assert_eq!(r.statuses(), [200, 408], "{}", r.text);
    assert!(r.closed.unwrap() >= Duration::from_millis(900));
}

#[test]
fn a_client_that_stops_reading_its_answers_is_closed() {
    let addr = impatient();
    let mut stream = TcpStream::connect(addr).unwrap();
    // Far more answers than the sockets' buffers hold, none of them read.
    let request = format!(
        "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        addr.port()
    );
    stream.write_all(request.repeat(2000).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let r = read_until_closed(&mut stream, Instant::now(), Duration::from_secs(20));
    assert!(r.closed.is_some(), "the server closes the connection");
    let answered = r.statuses().len();
    assert!(answered < 2000, "{answered} answered");
    assert!(
        !r.statuses().contains(&408),
        "no 408 in the middle of an answer"
    );
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let addr = server();
    let host = format!("127.0.0.1:{}", addr.port());
    let body = format!("{{\"puzzle\": \"{SIX}\"}}");
    let bad = "{\"puzzle\": 1}";
    let requests = format!(
        "GET /api/ladder HTTP/1.1\r\nHost: {host}\r\n\r\n\
         POST /api/load HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}\
         GET /nothing HTTP/1.1\r\nHost: {host}\r\n\r\n\
         POST /api/step HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{bad}\
         HEAD / HTTP/1.1\r\nHost: {host}\r\n\r\n\
         GET /app.js HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
        body.len(),
        bad.len()
    );
    let r = exchange(addr, requests.as_bytes(), Duration::from_secs(30));
    assert_eq!(r.statuses(), [200, 200, 404, 422, 200, 200]);
    assert!(r.closed.is_some(), "closed after the last");
    // Each answer is the one asked for.
    let techniques = r.text.find("\"techniques\"").unwrap();
    let rating = r.text.find("\"status_text\"").unwrap();
    let missing = r.text.find("no such page: /nothing").unwrap();
    let script = r.text.find("\"use strict\"").unwrap();
    assert!(techniques < rating && rating < missing && missing < script);
}

#[test]
fn past_the_cap_a_connection_gets_503() {
    let addr = start(Config {
        connections: 4,
        ..Config::default()
    });
    let held: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // The server has taken all four before the fifth comes.
    std::thread::sleep(Duration::from_millis(300));
    let r = exchange(addr, b"", Duration::from_secs(5));
    assert_eq!(r.statuses(), [503], "{}", r.text);
    assert!(r.text.contains("Retry-After: 1"));
    assert!(r.first.unwrap() < Duration::from_secs(1));
    // One closes: its place is free again.
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(get(addr, "/").status, 200);
}

/// Set in the child process that serves for the test below.
const CHILD: &str = "KENKEN_WEB_CHILD_SERVER";

#[test]
#[ignore = "the server of a_thousand_idle_connections_under_2_gib, in a child process"]
fn child_server() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let server = Server::bind(Config {
        port: 0,
        read_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .expect("the server binds");
    println!("serving on {}", server.addr());
    server.run();
}

/// A field of `/proc/PID/status` in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_thousand_idle_connections_under_2_gib() {
    if !Path::new("/proc/self/status").exists() {
        return; // Linux only
    }
    // This process holds a thousand sockets too.
    let _ = rlimit::increase_nofile_limit(4096);
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && ulimit -n 4096 2>/dev/null; exec \"$0\" \"$@\"")
        .arg(&exe)
        .args([
            "--exact",
            "connections::child_server",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the child starts");
    let pid = child.id();
    let addr: SocketAddr = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        // (after libtest's "test connections::child_server ... ")
        .find_map(|l| l.split("serving on ").nth(1)?.trim().parse().ok())
        .expect("the child prints its address");
    let idle: Vec<TcpStream> = (0..1000)
        .map(|_| TcpStream::connect(addr).expect("connect"))
        .collect();
    // Until the server holds them all (a file each).
    let held = || std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count());
    let waited = Instant::now();
    while held() < 1000 && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(held() >= 1000, "the server holds {} files", held());
    let mut times: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            let page = get(addr, "/");
            assert_eq!(page.status, 200);
            assert!(page.body.contains("<script src=\"app.js\""));
            started.elapsed()
        })
        .collect();
    times.sort();
    let (vm_peak, vm_hwm) = (status_kib(pid, "VmPeak"), status_kib(pid, "VmHWM"));
    eprintln!(
        "1000 idle connections: GET / in {:?} (median), {:?} (slowest of 20); the server's VmPeak {} MiB, VmHWM {} MiB",
        times[10],
        times[19],
        vm_peak / 1024,
        vm_hwm / 1024
    );
    assert!(child.try_wait().unwrap().is_none(), "the server is alive");
    assert!(times[10] < Duration::from_millis(100), "{times:?}");
    drop(idle);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(get(addr, "/api/ladder").status, 200);
    assert!(child.try_wait().unwrap().is_none(), "the server is alive");
    child.kill().unwrap();
    let _ = child.wait();
}
