//! `read_settings` → `settings`.
//!
//! Only allowlisted, non-secret fields leave the adapter: the writable leaves of
//! [`settings_revision`] plus a few display-only ones (arrays, computed flags, the *arr
//! sections). Each becomes one scalar leaf named by an escaped JSON Pointer (RFC 6901: `~` →
//! `~0`, `/` → `~1`); arrays become `/name/<i>` display paths. Every other upstream field is
//! named in `omitted_fields`. `revision` comes from [`settings_revision::revision`], the same
//! function `write_settings_update` checks, and only for sections it can patch.

use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::settings_revision::{self, leaf_value};
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

/// A readable section: its route, the sub-object it lives in (radarr), and its display-only
/// leaves on top of the writable ones.
struct Section {
    name: &'static str,
    path: &'static str,
    sub: Option<&'static str>,
    display_only: &'static [&'static str],
}

/// *arr leaves that are safe to show; `apiKey`, `ip`, `port`, `ssl` and `subDir` (credential
/// and destination) never are.
const SONARR: &[&str] = &[
    "/enabled",
    "/qualityProfile",
    "/seasonFolders",
    "/rootPath",
    "/qualityProfileAnime",
    "/rootPathAnime",
    "/languageProfile",
    "/languageProfileAnime",
    "/tag",
    "/animeTag",
    "/sendUserTags",
    "/addOnly",
    "/scanForAvailability",
    "/prioritizeArrAvailability",
];
const RADARR: &[&str] = &[
    "/enabled",
    "/defaultQualityProfile",
    "/defaultRootPath",
    "/addOnly",
    "/minimumAvailability",
    "/scanForAvailability",
    "/prioritizeArrAvailability",
    "/tag",
    "/sendUserTags",
];

