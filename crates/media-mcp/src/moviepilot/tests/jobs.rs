//! The job family in the bridged tools' output schemas agrees with the handles a host writes.

use media_mcp_wire::job;
use serde_json::Value;

use crate::contract::compose::shared_defs;
use crate::moviepilot::republish;

fn handle() -> Value {
    job::Handle {
        job_id: "0123456789abcdef0123456789abcdef",
        tool: "search_torrents",
        elapsed_ms: 45_001,
        poll_after_ms: 1000,
        wait_ms: 45_000,
        keep_secs: 1800,
        status: job::Status::Running,
    }
    .result("search_torrents", "c-1")
    .structured
}

#[test]
fn a_bridged_tools_schema_admits_the_handle_a_host_writes() {
    let schema = republish::output_schema("search_torrents");
    assert!(job::admits_handle(&schema));
    let validator = jsonschema::validator_for(&schema).unwrap();
    validator.validate(&handle()).unwrap();
    let cancelled = job::cancelled("search_torrents", "c-1", false, 1000).structured;
    validator.validate(&cancelled).unwrap();
}

#[test]
fn the_backends_own_tools_and_ombis_never_admit_a_handle() {
    for schema in [
        republish::own_output_schema("moviepilot_status"),
        crate::contract::compose_output_schema("read_search", &["media_page"]),
    ] {
        assert!(!job::admits_handle(&schema));
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.validate(&handle()).is_err());
    }
}

#[test]
fn the_job_tools_embed_the_contracts_own_error_definition() {
    assert_eq!(job::error_schema(), shared_defs()["error"]);
    for record in job::tool_records(45_000, 1800) {
        let schema: Value = serde_json::from_str(&record.output_schema).unwrap();
        assert_eq!(schema["$defs"]["error"], shared_defs()["error"]);
        jsonschema::validator_for(&schema).unwrap();
    }
}

#[test]
fn job_status_and_job_cancel_results_validate_against_their_own_schemas() {
    let records = job::tool_records(45_000, 1800);
    let schema = |i: usize| {
        let value: Value = serde_json::from_str(&records[i].output_schema).unwrap();
        jsonschema::validator_for(&value).unwrap()
    };
    let running = job::Handle {
        job_id: "0123456789abcdef0123456789abcdef",
        tool: "search_torrents",
        elapsed_ms: 1,
        poll_after_ms: 2,
        wait_ms: 45_000,
        keep_secs: 1800,
        status: job::Status::Running,
    };
    schema(0)
        .validate(&running.result(job::STATUS_TOOL, "c").structured)
        .unwrap();
    schema(0)
        .validate(&job::not_found(job::STATUS_TOOL, "c", 1800, true).structured)
        .unwrap();
    schema(0)
        .validate(&job::invalid_argument(job::STATUS_TOOL, "c", "job_id", "is required").structured)
        .unwrap();
    let stopped = job::Handle {
        status: job::Status::Cancelled,
        ..running
    };
    schema(1)
        .validate(&stopped.result(job::CANCEL_TOOL, "c").structured)
        .unwrap();
    schema(1)
        .validate(&job::not_found(job::CANCEL_TOOL, "c", 1800, false).structured)
        .unwrap();
}
