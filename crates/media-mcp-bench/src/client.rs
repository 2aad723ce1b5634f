//! A minimal MCP client over a child process's stdio: newline-delimited JSON-RPC, any number of
//! requests in flight (answers are matched by id), every wait bounded by a timeout. It also reads
//! the child's memory counters from `/proc` (peak RSS) and can reset the peak.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::oneshot;

/// How long any single answer may take before the run is declared broken.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// The protocol version the client asks for (every server here speaks it).
const PROTOCOL_VERSION: &str = "2025-06-18";

/// How to start one server.
#[derive(Debug, Clone)]
pub struct ServerSpec {
    /// Short name for the report.
    pub name: String,
    /// Executable.
    pub program: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
    /// The whole environment (the child starts from an empty one).
    pub env: Vec<(String, String)>,
}

/// One answer: the JSON-RPC message and the size of its line in bytes.
#[derive(Debug)]
pub struct Answer {
    /// The whole message.
    pub message: Value,
    /// Bytes on the wire (without the newline).
    pub bytes: usize,
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Answer>>>>;

/// A running server and the client end of its stdio.
pub struct McpClient {
    child: Child,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    pending: Pending,
    next_id: AtomicU64,
    pid: u32,
}

impl McpClient {
    /// Spawns the server (stderr discarded) and starts reading its stdout.
    ///
    /// # Errors
    ///
    /// The program cannot be started.
    pub fn spawn(spec: &ServerSpec) -> anyhow::Result<McpClient> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {} ({})", spec.name, spec.program.display()))?;
        let pid = child.id().context("the child has no pid")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let stdin = child.stdin.take().context("no stdin")?;
        let pending: Pending = Arc::default();
        let reader_pending = pending.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                    continue;
                };
                let Some(id) = message.get("id").and_then(Value::as_u64) else {
                    continue; // a notification or a server-to-client request: not waited for
                };
                let bytes = line.strip_suffix(b"\n").map_or(line.len(), <[u8]>::len);
                let waiter = reader_pending
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&id);
                if let Some(waiter) = waiter {
                    let _ = waiter.send(Answer { message, bytes });
                }
            }
        });
        Ok(McpClient {
            child,
            stdin: tokio::sync::Mutex::new(Some(stdin)),
            pending,
            next_id: AtomicU64::new(1),
            pid,
        })
    }

    async fn send_line(&self, message: &Value) -> anyhow::Result<()> {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        let mut stdin = self.stdin.lock().await;
        let stdin = stdin.as_mut().context("stdin already closed")?;
        stdin.write_all(&line).await?;
        stdin.flush().await?;
        Ok(())
    }

    /// Sends a request and waits for its answer.
    ///
    /// # Errors
    ///
    /// The pipe broke, the server exited, or no answer came within [`ANSWER_TIMEOUT`].
    pub async fn request(&self, method: &str, params: Value) -> anyhow::Result<Answer> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id, tx);
        self.send_line(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        match tokio::time::timeout(ANSWER_TIMEOUT, rx).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(_)) => bail!("the server closed its output before answering {method}"),
            Err(_) => bail!("no answer to {method} within {ANSWER_TIMEOUT:?}"),
        }
    }

    /// `initialize`, then `notifications/initialized`.
    ///
    /// # Errors
    ///
    /// As [`McpClient::request`], or an error answer.
    pub async fn initialize(&self) -> anyhow::Result<()> {
        let answer = self
            .request(
                "initialize",
                json!({"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                       "clientInfo": {"name": "media-mcp-bench", "version": "0"}}),
            )
            .await?;
        if answer.message.get("result").is_none() {
            bail!("initialize failed: {}", answer.message);
        }
        self.send_line(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await
    }

    /// `tools/list`; returns the size of the answer in bytes.
    ///
    /// # Errors
    ///
    /// As [`McpClient::request`], or an error answer.
    pub async fn list_tools(&self) -> anyhow::Result<usize> {
        let answer = self.request("tools/list", json!({})).await?;
        if answer.message.pointer("/result/tools").is_none() {
            bail!("tools/list failed: {}", answer.message);
        }
        Ok(answer.bytes)
    }

    /// `tools/call`; returns the answer's `result` (an error answer is an error).
    ///
    /// # Errors
    ///
    /// As [`McpClient::request`], or a JSON-RPC error answer.
    pub async fn call(&self, name: &str, arguments: &Value) -> anyhow::Result<Value> {
        let answer = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        match answer.message.get("result") {
            Some(result) => Ok(result.clone()),
            None => bail!("tools/call {name} failed: {}", answer.message),
        }
    }

    /// Peak resident set size so far (`VmHWM`), in bytes.
    pub fn peak_rss(&self) -> Option<u64> {
        status_kib(self.pid, "VmHWM:").map(|k| k * 1024)
    }

    /// CPU time the server has used so far (user + system, `/proc/PID/stat` fields 14 and 15),
    /// threads included.
    pub fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).ok()?;
        cpu_time_of_stat(&stat, clock_ticks_per_second()?)
    }

    /// Current resident set size (`VmRSS`), in bytes.
    pub fn rss(&self) -> Option<u64> {
        status_kib(self.pid, "VmRSS:").map(|k| k * 1024)
    }

    /// Resets the peak RSS to the current RSS (Linux `clear_refs` value 5).
    pub fn reset_peak_rss(&self) -> bool {
        std::fs::write(format!("/proc/{}/clear_refs", self.pid), b"5").is_ok()
    }

    /// Closes stdin and waits (bounded) for the server to exit; kills it otherwise.
    pub async fn shutdown(mut self) {
        drop(self.stdin.lock().await.take());
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// utime + stime of a `/proc/PID/stat` line, whose second field (the command name, in
/// parentheses) may itself contain spaces and parentheses.
fn cpu_time_of_stat(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace();
    // After the name: state (3), ppid (4), ... utime (14), stime (15).
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = utime + stime;
    Some(Duration::from_nanos(
        ticks.checked_mul(1_000_000_000)? / ticks_per_second.max(1),
    ))
}

/// The kernel's `USER_HZ` (`getconf CLK_TCK`), which `/proc/PID/stat` times are counted in.
fn clock_ticks_per_second() -> Option<u64> {
    static TICKS: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        let out = std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    })
}

fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

/// Spawns a server and times spawn → `tools/list` answer (after `initialize`); returns the
/// client (still running), the duration and the `tools/list` answer's size.
///
/// # Errors
///
/// The server could not be started or did not answer.
pub async fn cold_start(spec: &ServerSpec) -> anyhow::Result<(McpClient, Duration, usize)> {
    let started = Instant::now();
    let client = McpClient::spawn(spec)?;
    client.initialize().await?;
    let bytes = client.list_tools().await?;
    Ok((client, started.elapsed(), bytes))
}

#[cfg(test)]
mod tests;
