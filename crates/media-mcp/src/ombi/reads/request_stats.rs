//! `read_request_stats` → `metrics`.
//!
//! Named scalars with an explicit scope: `summary` (instance: the seven totals of
//! `UserStatsSummary`, never the embedded user graphs), `counts` (instance: pending, approved,
//! available, denied) and `quota` (principal or selected user: has_limit, limit, remaining,
//! next_request). `hasLimit: false` comes with placeholder zeros upstream, so then only
//! `has_limit` is reported.

use super::common::{metric, object};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::codes::RequestKind;
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use crate::upstream::encode_query_value;
use serde_json::{Map, Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_request_stats",
    "Read request statistics",
    "Read request statistics from Ombi: request counts by state across the server, request quotas of the acting user or of a selected user, or request and completion totals for a time window (admins only).",
    &["metrics"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A scope's metrics; warnings go to the vector.
type ViewFn = fn(&Ombi<'_>, &Args, &mut Vec<String>) -> Result<Vec<Value>, ToolError>;

static VIEWS: Views<ViewFn> = Views {
    field: "scope",
    default: None,
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "counts",
            description: "requests by state on the whole server",
            families: &["metrics"],
            handler: counts,
        },
        View {
            name: "quota",
            description: "request quotas (of the acting user, or of user_id)",
            families: &["metrics"],
            handler: quotas,
        },
        View {
            name: "summary",
            description: "totals for the window from..to (admins only)",
            families: &["metrics"],
            handler: summary,
        },
    ],
};

/// ISO-8601 date or date-time, as Ombi binds it from the query string.
const DATE_TIME_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,7})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$";

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "scope": VIEWS.property(),
            "from": {"type": "string", "pattern": DATE_TIME_PATTERN, "description": "Start of the window, ISO 8601 (summary only)."},
            "to": {"type": "string", "pattern": DATE_TIME_PATTERN, "description": "End of the window, ISO 8601, after from (summary only)."},
            "media": {"enum": ["all", "movie", "tv", "album"], "default": "all", "description": "Which quota to read (quota only)."},
            "user_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$",
                        "description": "Ombi user id whose quotas to read (quota only; power users only). Default: the acting user."}
        },
        "required": ["scope"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"scope": {"const": "summary"}}}, "then": {"required": ["from", "to"]},
             "else": {"properties": {"from": {"not": {}}, "to": {"not": {}}}}},
            {"if": {"properties": {"scope": {"const": "quota"}}},
             "else": {"properties": {"media": {"not": {}}, "user_id": {"not": {}}}}}
        ]
    })
}

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let mut warnings = Vec::new();
    let values = (VIEWS.select(args)?.handler)(&ombi, args, &mut warnings)?;
    Ok(Reply::ok(json!({"kind": "metrics", "values": values})).warn_all(warnings))
}

fn summary(
    ombi: &Ombi<'_>,
    args: &Args,
    warnings: &mut Vec<String>,
) -> Result<Vec<Value>, ToolError> {
    let (from, to) = (args.str("from")?, args.str("to")?);
    if !before(from, to) {
        return Err(ToolError::invalid_argument(
            "to",
            "to must be later than from",
        ));
    }
    let path = format!(
        "/api/v1/Stats?from={}&to={}",
        encode_query_value(from),
        encode_query_value(to)
    );
    let body = ombi.get::<Value>(&path).map_err(explain_empty_window)?;
    let stats = object(body, "stats summary")?
        .ok_or_else(|| ToolError::schema_mismatch("the stats route answered with no body"))?;
    Ok(project_summary(&stats, warnings))
}

/// The quotas of `user_id`, or of the acting user when there is no `user_id`.
fn quotas(
    ombi: &Ombi<'_>,
    args: &Args,
    warnings: &mut Vec<String>,
) -> Result<Vec<Value>, ToolError> {
    if let Some(id) = args.opt_segment("user_id")? {
        let user = object(ombi.get(&format!("/api/v1/Identity/User/{id}"))?, "user")?
            .ok_or_else(|| ToolError::new(ErrorCode::NotFound, "no such user"))?;
        return Ok(selected_user_quotas(&user, args.str("media")?, warnings));
    }
    let mut values = Vec::new();
    for kind in kinds(args.str("media")?) {
        let media = kind.label();
        let path = format!("{}/remaining", kind.route_base());
        match object(ombi.get(&path)?, "quota")? {
            Some(q) => values.extend(quota(&q, media, "principal", warnings)),
            None => warnings.push(format!("no {media} quota was returned")),
        }
    }
    Ok(values)
}

fn counts(ombi: &Ombi<'_>, _: &Args, warnings: &mut Vec<String>) -> Result<Vec<Value>, ToolError> {
    let counts =
        object(ombi.get("/api/v1/Request/count")?, "request counts")?.ok_or_else(|| {
            ToolError::schema_mismatch("the request count route answered with no body")
        })?;
    warnings.push("counts cover movie and TV requests only (albums and 4K requests are not counted upstream); approved means approved and not yet available".to_owned());
    Ok(["pending", "approved", "available", "denied"]
        .iter()
        .filter_map(|k| {
            counts
                .get(*k)
                .and_then(Value::as_i64)
                .filter(|n| *n >= 0)
                .map(|n| metric(k, json!(n), "instance", Some("requests")))
        })
        .collect())
}

