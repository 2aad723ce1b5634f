//! `read_server` → `metrics` or `reference_page`: `GET /status` (version, whether an update
//! is available), `GET /settings/about`, `GET /request/count` and `GET /settings/public`.
//! Ombi's input schema; Seerr has no health check route (its status answers instead).

use super::client::Seerr;
use super::tool::{SeerrTool, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_server",
    "Check the server",
    "Check the Seerr server: whether it is up and its version, safe build facts (version, media and request totals), whether an update is available, server-wide request counts, and which features are switched on.",
    &["metrics", "reference_page"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "limit": paging::limit_schema_described("Most records to return (1-100)."),
            "offset": paging::offset_schema_described("Records to skip."),
            "view": {"enum": ["status", "about", "update", "request_counts", "capabilities", "health"],
                     "description": "status (reachable, version, restart needed), about (version, total media items and requests), update (whether a newer Seerr is available, commits behind), request_counts (requests by state across the server), capabilities (which features are switched on), health (not in Seerr: use status)."}
        },
        "required": ["view"],
        "additionalProperties": false
    })
}

fn metric(name: &str, value: Value) -> Value {
    json!({"name": name, "value": value, "scope": "instance"})
}

/// `keys` of `v` that hold a value of the wanted kind, as metrics named `prefix` + key.
fn metrics_of(v: &Value, keys: &[(&str, &str)]) -> Vec<Value> {
    keys.iter()
        .filter_map(|(key, name)| {
            v.get(*key)
                .filter(|x| {
                    x.is_boolean() || x.is_number() || x.as_str().is_some_and(|s| !s.is_empty())
                })
                .map(|x| metric(name, x.clone()))
        })
        .collect()
}

fn metrics(values: Vec<Value>) -> Reply {
    Reply::ok(json!({"kind": "metrics", "values": values}))
}

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    match args.str("view")? {
        "status" => {
            let status = seerr.get("/status")?;
            let mut values = vec![metric("up", json!(true))];
            values.extend(metrics_of(
                &status,
                &[
                    ("version", "version"),
                    ("commitTag", "commit_tag"),
                    ("restartRequired", "restart_required"),
                ],
            ));
            Ok(metrics(values))
        }
        "update" => {
            let status = seerr.get("/status")?;
            Ok(metrics(metrics_of(
                &status,
                &[
                    ("updateAvailable", "update_available"),
                    ("commitsBehind", "commits_behind"),
                ],
            )))
        }
        "about" => about(seerr, args),
        "request_counts" => {
            let counts = seerr.get("/request/count")?;
            Ok(metrics(metrics_of(
                &counts,
                &[
                    ("total", "total"),
                    ("pending", "pending"),
                    ("approved", "approved"),
                    ("declined", "declined"),
                    ("processing", "processing"),
                    ("available", "available"),
                    ("completed", "completed"),
                ],
            )))
        }
        "capabilities" => {
            let public = seerr.get("/settings/public")?;
            Ok(metrics(metrics_of(
                &public,
                &[
                    ("initialized", "feature:initialized"),
                    ("movie4kEnabled", "feature:movie_4k"),
                    ("series4kEnabled", "feature:series_4k"),
                    ("localLogin", "feature:local_login"),
                    ("mediaServerLogin", "feature:media_server_login"),
                    ("enablePushRegistration", "feature:push_registration"),
                    ("partialRequestsEnabled", "feature:partial_requests"),
                    ("mediaServerType", "media_server_type"),
                ],
            )))
        }
        _ => Err(unsupported(
            "view",
            "Seerr has no health check route: use view status",
        )),
    }
}

/// `GET /settings/about` as references; the data path on the server is left out.
fn about(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let about = seerr.get("/settings/about")?;
    let all: Vec<Value> = [
        ("version", "version"),
        ("totalMediaItems", "total_media_items"),
        ("totalRequests", "total_requests"),
        ("tz", "time_zone"),
    ]
    .iter()
    .filter_map(|(key, name)| {
        about
            .get(*key)
            .filter(|x| x.is_number() || x.as_str().is_some_and(|s| !s.is_empty()))
            .map(|x| json!({"name": name, "value": x, "category": "about"}))
    })
    .collect();
    let window = args.window()?;
    let total = all.len();
    let items = paging::slice(all, window);
    let page = paging::local(window, items.len(), total, "references");
    Ok(Reply::ok(
        json!({"kind": "reference_page", "items": items, "page": page}),
    ))
}
