//! Seerr v3.1.0 as it really answered: the server run from source on loopback, offline, with
//! a fresh sqlite database and a loopback fake TMDB, driven through the scenarios of
//! `fixtures/seerr/v3.1.0/README.md` and recorded into `exchanges.json`: every exchange
//! (method, path, query, whether the key was sent, `X-API-User`, body, status, answer) in
//! order, plus the query parameters Seerr's OpenAPI file allows per route, by which it
//! validates every request.
//!
//! [`Replay`] answers like that Seerr: the route table and the validation first (404 for an
//! unknown route, 401 without the key, 403 with a wrong one, 400 for an unknown or missing
//! query parameter or a value outside its enum, in Seerr's words), then the recording of the
//! same exchange; one recorded several times answers as recorded, in order, the last one
//! again after that. A replay may start at a scenario ([`Replay::from_scenario`]): then each
//! exchange answers from that scenario on, or as it last did before it.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// The recorded fixture, parsed once.
pub fn fixture() -> &'static Value {
    static FIXTURE: OnceLock<Value> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        serde_json::from_str(include_str!("../../fixtures/seerr/v3.1.0/exchanges.json"))
            .expect("exchanges.json is JSON")
    })
}

/// Every recorded exchange, in recording order.
pub fn exchanges() -> &'static [Value] {
    fixture()["exchanges"]
        .as_array()
        .expect("exchanges is an array")
}

/// How a request authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// The right `X-Api-Key`.
    Key,
    /// An `X-Api-Key` that is not the key.
    Wrong,
    /// No key.
    None,
}

impl Auth {
    fn word(self) -> &'static str {
        match self {
            Auth::Key => "key",
            Auth::Wrong => "wrong",
            Auth::None => "none",
        }
    }
}

/// One request as the replay matches it.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked<'a> {
    /// HTTP method.
    pub method: &'a str,
    /// Below `/api/v1`.
    pub path: &'a str,
    /// Raw query string.
    pub query: &'a str,
    /// How it authenticated.
    pub auth: Auth,
    /// `X-API-User`, as sent.
    pub user: Option<&'a str>,
    /// The JSON body, `None` when there is none.
    pub body: Option<Value>,
}

/// Routes Seerr serves without a key.
const KEYLESS: &[&str] = &["/status", "/settings/public"];

/// The route template (`/request/{requestId}`) of `method path`, from the recorded table.
fn template(method: &str, path: &str) -> Option<(&'static str, &'static Map<String, Value>)> {
    let table = fixture()["query_parameters"].as_object()?;
    let segments: Vec<&str> = path.split('/').collect();
    // A literal segment beats a parameter (`/request/count` before `/request/{requestId}`).
    let mut best: Option<(usize, &'static str, &'static Map<String, Value>)> = None;
    for (key, params) in table {
        let Some((m, t)) = key.split_once(' ') else {
            continue;
        };
        let parts: Vec<&str> = t.split('/').collect();
        if m != method || parts.len() != segments.len() {
            continue;
        }
        let fits = parts
            .iter()
            .zip(&segments)
            .all(|(p, s)| p == s || (p.starts_with('{') && !s.is_empty()));
        if !fits {
            continue;
        }
        let literals = parts.iter().filter(|p| !p.starts_with('{')).count();
        if best.is_none_or(|(n, _, _)| literals > n) {
            best = Some((literals, t, params.as_object()?));
        }
    }
    best.map(|(_, t, p)| (t, p))
}

fn error(status: u16, message: String, errors: Value) -> (u16, Value) {
    (status, json!({"message": message, "errors": errors}))
}

