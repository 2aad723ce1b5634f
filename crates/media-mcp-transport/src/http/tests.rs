use super::*;
use crate::auth::{AuthMode, TokenTable};

const TOKEN: &str = "alice-token-0123456789";

fn settings() -> Settings {
    Settings {
        path: "/mcp".into(),
        auth: AuthMode::Tokens(TokenTable::parse(&format!("alice={TOKEN}")).unwrap()),
        user_header: None,
        allowed_origins: vec!["https://chat.example.com".into()],
        secrets: Vec::new(),
    }
}

fn headers(extra: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    let mut h: Vec<(String, Vec<u8>)> = vec![
        ("authorization".into(), format!("Bearer {TOKEN}").into()),
        ("content-type".into(), b"application/json".to_vec()),
        (
            "accept".into(),
            b"application/json, text/event-stream".to_vec(),
        ),
    ];
    for (k, v) in extra {
        h.retain(|(n, _)| n != k);
        if !v.is_empty() {
            h.push(((*k).into(), v.as_bytes().to_vec()));
        }
    }
    h
}

fn admit_with(method: &str, path: &str, extra: &[(&str, &str)]) -> Result<Admitted, Response> {
    let h = headers(extra);
    admit(
        &settings(),
        &Head {
            method,
            path_with_query: path,
            headers: &h,
        },
    )
}

fn status(r: Result<Admitted, Response>) -> u16 {
    match r {
        Ok(_) => 200,
        Err(r) => r.status,
    }
}

fn header<'r>(r: &'r Response, name: &str) -> Option<&'r str> {
    r.headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn a_well_formed_post_is_admitted_as_its_user() {
    let a = admit_with("POST", "/mcp?x=1", &[]).unwrap();
    assert_eq!(a.identity, Identity::User("alice".into()));
    assert_eq!(a.format, ReplyFormat::Json);
    assert_eq!(a.body_cap, MAX_BODY_BYTES);
}

#[test]
fn other_paths_are_404() {
    assert_eq!(status(admit_with("POST", "/", &[])), 404);
    assert_eq!(status(admit_with("POST", "/mcp/", &[])), 404);
}

#[test]
fn get_and_delete_are_405_with_allow_post() {
    for method in ["GET", "DELETE", "PUT"] {
        let r = admit_with(method, "/mcp", &[]).unwrap_err();
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(header(&r, "allow"), Some("POST"));
    }
}

#[test]
fn missing_or_wrong_token_is_401_with_www_authenticate() {
    for value in ["", "Bearer nope-nope-nope-nope", TOKEN] {
        let r = admit_with("POST", "/mcp", &[("authorization", value)]).unwrap_err();
        assert_eq!(r.status, 401);
        assert!(
            header(&r, "www-authenticate")
                .unwrap()
                .starts_with("Bearer")
        );
        let body = String::from_utf8(r.body).unwrap();
        assert!(!body.contains(TOKEN), "{body}");
    }
}

#[test]
fn origins_loopback_and_configured_pass_others_are_403() {
    for ok in [
        "http://localhost:6274",
        "http://127.0.0.1",
        "https://[::1]:8443",
        "https://Chat.Example.com",
    ] {
        assert_eq!(
            status(admit_with("POST", "/mcp", &[("origin", ok)])),
            200,
            "{ok}"
        );
    }
    for bad in [
        "https://evil.example",
        "http://localhost.evil.example",
        "null",
        "https://chat.example.com:444",
        "file://localhost",
    ] {
        assert_eq!(
            status(admit_with("POST", "/mcp", &[("origin", bad)])),
            403,
            "{bad}"
        );
    }
}

#[test]
fn origin_is_checked_before_authentication() {
    let r = admit_with(
        "POST",
        "/mcp",
        &[("origin", "https://evil.example"), ("authorization", "")],
    );
    assert_eq!(status(r), 403);
}

#[test]
fn content_type_must_be_json() {
    assert_eq!(
        status(admit_with("POST", "/mcp", &[("content-type", "")])),
        415
    );
    assert_eq!(
        status(admit_with(
            "POST",
            "/mcp",
            &[("content-type", "text/plain")]
        )),
        415
    );
    assert_eq!(
        status(admit_with(
            "POST",
            "/mcp",
            &[("content-type", "Application/JSON; charset=utf-8")]
        )),
        200
    );
}

#[test]
fn accept_picks_json_or_event_stream_or_406() {
    let format = |accept: &str| admit_with("POST", "/mcp", &[("accept", accept)]);
    assert_eq!(format("").unwrap().format, ReplyFormat::Json);
    assert_eq!(format("*/*").unwrap().format, ReplyFormat::Json);
    assert_eq!(format("application/*").unwrap().format, ReplyFormat::Json);
    assert_eq!(
        format("text/event-stream").unwrap().format,
        ReplyFormat::EventStream
    );
    assert_eq!(
        format("application/json;q=0, text/event-stream")
            .unwrap()
            .format,
        ReplyFormat::EventStream
    );
    for bad in [
        "text/html",
        "application/xml, text/plain",
        "application/json;q=0",
    ] {
        assert_eq!(status(format(bad)), 406, "{bad}");
    }
}

