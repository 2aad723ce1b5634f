use super::*;
use crate::config::{Overrides, RawSettings};

fn settings(pairs: &[(&str, &str)]) -> Settings {
    let raw = RawSettings::from_env(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    Settings::validate(&raw, &Overrides::default()).unwrap()
}

fn both() -> Settings {
    settings(&[
        ("OMBI_URL", "http://127.0.0.1:5000/ombi"),
        ("OMBI_API_KEY", "ombi-secret"),
        ("OMBI_USER", "alice"),
        ("MOVIEPILOT_URL", "https://MP.example/api/v1/mcp"),
        ("MOVIEPILOT_API_KEY", "mp-secret"),
        ("MEDIA_MCP_ALLOW_WRITES", "1"),
    ])
}

fn uri(s: &str) -> Uri {
    s.parse().unwrap()
}

#[test]
fn allowed_origins_are_scheme_host_port() {
    assert_eq!(
        Policy::from_settings(&both()).allowed_origins(),
        ["http://127.0.0.1:5000", "https://mp.example:443"]
    );
}

#[test]
fn another_port_on_the_same_loopback_host_is_refused() {
    let p = Policy::from_settings(&both());
    let e = p
        .authorize(&uri("http://127.0.0.1:5001/ombi/api/v1/Status"))
        .unwrap_err();
    assert_eq!(
        e,
        PolicyError::OriginNotAllowed {
            origin: "http://127.0.0.1:5001".into()
        }
    );
}

#[test]
fn other_scheme_or_host_is_refused() {
    let p = Policy::from_settings(&both());
    assert!(
        p.authorize(&uri("https://127.0.0.1:5000/ombi/api"))
            .is_err()
    );
    assert!(p.authorize(&uri("http://localhost:5000/ombi/api")).is_err());
    assert!(p.authorize(&uri("http://mp.example/api/v1/mcp")).is_err());
    assert_eq!(
        p.authorize(&uri("/relative")).unwrap_err(),
        PolicyError::NoOrigin
    );
}

#[test]
fn default_ports_and_host_case_match() {
    let p = Policy::from_settings(&both());
    assert!(p.authorize(&uri("https://mp.EXAMPLE/api/v1/mcp")).is_ok());
    assert!(
        p.authorize(&uri("https://mp.example:443/api/v1/mcp"))
            .is_ok()
    );
}

#[test]
fn injects_each_upstreams_own_header_replacing_guest_values() {
    let p = Policy::from_settings(&both());
    let mut headers = HeaderMap::new();
    headers.insert("apikey", HeaderValue::from_static("guest-made-this-up"));
    p.apply(
        &uri("http://127.0.0.1:5000/ombi/api/v1/Search/movie/x"),
        &mut headers,
    )
    .unwrap();
    assert_eq!(
        headers.get_all("ApiKey").iter().collect::<Vec<_>>(),
        ["ombi-secret"]
    );
    assert!(headers.get("x-api-key").is_none());

    let mut headers = HeaderMap::new();
    p.apply(&uri("https://mp.example/api/v1/mcp"), &mut headers)
        .unwrap();
    assert_eq!(headers.get("X-API-KEY").unwrap(), "mp-secret");
    assert!(headers.get("apikey").is_none());
}

#[test]
fn configured_keys_are_redacted_from_results_in_strings_and_keys() {
    let p = Policy::from_settings(&both());
    let mut v = serde_json::json!({"a": ["x ombi-secret y", 1], "ombi-secret": {"b": "mp-secret"}, "c": "clean"});
    assert!(p.redact_secrets(&mut v));
    assert_eq!(
        v,
        serde_json::json!({"a": ["x [redacted] y", 1], "[redacted]": {"b": "[redacted]"}, "c": "clean"})
    );
    assert!(!p.redact_secrets(&mut v));
    assert!(!format!("{p:?}").contains("ombi-secret"));
}

/// `text` after redaction with [`both`]'s keys (`ombi-secret`, `mp-secret`).
fn redacted(text: &str) -> String {
    let mut v = serde_json::json!({ text: text });
    Policy::from_settings(&both()).redact_secrets(&mut v);
    let (key, value) = v.as_object().unwrap().iter().next().unwrap();
    assert_eq!(key, value, "object keys are redacted like strings");
    value.as_str().unwrap().to_owned()
}

#[test]
fn keys_are_redacted_in_any_case() {
    // Ombi compares keys without regard to case, so each of these is a working key.
    for text in [
        "OMBI-SECRET",
        "Ombi-Secret",
        "x oMbI-sEcReT y",
        "MP-SECRET.",
    ] {
        let clean = redacted(text);
        assert!(clean.contains(REDACTED), "{text:?} -> {clean:?}");
        assert!(
            !clean.to_lowercase().contains("secret"),
            "{text:?} -> {clean:?}"
        );
    }
    // Letters whose case folds to ASCII (U+017F long s, U+212A Kelvin sign) read as the key.
    assert_eq!(redacted("ombi-\u{17f}ecret"), REDACTED);
    assert_eq!(redacted("m\u{212a}"), "m\u{212a}", "no key, no change");
}

#[test]
fn keys_split_by_invisible_characters_or_line_breaks_are_redacted_whole() {
    for split in [
        "\u{200b}",
        "\u{202e}",
        "\u{2066}",
        "\u{feff}",
        "\u{ad}",
        "\u{2060}",
        "\u{180e}",
        "\u{34f}",
        "\u{fe0f}",
        "\u{e0041}",
        "\u{2028}",
        "\n",
        "\r\n",
        "\t",
        "\u{0}",
        "\u{200b}\n\u{202e}",
    ] {
        let text = format!("before om{split}bi-SEC{split}ret after");
        assert_eq!(
            redacted(&text),
            format!("before {REDACTED} after"),
            "{split:?}"
        );
    }
    // Invisible characters outside the key stay, and so does text without a key.
    assert_eq!(
        redacted("\u{202e}x\u{200b}ombi-secret\u{200b}y"),
        format!("\u{202e}x\u{200b}{REDACTED}\u{200b}y")
    );
    let innocent = "caf\u{e9} \u{202e}ombi-secre\u{200b} mp-secre";
    assert_eq!(redacted(innocent), innocent);
    // A key split by white space is still the key.
    assert_eq!(redacted("mp-secre t"), REDACTED);
}

#[test]
fn repeated_and_overlapping_keys_are_all_redacted() {
    assert_eq!(
        redacted("ombi-secretOMBI-SECRETx"),
        format!("{REDACTED}{REDACTED}x")
    );
    let s = settings(&[
        ("OMBI_URL", "http://127.0.0.1:5000"),
        ("OMBI_API_KEY", "abcdefgh-1234"),
        ("MOVIEPILOT_URL", "http://127.0.0.1:5001"),
        ("MOVIEPILOT_API_KEY", "1234-wxyz0000"),
    ]);
    let mut v = serde_json::json!(["abcdefgh-1234-wxyz0000!", "aaabcdefgh-1234"]);
    assert!(Policy::from_settings(&s).redact_secrets(&mut v));
    assert_eq!(
        v,
        serde_json::json!([format!("{REDACTED}!"), format!("aa{REDACTED}")])
    );
}

#[test]
fn injected_values_are_sensitive_and_credentials_debug_is_redacted() {
    let p = Policy::from_settings(&both());
    let mut headers = HeaderMap::new();
    p.apply(&uri("http://127.0.0.1:5000/ombi/api"), &mut headers)
        .unwrap();
    assert!(headers.get("apikey").unwrap().is_sensitive());
    assert!(!format!("{p:?}").contains("secret"));
}

#[test]
fn ombi_health_is_sent_without_the_key() {
    let p = Policy::from_settings(&both());
    for path in ["/ombi/health", "/ombi/HEALTH"] {
        let mut headers = HeaderMap::new();
        p.apply(&uri(&format!("http://127.0.0.1:5000{path}")), &mut headers)
            .unwrap();
        assert!(headers.get("apikey").is_none(), "{path}");
    }
    // Only the health route itself: other paths under it and /health outside the base
    // path still carry the key.
    for path in ["/ombi/health/x", "/ombi/api/v1/health", "/health"] {
        let mut headers = HeaderMap::new();
        p.apply(&uri(&format!("http://127.0.0.1:5000{path}")), &mut headers)
            .unwrap();
        assert_eq!(headers.get("apikey").unwrap(), "ombi-secret", "{path}");
    }
}

#[test]
fn shared_origin_picks_the_longest_matching_base_path() {
    let s = settings(&[
        ("OMBI_URL", "http://h:80/ombi"),
        ("OMBI_API_KEY", "ombi-key"),
        ("MOVIEPILOT_URL", "http://h/mp"),
        ("MOVIEPILOT_API_KEY", "mp-key-1"),
    ]);
    let p = Policy::from_settings(&s);
    let name = |u: &str| {
        p.authorize(&uri(u))
            .unwrap()
            .unwrap()
            .name
            .as_str()
            .to_owned()
    };
    assert_eq!(name("http://h/OMBI/api/v1/x"), "apikey");
    assert_eq!(name("http://h/mp/api"), "x-api-key");
    assert_eq!(
        name("http://h/mpx"),
        "apikey",
        "no prefix match falls back to the first upstream"
    );
}

#[test]
fn pass_key_mode_injects_nothing_but_still_enforces_origins() {
    let mut s = both();
    s.pass_key_to_guest = true;
    let p = Policy::from_settings(&s);
    assert!(
        p.authorize(&uri("http://127.0.0.1:5000/ombi/api"))
            .unwrap()
            .is_none()
    );
    assert!(p.authorize(&uri("http://127.0.0.1:1/")).is_err());
}

#[test]
fn nothing_configured_refuses_everything() {
    assert!(
        Policy::from_settings(&settings(&[]))
            .authorize(&uri("http://127.0.0.1/"))
            .is_err()
    );
}

#[test]
fn timeouts_are_capped_and_smaller_guest_values_kept() {
    let o = cap_request_options(None, MAX_FIRST_BYTE_TIMEOUT);
    assert_eq!(o.connect_timeout, Some(MAX_CONNECT_TIMEOUT));
    assert_eq!(o.first_byte_timeout, Some(MAX_FIRST_BYTE_TIMEOUT));
    assert_eq!(o.between_bytes_timeout, Some(MAX_BETWEEN_BYTES_TIMEOUT));
    let o = cap_request_options(
        Some(RequestOptions {
            connect_timeout: Some(Duration::from_secs(1)),
            first_byte_timeout: Some(Duration::from_secs(600)),
            between_bytes_timeout: None,
        }),
        MAX_FIRST_BYTE_TIMEOUT,
    );
    assert_eq!(o.connect_timeout, Some(Duration::from_secs(1)));
    assert_eq!(o.first_byte_timeout, Some(MAX_FIRST_BYTE_TIMEOUT));
    assert_eq!(o.between_bytes_timeout, Some(MAX_BETWEEN_BYTES_TIMEOUT));
}

#[test]
fn moviepilot_may_take_longer_to_answer_than_ombi() {
    let p = Policy::from_settings(&both());
    let ombi = uri("http://127.0.0.1:5000/ombi/api/v1/Status");
    let mp = uri("https://mp.example/api/v1/mcp");
    assert_eq!(p.first_byte_cap(&ombi), MAX_FIRST_BYTE_TIMEOUT);
    assert_eq!(p.first_byte_cap(&mp), Duration::from_secs(330));
    let o = cap_request_options(None, p.first_byte_cap(&mp));
    assert_eq!(o.first_byte_timeout, Some(Duration::from_secs(330)));
    let elsewhere = uri("https://other.example/");
    assert_eq!(p.first_byte_cap(&elsewhere), MAX_FIRST_BYTE_TIMEOUT);
}

#[test]
fn guest_env_has_urls_user_and_policy_vars_but_no_keys() {
    let env = guest_env(&both());
    let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "OMBI_URL",
            "OMBI_USER",
            "MOVIEPILOT_URL",
            "MEDIA_MCP_ALLOW_WRITES"
        ]
    );
    assert_eq!(env[0].1, "http://127.0.0.1:5000/ombi");
    assert!(env.iter().all(|(_, v)| !v.contains("secret")));
}

