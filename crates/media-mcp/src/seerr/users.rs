//! `read_users` → `user_page`: `GET /user` (paged by Seerr), `GET /user/{id}`, `GET /auth/me`.
//! Ombi's input schema; Seerr has no "online" list and no per-user notification agents to read
//! here, so those views are refused. Records carry ids and names, never e-mail addresses.

use super::client::Seerr;
use super::project;
use super::tool::{SeerrTool, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_users",
    "Read users",
    "Read Seerr users (id, user name, display name): the list or a directory of names (needs Seerr's permission to manage users), the acting user, or one user by Seerr user id.",
    // Ombi's families: its notification_preferences view (reference_page) is refused by Seerr.
    &["user_page", "reference_page"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "limit": paging::limit_schema_described("Most records to return (1-100)."),
            "offset": paging::offset_schema_described("Records to skip."),
            "user_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$", "description": "Seerr user id (detail)."},
            "view": {"enum": ["list", "directory", "current", "detail", "online", "notification_preferences"],
                     "description": "list and directory: all users with ids and names; current: the acting user; detail: one user; online and notification_preferences: not supported by Seerr."}
        },
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"view": {"const": "detail"}}}, "then": {"required": ["user_id"]}},
            {"if": {"properties": {"view": {"enum": ["list", "directory", "current", "online"]}}}, "then": {"properties": {"user_id": {"not": {}}}}}
        ]
    })
}

fn one(user: &Value) -> Result<Reply, ToolError> {
    let record =
        project::user(user).ok_or_else(|| ToolError::schema_mismatch("Seerr's user has no id"))?;
    Ok(Reply::ok(
        json!({"kind": "user_page", "items": [record], "page": paging::single(1, "users")}),
    ))
}

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    match args.str("view")? {
        "list" | "directory" => list(seerr, args),
        "current" => one(&seerr.get("/auth/me")?),
        "detail" => {
            let id = args.str("user_id")?;
            if !(id.len() <= 9 && id.bytes().all(|b| b.is_ascii_digit())) {
                return Err(ToolError::invalid_argument(
                    "user_id",
                    "a Seerr user id is a number (see view list)",
                ));
            }
            one(&seerr.get(&format!("/user/{id}"))?)
        }
        view => Err(unsupported(
            "view",
            &format!("Seerr has no {view} view of users"),
        )),
    }
}

fn list(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let window = args.window()?;
    let list = seerr.page(
        &format!(
            "/user?take={}&skip={}&sort=created",
            window.limit, window.offset
        ),
        "users",
    )?;
    let items: Vec<Value> = list.rows.iter().filter_map(project::user).collect();
    let page = list.paging(window, items.len(), "users");
    Ok(
        Reply::ok(json!({"kind": "user_page", "items": items, "page": page}))
            .warn(paging::NO_SNAPSHOT_WARNING),
    )
}