static SECTIONS: &[Section] = &[
    Section {
        name: "ombi",
        path: "/api/v1/Settings/ombi",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "customization",
        path: "/api/v1/Settings/customization",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "issues",
        path: "/api/v1/Settings/Issues",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "vote",
        path: "/api/v1/Settings/vote",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "user_management",
        path: "/api/v1/Settings/UserManagement",
        sub: None,
        display_only: &["/defaultRoles"],
    },
    Section {
        name: "authentication",
        path: "/api/v1/Settings/authentication",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "themoviedb",
        path: "/api/v1/Settings/themoviedb",
        sub: None,
        display_only: &[
            "/excludedKeywordIds",
            "/excludedMovieGenreIds",
            "/excludedTvGenreIds",
            "/originalLanguages",
        ],
    },
    // `/expired` is left out: upstream computes it inverted (true while the notice is current).
    Section {
        name: "landing_page",
        path: "/api/v1/Settings/landingpage",
        sub: None,
        display_only: &["/noticeEnabled"],
    },
    Section {
        name: "jobs",
        path: "/api/v1/Settings/jobs",
        sub: None,
        display_only: &[],
    },
    Section {
        name: "sonarr",
        path: "/api/v1/Settings/sonarr",
        sub: None,
        display_only: SONARR,
    },
    Section {
        name: "radarr",
        path: "/api/v1/Settings/radarr",
        sub: Some("radarr"),
        display_only: RADARR,
    },
    Section {
        name: "radarr_4k",
        path: "/api/v1/Settings/radarr",
        sub: Some("radarr4K"),
        display_only: RADARR,
    },
    Section {
        name: "features",
        path: "/api/v2/Features",
        sub: None,
        display_only: &[],
    },
];

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_settings",
    "Read settings",
    "Read one section of Ombi's settings as named values (general, customization, issues, votes, user management, authentication, TMDB filters, landing page, job schedules, Sonarr, Radarr, Radarr 4K, feature flags). Credentials and server addresses are never shown; the names of fields held back are listed. The revision it returns lets write_settings_update detect concurrent changes.",
    &["settings"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let names: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
    json!({
        "type": "object",
        "properties": {
            "section": {"enum": names, "description": "Which settings: ombi (general), customization, issues, vote, user_management, authentication, themoviedb, landing_page, jobs (schedules), sonarr, radarr, radarr_4k, or features (feature flags). Credentials and server addresses are never shown."}
        },
        "required": ["section"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let name = args.str("section")?;
    let section = SECTIONS.iter().find(|s| s.name == name).ok_or_else(|| {
        ToolError::invalid_argument("section", format!("unknown section {name:?}"))
    })?;
    let body = call.ombi()?.get::<Value>(section.path)?;
    let upstream = match (section.sub, body) {
        (Some(sub), Some(Value::Object(mut o))) => {
            o.remove(sub).filter(Value::is_object).ok_or_else(|| {
                ToolError::schema_mismatch(format!("Ombi's radarr settings have no `{sub}` object"))
            })?
        }
        (None, Some(v @ Value::Object(_))) if name != "features" => v,
        (None, Some(v @ Value::Array(_))) if name == "features" => v,
        _ => {
            return Err(ToolError::schema_mismatch(format!(
                "Ombi's {name} settings do not have the documented shape"
            )));
        }
    };
    Ok(project(name, section, &upstream))
}

/// The `settings` result for `upstream` (the section's own object, or the features list).
fn project(name: &str, section: &Section, upstream: &Value) -> Reply {
    let writable: Vec<&str> = settings_revision::section(name)
        .map(|s| s.writable.iter().map(|(p, _)| *p).collect())
        .unwrap_or_default();
    let allowed: Vec<&str> = writable
        .iter()
        .chain(section.display_only)
        .copied()
        .collect();
    let mut values = Vec::new();
    let mut warnings = Vec::new();
    let mut display_paths = false;
    for pointer in &allowed {
        let Some(v) = leaf_value(name, upstream, pointer) else {
            continue;
        };
        display_paths |= v.is_array();
        flatten(pointer, v, &mut values, &mut warnings);
    }
    let mut omitted: Vec<String> = upstream_names(name, upstream)
        .into_iter()
        .filter(|p| !allowed.contains(&p.as_str()))
        .collect();
    omitted.sort();
    if display_paths {
        warnings.push("array entries such as /name/0 are display paths only; they cannot be changed one by one".to_owned());
    }
    if omitted.iter().any(|p| p == "/expired") {
        warnings.push("/expired is left out: Ombi computes it inverted (true while the notice is still current)".to_owned());
    }
    let mut data =
        json!({"kind": "settings", "section": name, "values": values, "omitted_fields": omitted});
    match settings_revision::revision(name, upstream) {
        Some(r) => data["revision"] = json!(r),
        None => warnings.push(format!(
            "{name} settings cannot be changed with this plugin, so no revision is given"
        )),
    }
    Reply::ok(data).warn_all(warnings)
}

/// The escaped top-level names of `upstream` (feature names for `features`).
fn upstream_names(name: &str, upstream: &Value) -> Vec<String> {
    if name == "features" {
        let list = upstream.as_array().map(Vec::as_slice).unwrap_or_default();
        return list
            .iter()
            .filter_map(|f| f.get("name")?.as_str())
            .map(|n| format!("/{}", escape(n)))
            .collect();
    }
    upstream
        .as_object()
        .map(|o| o.keys().map(|k| format!("/{}", escape(k))).collect())
        .unwrap_or_default()
}

/// RFC 6901 escaping of one reference token.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Adds `value` at `pointer` as scalar leaves: arrays and objects are walked; `0001-01-01`
/// dates (Ombi's "unset") stay absent.
fn flatten(pointer: &str, value: &Value, out: &mut Vec<Value>, warnings: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(&format!("{pointer}/{i}"), item, out, warnings);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{pointer}/{}", escape(k)), v, out, warnings);
            }
        }
        Value::String(s) if s.starts_with("0001-01-01") => warnings.push(format!(
            "{pointer} is unset upstream (0001-01-01) and left out"
        )),
        _ => out.push(json!({"name": pointer, "value": value})),
    }
}

#[cfg(test)]
mod tests;
