//! The published tool list, byte for byte: every descriptor `list-tools` returns (name, title,
//! description, input and output schema text, annotations) in each configuration that changes
//! it, against `tests/tools_list.golden.json`. A change of any byte a host would publish fails
//! here; when the change is intended, rerun with `MEDIA_MCP_BLESS=1` and commit the new golden
//! file with the reason.

use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError};
use media_mcp::{Config, Plugin, ToolDescriptor};
use serde_json::{Value, json};
use std::collections::HashMap;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools_list.golden.json");
const MP_URL: &str = "http://mp.test/api/v1/mcp";

/// A MoviePilot MCP endpoint that handshakes and lists `tools`; nothing else answers.
struct FakeMoviePilot {
    tools: Value,
}

impl Upstream for FakeMoviePilot {
    fn send(&self, request: &HttpRequest, _max: usize) -> Result<HttpResponse, UpstreamError> {
        if request.url != MP_URL {
            return Err(UpstreamError::Unreachable);
        }
        let body: Value = serde_json::from_slice(request.body.as_deref().unwrap_or(b"null"))
            .unwrap_or(Value::Null);
        let result = match body["method"].as_str() {
            Some("initialize") => json!({
                "protocolVersion": body["params"]["protocolVersion"],
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "MoviePilot", "version": "2.0"}
            }),
            Some("notifications/initialized") => {
                return Ok(HttpResponse {
                    status: 204,
                    ..Default::default()
                });
            }
            Some("tools/list") => json!({"tools": self.tools}),
            _ => return Err(UpstreamError::Unreachable),
        };
        Ok(HttpResponse {
            status: 200,
            content_type: Some("application/json".into()),
            body: json!({"jsonrpc": "2.0", "id": body["id"], "result": result})
                .to_string()
                .into_bytes(),
            ..Default::default()
        })
    }
}

fn mp_tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": format!("{name} does things"), "inputSchema": schema})
}

/// MoviePilot's tools: small ones, one whose schema is large enough to be projected in compact
/// mode, and one whose name collides with an Ombi tool.
fn mp_tools(collide: bool) -> Value {
    let big_enum: Vec<String> = (0..400).map(|i| format!("operation.number_{i}")).collect();
    let mut tools = vec![
        mp_tool(
            "search_media",
            json!({"type": "object", "properties": {"title": {"type": "string", "description": "title"}}, "required": ["title"]}),
        ),
        mp_tool(
            "database_operation",
            json!({"type": "object", "properties": {"action": {"enum": ["tables", "schema", "query", "write"]}, "arguments": {"type": "object"}}, "required": ["action"]}),
        ),
        mp_tool(
            "moviepilot_api",
            json!({"type": "object", "properties": {"operation_id": {"enum": big_enum, "description": "x".repeat(20_000)}, "query": {"type": "object"}, "body": {}}, "required": ["operation_id"]}),
        ),
    ];
    if collide {
        tools.push(mp_tool(
            "read_search",
            json!({"type": "object", "properties": {}}),
        ));
    }
    Value::Array(tools)
}

fn listed(env: &[(&str, &str)], upstream: &dyn Upstream) -> Vec<ToolDescriptor> {
    let map: HashMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Plugin::new(Config::from_lookup(|k| map.get(k).cloned())).list_tools(upstream)
}

fn as_json(tools: &[ToolDescriptor]) -> Value {
    tools
        .iter()
        .map(|t| {
            json!({
                "name": t.name, "title": t.title, "description": t.description,
                "input_schema": t.input_schema, "output_schema": t.output_schema,
                "annotations": t.annotations,
            })
        })
        .collect()
}

/// Every configuration whose listing differs in kind, each as its tool names in order and the
/// descriptors that are not the same as in the Ombi-only listing (which is written whole).
fn scenarios() -> Vec<(&'static str, Value)> {
    let ombi = ("OMBI_URL", "http://ombi.test");
    let mp = ("MOVIEPILOT_URL", MP_URL);
    let unreachable = FakeMoviePilot { tools: json!([]) };
    let standard = FakeMoviePilot {
        tools: mp_tools(false),
    };
    let colliding = FakeMoviePilot {
        tools: mp_tools(true),
    };
    let ombi_only = listed(&[ombi], &unreachable);
    let beside_ombi = |tools: Vec<ToolDescriptor>| -> Value {
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        let own: Vec<ToolDescriptor> = tools
            .iter()
            .filter(|t| !ombi_only.contains(t))
            .cloned()
            .collect();
        json!({"names": names, "tools": as_json(&own)})
    };
    vec![
        ("ombi", as_json(&ombi_only)),
        (
            "ombi+moviepilot compact",
            beside_ombi(listed(&[ombi, mp], &standard)),
        ),
        (
            "moviepilot full",
            beside_ombi(listed(
                &[mp, ("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full")],
                &standard,
            )),
        ),
        (
            "ombi+moviepilot colliding",
            beside_ombi(listed(&[ombi, mp], &colliding)),
        ),
        (
            "ombi unusable, moviepilot unreachable",
            beside_ombi(listed(
                &[
                    ("OMBI_URL", "ftp://ombi.test"),
                    ("MOVIEPILOT_URL", "http://unreachable.test/mcp"),
                ],
                &unreachable,
            )),
        ),
        (
            "ombi unusable, bad deadline, bad moviepilot settings",
            beside_ombi(listed(
                &[
                    ("OMBI_URL", "http://user:pw@ombi.test"),
                    ("MEDIA_MCP_CALL_DEADLINE_MS", "5"),
                    ("MOVIEPILOT_URL", "mp.test"),
                    ("MEDIA_MCP_MOVIEPILOT_DEADLINES", "search.torrents=7"),
                ],
                &unreachable,
            )),
        ),
        (
            "seerr+moviepilot",
            beside_ombi(listed(
                &[
                    ("SEERR_URL", "http://seerr.test"),
                    ("SEERR_USER", "alice"),
                    mp,
                ],
                &standard,
            )),
        ),
        (
            "ombi and seerr both set",
            beside_ombi(listed(
                &[ombi, ("SEERR_URL", "http://seerr.test")],
                &unreachable,
            )),
        ),
        (
            "read-only, selected",
            beside_ombi(listed(
                &[
                    ombi,
                    mp,
                    ("MEDIA_MCP_READ_ONLY", "1"),
                    ("MEDIA_MCP_TOOLS", "read_*,search_media,ombi_status"),
                ],
                &standard,
            )),
        ),
    ]
}

#[test]
fn tools_list_is_byte_identical_to_the_golden_file() {
    let mut all = serde_json::Map::new();
    for (name, tools) in scenarios() {
        all.insert(name.to_owned(), tools);
    }
    let text = serde_json::to_string_pretty(&Value::Object(all)).expect("json") + "\n";
    if std::env::var_os("MEDIA_MCP_BLESS").is_some() {
        std::fs::write(GOLDEN, &text).expect("write golden");
        return;
    }
    let golden =
        std::fs::read_to_string(GOLDEN).expect("golden file (MEDIA_MCP_BLESS=1 writes it)");
    if golden != text {
        let (line, (was, now)) = golden
            .lines()
            .zip(text.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, ("(length)", "(length)")));
        panic!(
            "tools/list changed at line {}:\n golden: {was}\n    now: {now}",
            line + 1
        );
    }
}