#[test]
fn guest_env_has_keys_in_pass_key_mode() {
    let mut s = both();
    s.pass_key_to_guest = true;
    let env = guest_env(&s);
    assert!(env.contains(&("OMBI_API_KEY".into(), "ombi-secret".into())));
    assert!(env.contains(&("MOVIEPILOT_API_KEY".into(), "mp-secret".into())));
}

#[test]
fn moviepilot_first_byte_cap_outlasts_the_longest_configured_deadline() {
    let mp = uri("https://mp.example/api/v1/mcp");
    let with = |extra: &[(&str, &str)]| {
        let mut pairs = vec![
            ("MOVIEPILOT_URL", "https://mp.example/api/v1/mcp"),
            ("MOVIEPILOT_API_KEY", "mp-secret"),
        ];
        pairs.extend_from_slice(extra);
        let s = settings(&pairs);
        (
            Policy::from_settings(&s).first_byte_cap(&mp),
            s.call_timeout,
        )
    };
    // A per-tool deadline past the default cap raises the cap; it stays below the call's limit.
    for extra in [
        [("MEDIA_MCP_MOVIEPILOT_DEADLINES", "media.search=450000")],
        [("MEDIA_MCP_CALL_DEADLINE_MS", "450000")],
    ] {
        let (cap, call) = with(&extra);
        assert!(cap > Duration::from_secs(450), "{extra:?}: {cap:?}");
        assert!(cap < call, "{extra:?}: {cap:?} vs {call:?}");
    }
    // An explicit call limit just above the deadline still leaves the deadline room.
    let (cap, call) = with(&[
        ("MEDIA_MCP_MOVIEPILOT_DEADLINES", "media.search=450000"),
        ("MEDIA_MCP_CALL_TIMEOUT_SECS", "460"),
    ]);
    assert!(cap > Duration::from_secs(450) && cap < call, "{cap:?}");
    // The defaults keep the documented cap.
    assert_eq!(with(&[]).0, Duration::from_secs(330));
}

