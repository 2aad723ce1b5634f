use super::*;

fn handle(status: Status) -> Handle<'static> {
    Handle {
        job_id: "0123456789abcdef0123456789abcdef",
        tool: "search_torrents",
        elapsed_ms: 45_210,
        poll_after_ms: 1000,
        wait_ms: 45_000,
        keep_secs: 1800,
        status,
    }
}

#[test]
fn a_handle_is_a_successful_job_envelope_with_advice_in_its_text() {
    let result = handle(Status::Running).result("search_torrents", "c-1");
    assert!(!result.is_error);
    let data = &result.structured["data"];
    assert_eq!(result.structured["ok"], true);
    assert_eq!(result.structured["operation"], "search_torrents");
    assert_eq!(data["kind"], FAMILY);
    assert_eq!(data["status"], "running");
    assert_eq!(data["elapsed_ms"], 45_210);
    assert!(
        result
            .text
            .contains("Call job_status with {\"job_id\": \"0123456789abcdef0123456789abcdef\"}")
    );
    assert!(result.text.ends_with(&result.structured.to_string()));
}

#[test]
fn the_family_and_error_definitions_are_read_from_the_defs_file() {
    assert_eq!(family_schema()["properties"]["kind"]["const"], FAMILY);
    assert_eq!(
        error_schema()["required"],
        json!(["code", "message", "retryable"])
    );
}

#[test]
fn a_schema_admits_a_handle_only_when_it_embeds_the_job_family() {
    assert!(admits_handle(&json!({"$defs": {"job": {}, "error": {}}})));
    assert!(!admits_handle(&json!({"$defs": {"error": {}}})));
    assert!(!admits_handle(&json!({})));
}

#[test]
fn not_found_reads_the_same_for_every_reason_and_names_the_keep_time() {
    let result = not_found(STATUS_TOOL, "c", 1800, false);
    assert!(result.is_error);
    assert_eq!(result.structured["error"]["code"], "NOT_FOUND");
    let message = result.structured["error"]["message"].as_str().unwrap();
    assert!(message.contains("1800 s"), "{message}");
    assert!(message.contains("outcome is unknown"), "{message}");
    assert!(!message.contains("replica"));
    let behind = not_found(STATUS_TOOL, "c", 1800, true);
    assert!(
        behind.structured["error"]["message"]
            .as_str()
            .unwrap()
            .contains("another replica")
    );
}

#[test]
fn a_cancelled_write_is_an_unknown_outcome_and_a_cancelled_read_says_so() {
    let write = cancelled("write_x", "c", true, 5000);
    assert_eq!(write.structured["error"]["code"], "UNKNOWN_OUTCOME");
    assert_eq!(write.structured["error"]["retryable"], false);
    let read = cancelled("search", "c", false, 5000);
    assert_eq!(read.structured["error"]["code"], "TIMEOUT");
    assert_eq!(read.structured["error"]["retryable"], true);
    assert!(
        read.structured["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cancelled")
    );
}

#[test]
fn rate_limited_names_the_setting_and_is_retryable() {
    let result = rate_limited("search", "c", "MEDIA_MCP_JOB_MAX_PER_USER", 4);
    assert_eq!(result.structured["error"]["code"], "RATE_LIMITED");
    assert_eq!(result.structured["error"]["retryable"], true);
    assert!(
        result.structured["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MEDIA_MCP_JOB_MAX_PER_USER")
    );
}

#[test]
fn job_arguments_are_checked_field_by_field() {
    let args = |v: Value| v.as_object().cloned();
    assert_eq!(
        arguments(
            STATUS_TOOL,
            args(json!({"job_id": "abc", "wait_ms": 10})).as_ref(),
            100
        ),
        Ok(JobArguments {
            job_id: "abc".into(),
            wait_ms: Some(10)
        })
    );
    assert_eq!(arguments(STATUS_TOOL, None, 100).unwrap_err().0, "job_id");
    assert_eq!(
        arguments(STATUS_TOOL, args(json!({"job_id": 7})).as_ref(), 100)
            .unwrap_err()
            .0,
        "job_id"
    );
    assert_eq!(
        arguments(
            STATUS_TOOL,
            args(json!({"job_id": "a", "wait_ms": 101})).as_ref(),
            100
        )
        .unwrap_err()
        .0,
        "wait_ms"
    );
    assert_eq!(
        arguments(
            CANCEL_TOOL,
            args(json!({"job_id": "a", "wait_ms": 1})).as_ref(),
            100
        )
        .unwrap_err()
        .0,
        "wait_ms"
    );
    let long = "x".repeat(MAX_ID_CHARS + 1);
    assert_eq!(
        arguments(CANCEL_TOOL, args(json!({"job_id": long})).as_ref(), 100)
            .unwrap_err()
            .0,
        "job_id"
    );
}

#[test]
fn the_job_tools_are_a_read_and_a_destructive_write_with_closed_inputs() {
    let records = tool_records(45_000, 1800);
    let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, [STATUS_TOOL, CANCEL_TOOL]);
    for record in &records {
        let input: Value = serde_json::from_str(&record.input_schema).unwrap();
        assert_eq!(input["required"], json!(["job_id"]));
        assert_eq!(input["additionalProperties"], false);
        let output: Value = serde_json::from_str(&record.output_schema).unwrap();
        assert!(output["$defs"]["error"].is_object());
    }
    let status: Value = serde_json::from_str(&records[0].annotations).unwrap();
    assert_eq!(status["readOnlyHint"], true);
    let cancel: Value = serde_json::from_str(&records[1].annotations).unwrap();
    assert_eq!(cancel["destructiveHint"], true);
    let input: Value = serde_json::from_str(&records[0].input_schema).unwrap();
    assert_eq!(input["properties"]["wait_ms"]["maximum"], 45_000);
}
