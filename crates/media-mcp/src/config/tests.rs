use super::*;
use std::collections::HashMap;

fn cfg(pairs: &[(&str, &str)]) -> Config {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Config::from_lookup(|k| map.get(k).cloned())
}

#[test]
fn no_url_means_no_ombi() {
    assert_eq!(cfg(&[]).ombi, None);
    assert_eq!(cfg(&[("OMBI_URL", "  ")]).ombi, None);
}

#[test]
fn base_path_is_kept_and_slash_trimmed() {
    let c = cfg(&[
        ("OMBI_URL", "https://media.example/ombi/"),
        ("OMBI_USER", "alice"),
    ]);
    let o = c.ombi.unwrap();
    assert_eq!(
        o.base_url.join("/api/v1/Status"),
        "https://media.example/ombi/api/v1/Status"
    );
    assert_eq!(o.default_user.as_deref(), Some("alice"));
}

#[test]
fn credentials_in_the_url_are_refused() {
    let c = cfg(&[("OMBI_URL", "http://user:pw@host:5000")]);
    assert_eq!(c.ombi, None);
    assert_eq!(c.problems[0].variable, "OMBI_URL");
    assert!(!c.problems[0].to_string().contains("pw"));
}

#[test]
fn the_tool_selection_is_read_from_the_environment() {
    let c = cfg(&[("MEDIA_MCP_READ_ONLY", "1"), ("MEDIA_MCP_TOOLS", "read_*")]);
    assert!(c.selection.read_only);
    assert!(c.selection.shows("read_search") && !c.selection.shows("write_request_create"));
    let bad = cfg(&[("MEDIA_MCP_TOOLS_DENY", "read_[x]")]);
    assert!(bad.problems[0].to_string().contains("MEDIA_MCP_TOOLS_DENY"));
}

#[test]
fn every_variable_read_is_one_a_host_hands_the_component() {
    let asked = core::cell::RefCell::new(Vec::new());
    Config::from_lookup(|name| {
        asked.borrow_mut().push(name.to_owned());
        // Both backends configured, so every setting of each is read.
        match name {
            "OMBI_URL" => Some("https://ombi.example".to_owned()),
            "MOVIEPILOT_URL" => Some("https://mp.example/api/v1/mcp".to_owned()),
            _ => None,
        }
    });
    let asked = asked.into_inner();
    assert!(asked.len() > 10, "{asked:?}");
    for name in asked {
        assert!(
            media_mcp_wire::variables::is_guest(&name),
            "{name} is read but not a guest variable of media_mcp_wire::variables"
        );
    }
}
