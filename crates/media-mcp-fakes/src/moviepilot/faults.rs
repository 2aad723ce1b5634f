//! [`CallFault`]: the ways MoviePilot (or the network and proxies in front of it) can spoil the
//! answer to one `tools/call`, for the MoviePilot fault matrix (`tests/it/moviepilot_faults.rs`).
//!
//! The transport faults are the fake Ombi's own [`Fault`]s (late answer, reset, stall mid-body,
//! HTML with 200, invalid JSON): their bytes say nothing Ombi-specific, so the fake MoviePilot
//! sends exactly the same [`Reply`] through the same raw-socket takeover rather than a second
//! copy of them. The rest are MoviePilot's own failure shapes: FastAPI's 401 `{"detail": …}`,
//! 503 while its services start, a 500 carrying a Python traceback, JSON-RPC errors -32602 and
//! -32603 (with a traceback in `data`), a text block that is prose instead of JSON, and a
//! business result with `execution_outcome: "unknown"`. The 500 and JSON-RPC error bodies carry
//! the API key, [`LEAKED_PASSWORD`] and [`LEAKED_FRAME`], so tests can check that none of them
//! reaches a caller.

use std::time::Duration;

use crate::faults::Fault;
use crate::reply::Reply;
use serde_json::{Value, json};

/// A secret-looking value the traceback faults carry.
pub const LEAKED_PASSWORD: &str = "mp-leaked-db-password-7f3a";

/// A Python stack-frame line the traceback faults carry.
pub const LEAKED_FRAME: &str = "File \"/app/app/api/endpoints/mcp.py\", line 211";

/// One way to spoil the answer to a `tools/call`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallFault {
    /// The real answer (the tool runs), but only after this long: past the call's deadline.
    Late(Duration),
    /// One of the fake Ombi's transport faults, sent byte for byte.
    Transport(Fault),
    /// 401 `{"detail": "API_TOKEN 无效"}`: the key was refused (rotated since the handshake).
    Unauthorized,
    /// 503: MoviePilot's runtime services are not initialised yet.
    Unavailable,
    /// 500 `text/plain` with a Python traceback that names the key and a database password.
    Traceback500,
    /// 200 with a JSON-RPC error of this code, its `data` a traceback with the key.
    RpcError(i64),
    /// A text block that is prose, not the business JSON.
    TextNotJson,
    /// A business result that says `execution_outcome: "unknown"`.
    OutcomeUnknown,
}

impl CallFault {
    /// Every fault once; `slow` (longer than the call's deadline) for the late and stalled ones.
    pub fn all(slow: Duration) -> Vec<CallFault> {
        vec![
            CallFault::Late(slow),
            CallFault::Transport(Fault::ResetBeforeHeaders),
            CallFault::Transport(Fault::ResetAfterHeaders),
            CallFault::Transport(Fault::StallMidBody(slow)),
            CallFault::Unauthorized,
            CallFault::Unavailable,
            CallFault::Traceback500,
            CallFault::Transport(Fault::HtmlPage),
            CallFault::Transport(Fault::InvalidJson),
            CallFault::RpcError(-32602),
            CallFault::RpcError(-32603),
            CallFault::TextNotJson,
            CallFault::OutcomeUnknown,
        ]
    }

    /// A short stable name, for test messages.
    pub fn name(&self) -> String {
        match self {
            CallFault::Late(_) => "late_answer".into(),
            CallFault::Transport(Fault::ResetBeforeHeaders) => "reset_after_request".into(),
            CallFault::Transport(f) => f.name(),
            CallFault::Unauthorized => "unauthorized_401".into(),
            CallFault::Unavailable => "unavailable_503".into(),
            CallFault::Traceback500 => "traceback_500".into(),
            CallFault::RpcError(code) => format!("rpc_error_{}", code.unsigned_abs()),
            CallFault::TextNotJson => "text_not_json".into(),
            CallFault::OutcomeUnknown => "execution_outcome_unknown".into(),
        }
    }

    /// What the fake sends for request `id` when it requires `key`; `None` for
    /// [`CallFault::Late`], whose answer is the real one (sent after the delay).
    pub fn reply(&self, id: &Value, key: &str) -> Option<Reply> {
        let traceback = format!(
            "Traceback (most recent call last):\n  {LEAKED_FRAME}, in call_tool\n    result = await tool.run(**arguments)\n  File \"/app/app/db/__init__.py\", line 87, in get_db\nsqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed: postgresql://moviepilot:{LEAKED_PASSWORD}@db:5432/moviepilot [headers: X-API-KEY={key}]"
        );
        let rpc = |body: Value| Reply::json(200, body.to_string());
        let text = |text: String| {
            rpc(
                json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
            )
        };
        Some(match self {
            CallFault::Late(_) => return None,
            CallFault::Transport(fault) => fault.reply(),
            CallFault::Unauthorized => Reply::json(401, r#"{"detail":"API_TOKEN 无效"}"#),
            CallFault::Unavailable => Reply::new(503, Some("text/plain"), "Service Unavailable"),
            CallFault::Traceback500 => Reply::new(500, Some("text/plain"), traceback),
            CallFault::RpcError(code) => rpc(json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": code,
                "message": if *code == -32602 { "Invalid params" } else { "Internal error" },
                "data": format!("apikey={key} Password={LEAKED_PASSWORD}\n{traceback}"),
            }})),
            CallFault::TextNotJson => text("已处理：盗梦空间 (2010) 已加入队列".to_owned()),
            CallFault::OutcomeUnknown => text(
                json!({"success": true, "message": "请求已发出，结果未知", "execution_outcome": "unknown"})
                    .to_string(),
            ),
        })
    }
}
