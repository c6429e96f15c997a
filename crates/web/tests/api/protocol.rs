//! The edges of HTTP: the Host check, versions and lengths the server does not
//! take, and answers that come at once rather than after a wait.

use super::*;

fn with_host(addr: SocketAddr, host: &str) -> u16 {
    send(
        addr,
        &format!("GET /api/ladder HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        b"",
    )
    .status
}

#[test]
fn only_this_machines_names_pass_the_host_check() {
    let addr = server();
    let port = addr.port();
    for host in [
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{port}"),
        "localhost".to_string(),
        format!("LocalHost:{port}"),
        "[::1]".to_string(),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(with_host(addr, &host), 200, "{host}");
    }
    // Names that merely start like a loopback address are another machine's
    // (DNS rebinding); so are other loopback addresses, other ports, a bare IPv6
    // address and an empty port.
    for host in [
        "127.attacker.example".to_string(),
        format!("127.attacker.example:{port}"),
        "127.0.0.1.evil.com".to_string(),
        format!("127.0.0.1.evil.com:{port}"),
        "localhost.evil.com".to_string(),
        "127.0.0.2".to_string(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1:".to_string(),
        "::1".to_string(),
        "[::1].evil.com".to_string(),
        "attacker.example".to_string(),
    ] {
        assert_eq!(with_host(addr, &host), 403, "{host}");
    }
    // Two Host headers: refused too.
    let r = send(
        addr,
        &format!(
            "GET /api/ladder HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.com\r\nConnection: close\r\n\r\n"
        ),
        b"",
    );
    assert!(r.status == 400 || r.status == 403, "{}", r.status);
}

#[test]
fn the_host_of_an_absolute_form_target_passes_the_same_check() {
    let addr = server();
    let port = addr.port();
    let with_target = |target: &str| {
        send(
            addr,
            &format!(
                "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
            ),
            b"",
        )
    };
    for target in [
        format!("http://127.0.0.1:{port}/api/ladder"),
        "http://localhost/api/ladder".to_string(),
        format!("http://[::1]:{port}/api/ladder"),
    ] {
        assert_eq!(with_target(&target).status, 200, "{target}");
    }
    for target in [
        "http://evil.example/api/ladder".to_string(),
        format!("http://evil.example:{port}/api/ladder"),
        "http://127.0.0.1.evil.com/api/ladder".to_string(),
        format!("http://user@localhost:{port}/api/ladder"),
        format!("http://127.0.0.1:{}/api/ladder", port.wrapping_add(1)),
    ] {
        let r = with_target(&target);
        assert_eq!(r.status, 403, "{target}");
        assert_eq!(r.error(), "the request's target does not name this machine");
    }
}

#[test]
fn an_http_1_1_request_without_a_host_gets_400() {
    let addr = server();
    let r = send(
        addr,
        "GET /api/ladder HTTP/1.1\r\nConnection: close\r\n\r\n",
        b"",
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.error(), "an HTTP/1.1 request must have a Host header");
    // Nor does a target in absolute form stand for it.
    let r = send(
        addr,
        &format!(
            "GET http://127.0.0.1:{}/api/ladder HTTP/1.1\r\nConnection: close\r\n\r\n",
            addr.port()
        ),
        b"",
    );
    assert_eq!(r.status, 400);
    // HTTP/1.0 had no Host header: taken without one.
    let r = send(addr, "GET /api/ladder HTTP/1.0\r\n\r\n", b"");
    assert_eq!(r.status, 200);
}

#[test]
fn the_address_listened_on_passes_the_host_check() {
    // A loopback address other than 127.0.0.1, given as --host is.
    let Ok(server) = Server::bind(Config {
        host: "127.0.0.2".parse().unwrap(),
        port: 0,
        ..Config::default()
    }) else {
        return; // no such address here
    };
    let addr = server.addr();
    std::thread::spawn(move || server.run());
    assert_eq!(with_host(addr, &format!("127.0.0.2:{}", addr.port())), 200);
    assert_eq!(with_host(addr, "127.0.0.2"), 200);
    assert_eq!(with_host(addr, "127.0.0.2.evil.com"), 403);
}

#[test]
fn other_http_versions_are_refused_at_once() {
    let addr = server();
    for request in [
        "GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n",
        "GET / HTTP/3\r\nHost: 127.0.0.1\r\n\r\n",
        "GET / HTTP/1.2\r\nHost: 127.0.0.1\r\n\r\n",
    ] {
        let r = exchange(addr, request.as_bytes(), Duration::from_secs(5));
        let status = r.statuses().first().copied();
        assert!(
            status == Some(400) || status == Some(505),
            "{request:?}: {:?}",
            r.text
        );
        let closed = r.closed.expect("the connection is closed");
        assert!(closed < Duration::from_secs(1), "{request:?}: {closed:?}");
    }
}

#[test]
fn the_http2_preface_gets_400_and_is_closed() {
    let addr = server();
    let r = exchange(
        addr,
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        Duration::from_secs(5),
    );
    assert_eq!(r.statuses(), [400], "{:?}", r.text);
    assert!(
        r.text
            .ends_with("{\"error\":\"this server speaks HTTP/1.1 only, not HTTP/2\"}"),
        "{:?}",
        r.text
    );
    let closed = r.closed.expect("the connection is closed");
    assert!(closed < Duration::from_secs(1), "{closed:?}");
}

#[test]
fn conflicting_lengths_are_refused() {
    let addr = server();
    let body = format!("{{\"puzzle\": \"{SIX}\"}}");
    let request = |lengths: &[usize]| {
        let mut head = format!(
            "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nConnection: close\r\n",
            addr.port()
        );
        for n in lengths {
            head.push_str(&format!("Content-Length: {n}\r\n"));
        }
        head.push_str("\r\n");
        head + &body
    };
    let r = exchange(
        addr,
        request(&[body.len(), body.len() + 5]).as_bytes(),
        Duration::from_secs(5),
    );
    assert_eq!(r.statuses(), [400], "{}", r.text);
    assert!(r.closed.is_some_and(|t| t < Duration::from_secs(1)));
    // A length and chunks at once: the chunks frame the body (the length is
    // dropped, as RFC 9112 says) and the connection is closed after the answer,
    // so that nothing after it can be read the other way.
    let both = format!(
        "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        addr.port(),
        body.len(),
        body.len()
    );
    let r = exchange(addr, both.as_bytes(), Duration::from_secs(5));
    assert_eq!(r.statuses(), [200], "{}", r.text);
    assert!(r.closed.is_some_and(|t| t < Duration::from_secs(2)));
    // The same length twice is one length.
    let r = exchange(
        addr,
        request(&[body.len(), body.len()]).as_bytes(),
        Duration::from_secs(5),
    );
    assert_eq!(r.statuses().first(), Some(&200), "{}", r.text);
}

#[test]
fn a_body_shorter_than_its_length_gets_408_after_the_read_timeout() {
    let addr = start(Config {
        read_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let request = format!(
        "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"puzzle\":",
        addr.port()
    );
    let r = exchange(addr, request.as_bytes(), Duration::from_secs(10));
    assert_eq!(r.statuses(), [408], "{}", r.text);
    assert!(
        r.text.contains("did not arrive whole within 1 s"),
        "{}",
        r.text
    );
    let first = r.first.unwrap();
    assert!(
        first >= Duration::from_millis(900) && first < Duration::from_secs(3),
        "{first:?}"
    );
    assert!(r.closed.is_some(), "the connection is closed");
}

#[test]
fn a_body_cut_short_gets_400() {
    // The client closes its side before the body is whole.
    let addr = server();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"puzzle\":",
        addr.port()
    )
    .unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let r = read_until_closed(&mut stream, Instant::now(), Duration::from_secs(5));
    assert_eq!(r.statuses(), [400], "{}", r.text);
    assert!(r.text.contains("cannot be read"), "{}", r.text);
}

#[test]
fn a_head_larger_than_16_kib_gets_431() {
    let addr = server();
    let head_of = |bytes: usize| {
        let start = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Padding: ",
            addr.port()
        );
        let head = format!("{start}{}\r\n\r\n", "x".repeat(bytes - start.len() - 4));
        assert_eq!(head.len(), bytes);
        head
    };
    // The size docs/web.md names, to the byte.
    for (bytes, status) in [(16_384, 200), (16_385, 431), (20_000, 431)] {
        let r = exchange(addr, head_of(bytes).as_bytes(), Duration::from_secs(5));
        let first = r.statuses().first().copied();
        assert_eq!(
            first,
            Some(status),
            "{bytes} bytes: {}",
            &r.text[..r.text.len().min(200)]
        );
    }
    // And the header fields: 100, not 101.
    let fields = |n: usize| {
        let mut head = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n",
            addr.port()
        );
        for i in 2..n {
            head.push_str(&format!("X-{i}: y\r\n"));
        }
        head + "\r\n"
    };
    for (n, status) in [(100, 200), (101, 431)] {
        let r = exchange(addr, fields(n).as_bytes(), Duration::from_secs(5));
        assert_eq!(r.statuses().first().copied(), Some(status), "{n} fields");
    }
}

#[test]
fn head_answers_without_a_body() {
    let addr = server();
    let r = exchange(
        addr,
        format!(
            "HEAD /api/ladder HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            addr.port()
        )
        .as_bytes(),
        Duration::from_secs(5),
    );
    assert_eq!(r.statuses(), [200]);
    assert!(r.text.ends_with("\r\n\r\n"), "{}", r.text);
    assert!(r.text.contains("Content-Type: application/json"));
}
