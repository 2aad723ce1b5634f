use super::*;
use crate::testing::FakeUpstream;
use serde_json::Value;
use std::collections::HashMap;

fn plugin(extra: &[(&str, &str)]) -> Plugin {
    let mut map: HashMap<String, String> = extra
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    map.insert("OMBI_URL".into(), "http://ombi.test".into());
    Plugin::new(Config::from_lookup(|k| map.get(k).cloned()))
}

fn names(p: &Plugin) -> Vec<String> {
    p.list_tools(&FakeUpstream::new())
        .into_iter()
        .map(|t| t.name)
        .collect()
}

fn ctx() -> CallContext {
    CallContext {
        correlation_id: "c-1".into(),
        principal: None,
    }
}

#[test]
fn read_only_lists_only_read_tools() {
    let all = names(&plugin(&[]));
    let ro = names(&plugin(&[("MEDIA_MCP_READ_ONLY", "1")]));
    assert!(all.iter().any(|n| n.starts_with("write_")));
    assert!(
        !ro.is_empty() && ro.iter().all(|n| n.starts_with("read_")),
        "{ro:?}"
    );
    assert_eq!(
        ro,
        all.into_iter()
            .filter(|n| n.starts_with("read_"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn read_only_refuses_a_write_with_forbidden_and_sends_nothing() {
    let p = plugin(&[("MEDIA_MCP_READ_ONLY", "true")]);
    let up = FakeUpstream::new();
    let r = p
        .call_tool(
            "write_request_create",
            r#"{"media_type":"movie","tmdb_id":603}"#,
            &ctx(),
            &up,
        )
        .expect("a known tool is refused, not unknown");
    assert!(r.is_error);
    let error = &r.structured["error"];
    assert_eq!(error["code"], "FORBIDDEN");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("MEDIA_MCP_READ_ONLY")
    );
    assert_eq!(r.structured["operation"], "write_request_create");
    assert!(up.requests().is_empty());
}

#[test]
fn selection_lists_a_subset_and_hidden_tools_are_unknown() {
    let p = plugin(&[
        ("MEDIA_MCP_TOOLS", "read_search,write_request_*"),
        ("MEDIA_MCP_TOOLS_DENY", "write_request_delete"),
    ]);
    let listed = names(&p);
    assert!(listed.contains(&"read_search".to_owned()));
    assert!(listed.contains(&"write_request_create".to_owned()));
    assert!(!listed.contains(&"write_request_delete".to_owned()));
    assert!(
        listed
            .iter()
            .all(|n| n == "read_search" || n.starts_with("write_request_"))
    );
    let up = FakeUpstream::new();
    for hidden in ["read_media", "write_request_delete"] {
        let err = p.call_tool(hidden, "{}", &ctx(), &up).unwrap_err();
        assert_eq!(err, UnknownTool(hidden.to_owned()));
    }
    assert!(up.requests().is_empty());
}

#[test]
fn the_refusal_fits_the_tools_output_schema() {
    let p = plugin(&[("MEDIA_MCP_READ_ONLY", "1")]);
    let all = plugin(&[]);
    let up = FakeUpstream::new();
    let tool = all
        .list_tools(&up)
        .into_iter()
        .find(|t| t.name == "write_issue_create")
        .unwrap();
    let schema: Value = serde_json::from_str(&tool.output_schema).unwrap();
    let r = p
        .call_tool("write_issue_create", "{}", &ctx(), &up)
        .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&r.structured), "{}", r.structured);
}
