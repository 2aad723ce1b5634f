use crate::catalogue::Plugin;
use crate::config::Config;
use crate::testing::FakeUpstream;
use crate::tool::CallContext;
use std::collections::HashMap;

fn plugin(vars: &[(&str, &str)]) -> Plugin {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Plugin::new(Config::from_lookup(|k| map.get(k).cloned()))
}

fn names(p: &Plugin) -> Vec<String> {
    p.list_tools(&FakeUpstream::new())
        .into_iter()
        .map(|t| t.name)
        .collect()
}

#[test]
fn a_malformed_ombi_url_lists_ombi_status_naming_the_problem() {
    let p = plugin(&[
        ("OMBI_URL", "ftp://media.example/ombi"),
        ("MEDIA_MCP_CALL_DEADLINE_MS", "5"),
    ]);
    let tools = p.list_tools(&FakeUpstream::new());
    assert_eq!(
        tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["ombi_status"]
    );
    assert!(
        tools[0].description.contains("OMBI_URL"),
        "{}",
        tools[0].description
    );
    assert!(tools[0].description.contains("MEDIA_MCP_CALL_DEADLINE_MS"));
    let ctx = CallContext {
        correlation_id: "c".into(),
        principal: None,
    };
    let out = p
        .call_tool("ombi_status", "{}", &ctx, &FakeUpstream::new())
        .expect("listed");
    let schema: serde_json::Value = serde_json::from_str(&tools[0].output_schema).unwrap();
    assert!(
        jsonschema::validator_for(&schema)
            .unwrap()
            .is_valid(&out.structured)
    );
    assert_eq!(out.structured["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert!(
        out.structured["error"]["message"]
            .as_str()
            .unwrap()
            .contains("OMBI_URL"),
        "{}",
        out.structured
    );
}

#[test]
fn ombi_status_is_listed_only_when_ombi_is_configured_but_unusable() {
    assert!(
        !names(&plugin(&[("OMBI_URL", "http://127.0.0.1:5000")]))
            .contains(&"ombi_status".to_owned())
    );
    assert!(names(&plugin(&[])).is_empty());
    let p = plugin(&[]);
    let ctx = CallContext {
        correlation_id: "c".into(),
        principal: None,
    };
    assert!(
        p.call_tool("ombi_status", "{}", &ctx, &FakeUpstream::new())
            .is_err()
    );
}
