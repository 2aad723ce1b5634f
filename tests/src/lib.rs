//! Support for the integration tests (`it/`): where the built artifacts are, a harness child
//! process spoken to over real stdio pipes ([`Harness`]), one-shot CLI runs ([`run_cli`]), and
//! secret checks. The fake upstreams are `media-mcp-fakes`.
//!
//! The tests run the **release** harness binary (`target/release/media-mcp`) with the real
//! component (`target/media_mcp.wasm`); `scripts/test.sh` builds both first.

use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use media_mcp_fakes::ombi::FakeOmbi;
use serde_json::{Value, json};

/// How long any single response may take before a test fails.
pub const RESPONSE_TIMEOUT: Duration = Duration::from_secs(60);

/// The workspace `target/` directory, found from the running test executable
/// (`target/<profile>/deps/it-<hash>`).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.ancestors()
        .nth(3)
        .expect("test executable is under target/<profile>/deps")
        .to_path_buf()
}

/// `target/release/media-mcp`; panics with the command to build it when missing.
pub fn harness_binary() -> PathBuf {
    release_binary("media-mcp")
}

/// `target/release/host-harness`, the same program under the name earlier releases installed.
pub fn harness_alias_binary() -> PathBuf {
    release_binary("host-harness")
}

/// `target/release/media-mcp-demo`; panics with the command to build it when missing.
pub fn demo_binary() -> PathBuf {
    release_binary("media-mcp-demo")
}

fn release_binary(name: &str) -> PathBuf {
    let path = target_dir().join("release").join(name);
    assert!(
        path.is_file(),
        "{} is missing: build it with `./scripts/build-native.sh`, or run scripts/test.sh",
        path.display()
    );
    path
}

/// `target/media_mcp.wasm`; panics with the command to build it when missing.
pub fn component_file() -> PathBuf {
    let path = target_dir().join("media_mcp.wasm");
    assert!(
        path.is_file(),
        "{} is missing: build it with scripts/build-component.sh, or run scripts/test.sh",
        path.display()
    );
    path
}

/// A compiled-component cache shared by the tests of one run, so only the first start compiles.
pub fn shared_cache_dir() -> PathBuf {
    target_dir().join("tmp").join("media-mcp-it-cache")
}

/// A fresh empty directory under `target/tmp`.
pub fn fresh_dir(label: &str) -> PathBuf {
    let dir = target_dir()
        .join("tmp")
        .join(format!("{label}-{}", random_hex()));
    std::fs::create_dir_all(&dir).expect("creating a temp dir");
    dir
}

/// 32 random hex digits.
pub fn random_hex() -> String {
    let mut out = String::new();
    for _ in 0..2 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(Instant::now().elapsed().as_nanos());
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    out
}

/// A random canary API key: it must reach the fake upstream and appear nowhere else.
pub fn canary_key() -> String {
    format!("canary-{}", random_hex())
}

/// Panics when `secret` occurs in `text`.
pub fn assert_no_secret(text: &str, secret: &str, what: &str) {
    assert!(!secret.is_empty());
    if let Some(at) = text.find(secret) {
        let start = at.saturating_sub(80);
        panic!(
            "the secret appears in {what}: ...{}...",
            &text[start..(at + secret.len()).min(text.len())]
        );
    }
}

/// Environment for a harness child: nothing inherited but what the tests name.
#[derive(Debug, Clone, Default)]
pub struct Env(Vec<(String, String)>);

impl Env {
    /// The base environment: shared cache, debug logging (so leak checks see every log line).
    pub fn new() -> Env {
        Env(vec![
            (
                "MEDIA_MCP_CACHE_DIR".into(),
                shared_cache_dir().display().to_string(),
            ),
            ("MEDIA_MCP_LOG".into(), "debug".into()),
        ])
    }

    /// The base environment configured against `fake` with `key`.
    pub fn ombi(fake: &FakeOmbi, key: &str) -> Env {
        Env::new()
            .set("OMBI_URL", &fake.url())
            .set("OMBI_API_KEY", key)
    }

    /// Sets (or replaces) one variable.
    pub fn set(mut self, name: &str, value: &str) -> Env {
        self.0.retain(|(n, _)| n != name);
        self.0.push((name.into(), value.into()));
        self
    }

    /// Sets these variables on `command` (and nothing else of the caller's environment).
    pub fn apply(&self, command: &mut Command) {
        command.env_clear();
        for (name, value) in &self.0 {
            command.env(name, value);
        }
    }
}

