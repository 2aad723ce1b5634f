//! `read_users` → `user_page`, `reference_page`.
//!
//! Users carry only id, user name/alias, language, streaming country and online state; e-mail,
//! claims, quotas and tokens never leave the adapter. Notification preferences say which agents
//! have a recipient configured, never the recipient (`value` is a chat id or user key).

use super::common::{Rec, array, object};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::shape::LocalWindow;
use crate::paging;
use crate::paging::Window;
use crate::paging::{limit_schema, offset_schema};
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_users",
    "Read users",
    "Read Ombi users: the full list, a cheap directory of names, the current user, one user by id, who is online now, or which notification agents a user has set up.",
    &["user_page", "reference_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of users, paged by `Window` where it pages; the `Option<String>` is `user_id`.
type ViewFn = fn(&Ombi<'_>, Window, Option<String>) -> Result<Reply, ToolError>;

const USERS: &[&str] = &["user_page"];

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: None,
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "list",
            description: "all users (power users only)",
            families: USERS,
            handler: list,
        },
        View {
            name: "directory",
            description: "ids and names only",
            families: USERS,
            handler: directory,
        },
        View {
            name: "current",
            description: "the acting user",
            families: USERS,
            handler: one_user,
        },
        View {
            name: "detail",
            description: "one user",
            families: USERS,
            handler: one_user,
        },
        View {
            name: "online",
            description: "users connected now (admins only)",
            families: USERS,
            handler: online,
        },
        View {
            name: "notification_preferences",
            description: "the notification agents a user has configured",
            families: &["reference_page"],
            handler: notification_preferences,
        },
    ],
};

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "view": VIEWS.property(),
            "user_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$",
                        "description": "Ombi user id (detail; notification_preferences, where it defaults to the acting user)."},
            "offset": offset_schema(),
            "limit": limit_schema()
        },
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"view": {"const": "detail"}}}, "then": {"required": ["user_id"]}},
            {"if": {"properties": {"view": {"enum": ["list", "directory", "current", "online"]}}},
             "then": {"properties": {"user_id": {"not": {}}}}}
        ]
    })
}

/// NotificationAgent labels.
const AGENTS: [&str; 12] = [
    "Email",
    "Discord",
    "Pushbullet",
    "Pushover",
    "Telegram",
    "Slack",
    "Mattermost",
    "Mobile",
    "Gotify",
    "Webhook",
    "WhatsApp",
    "Ntfy",
];

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let user_id = args.opt_segment("user_id")?;
    (VIEWS.select(args)?.handler)(&ombi, window, user_id)
}

/// `user_id`'s record, or the acting user's when there is no `user_id`.
fn one_user(ombi: &Ombi<'_>, _: Window, user_id: Option<String>) -> Result<Reply, ToolError> {
    let path = match &user_id {
        Some(id) => format!("/api/v1/Identity/User/{id}"),
        None => "/api/v1/Identity".to_owned(),
    };
    let user = object(ombi.get(&path)?, "user")?
        .ok_or_else(|| ToolError::new(ErrorCode::NotFound, "no such user"))?;
    let items: Vec<Value> = project_user(&Value::Object(user)).into_iter().collect();
    let page = paging::single(items.len(), "users");
    Ok(Reply::ok(
        json!({"kind": "user_page", "items": items, "page": page}),
    ))
}

fn notification_preferences(
    ombi: &Ombi<'_>,
    window: Window,
    user_id: Option<String>,
) -> Result<Reply, ToolError> {
    let path = match &user_id {
        Some(id) => format!("/api/v1/Identity/notificationpreferences/{id}"),
        None => "/api/v1/Identity/notificationpreferences".to_owned(),
    };
    let mut warnings = Vec::new();
    // Streamed: a list of several megabytes would not fit the call's memory as one JSON tree.
    let mut page = LocalWindow::new(window);
    ombi.get_each(&path, "notification preferences", &mut |row| {
        if let Some(item) = project_preference(&row, &mut warnings) {
            page.push(item);
        }
        Ok(())
    })?;
    Ok(Reply::ok(page.into_page("reference_page", "references")).warn_all(warnings))
}

fn list(ombi: &Ombi<'_>, window: Window, _: Option<String>) -> Result<Reply, ToolError> {
    let users = array(ombi.get("/api/v1/Identity/Users")?, "users")?
        .iter()
        .filter_map(project_user)
        .collect();
    Ok(user_page(users, window))
}

fn directory(ombi: &Ombi<'_>, window: Window, _: Option<String>) -> Result<Reply, ToolError> {
    let users = array(ombi.get("/api/v1/Identity/dropdown/Users")?, "users")?
        .iter()
        .filter_map(|r| {
            let mut u = Rec::new();
            u.text("id", r.get("id"))
                .text("user_name", r.get("username"));
            u.has("id").then(|| u.build())
        })
        .collect();
    Ok(user_page(users, window))
}

fn online(ombi: &Ombi<'_>, window: Window, _: Option<String>) -> Result<Reply, ToolError> {
    let users = array(ombi.get("/api/v2/Hub/Users")?, "connected users")?
        .iter()
        .filter_map(|r| {
            let mut u = Rec::new();
            // displayName is the alias when set, else the user name; it is a display value.
            u.text("id", r.get("userId"))
                .text("alias", r.get("displayName"));
            u.set("online", json!(true));
            u.has("id").then(|| u.build())
        })
        .collect();
    Ok(user_page(users, window))
}

/// `users` windowed locally.
fn user_page(users: Vec<Value>, window: Window) -> Reply {
    let total = users.len();
    let items = paging::slice(users, window);
    let page = paging::local(window, items.len(), total, "users");
    Reply::ok(json!({"kind": "user_page", "items": items, "page": page}))
}

/// `UserViewModel` → `{id, user_name, alias, language, streaming_country}` only.
fn project_user(row: &Value) -> Option<Value> {
    let mut u = Rec::new();
    u.text("id", row.get("id"))
        .text("user_name", row.get("userName"))
        .text("alias", row.get("alias"))
        .text("language", row.get("language"))
        .text("streaming_country", row.get("streamingCountry"));
    u.has("id").then(|| u.build())
}

/// A row with a non-empty `value` is an agent the user set up (`enabled` is never stored
/// upstream); the value itself is a delivery address and is never emitted.
fn project_preference(row: &Value, warnings: &mut Vec<String>) -> Option<Value> {
    let configured = row
        .get("value")
        .and_then(Value::as_str)
        .is_some_and(|v| !v.trim().is_empty());
    let code = row.get("agent").and_then(Value::as_i64)?;
    if !configured {
        return None;
    }
    let name = match usize::try_from(code).ok().and_then(|c| AGENTS.get(c)) {
        Some(n) => (*n).to_owned(),
        None => {
            warnings.push(format!(
                "unknown upstream notification agent code {code}: named by its code"
            ));
            format!("agent {code}")
        }
    };
    Some(
        json!({"id": code.to_string(), "name": name, "value": true, "category": "notification_agent"}),
    )
}

#[cfg(test)]
mod tests;