#[test]
fn each_upstream_of_the_table_gets_its_own_key_header_on_its_own_origin() {
    use media_mcp_wire::upstreams::{REQUEST_SERVERS, UPSTREAMS};
    // One request server per deployment: each with every other upstream.
    for server in REQUEST_SERVERS {
        let mut pairs = Vec::new();
        let mut cases = Vec::new();
        for (n, spec) in UPSTREAMS.iter().enumerate() {
            if REQUEST_SERVERS.contains(spec) && spec != server {
                continue;
            }
            let origin = format!("http://127.0.0.1:{}", 6000 + n);
            let key = format!("key-of-upstream-{n}");
            pairs.push((spec.url.name, format!("{origin}/base")));
            pairs.push((spec.api_key.name, key.clone()));
            cases.push((spec, origin, key));
        }
        the_keys_go_to_their_origins(&pairs, &cases);
    }
}

fn the_keys_go_to_their_origins(
    pairs: &[(&str, String)],
    cases: &[(&media_mcp_wire::upstreams::Upstream, String, String)],
) {
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let p = Policy::from_settings(&settings(&pairs));
    for (spec, origin, key) in cases {
        let mut headers = HeaderMap::new();
        p.apply(&uri(&format!("{origin}/base/api/x")), &mut headers)
            .unwrap();
        assert_eq!(headers.len(), 1, "{}", spec.name);
        assert_eq!(headers.get(spec.key_header).unwrap(), key.as_str());
        for path in spec.keyless_paths {
            let mut headers = HeaderMap::new();
            p.apply(&uri(&format!("{origin}/base{path}")), &mut headers)
                .unwrap();
            assert!(headers.is_empty(), "{}{path}", spec.name);
        }
    }
}
