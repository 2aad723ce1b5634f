use super::*;

fn spec(name: &str) -> ListedTool {
    ListedTool {
        name: name.into(),
        title: "Search".into(),
        description: "Find media".into(),
        input_schema: r#"{"type":"object","properties":{"query":{"type":"string"}}}"#.into(),
        output_schema: r#"{"type":"object"}"#.into(),
        annotations: r#"{"readOnlyHint":true,"openWorldHint":true}"#.into(),
    }
}

#[test]
fn catalogue_converts_wit_tools_to_mcp_tools() {
    let c = Catalogue::from_specs(vec![spec("read_search")]).unwrap();
    let json = serde_json::to_value(c.get("read_search").unwrap()).unwrap();
    assert_eq!(json["name"], "read_search");
    assert_eq!(json["title"], "Search");
    assert_eq!(json["inputSchema"]["type"], "object");
    assert_eq!(json["outputSchema"]["type"], "object");
    assert_eq!(json["annotations"]["readOnlyHint"], true);
}

#[test]
fn catalogue_rejects_duplicates_and_non_object_schemas() {
    assert!(Catalogue::from_specs(vec![spec("a"), spec("a")]).is_err());
    let mut bad = spec("b");
    bad.input_schema = "[]".into();
    assert!(Catalogue::from_specs(vec![bad]).is_err());
}

#[test]
fn initialize_info_has_tools_without_list_changed() {
    let json = serde_json::to_value(server_config()).unwrap();
    assert_eq!(json["capabilities"], serde_json::json!({"tools": {}}));
    assert_eq!(json["serverInfo"]["name"], SERVER_NAME);
    assert_eq!(json["protocolVersion"], "2025-11-25");
}

#[test]
fn the_versions_are_the_wire_crate_s_and_parse_as_rmcp_s() {
    let versions: Vec<&str> = SUPPORTED_PROTOCOL_VERSIONS
        .iter()
        .map(ProtocolVersion::as_str)
        .collect();
    assert_eq!(versions, version::SUPPORTED);
    assert!(SUPPORTED_PROTOCOL_VERSIONS.contains(&ProtocolVersion::V_2026_07_28));
    assert!(SUPPORTED_PROTOCOL_VERSIONS.contains(&ProtocolVersion::V_2025_03_26));
}

#[test]
fn results_carry_structured_content_text_and_is_error() {
    let r = result(CallResult::from_envelope(
        serde_json::json!({"ok": false}),
        true,
    ));
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["isError"], true);
    assert_eq!(json["structuredContent"]["ok"], false);
    assert_eq!(json["content"][0]["text"], "{\"ok\":false}");
}

#[test]
fn writes_are_the_tools_listed_without_read_only_hint() {
    let mut write = spec("write_request_create");
    write.annotations = r#"{"readOnlyHint":false}"#.into();
    let c = Catalogue::from_specs(vec![spec("read_search"), spec("ombi_status"), write]).unwrap();
    assert!(c.is_write("write_request_create"));
    assert!(!c.is_write("read_search") && !c.is_write("no_such_tool"));
}
