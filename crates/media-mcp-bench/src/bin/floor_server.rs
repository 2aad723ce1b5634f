//! The cold-start floor: a native stdio "MCP server" that does nothing but answer `initialize`
//! and `tools/list` with canned JSON (one line per message, like every real server here). The
//! time from spawning it to its `tools/list` answer is the least any stdio server can take on
//! this machine with this client, so the real servers' cold starts are reported against it.

use std::io::{BufRead as _, Write as _};

use serde_json::{Value, json};

fn main() {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // Notifications (no id) need no answer.
        let Some(id) = message.get("id").cloned() else {
            continue;
        };
        let answer = match message.get("method").and_then(Value::as_str) {
            Some("initialize") => json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": message["params"]["protocolVersion"].clone(),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "floor", "version": "0"}}}),
            Some("tools/list") => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{
                "name": "read_search", "description": "canned",
                "inputSchema": {"type": "object"}}]}}),
            _ => json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "method not found"}}),
        };
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}
