//! `serve` on each kind of descriptor a client may hand it as stdin and stdout: socket pairs
//! (what Node's `child_process` makes), and regular files (a recorded session replayed). Pipes
//! are what every other stdio test uses. Pipes and sockets are made non-blocking for the event
//! loop, so the flags a socket had are checked to be back once the server has exited. A pipe
//! for stdout is widened so that a whole `tools/list` answer fits in it.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, canary_key, component_file, harness_binary};
use serde_json::{Value, json};

fn session() -> String {
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect()
}

fn command(env: &Env) -> Command {
    let _ = component_file();
    let mut command = Command::new(harness_binary());
    command.arg("serve").stderr(Stdio::null());
    env.apply(&mut command);
    command
}

fn check_answers(lines: &[Value]) {
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["id"], 1);
    assert!(
        lines[0]["result"]["protocolVersion"].is_string(),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1]["id"], 2);
    assert_eq!(
        lines[1]["result"]["structuredContent"]["ok"], true,
        "{}",
        lines[1]
    );
}

#[test]
fn serve_answers_over_socket_pairs_and_leaves_them_blocking() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let (mut ours_in, theirs_in) = UnixStream::pair().unwrap();
    let (ours_out, theirs_out) = UnixStream::pair().unwrap();
    let probe = theirs_out.try_clone().unwrap();
    let mut child = command(&Env::ombi(&fake, &key))
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs_in)))
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs_out)))
        .spawn()
        .expect("spawning media-mcp");
    ours_out
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    ours_in.write_all(session().as_bytes()).unwrap();
    let mut reader = BufReader::new(&ours_out);
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).expect("an answer within 30 s");
        lines.push(serde_json::from_str::<Value>(&line).expect("JSON"));
    }
    check_answers(&lines);
    ours_in.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(child.wait().unwrap().success());
    // `probe` shares its open file with the child's stdout: a read with nothing to read waits
    // out the timeout when blocking, and fails at once when left non-blocking.
    probe
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let started = std::time::Instant::now();
    let read = std::io::Read::read(&mut &probe, &mut [0u8; 1]);
    assert!(read.is_err(), "{read:?}");
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "stdout was left non-blocking: the read failed after {:?}",
        started.elapsed()
    );
}

#[test]
fn serve_widens_its_stdout_pipe_to_hold_a_whole_listing() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut child = command(&Env::ombi(&fake, &key))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawning media-mcp");
    let mut input = child.stdin.take().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    input.write_all(session().as_bytes()).unwrap();
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).expect("an answer");
        lines.push(serde_json::from_str::<Value>(&line).expect("JSON"));
    }
    check_answers(&lines);
    // The size belongs to the pipe, which both ends share.
    let widened = rustix::pipe::fcntl_getpipe_size(reader.get_ref()).unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
    let (fresh, _) = rustix::pipe::pipe().unwrap();
    assert_eq!(rustix::pipe::fcntl_getpipe_size(&fresh).unwrap(), 64 * 1024);
    assert_eq!(widened, 1 << 20);
}

#[test]
fn serve_answers_a_session_read_from_a_file_into_a_file() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let dir = std::env::temp_dir().join(format!("media-mcp-stdio-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("in.jsonl"), dir.join("out.jsonl"));
    std::fs::write(&input, session()).unwrap();
    let status = command(&Env::ombi(&fake, &key))
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(std::fs::File::create(&output).unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&output).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    check_answers(&lines);
    let _ = std::fs::remove_dir_all(&dir);
}
