use std::net::TcpListener;
use std::path::PathBuf;

use super::*;

const EXE: &str = "/media-mcp";

/// A fake `/proc` with one directory per `(pid, exe link, argv)`; `None` leaves the `exe`
/// link out, as when the process belongs to another user.
fn fake_proc(processes: &[(u32, Option<&str>, &[&str])]) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "media-mcp-fake-proc-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4()
    ));
    std::fs::create_dir_all(root.join("sys")).unwrap();
    std::os::unix::fs::symlink("4242", root.join("self")).unwrap();
    for (pid, exe, argv) in processes {
        let dir = root.join(pid.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(exe) = exe {
            std::os::unix::fs::symlink(exe, dir.join("exe")).unwrap();
        }
        let mut cmdline = argv.join("\0");
        cmdline.push('\0');
        std::fs::write(dir.join("cmdline"), cmdline).unwrap();
    }
    root
}

fn found(processes: &[(u32, Option<&str>, &[&str])]) -> Result<SocketAddr, String> {
    discover(&fake_proc(processes), 4242, Path::new(EXE))
}

const SERVING: &[&str] = &["/media-mcp", "serve", "--http", "0.0.0.0:8080"];

#[test]
fn discovery_finds_the_one_server_of_this_executable_and_probes_it_on_loopback() {
    let others: &[(u32, Option<&str>, &[&str])] = &[
        (4242, Some(EXE), SERVING),
        (
            2,
            Some("/usr/bin/other"),
            &["other", "serve", "--http", "0.0.0.0:9"],
        ),
        (3, Some(EXE), &["/media-mcp", "serve"]),
        (4, Some(EXE), &["/media-mcp", "health"]),
        (5, Some(EXE), &[]),
    ];
    let mut processes = others.to_vec();
    processes.push((1, Some(EXE), SERVING));
    assert_eq!(found(&processes), Ok("127.0.0.1:8080".parse().unwrap()));
    // Flags anywhere, as the command line takes them; an IPv6 wildcard becomes [::1].
    let v6: &[&str] = &[
        "media-mcp",
        "--cache-dir",
        "/c",
        "serve",
        "--http",
        "[::]:8443",
    ];
    assert_eq!(
        found(&[(7, Some(EXE), v6)]),
        Ok("[::1]:8443".parse().unwrap())
    );
    let specific: &[&str] = &["x", "serve", "--http", "192.0.2.1:80"];
    assert_eq!(
        found(&[(7, Some(EXE), specific)]),
        Ok("192.0.2.1:80".parse().unwrap())
    );
}

#[test]
fn an_unreadable_executable_link_falls_back_to_the_program_name() {
    assert_eq!(
        found(&[(9, None, SERVING)]),
        Ok("127.0.0.1:8080".parse().unwrap())
    );
    let other_name: &[&str] = &["/bin/server", "serve", "--http", "0.0.0.0:8080"];
    assert!(found(&[(9, None, other_name)]).is_err());
}

#[test]
fn none_several_or_port_zero_are_errors_that_ask_for_the_url() {
    let none = found(&[(3, Some(EXE), &["/media-mcp", "serve"])]).unwrap_err();
    assert!(
        none.contains("no `serve --http` process") && none.contains("give the URL"),
        "{none}"
    );
    let two = found(&[(11, Some(EXE), SERVING), (12, Some(EXE), SERVING)]).unwrap_err();
    assert!(
        two.contains("2 `serve --http` processes found (pids 11, 12)"),
        "{two}"
    );
    let zero: &[&str] = &["/media-mcp", "serve", "--http", "127.0.0.1:0"];
    let zero = found(&[(13, Some(EXE), zero)]).unwrap_err();
    assert!(zero.contains("port 0"), "{zero}");
}

#[test]
fn targets_default_to_the_readiness_path() {
    let t = parse_target("http://127.0.0.1:8080").unwrap();
    assert_eq!(
        (t.host.as_str(), t.path.as_str()),
        ("127.0.0.1:8080", "/readyz")
    );
    assert_eq!(t.addrs, vec!["127.0.0.1:8080".parse().unwrap()]);
    let t = parse_target("127.0.0.1:9/healthz").unwrap();
    assert_eq!(
        (t.host.as_str(), t.path.as_str()),
        ("127.0.0.1:9", "/healthz")
    );
    let t = parse_target("http://[::1]:7/").unwrap();
    assert_eq!(t.addrs, vec!["[::1]:7".parse().unwrap()]);
    assert!(parse_target("https://127.0.0.1:8443").is_err());
}

#[test]
fn the_status_line_is_read() {
    assert_eq!(
        status_of(b"HTTP/1.1 503 Service Unavailable\r\n"),
        Some(503)
    );
    assert_eq!(status_of(b"HTTP/1.0 200 OK\r\nx: y"), Some(200));
    assert_eq!(status_of(b"SSH-2.0-OpenSSH\r\n"), None);
}

/// A one-shot server on loopback that reads a request and sends `answer`.
fn serve_once(answer: &'static [u8]) -> Target {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut buf = [0u8; 1024];
        let _ = stream.read(&mut buf);
        let _ = stream.write_all(answer);
    });
    Target {
        host: addr.to_string(),
        addrs: vec![addr],
        path: READY_PATH.to_owned(),
    }
}

#[test]
fn a_probe_reports_the_status_or_why_there_is_none() {
    let soon = || Instant::now() + TIMEOUT;
    assert_eq!(
        get_status(&serve_once(b"HTTP/1.1 200 OK\r\n\r\n"), soon()),
        Ok(200)
    );
    assert_eq!(
        get_status(&serve_once(b"HTTP/1.1 503 x\r\n\r\n"), soon()),
        Ok(503)
    );
    assert!(get_status(&serve_once(b"hello"), soon()).is_err());
    // Nothing listens: refused.
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let refused = check(Some(&format!("http://{closed}")));
    assert!(!refused.ready);
    assert!(
        refused
            .line
            .starts_with(&format!("not ready: http://{closed}/readyz: ")),
        "{refused:?}"
    );
}