/// Seerr's OpenAPI validation of the query: Seerr's 400 for the first problem, if any.
fn validate_query(query: &str, params: &Map<String, Value>) -> Option<(u16, Value)> {
    let pairs: Vec<(&str, &str)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    for (name, value) in &pairs {
        let Some(rule) = params.get(*name) else {
            let message = format!("Unknown query parameter '{name}'");
            return Some(error(
                400,
                message.clone(),
                json!([{"path": format!(".query.{name}"), "message": message}]),
            ));
        };
        if let Some(allowed) = rule.get("enum").and_then(Value::as_array)
            && !allowed.iter().any(|a| a.as_str() == Some(value))
        {
            let words: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
            let tail = format!(
                "should be equal to one of the allowed values: {}",
                words.join(", ")
            );
            return Some(error(
                400,
                format!("request.query.{name} {tail}"),
                json!([{"path": format!(".query.{name}"), "message": tail, "errorCode": "enum.openapi.validation"}]),
            ));
        }
    }
    for (name, rule) in params {
        if rule.get("required") == Some(&json!(true)) && !pairs.iter().any(|(n, _)| n == name) {
            return Some(error(
                400,
                format!("request.query should have required property '{name}'"),
                json!([{"path": format!(".query.{name}"), "message": format!("should have required property '{name}'"), "errorCode": "required.openapi.validation"}]),
            ));
        }
    }
    None
}

/// Replays the recordings, keeping how often each exchange was asked.
#[derive(Debug, Default)]
pub struct Replay {
    asked: HashMap<String, usize>,
    /// The index of the first exchange of the scenario the replay starts at.
    start: usize,
}

impl Replay {
    /// A replay in the state the recordings were in when `scenario` began.
    ///
    /// # Panics
    ///
    /// No scenario of that name was recorded.
    pub fn from_scenario(scenario: &str) -> Replay {
        let start = exchanges()
            .iter()
            .position(|e| e["scenario"] == scenario)
            .unwrap_or_else(|| panic!("no scenario {scenario:?} was recorded"));
        Replay {
            start,
            ..Replay::default()
        }
    }

    /// Seerr's answer to `asked`: status and JSON body (`None` for an empty body).
    pub fn answer(&mut self, asked: &Asked<'_>) -> (u16, Option<Value>) {
        let full = format!("/api/v1{}", asked.path);
        let Some((_, params)) = template(asked.method, asked.path) else {
            let (s, v) = error(
                404,
                "not found".into(),
                json!([{"path": full, "message": "not found"}]),
            );
            return (s, Some(v));
        };
        let keyless = asked.method == "GET" && KEYLESS.contains(&asked.path);
        match asked.auth {
            Auth::None if !keyless => {
                let message = "cookie 'connect.sid' required".to_owned();
                let (s, v) = error(
                    401,
                    message.clone(),
                    json!([{"path": full, "message": message}]),
                );
                return (s, Some(v));
            }
            Auth::Wrong if !keyless => {
                return (
                    403,
                    Some(
                        json!({"status": 403, "error": "You do not have permission to access this endpoint"}),
                    ),
                );
            }
            _ => {}
        }
        if let Some((s, v)) = validate_query(asked.query, params) {
            return (s, Some(v));
        }
        let key = format!(
            "{} {}?{} {} {:?} {}",
            asked.method,
            asked.path,
            asked.query,
            asked.auth.word(),
            asked.user,
            asked
                .body
                .as_ref()
                .map(Value::to_string)
                .unwrap_or_default()
        );
        let all: Vec<(usize, &Value)> = exchanges()
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e["method"] == asked.method
                    && e["path"] == asked.path
                    && e["query"] == asked.query
                    && (e["auth"] == asked.auth.word() || keyless)
                    && e["user"].as_str() == asked.user
                    && (e["body"].is_null() && asked.body.is_none()
                        || asked.body.as_ref() == Some(&e["body"]))
            })
            .collect();
        let from_start: Vec<&Value> = all
            .iter()
            .filter(|(i, _)| *i >= self.start)
            .map(|(_, e)| *e)
            .collect();
        let matching = if from_start.is_empty() {
            all.iter()
                .rev()
                .find(|(i, _)| *i < self.start)
                .map(|(_, e)| *e)
                .into_iter()
                .collect()
        } else {
            from_start
        };
        let n = self.asked.entry(key).or_insert(0);
        let Some(recorded) = matching.get(*n).or_else(|| matching.last()) else {
            return (
                500,
                Some(
                    json!({"message": format!("the fake Seerr has no recording of {} {}?{} as user {:?}", asked.method, full, asked.query, asked.user)}),
                ),
            );
        };
        *n += 1;
        let status = recorded["status"]
            .as_u64()
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(500);
        let body = Some(recorded["response"].clone()).filter(|v| !v.is_null());
        (status, body)
    }
}
