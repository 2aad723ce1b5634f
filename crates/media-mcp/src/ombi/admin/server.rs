//! `read_server` → `metrics` or `reference_page`.
//!
//! Named instance-wide scalars from allowlisted fields of each route's response type. Routes
//! with side effects are never called: the update view reads Ombi's cached flag
//! (`/api/v1/Job/updateCached`), never `/api/v1/Update` or `/api/v1/Job/update`; the media
//! server view is not offered because `/api/v1/LandingPage` live-probes every media server.

use super::common::{self, compound, reference};
use crate::contract::budget::MAX_ITEMS;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::shape;
use crate::prelude::*;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::recognise::{status_error, transport_error};
use crate::upstream::{HttpRequest, MAX_BODY_BYTES, Method};
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_server",
    "Server status",
    "Check the Ombi server: whether it is up and its version, safe build facts (branch, runtime, database types), whether its last update check found a newer version, server-wide request counts, which integrations and features are switched on, and its health check.",
    &["metrics", "reference_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of the server: the call (for routes outside `/api`), its client and the arguments.
type ViewFn = fn(&Call<'_>, &Ombi<'_>, &Args) -> Result<Reply, ToolError>;

const METRICS: &[&str] = &["metrics"];

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: None,
    prose: Prose::Joined {
        intro: "",
        gloss: Gloss::Paren,
        sep: ", ",
        last: ", ",
        end: ".",
    },
    views: &[
        View {
            name: "status",
            description: "reachable, version, first-run wizard done",
            families: METRICS,
            handler: status,
        },
        View {
            name: "about",
            description: "version, branch, runtime and database types",
            families: &["reference_page"],
            handler: about,
        },
        View {
            name: "update",
            description: "whether Ombi's last update check found a newer version",
            families: METRICS,
            handler: update,
        },
        View {
            name: "request_counts",
            description: "pending, approved, available and denied requests across the server",
            families: METRICS,
            handler: request_counts,
        },
        View {
            name: "capabilities",
            description: "which integrations and features are switched on",
            families: METRICS,
            handler: capabilities,
        },
        View {
            name: "health",
            description: "Ombi's health check: Healthy, Degraded or Unhealthy",
            families: METRICS,
            handler: health,
        },
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": crate::paging::with_paging(json!({
            "view": VIEWS.property()
        })),
        "required": ["view"],
        "additionalProperties": false
    })
}

/// `AboutViewModel` fields that are safe to show (never paths, OS build strings or
/// connection strings), with the names they get.
const ABOUT_FIELDS: &[(&str, &str)] = &[
    ("version", "version"),
    ("branch", "branch"),
    ("frameworkDescription", "framework_description"),
    ("osArchitecture", "os_architecture"),
    ("processArchitecture", "process_architecture"),
    ("ombiDatabaseType", "ombi_database_type"),
    ("externalDatabaseType", "external_database_type"),
    ("settingsDatabaseType", "settings_database_type"),
];

/// Boolean capability routes and the metric each becomes.
const CAPABILITY_ROUTES: &[(&str, &str)] = &[
    ("/api/v1/Settings/issuesenabled", "issues_enabled"),
    ("/api/v1/Settings/voteenabled", "votes_enabled"),
    ("/api/v1/Settings/lidarrenabled", "lidarr_enabled"),
    (
        "/api/v1/Settings/notifications/email/enabled",
        "email_notifications_enabled",
    ),
    ("/api/v1/Sonarr/enabled", "sonarr_enabled"),
    ("/api/v1/Radarr/enabled", "radarr_enabled"),
];

/// A metric of the whole Ombi instance.
fn instance_metric(name: &str, value: Value) -> Value {
    shape::metric(name, value, "instance", None)
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    (VIEWS.select(args)?.handler)(call, &ombi, args)
}

