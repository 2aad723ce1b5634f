use super::TOOLS;
use serde_json::Value;

#[test]
fn all_seventeen_writes_in_catalogue_order_with_reconcile_reads_and_write_annotations() {
    let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "write_request_create",
            "write_request_approve",
            "write_request_deny",
            "write_request_delete",
            "write_request_availability",
            "write_request_subscription",
            "write_request_reprocess",
            "write_retry_queue_remove",
            "write_issue_create",
            "write_issue_comment",
            "write_issue_status",
            "write_issue_delete",
            "write_vote",
            "write_user_preferences",
            "write_notification_preferences",
            "write_settings_update",
            "write_tester_run",
        ]
    );
    for t in TOOLS {
        assert!(
            t.reconcile_with.is_some_and(|r| r.starts_with("read_")),
            "{}",
            t.name
        );
        assert_eq!(t.families, ["mutation"]);
        let a = t.annotations();
        assert_eq!(
            (
                &a["readOnlyHint"],
                &a["destructiveHint"],
                &a["idempotentHint"]
            ),
            (&Value::Bool(false), &Value::Bool(true), &Value::Bool(false))
        );
        let schema = (t.input_schema)();
        assert_eq!(schema["additionalProperties"], false, "{}", t.name);
        for (name, prop) in schema["properties"].as_object().unwrap() {
            assert!(
                prop.get("description").is_some(),
                "{}.{name} needs a description",
                t.name
            );
        }
    }
}