/// The request kinds the `media` argument names (`all`: every kind, movie first).
fn kinds(media: &str) -> Vec<RequestKind> {
    RequestKind::from_label(media).map_or_else(
        || vec![RequestKind::Movie, RequestKind::Tv, RequestKind::Album],
        |kind| vec![kind],
    )
}

/// Whether date `a` is before `b`. Both passed the schema pattern, so their leading
/// `YYYY-MM-DDTHH:MM:SS` parts compare as text; offsets other than `Z` are not normalized.
fn before(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        let mut t: String = s.chars().take(19).collect();
        let full = "0000-00-00T00:00:00";
        if t.len() < full.len() {
            t.push_str(&full[t.len()..]);
        }
        t
    };
    norm(a) < norm(b)
}

/// The stats engine throws when the window has no movie requests or no TV children (docs/ombi-behaviours.md#stats-need-both-media).
fn explain_empty_window(e: ToolError) -> ToolError {
    if e.code == ErrorCode::UpstreamRejected && e.http_status == Some(500) {
        let mut e2 = ToolError::new(
            ErrorCode::UpstreamRejected,
            format!(
                "{} (Ombi fails the summary when the window holds no movie or no TV requests: try a wider window)",
                e.message
            ),
        );
        e2.http_status = e.http_status;
        return e2;
    }
    e
}

/// The seven totals of `UserStatsSummary`; the two `mostRequestedUser*` graphs never leave the
/// adapter. Known upstream bugs make three totals untrustworthy: they are reported as
/// `null` with a warning rather than as a wrong number.
fn project_summary(stats: &Map<String, Value>, warnings: &mut Vec<String>) -> Vec<Value> {
    let n = |k: &str| {
        stats
            .get(k)
            .and_then(Value::as_i64)
            .filter(|n| *n >= 0)
            .map_or(Value::Null, |n| json!(n))
    };
    warnings.push("total_issues is never computed by Ombi's stats engine: reported as null (use read_issues counts)".to_owned());
    warnings.push("completed_requests_movies and completed_requests are miscounted by Ombi (completed movies always equal all movie requests): reported as null".to_owned());
    vec![
        metric(
            "total_requests",
            n("totalRequests"),
            "instance",
            Some("requests"),
        ),
        metric(
            "total_movie_requests",
            n("totalMovieRequests"),
            "instance",
            Some("requests"),
        ),
        metric(
            "total_tv_requests",
            n("totalTvRequests"),
            "instance",
            Some("requests"),
        ),
        metric("total_issues", Value::Null, "instance", Some("issues")),
        metric(
            "completed_requests_movies",
            Value::Null,
            "instance",
            Some("requests"),
        ),
        metric(
            "completed_requests_tv",
            n("completedRequestsTv"),
            "instance",
            Some("requests"),
        ),
        metric(
            "completed_requests",
            Value::Null,
            "instance",
            Some("requests"),
        ),
    ]
}

/// `RequestQuotaCountModel` → `<media>.has_limit` and, only when a limit exists, `.limit`,
/// `.remaining`, `.next_request`. TV quotas count episodes.
fn quota(
    q: &Map<String, Value>,
    media: &str,
    scope: &str,
    warnings: &mut Vec<String>,
) -> Vec<Value> {
    let unit = if media == "tv" {
        "episodes"
    } else {
        "requests"
    };
    let Some(has_limit) = q.get("hasLimit").and_then(Value::as_bool) else {
        warnings.push(format!(
            "the {media} quota did not say whether a limit applies: left out"
        ));
        return Vec::new();
    };
    let mut out = vec![metric(
        &format!("{media}.has_limit"),
        json!(has_limit),
        scope,
        None,
    )];
    if has_limit {
        for (key, name) in [("limit", "limit"), ("remaining", "remaining")] {
            if let Some(v) = q.get(key).and_then(Value::as_i64).filter(|v| *v >= 0) {
                out.push(metric(
                    &format!("{media}.{name}"),
                    json!(v),
                    scope,
                    Some(unit),
                ));
            }
        }
        if let Some(d) = q
            .get("nextRequest")
            .and_then(Value::as_str)
            .and_then(super::common::real_date)
        {
            out.push(metric(
                &format!("{media}.next_request"),
                json!(d),
                scope,
                None,
            ));
        }
    }
    out
}

/// The `*RequestQuota` objects of `UserViewModel`: `null` unless the user has a limit.
fn selected_user_quotas(
    user: &Map<String, Value>,
    media: &str,
    warnings: &mut Vec<String>,
) -> Vec<Value> {
    let mut out = Vec::new();
    for kind in kinds(media) {
        let m = kind.label();
        let key = match kind {
            RequestKind::Movie => "movieRequestQuota",
            RequestKind::Tv => "episodeRequestQuota",
            RequestKind::Album => "musicRequestQuota",
        };
        match user.get(key) {
            Some(Value::Object(q)) => out.extend(quota(q, m, "selected_user", warnings)),
            _ => warnings.push(format!("Ombi reports no {m} quota for this user (it does so only when a limit is set); nothing is inferred")),
        }
    }
    out
}

#[cfg(test)]
mod tests;