/// What a finished harness process left behind.
#[derive(Debug)]
pub struct Finished {
    /// Exit status.
    pub status: ExitStatus,
    /// Everything it wrote to stdout.
    pub stdout: String,
    /// Everything it wrote to stderr.
    pub stderr: String,
}

/// Runs `media-mcp ARGS` to completion (60 s at most) with `env` and no stdin.
pub fn run_cli(args: &[&str], env: &Env) -> Finished {
    run_binary(harness_binary(), args, env)
}

/// Runs `media-mcp-demo ARGS` to completion (60 s at most) with `env` and no stdin.
pub fn run_demo(args: &[&str], env: &Env) -> Finished {
    run_binary(demo_binary(), args, env)
}

/// Runs `binary ARGS` to completion (60 s at most) with `env` and no stdin.
pub fn run_binary(binary: PathBuf, args: &[&str], env: &Env) -> Finished {
    let _ = component_file();
    let mut command = Command::new(binary);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    env.apply(&mut command);
    let mut child = command.spawn().expect("spawning media-mcp");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let status = wait_with_deadline(&mut child, RESPONSE_TIMEOUT);
    Finished {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

fn drain(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn wait_with_deadline(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("media-mcp did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A running `media-mcp serve` spoken to over its stdio pipes.
pub struct Harness {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    pending: VecDeque<Value>,
    stdout_raw: Arc<Mutex<String>>,
    stderr_raw: Arc<Mutex<String>>,
    stdout_thread: Option<std::thread::JoinHandle<()>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    next_id: u64,
}

impl Harness {
    /// Starts `media-mcp ARGS` with `env`.
    pub fn spawn(args: &[&str], env: &Env) -> Harness {
        let _ = component_file();
        let mut command = Command::new(harness_binary());
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        env.apply(&mut command);
        let mut child = command.spawn().expect("spawning media-mcp");
        let (tx, messages) = channel();
        let stdout_raw = Arc::new(Mutex::new(String::new()));
        let stderr_raw = Arc::new(Mutex::new(String::new()));
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let raw = stdout_raw.clone();
        let stdout_thread = std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                raw.lock().unwrap().push_str(&format!("{line}\n"));
                let value =
                    serde_json::from_str(&line).unwrap_or_else(|_| json!({"__not_json__": line}));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut stderr = child.stderr.take().expect("stderr");
        let raw = stderr_raw.clone();
        let stderr_thread = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                raw.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Harness {
            stdin: child.stdin.take(),
            child,
            messages,
            pending: VecDeque::new(),
            stdout_raw,
            stderr_raw,
            stdout_thread: Some(stdout_thread),
            stderr_thread: Some(stderr_thread),
            next_id: 1,
        }
    }

    /// Starts `media-mcp serve` and completes the handshake at `version`.
    pub fn serve_initialized(env: &Env, version: &str) -> Harness {
        let mut h = Harness::spawn(&["serve"], env);
        let result = h.initialize(version);
        assert!(
            result.get("protocolVersion").is_some(),
            "initialize failed: {result}"
        );
        h
    }

    /// Writes one raw line to stdin.
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .expect("writing to the harness");
    }

    /// Sends a request and returns its id.
    pub fn request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            message["params"] = params;
        }
        self.send_line(&message.to_string());
        id
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str) {
        self.send_line(&json!({"jsonrpc": "2.0", "method": method}).to_string());
    }

    /// The next message from the server (any kind), or `None` after `timeout`.
    pub fn next_message(&mut self, timeout: Duration) -> Option<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Some(message);
        }
        self.messages.recv_timeout(timeout).ok()
    }

    /// Waits for the response (result or error object) with `id`, keeping other messages.
    pub fn response(&mut self, id: u64) -> Value {
        if let Some(at) = self.pending.iter().position(|m| m["id"] == json!(id)) {
            return self.pending.remove(at).expect("position is valid");
        }
        let deadline = Instant::now() + RESPONSE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if message["id"] == json!(id) => return message,
                Ok(other) => self.pending.push_back(other),
                Err(_) => panic!(
                    "no response to request {id} within {RESPONSE_TIMEOUT:?}; stderr:\n{}",
                    self.stderr()
                ),
            }
        }
    }

    /// A request and its response.
    pub fn rpc(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.response(id)
    }

    /// `initialize` at `version`, then `notifications/initialized`; returns the result.
    pub fn initialize(&mut self, version: &str) -> Value {
        let response = self.rpc(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "it", "version": "0"}}),
        );
        self.notify("notifications/initialized");
        response["result"].clone()
    }

    /// `tools/call` and its response (result or error).
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.rpc("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr_raw.lock().unwrap().clone()
    }

    /// The child's process id (for reading its memory use from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything written to stdout so far.
    pub fn stdout(&self) -> String {
        self.stdout_raw.lock().unwrap().clone()
    }

    /// Closes stdin and waits for the process to exit.
    pub fn finish(mut self) -> Finished {
        drop(self.stdin.take());
        let status = wait_with_deadline(&mut self.child, Duration::from_secs(20));
        if let Some(t) = self.stdout_thread.take() {
            let _ = t.join();
        }
        if let Some(t) = self.stderr_thread.take() {
            let _ = t.join();
        }
        Finished {
            status,
            stdout: self.stdout(),
            stderr: self.stderr(),
        }
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `structuredContent` of a successful `tools/call` response; panics on a JSON-RPC error.
pub fn structured(response: &Value) -> &Value {
    assert!(
        response.get("error").is_none(),
        "tools/call failed: {response}"
    );
    &response["result"]["structuredContent"]
}

/// A running `media-mcp serve --http`; killed when dropped.
pub struct HttpServer {
    child: Child,
    /// Where it listens.
    pub addr: std::net::SocketAddr,
}

impl HttpServer {
    /// Starts the release harness on `127.0.0.1:0` serving `target/media_mcp_http.wasm`, with
    /// only `env` (and `PATH`, the component and the shared cache) in its environment.
    pub fn start(env: &[(&str, &str)]) -> HttpServer {
        HttpServer::start_as(&harness_binary(), "127.0.0.1:0", env, None)
    }

    /// [`HttpServer::start`] running `binary` on `listen`, with `nofile` as its descriptor
    /// limit (soft and hard) when given.
    pub fn start_as(
        binary: &Path,
        listen: &str,
        env: &[(&str, &str)],
        nofile: Option<u32>,
    ) -> HttpServer {
        let http = target_dir().join("media_mcp_http.wasm");
        assert!(http.is_file(), "build it with scripts/build-component.sh");
        let mut command = match nofile {
            Some(n) => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--nofile={n}:{n}")).arg("--").arg(binary);
                c
            }
            None => Command::new(binary),
        };
        command
            .args(["serve", "--http", listen])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("MEDIA_MCP_COMPONENT", &http)
            .env("MEDIA_MCP_CACHE_DIR", shared_cache_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("spawning the harness");
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                if let Some(rest) = line.split("serving MCP over HTTP on http://").nth(1) {
                    let addr = rest.split('/').next().unwrap_or("").to_owned();
                    let _ = tx.send(addr);
                }
                eprintln!("harness: {line}");
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the harness started serving")
            .parse()
            .unwrap();
        HttpServer { child, addr }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `head` (request line and headers, without the blank line) and `body` to `addr`, and
/// reads the answer: status, headers (lower-case names) and body.
pub fn exchange(
    addr: std::net::SocketAddr,
    head: &str,
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    exchange_after(addr, Duration::ZERO, head, body)
}

/// [`exchange`], sending the request `pause` after connecting.
pub fn exchange_after(
    addr: std::net::SocketAddr,
    pause: Duration,
    head: &str,
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(30)).unwrap();
    std::thread::sleep(pause);
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(stream, "{head}\r\nConnection: close\r\n\r\n{body}").unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

/// A JSON-RPC POST to `/mcp` on `addr` with `extra` header lines.
pub fn post(
    addr: std::net::SocketAddr,
    extra: &[&str],
    message: &Value,
) -> (u16, Vec<(String, String)>, String) {
    let body = message.to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}",
        body.len()
    );
    for line in extra {
        head.push_str("\r\n");
        head.push_str(line);
    }
    exchange(addr, &head, &body)
}

/// MoviePilot's torrent search in `version`: the tool and arguments that run it (the fake
/// delays it by its `torrent_search_delay`).
pub fn torrent_search(version: media_mcp_fakes::moviepilot::Version) -> (&'static str, Value) {
    match version {
        media_mcp_fakes::moviepilot::Version::V2_9_15 => (
            "search_torrents",
            json!({"explanation": "find a release", "tmdb_id": 27205, "media_type": "movie"}),
        ),
        _ => (
            "moviepilot_api",
            json!({"operation_id": "search.torrents", "query": {"title": "Inception"}}),
        ),
    }
}
