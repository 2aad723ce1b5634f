//! The oversized upstream body: the search route answers 50 MiB, either as a valid JSON array
//! announced by `Content-Length` (what the peers can parse, and what the component refuses from
//! the header alone) or as a chunked stream of filler without a length, so only reading finds
//! out (the component's byte cap has to work while reading). Each server's peak RSS growth over
//! the call is measured from `/proc` (`VmHWM` reset through `clear_refs`).

use std::time::Instant;

use bytes::Bytes;
use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use serde_json::Value;

use crate::client::McpClient;
use crate::floor;
use crate::plan::Plan;
use crate::stats::Summary;
use crate::workload::{API_KEY, SEARCH_PATH, SEARCH_ROUTE, search_args};

/// The oversized body's size.
pub const BIG_BODY_BYTES: usize = 50 * 1024 * 1024;
/// The component's byte cap while reading a body (`crates/media-mcp/src/upstream/mod.rs`).
pub const BODY_CAP_BYTES: u64 = 4 * 1024 * 1024;

/// How the big body is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// A valid JSON array with `Content-Length`.
    JsonWithLength,
    /// Filler bytes, chunked, no length.
    ChunkedFiller,
}

impl Variant {
    /// Both, in report order.
    pub const ALL: [Variant; 2] = [Variant::JsonWithLength, Variant::ChunkedFiller];

    /// For the report.
    pub fn label(self) -> &'static str {
        match self {
            Variant::JsonWithLength => "JSON, `Content-Length`",
            Variant::ChunkedFiller => "chunked filler, no length",
        }
    }

    fn reply(self) -> Reply {
        match self {
            Variant::JsonWithLength => Reply::json(200, json_body()),
            Variant::ChunkedFiller => Reply::Streamed {
                status: 200,
                total: BIG_BODY_BYTES as u64,
                declare_length: false,
            },
        }
    }
}

/// The oversized-body call, for one server and one variant.
#[derive(Debug, Clone)]
pub struct BigBody {
    /// Which body.
    pub variant: Variant,
    /// Wall time of the call.
    pub time: Summary,
    /// Largest growth of peak RSS over the RSS before the call, in bytes (`None` in-process).
    pub rss_growth: Option<u64>,
    /// How the call ended.
    pub outcome: String,
}

/// A JSON array of search rows (the fixture's, repeated) of at least [`BIG_BODY_BYTES`].
fn json_body() -> Bytes {
    let fixture = media_mcp_fakes::fixture("v1-search-movie-term.json").unwrap_or_default();
    let rows: Vec<Value> = serde_json::from_slice(fixture).unwrap_or_default();
    let rows: Vec<String> = rows.iter().map(Value::to_string).collect();
    let mut body = Vec::with_capacity(BIG_BODY_BYTES + 4096);
    body.push(b'[');
    let mut i = 0;
    while body.len() < BIG_BODY_BYTES {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(rows[i % rows.len()].as_bytes());
        i += 1;
    }
    body.push(b']');
    Bytes::from(body)
}

/// The native floor reads and parses the whole body (it has no cap).
///
/// # Errors
///
/// The JSON body cannot be fetched.
pub async fn floor(fake: &FakeOmbi, plan: Plan) -> anyhow::Result<Vec<BigBody>> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        fake.set_override("GET", SEARCH_ROUTE, variant.reply());
        let mut times = Vec::new();
        let mut outcome = String::new();
        for _ in 0..plan.big_runs {
            let started = Instant::now();
            let result = floor::get_json(fake.addr(), SEARCH_PATH, API_KEY).await;
            times.push(started.elapsed());
            outcome = match result {
                Ok((_, bytes)) => format!("read and parsed all {bytes} bytes"),
                Err(e) => format!("read it all, then: {e:#}"),
            };
        }
        out.push(BigBody {
            variant,
            time: Summary::of(&times),
            rss_growth: None,
            outcome,
        });
    }
    fake.clear_overrides();
    Ok(out)
}

/// One server: each variant `plan.big_runs` times.
///
/// # Errors
///
/// Never for an `isError` result or a protocol error (both are outcomes); only when the fake
/// cannot be configured.
pub async fn server(
    client: &McpClient,
    fake: &FakeOmbi,
    plan: Plan,
) -> anyhow::Result<Vec<BigBody>> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        fake.set_override("GET", SEARCH_ROUTE, variant.reply());
        let mut times = Vec::new();
        let mut growth = 0u64;
        let mut measured = false;
        let mut outcome = String::new();
        for _ in 0..plan.big_runs {
            let reset = client.reset_peak_rss();
            let before = client.rss().unwrap_or(0);
            let started = Instant::now();
            let result = client.call("read_search", &search_args()).await;
            times.push(started.elapsed());
            if reset && let Some(peak) = client.peak_rss() {
                growth = growth.max(peak.saturating_sub(before));
                measured = true;
            }
            outcome = describe(&result);
        }
        out.push(BigBody {
            variant,
            time: Summary::of(&times),
            rss_growth: measured.then_some(growth),
            outcome,
        });
        fake.clear_requests();
    }
    fake.clear_overrides();
    Ok(out)
}

/// One line on how a big-body call ended.
fn describe(result: &anyhow::Result<Value>) -> String {
    match result {
        Err(e) => format!("protocol error: {}", first_chars(&format!("{e:#}"), 100)),
        Ok(r) if r.get("isError") == Some(&Value::Bool(true)) => {
            let code = r
                .pointer("/structuredContent/error/code")
                .and_then(Value::as_str);
            let message = r
                .pointer("/structuredContent/error/message")
                .and_then(Value::as_str)
                .or_else(|| r.pointer("/content/0/text").and_then(Value::as_str))
                .unwrap_or("");
            format!(
                "isError {}: {}",
                code.unwrap_or("-"),
                first_chars(message, 100)
            )
        }
        Ok(r) => format!(
            "ok, {} bytes of structured content",
            r.get("structuredContent")
                .map_or(0, |v| v.to_string().len())
        ),
    }
}

fn first_chars(s: &str, n: usize) -> String {
    let s = s.replace('|', "/").replace('\n', " ");
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}
