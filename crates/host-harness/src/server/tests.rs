use super::*;
use crate::tool::ListedTool;
use std::sync::Arc;

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
fn initialize_info_has_the_shared_capabilities_without_list_changed() {
    let json = serde_json::to_value(server_config(false)).unwrap();
    assert_eq!(
        json["capabilities"],
        media_mcp_apps::server_capabilities(),
        "tools, resources, prompts and the ui extension, none with listChanged"
    );
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

#[test]
fn a_cached_listing_makes_the_same_catalogue_as_the_component_s() {
    let listed = Catalogue::from_specs(vec![spec("read_search"), spec("read_media")]).unwrap();
    let text = serde_json::to_vec(listed.tools()).unwrap();
    let cached = Catalogue::from_tools(serde_json::from_slice(&text).unwrap()).unwrap();
    assert_eq!(cached.tools(), listed.tools());
    assert!(cached.get("read_media").is_some());
    let twice = Catalogue::from_tools(vec![listed.tools()[0].clone(); 2]);
    assert!(twice.is_err());
}

#[tokio::test]
async fn a_pending_catalogue_is_waited_for_and_can_be_replaced() {
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let slot = CatalogueSlot::pending(
        async move {
            let _ = released.await;
            Catalogue::from_specs(vec![spec("read_search")]).unwrap()
        },
        None,
    );
    assert!(slot.now().tools().is_empty(), "nothing before it is read");
    let waiting = tokio::spawn({
        let slot = slot.clone();
        async move { slot.get().await }
    });
    tokio::task::yield_now().await;
    assert!(!waiting.is_finished());
    release.send(()).unwrap();
    assert!(waiting.await.unwrap().get("read_search").is_some());
    assert!(slot.now().get("read_search").is_some());
    slot.replace(Catalogue::from_specs(vec![spec("read_other")]).unwrap());
    assert!(slot.get().await.get("read_other").is_some());
    assert!(slot.get().await.get("read_search").is_none());
}

#[tokio::test]
async fn an_early_list_is_answered_from_the_text_only_through_a_transport_that_writes_it() {
    use rmcp::model::RequestId;

    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let text: Arc<str> = Arc::from(r#"[{"name":"read_search"}]"#);
    let slot = CatalogueSlot::pending(
        async move {
            let _ = released.await;
            Catalogue::from_specs(vec![spec("read_search")]).unwrap()
        },
        Some(Arc::clone(&text)),
    );
    let (first, second) = (RequestId::Number(1), RequestId::Number(2));
    assert!(
        !slot.answer_unparsed(&first),
        "no transport writes the text yet"
    );
    let listings = slot.listings();
    assert!(slot.answer_unparsed(&first));
    let none_listed = Some(Arc::from("[]"));
    assert_eq!(
        listings.listing_text(&second, &[]),
        none_listed,
        "not promised"
    );
    assert_eq!(listings.listing_text(&first, &[]), Some(Arc::clone(&text)));
    assert_eq!(listings.listing_text(&first, &[]), none_listed, "kept once");
    release.send(()).unwrap();
    let parsed = slot.get().await;
    assert!(
        !slot.answer_unparsed(&second),
        "parsed: answered with the tools"
    );
    assert!(listings.listing_text(&second, parsed.tools()).is_some());
}

#[tokio::test]
async fn a_listing_task_that_dies_leaves_an_empty_catalogue_not_a_hang() {
    let slot = CatalogueSlot::pending(async { panic!("the listing task failed") }, None);
    assert!(slot.get().await.tools().is_empty());
}