#[test]
fn the_protocol_version_is_left_to_the_body_and_mcp_headers_are_kept() {
    let a = admit_with(
        "POST",
        "/mcp",
        &[
            ("mcp-protocol-version", "1900-01-01"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "read_search"),
        ],
    )
    .unwrap();
    assert_eq!(a.mcp.protocol_version.as_deref(), Some(&b"1900-01-01"[..]));
    assert_eq!(a.mcp.method.as_deref(), Some(&b"tools/call"[..]));
    assert_eq!(a.mcp.name.as_deref(), Some(&b"read_search"[..]));
    assert!(a.event_stream);
    let json_only = admit_with("POST", "/mcp", &[("accept", "application/json")]).unwrap();
    assert!(!json_only.event_stream);
}

#[test]
fn modern_refusals_use_no_legacy_code() {
    let code = |version: &str| {
        let r = admit_with(
            "POST",
            "/mcp",
            &[
                ("mcp-protocol-version", version),
                ("content-type", "text/plain"),
            ],
        )
        .unwrap_err();
        assert_eq!(r.status, 415);
        serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["error"]["code"].clone()
    };
    assert_eq!(code("2025-11-25"), TRANSPORT_ERROR);
    assert_eq!(code("2026-07-28"), code::INVALID_REQUEST);
}

#[test]
fn declared_oversized_bodies_are_413() {
    let over = (MAX_BODY_BYTES + 1).to_string();
    assert_eq!(
        status(admit_with("POST", "/mcp", &[("content-length", &over)])),
        413
    );
    assert_eq!(
        status(admit_with(
            "POST",
            "/mcp",
            &[("content-length", "nonsense")]
        )),
        413
    );
    let at = MAX_BODY_BYTES.to_string();
    assert_eq!(
        status(admit_with("POST", "/mcp", &[("content-length", &at)])),
        200
    );
}

#[test]
fn refusals_are_json_rpc_errors_without_id() {
    let r = admit_with("GET", "/mcp", &[]).unwrap_err();
    let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], serde_json::Value::Null);
    assert_eq!(body["error"]["code"], TRANSPORT_ERROR);
    assert_eq!(header(&r, "content-type"), Some("application/json"));
}

#[test]
fn a_preflight_from_an_allowed_origin_gets_what_an_mcp_client_needs() {
    let r = admit_with("OPTIONS", "/mcp", &[("origin", "https://chat.example.com")]).unwrap_err();
    assert_eq!(r.status, 204);
    assert!(r.body.is_empty());
    assert_eq!(
        header(&r, "access-control-allow-origin"),
        Some("https://chat.example.com")
    );
    assert_eq!(header(&r, "access-control-allow-methods"), Some("POST"));
    let allowed: Vec<String> = header(&r, "access-control-allow-headers")
        .unwrap()
        .split(',')
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    assert_eq!(
        allowed,
        [
            "authorization",
            "content-type",
            "mcp-protocol-version",
            "mcp-session-id",
            "last-event-id",
            "mcp-method",
            "mcp-name"
        ]
    );
    // Without credentials: a preflight never carries them.
    let r = admit_with(
        "OPTIONS",
        "/mcp",
        &[("origin", "http://localhost:6274"), ("authorization", "")],
    )
    .unwrap_err();
    assert_eq!(r.status, 204);
    // A foreign origin is refused before; OPTIONS without Origin is no preflight.
    let r = admit_with("OPTIONS", "/mcp", &[("origin", "https://evil.example")]);
    assert_eq!(status(r), 403);
    assert_eq!(status(admit_with("OPTIONS", "/mcp", &[])), 405);
}

#[test]
fn answers_to_an_allowed_origin_name_it_and_expose_the_mcp_headers() {
    let h = headers(&[("origin", "https://chat.example.com")]);
    let head = Head {
        method: "POST",
        path_with_query: "/mcp",
        headers: &h,
    };
    let cors = cors_headers(&settings(), &head);
    let get = |name: &str| {
        cors.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(
        get("access-control-allow-origin"),
        Some("https://chat.example.com")
    );
    assert_eq!(
        get("access-control-expose-headers"),
        Some("WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version")
    );
    let h = headers(&[("origin", "https://evil.example")]);
    let head = Head {
        headers: &h,
        ..head
    };
    assert!(cors_headers(&settings(), &head).is_empty());
}

#[test]
fn two_authorization_headers_are_400() {
    let mut h = headers(&[]);
    h.push((
        "authorization".into(),
        b"Bearer other-token-0123456789".to_vec(),
    ));
    let r = admit(
        &settings(),
        &Head {
            method: "POST",
            path_with_query: "/mcp",
            headers: &h,
        },
    )
    .unwrap_err();
    assert_eq!(r.status, 400);
}