fn status(_: &Call<'_>, ombi: &Ombi<'_>, _: &Args) -> Result<Reply, ToolError> {
    let mut values = Vec::new();
    let mut failures = Vec::new();
    // Any answer from the liveness route means the server is up; a failure is reported
    // as a failure, never as `up: false` (it may be our network, not Ombi).
    match ombi.get::<Value>("/api/v1/Status") {
        Ok(_) => values.push(instance_metric("up", json!(true))),
        Err(e) => failures.push(("up".to_owned(), e)),
    }
    match ombi
        .get::<Value>("/api/v1/Status/info")
        .and_then(|v| text(v, "version"))
    {
        Ok(v) if !v.is_empty() => values.push(instance_metric("version", json!(v))),
        Ok(_) => {}
        Err(e) => failures.push(("version".to_owned(), e)),
    }
    match ombi
        .get::<Value>("/api/v1/Status/Wizard")
        .and_then(|v| flag(v.as_ref().and_then(|b| b.get("result")).cloned(), "wizard"))
    {
        Ok(b) => values.push(instance_metric("wizard_completed", json!(b))),
        Err(e) => failures.push(("wizard_completed".to_owned(), e)),
    }
    Ok(compound(
        json!({"kind": "metrics", "values": values}),
        failures,
        3,
    ))
}

fn about(_: &Call<'_>, ombi: &Ombi<'_>, args: &Args) -> Result<Reply, ToolError> {
    let about = ombi
        .get::<Value>("/api/v1/Settings/about")?
        .filter(Value::is_object)
        .ok_or_else(|| ToolError::schema_mismatch("expected an AboutViewModel object from Ombi"))?;
    let mut items = Vec::new();
    for (field, name) in ABOUT_FIELDS {
        match about.get(*field) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.trim().is_empty() => {}
            Some(Value::String(s)) => {
                items.push(reference(None, name, json!(s.trim()), Some("about")))
            }
            Some(_) => {
                return Err(ToolError::schema_mismatch(format!(
                    "Ombi's about `{field}` is not a string"
                )));
            }
        }
    }
    Ok(Reply::ok(common::local_page(
        "reference_page",
        items,
        args.window()?,
        "references",
    )))
}

fn update(_: &Call<'_>, ombi: &Ombi<'_>, _: &Args) -> Result<Reply, ToolError> {
    let available = flag(
        ombi.get::<Value>("/api/v1/Job/updateCached")?,
        "update check",
    )?;
    Ok(Reply::ok(json!({"kind": "metrics", "values": [instance_metric("update_available", json!(available))]}))
        .warn("this is the result of Ombi's last scheduled update check; the plugin never starts a live check"))
}

fn request_counts(_: &Call<'_>, ombi: &Ombi<'_>, _: &Args) -> Result<Reply, ToolError> {
    let counts = ombi
        .get::<Value>("/api/v1/Request/count")?
        .filter(Value::is_object)
        .ok_or_else(|| {
            ToolError::schema_mismatch("expected a RequestCountModel object from Ombi")
        })?;
    let mut values = Vec::new();
    for name in ["pending", "approved", "available", "denied"] {
        match counts.get(name) {
            // Absent stays absent: a missing count is never reported as 0.
            None | Some(Value::Null) => {}
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| {
                    ToolError::schema_mismatch(format!(
                        "Ombi's request count `{name}` is not a count"
                    ))
                })?;
                values.push(instance_metric(name, json!(n)));
            }
        }
    }
    Ok(Reply::ok(json!({"kind": "metrics", "values": values}))
        .warn("counts cover movie and TV requests only (Ombi does not count albums); approved means approved but not yet available"))
}

