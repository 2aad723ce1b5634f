use super::*;

fn headers(version: Option<&str>, method: Option<&str>, name: Option<&str>) -> McpHeaders {
    McpHeaders {
        protocol_version: version.map(|v| v.as_bytes().to_vec()),
        method: method.map(|v| v.as_bytes().to_vec()),
        name: name.map(|v| v.as_bytes().to_vec()),
    }
}

fn modern_meta(version: &str) -> Value {
    json!({"_meta": {meta::PROTOCOL_VERSION: version, meta::CLIENT_CAPABILITIES: {}}})
}

#[test]
fn requests_without_modern_markers_are_legacy() {
    for v in [
        None,
        Some("2025-11-25"),
        Some("2024-11-05"),
        Some("2025-03-26"),
    ] {
        assert_eq!(
            classify("tools/list", None, &headers(v, None, None)),
            Ok(Era::Legacy)
        );
    }
}

#[test]
fn an_unsupported_header_version_is_32022_with_the_supported_list() {
    let r = classify("initialize", None, &headers(Some("1900-01-01"), None, None)).unwrap_err();
    assert_eq!(
        (r.status, r.code),
        (400, code::UNSUPPORTED_PROTOCOL_VERSION)
    );
    let data = r.data.unwrap();
    assert_eq!(data["requested"], "1900-01-01");
    assert_eq!(data["supported"], json!(version::SUPPORTED));
}

#[test]
fn modern_requests_need_meta_and_a_matching_header() {
    let h = headers(Some("2026-07-28"), None, None);
    let p = modern_meta("2026-07-28");
    assert_eq!(classify("tools/list", Some(&p), &h), Ok(Era::Modern));
    for params in [
        json!({}),
        json!({"_meta": {meta::CLIENT_CAPABILITIES: {}}}),
        json!({"_meta": {meta::PROTOCOL_VERSION: "2026-07-28"}}),
    ] {
        let r = classify("server/discover", Some(&params), &h).unwrap_err();
        assert_eq!((r.status, r.code), (400, code::INVALID_PARAMS), "{params}");
    }
    let r = classify("server/discover", None, &headers(None, None, None)).unwrap_err();
    assert_eq!(r.code, code::INVALID_PARAMS);
    let r = classify("tools/list", Some(&p), &headers(None, None, None)).unwrap_err();
    assert_eq!((r.status, r.code), (400, code::HEADER_MISMATCH));
    let other = modern_meta("2099-01-01");
    let r = classify("tools/list", Some(&other), &h).unwrap_err();
    assert_eq!(r.code, code::HEADER_MISMATCH);
    let r = classify(
        "tools/list",
        Some(&other),
        &headers(Some("2099-01-01"), None, None),
    )
    .unwrap_err();
    assert_eq!(r.code, code::UNSUPPORTED_PROTOCOL_VERSION);
}

#[test]
fn method_and_name_headers_must_match_the_body() {
    let call = json!({"name": "read_search"});
    let call = call.as_object().unwrap();
    let ok =
        |m: &str, n: Option<&str>| check_headers("tools/call", call, &headers(None, Some(m), n));
    assert_eq!(ok("tools/call", Some("read_search")), Ok(()));
    assert_eq!(ok(" tools/call ", Some("  read_search ")), Ok(()));
    assert_eq!(
        ok("tools/call", Some("=?base64?cmVhZF9zZWFyY2g=?=")),
        Ok(())
    );
    for (m, n) in [
        ("TOOLS/CALL", Some("read_search")),
        ("tools/call", None),
        ("tools/call", Some("other")),
        ("tools/call", Some("=?base64?!!?=")),
        ("tools/call", Some("read_search\u{e9}")),
    ] {
        assert_eq!(
            ok(m, n).unwrap_err().code,
            code::HEADER_MISMATCH,
            "{m} {n:?}"
        );
    }
    let none = Map::new();
    assert_eq!(
        check_headers("tools/list", &none, &headers(None, None, None))
            .unwrap_err()
            .code,
        code::HEADER_MISMATCH
    );
    assert_eq!(
        check_headers(
            "tools/list",
            &none,
            &headers(None, Some("tools/list"), None)
        ),
        Ok(())
    );
}

#[test]
fn the_sentinel_decodes_utf8_and_leaves_plain_values() {
    assert_eq!(
        decode_sentinel("=?base64?SGVsbG8sIOS4lueVjA==?=").as_deref(),
        Some("Hello, 世界")
    );
    assert_eq!(decode_sentinel("plain").as_deref(), Some("plain"));
    assert_eq!(decode_sentinel("=?base64?/w==?="), None);
}
