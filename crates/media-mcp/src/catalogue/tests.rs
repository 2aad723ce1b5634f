use super::*;
use crate::testing::FakeUpstream;
use crate::tool::published;
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

/// A backend that knows its names up front, lists them, and answers a call with its label.
struct Labelled {
    label: &'static str,
    tools: &'static [(&'static str, Access)],
}

impl Labelled {
    fn boxed(label: &'static str, tools: &'static [(&'static str, Access)]) -> Box<dyn Backend> {
        Box::new(Self { label, tools })
    }

    fn find(&self, name: &str) -> Option<Access> {
        self.tools.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }
}

impl Backend for Labelled {
    fn own_names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|(n, _)| *n).collect()
    }

    fn list(&self, _upstream: &dyn Upstream, _taken: &[&str]) -> Vec<ToolDescriptor> {
        let any = serde_json::json!({});
        self.tools
            .iter()
            .map(|(name, access)| published(name, self.label, String::new(), *access, &any, &any))
            .collect()
    }

    fn access(&self, name: &str) -> Option<Access> {
        self.find(name)
    }

    fn deadline_ms(&self, name: &str, _arguments: &str) -> Option<u64> {
        self.find(name).map(|_| 7)
    }

    fn call(
        &self,
        _upstream: &dyn Upstream,
        name: &str,
        _arguments: &str,
        ctx: &CallContext,
        taken: &[&str],
    ) -> Result<Rendered, UnknownTool> {
        match self.find(name) {
            Some(_) if !taken.contains(&name) => Ok(contract::render(
                name,
                &ctx.correlation_id,
                Reply::ok(serde_json::json!({"backend": self.label})),
            )),
            _ => Err(UnknownTool(name.to_owned())),
        }
    }
}

#[test]
fn any_backends_are_merged_in_order_with_the_first_owner_of_a_name_winning() {
    let config = Config::from_lookup(|_| None);
    let p = Plugin::with_backends(
        config,
        vec![
            Labelled::boxed("first", &[("shared", Access::Read), ("one", Access::Write)]),
            Labelled::boxed(
                "second",
                &[("shared", Access::Write), ("two", Access::Read)],
            ),
        ],
    );
    let listed = p.list_tools(&FakeUpstream::new());
    let shown: Vec<(&str, &str)> = listed
        .iter()
        .map(|t| (t.name.as_str(), t.title.as_str()))
        .collect();
    assert_eq!(
        shown,
        [("shared", "first"), ("one", "first"), ("two", "second")]
    );
    let backend = |name: &str| {
        p.call_tool(name, "{}", &ctx(), &FakeUpstream::new())
            .map(|r| r.structured["data"]["backend"].clone())
    };
    assert_eq!(backend("shared"), Ok(Value::from("first")));
    assert_eq!(backend("two"), Ok(Value::from("second")));
    assert_eq!(backend("none"), Err(UnknownTool("none".into())));
    assert_eq!(p.call_deadline_ms("two", "{}"), 7);
}

#[test]
fn read_only_judges_a_name_by_the_backend_that_owns_it() {
    let config = Config::from_lookup(|k| (k == "MEDIA_MCP_READ_ONLY").then(|| "1".to_owned()));
    let p = Plugin::with_backends(
        config,
        vec![
            Labelled::boxed("first", &[("shared", Access::Read)]),
            Labelled::boxed(
                "second",
                &[("shared", Access::Write), ("two", Access::Write)],
            ),
        ],
    );
    assert_eq!(names(&p), ["shared"]);
    let refused = p
        .call_tool("two", "{}", &ctx(), &FakeUpstream::new())
        .expect("a result");
    assert_eq!(refused.structured["error"]["code"], "FORBIDDEN");
}
