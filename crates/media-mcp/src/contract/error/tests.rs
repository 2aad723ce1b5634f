use super::*;

#[test]
fn stack_traces_and_connection_strings_are_removed() {
    let raw = "Cannot open database. Server=db;User Id=sa;Password=hunter2;\n   at Ombi.Store.Context.OmbiContext..ctor()\n   at X.Y()";
    let s = sanitize(raw);
    assert!(!s.contains("hunter2"), "{s}");
    assert!(!s.contains("Ombi.Store"), "{s}");
    assert!(s.starts_with("Cannot open database."), "{s}");
}

#[test]
fn html_is_reduced_to_text_and_bounded() {
    let page = format!(
        "<html><body><h1>Oops</h1>{}</body></html>",
        "x ".repeat(400)
    );
    let s = sanitize(&page);
    assert!(!s.contains('<'));
    assert!(s.chars().count() <= MAX_MESSAGE_CHARS + 1);
}

#[test]
fn credential_urls_and_tokens_are_redacted() {
    let s = sanitize(
        "failed to reach http://admin:pw@sonarr:8989/api with key 0123456789abcdef0123456789abcdef",
    );
    assert!(!s.contains("admin:pw"), "{s}");
    assert!(!s.contains("0123456789abcdef0123456789abcdef"), "{s}");
}

#[test]
fn error_json_has_only_contract_fields() {
    let e = ToolError::invalid_argument("query", "must not be empty").with_status(400);
    assert_eq!(
        e.to_json(),
        json!({"code":"INVALID_ARGUMENT","message":"must not be empty","retryable":false,"http_status":400,"field":"query"})
    );
}

#[test]
fn unknown_outcome_keeps_its_advice_whatever_is_quoted_before_it() {
    let long = "x ".repeat(400);
    let trace = "db locked\nTraceback (most recent call last):\n  File \"/app/mcp.py\", line 9\nPassword=hunter2";
    for what in [long.as_str(), trace, "short"] {
        let e = ToolError::unknown_outcome(what);
        assert_eq!(e.code, ErrorCode::UnknownOutcome);
        assert!(!e.retryable);
        assert!(
            e.message.ends_with("check with a read before retrying"),
            "{}",
            e.message
        );
        assert!(
            e.message.chars().count() <= MAX_MESSAGE_CHARS,
            "{}",
            e.message
        );
        assert!(!e.message.contains("hunter2") && !e.message.contains('\n'));
    }
}

#[test]
fn inline_stack_frames_and_internal_type_names_are_dropped() {
    let raw = "System.NullReferenceException: Object reference not set to an instance of an object.    at Ombi.Core.Engine.MovieRequestEngine.RequestMovie(MovieRequestViewModel model) in /src/Ombi.Core/Engine/MovieRequestEngine.cs:line 42    at Ombi.Controllers.V1.RequestController.Request()";
    let s = sanitize(raw);
    assert_eq!(s, "Object reference not set to an instance of an object.");
    let s = sanitize(
        "Request failed ---> Ombi.Api.ApiException: upstream said no ---> System.Net.Http.HttpRequestException: refused",
    );
    assert!(!s.contains("Ombi.Api") && !s.contains("System.Net"), "{s}");
    assert!(s.starts_with("Request failed"), "{s}");
    let s = sanitize(
        r#"download failed Traceback (most recent call last): File "/app/app/chain/download.py", line 12, in download"#,
    );
    assert_eq!(s, "download failed");
    // Ordinary dotted words stay.
    let s = sanitize("Could not reach media.example.com (v4.47.1); check Startup.cs");
    assert_eq!(
        s,
        "Could not reach media.example.com (v4.47.1); check Startup.cs"
    );
}

#[test]
fn connection_string_fragments_are_redacted_in_any_order() {
    for raw in [
        "Cannot connect: Host=db;Port=5432;Username=ombi;Password=hunter2;Database=Ombi",
        "Cannot connect: Password = hunter2; Data Source=/config/Ombi.db; User Id=sa",
        "Cannot connect: Initial Catalog=Ombi;User ID=sa;Pwd=hunter2;Server=tcp:sql,1433",
        "Cannot connect (Database=Ombi; Uid=sa; Pwd=hunter2)",
    ] {
        let s = sanitize(raw);
        for leaked in [
            "hunter2",
            "Ombi.db",
            "5432",
            "sql,1433",
            "Uid=sa",
            "User ID=sa",
        ] {
            assert!(!s.contains(leaked), "{raw} -> {s}");
        }
        assert!(s.starts_with("Cannot connect"), "{s}");
    }
}

#[test]
fn the_codes_are_the_contract_s_in_its_order() {
    let defs: Value =
        serde_json::from_str(include_str!("../defs.json")).expect("defs.json is valid JSON");
    let listed: Vec<&str> = defs["$defs"]["error"]["properties"]["code"]["enum"]
        .as_array()
        .expect("the error code enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let ours: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ours, listed);
}