fn capabilities(_: &Call<'_>, ombi: &Ombi<'_>, _: &Args) -> Result<Reply, ToolError> {
    let mut values = Vec::new();
    let mut failures = Vec::new();
    for (path, name) in CAPABILITY_ROUTES {
        match ombi.get::<Value>(path).and_then(|v| flag(v, name)) {
            Ok(b) => values.push(instance_metric(name, json!(b))),
            Err(e) => failures.push(((*name).to_owned(), e)),
        }
    }
    // Streamed, keeping no more metrics than a result may hold: a list of several
    // megabytes would not fit the call's memory as one JSON tree.
    let room = MAX_ITEMS.saturating_sub(values.len());
    let mut kept = Vec::new();
    let read = ombi.get_each("/api/v2/Features", "features", &mut |f| {
        let metric = feature(&f)?;
        if kept.len() < room {
            kept.push(metric);
        }
        Ok(())
    });
    let total = match read {
        Ok(n) => values.len() + n,
        Err(e) => {
            failures.push(("features".to_owned(), e));
            values.len()
        }
    };
    values.append(&mut kept);
    let reply = compound(
        json!({"kind": "metrics", "values": values}),
        failures,
        CAPABILITY_ROUTES.len() + 1,
    );
    Ok(if total > MAX_ITEMS {
        // What the result's budget says when it cuts a longer list itself.
        reply
            .warn(format!("values: {MAX_ITEMS} of {total} entries returned"))
            .truncated(true)
    } else {
        reply
    })
}

/// A JSON string answer.
fn text(body: Option<Value>, what: &str) -> Result<String, ToolError> {
    match body {
        Some(Value::String(s)) => Ok(s.trim().to_owned()),
        _ => Err(ToolError::schema_mismatch(format!(
            "expected a JSON string ({what}) from Ombi"
        ))),
    }
}

/// A JSON boolean answer.
fn flag(body: Option<Value>, what: &str) -> Result<bool, ToolError> {
    body.as_ref().and_then(Value::as_bool).ok_or_else(|| {
        ToolError::schema_mismatch(format!("expected a JSON boolean ({what}) from Ombi"))
    })
}

/// A `FeatureEnablement` record as a `feature:<Name>` boolean metric.
fn feature(f: &Value) -> Result<Value, ToolError> {
    let name = common::req_str(f, "name", "feature")?;
    let on = f.get("enabled").and_then(Value::as_bool).ok_or_else(|| {
        ToolError::schema_mismatch("a feature record from Ombi has no boolean `enabled`")
    })?;
    Ok(instance_metric(&format!("feature:{name}"), json!(on)))
}

/// Ombi's health check answer texts.
const HEALTH_STATES: &[&str] = &["Healthy", "Degraded", "Unhealthy"];

/// `GET /health` sits outside `/api` and needs no key, so it is sent without one; it answers
/// `Unhealthy` with HTTP 503, which is a result here, not a failure.
fn health(call: &Call<'_>, _: &Ombi<'_>, _: &Args) -> Result<Reply, ToolError> {
    let cfg = call.config;
    let request = HttpRequest {
        method: Method::Get,
        url: cfg.base_url.join("/health"),
        headers: vec![("accept".to_owned(), "text/plain".to_owned())],
        body: None,
        timeout_ms: call.deadline_ms,
    };
    // The answer is one word; 64 KiB leaves room for Ombi's page when the route is missing.
    let resp = call
        .upstream
        .send(&request, MAX_BODY_BYTES.min(64 * 1024))
        .map_err(|e| transport_error(&e, false))?;
    let body = String::from_utf8_lossy(&resp.body);
    let state = body.trim().trim_matches('"');
    if (resp.status == 200 || resp.status == 503) && HEALTH_STATES.contains(&state) {
        return Ok(Reply::ok(
            json!({"kind": "metrics", "values": [instance_metric("health", json!(state))]}),
        ));
    }
    if let Some(err) = status_error(&resp, false) {
        return Err(err);
    }
    // 200 with something else: Ombi's page for unknown routes, because health checks are off.
    Err(ToolError::new(
        ErrorCode::UnsupportedCapability,
        "Ombi did not answer its health check (health checks are disabled on this server, or a proxy answered)",
    ))
}

#[cfg(test)]
mod tests;
