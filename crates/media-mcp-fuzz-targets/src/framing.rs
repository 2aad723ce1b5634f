//! Target `framing`: any bytes on the harness's stdin after a valid handshake, through the
//! real line filter and rmcp (`host_harness::stdio::serve`) with a handler that has no tools.
//!
//! Properties: no panic, no hang; every line written is a single JSON-RPC 2.0 message; and the
//! server still answers a ping sent after the hostile bytes.

use std::sync::OnceLock;
use std::time::Duration;

use rmcp::handler::server::ServerHandler;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A server with nothing but the protocol's defaults.
#[derive(Clone, Copy)]
struct Stub;

impl ServerHandler for Stub {}

const FINAL_ID: &str = "fuzz-final-ping";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let mut input = Vec::new();
    for line in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ] {
        input.extend_from_slice(line.to_string().as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(data);
    input.push(b'\n');
    input.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": FINAL_ID, "method": "ping"})
            .to_string()
            .as_bytes(),
    );
    input.push(b'\n');
    let output = runtime().block_on(async move {
        let (mut client_in, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, mut client_out) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(host_harness::stdio::serve(Stub, server_in, server_out));
        let exchange = async {
            client_in.write_all(&input).await.expect("writing stdin");
            let mut seen = Vec::new();
            let mut buf = vec![0u8; 64 * 1024];
            // Read until the final ping is answered (or the server ends).
            loop {
                let n = client_out.read(&mut buf).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..n]);
                if answered(&seen) {
                    break;
                }
            }
            drop(client_in);
            seen
        };
        let seen = tokio::time::timeout(Duration::from_secs(20), exchange)
            .await
            .expect("the server answered within 20 s");
        let _ = tokio::time::timeout(Duration::from_secs(5), server).await;
        seen
    });
    let text = String::from_utf8(output).expect("stdout is UTF-8");
    for line in text.lines() {
        let message: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not one JSON message per line ({e}): {line:.300}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line:.300}");
        assert!(
            message.get("result").is_some() != message.get("error").is_some()
                || message.get("method").is_some(),
            "neither a response nor a request: {line:.300}"
        );
        if message.get("error").is_some() {
            assert!(
                message.get("id").is_some(),
                "an error without an id member: {line:.300}"
            );
        }
    }
    assert!(
        answered(text.as_bytes()),
        "the ping after the input was not answered:\n{text:.2000}"
    );
}

fn answered(seen: &[u8]) -> bool {
    String::from_utf8_lossy(seen).lines().any(|l| {
        serde_json::from_str::<Value>(l)
            .is_ok_and(|m| m["id"] == FINAL_ID && m.get("result").is_some())
    })
}
