use super::*;
use serde_json::json;

#[test]
fn each_view_is_a_small_self_contained_html_document() {
    for view in VIEWS {
        let html = view.html();
        assert!(view.uri.starts_with("ui://media-mcp/"), "{}", view.uri);
        assert!(html.starts_with("<!DOCTYPE html>"), "{}", view.uri);
        assert_eq!(html.len(), view.size());
        assert!(
            html.len() <= MAX_VIEW_BYTES,
            "{} is {} bytes",
            view.uri,
            html.len()
        );
        let lower = html.to_ascii_lowercase();
        for external in [
            " src=",
            " href=",
            "<link",
            "@import",
            "<iframe",
            "fetch(",
            "xmlhttprequest",
            "websocket",
            "http://",
        ] {
            assert!(
                !lower.contains(external),
                "{} contains {external}",
                view.uri
            );
        }
        let style = &lower[lower.find("<style>").unwrap()..lower.find("</style>").unwrap()];
        assert!(!style.contains("url("), "{} loads from CSS", view.uri);
        // Upstream text goes in as text: no HTML parsing sink anywhere.
        for sink in [
            "innerhtml",
            "outerhtml",
            "insertadjacenthtml",
            "document.write",
            "eval(",
            "new function",
        ] {
            assert!(!lower.contains(sink), "{} uses {sink}", view.uri);
        }
        assert_eq!(lower.matches("<script").count(), 1, "{}", view.uri);
    }
}

#[test]
fn the_views_follow_the_handshake() {
    for view in VIEWS {
        for step in [
            "\"ui/initialize\"",
            "\"ui/notifications/initialized\"",
            "\"ui/notifications/size-changed\"",
            "\"ui/resource-teardown\"",
            "\"ui/notifications/tool-result\"",
            "\"ui/notifications/host-context-changed\"",
        ] {
            assert!(view.html().contains(step), "{} lacks {step}", view.uri);
        }
    }
}

#[test]
fn exactly_the_contract_tools_with_a_view_carry_the_link() {
    let linked: Vec<&str> = [
        "read_search",
        "read_discover",
        "read_media",
        "read_requests",
        "read_library",
        "write_request_create",
        "search_media",
        "ombi_status",
    ]
    .into_iter()
    .filter(|t| tool_meta(t).is_some())
    .collect();
    assert_eq!(
        linked,
        [
            "read_search",
            "read_discover",
            "read_media",
            "read_requests"
        ]
    );
    assert_eq!(
        tool_meta("read_search").unwrap(),
        json!({"ui": {"resourceUri": "ui://media-mcp/titles"}, "ui/resourceUri": "ui://media-mcp/titles"})
    );
    for view in VIEWS {
        for tool in view.tools {
            assert_eq!(view_of(tool).unwrap().uri, view.uri);
        }
    }
}

#[test]
fn csp_resource_domains_are_the_contract_artwork_hosts() {
    assert_eq!(
        resource_domains(),
        [
            "https://assets.fanart.tv",
            "https://image.tmdb.org",
            "https://coverartarchive.org",
            "https://static.tvmaze.com"
        ]
    );
    let read = read_resource("ui://media-mcp/titles").unwrap();
    assert_eq!(
        read["contents"][0]["_meta"]["ui"]["csp"],
        json!({"resourceDomains": resource_domains()})
    );
    assert_eq!(read["contents"][0]["mimeType"], MIME_TYPE);
    assert_eq!(read["contents"][0]["text"], VIEWS[0].html());
}

#[test]
fn resources_list_and_read_agree() {
    let listed = list_resources();
    let resources = listed["resources"].as_array().unwrap();
    assert_eq!(resources.len(), VIEWS.len());
    for r in resources {
        assert_eq!(r["mimeType"], MIME_TYPE);
        let uri = r["uri"].as_str().unwrap();
        let read = read_resource(uri).unwrap();
        assert_eq!(
            read["contents"][0]["text"].as_str().unwrap().len() as u64,
            r["size"].as_u64().unwrap()
        );
    }
    assert!(read_resource("ui://media-mcp/nope").is_none());
    assert_eq!(list_resource_templates(), json!({"resourceTemplates": []}));
    assert!(unknown_resource(&"x".repeat(500)).len() < 200);
}

#[test]
fn only_views_with_request_buttons_say_whether_requesting_is_offered() {
    let (key, offered) = result_meta("read_search", true).unwrap();
    assert_eq!(key, ACTIONS_META_KEY);
    assert_eq!(
        offered,
        json!({"request": {"tool": "write_request_create", "offered": true}})
    );
    let (_, refused) = result_meta("read_discover", false).unwrap();
    assert_eq!(refused["request"]["offered"], false);
    assert_eq!(refused["request"]["reason"], NOT_OFFERED);
    assert!(result_meta("read_requests", true).is_none());
    assert!(result_meta("read_users", true).is_none());
}

mod prompts {
    use crate::prompts::{Refused, get, list};
    use serde_json::{Map, Value, json};

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn every_prompt_is_listed_with_its_arguments_described() {
        let listed = list();
        let names: Vec<&str> = listed["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["request_title", "whats_new", "why_not_available"]);
        for p in listed["prompts"].as_array().unwrap() {
            assert!(!p["description"].as_str().unwrap().is_empty());
            for a in p["arguments"].as_array().unwrap() {
                assert!(!a["description"].as_str().unwrap().is_empty());
                assert!(a["required"].is_boolean());
            }
        }
    }

    #[test]
    fn a_prompt_names_its_tools_and_quotes_its_arguments() {
        let got = get(&params(
            json!({"name": "request_title", "arguments": {"title": "Heat \"1995\"", "media": "movie"}}),
        ))
        .unwrap();
        let text = got["messages"][0]["content"]["text"].as_str().unwrap();
        assert_eq!(got["messages"][0]["role"], "user");
        assert!(text.contains("read_search") && text.contains("write_request_create"));
        assert!(text.contains(r#""Heat \"1995\"""#), "{text}");
        let why = get(&params(
            json!({"name": "why_not_available", "arguments": {"title": "Dune"}}),
        ))
        .unwrap();
        let text = why["messages"][0]["content"]["text"].as_str().unwrap();
        assert!(
            text.contains("read_requests") && text.contains("4K") && text.contains("MoviePilot")
        );
        let new = get(&params(json!({"name": "whats_new"}))).unwrap();
        assert!(
            new["messages"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .contains("read_library")
        );
    }

    #[test]
    fn bad_prompt_requests_name_what_is_wrong() {
        let refused = |v: Value| get(&params(v)).unwrap_err();
        assert_eq!(
            refused(json!({"name": "request_title"})),
            Refused("title is required by prompt request_title".into())
        );
        assert!(
            refused(json!({"name": "nope"}))
                .0
                .contains("unknown prompt")
        );
        assert!(
            refused(json!({"name": "whats_new", "arguments": {"bogus": "1"}}))
                .0
                .starts_with("bogus ")
        );
        assert!(
            refused(json!({"name": "request_title", "arguments": {"title": "x", "media": "book"}}))
                .0
                .starts_with("media must be one of")
        );
        assert!(
            refused(json!({"name": "request_title", "arguments": {"title": 3}}))
                .0
                .starts_with("title must be a string")
        );
        assert!(
            refused(json!({"name": "request_title", "arguments": {"title": "a\nb"}}))
                .0
                .starts_with("title must be at most")
        );
        assert!(
            refused(json!({"name": "request_title", "arguments": {"title": "x".repeat(201)}}))
                .0
                .starts_with("title must be at most")
        );
        assert!(refused(json!({})).0.starts_with("params.name"));
    }
}
