//! Read-only mode and tool selection over real stdio, for Ombi tools and bridged MoviePilot
//! tools, and the listing cache keyed on the selection.

use media_mcp_fakes::moviepilot::FakeMoviePilot;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, fresh_dir, run_cli, structured};
use serde_json::{Value, json};

/// The harness refuses keys shorter than 8 characters at start.
const KEY: &str = "selection-test-key";

fn names(h: &mut Harness) -> Vec<String> {
    let r = h.rpc("tools/list", json!({}));
    r["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

fn both(ombi: &FakeOmbi, mp: &FakeMoviePilot) -> Env {
    Env::ombi(ombi, KEY)
        .set("MOVIEPILOT_URL", &mp.mcp_url())
        .set("MOVIEPILOT_API_KEY", mp.key())
}

#[test]
fn read_only_lists_no_writer_and_refuses_writes_with_nothing_sent() {
    let ombi = FakeOmbi::start(KEY).unwrap();
    let mp = FakeMoviePilot::start();
    let env = both(&ombi, &mp).set("MEDIA_MCP_READ_ONLY", "1");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let listed = names(&mut h);
    assert!(listed.contains(&"read_search".to_owned()), "{listed:?}");
    assert!(listed.contains(&"search_media".to_owned()), "{listed:?}");
    for writer in ["write_request_create", "add_subscribe", "moviepilot_api"] {
        assert!(!listed.contains(&writer.to_owned()), "{writer} listed");
    }
    let before_ombi = ombi.requests().len();
    mp.clear_requests();
    for (tool, args) in [
        (
            "write_request_create",
            json!({"media_type": "movie", "tmdb_id": 603}),
        ),
        ("add_subscribe", json!({"title": "x"})),
    ] {
        let r = h.call_tool(tool, args);
        let s = structured(&r);
        assert_eq!(r["result"]["isError"], true, "{r}");
        assert_eq!(s["error"]["code"], "FORBIDDEN", "{s}");
        assert!(
            s["error"]["message"]
                .as_str()
                .unwrap()
                .contains("MEDIA_MCP_READ_ONLY")
        );
    }
    assert_eq!(ombi.requests().len(), before_ombi, "sent to Ombi");
    assert!(
        mp.requests().is_empty(),
        "sent to MoviePilot: {:?}",
        mp.requests().len()
    );
    h.finish();
}

#[test]
fn a_selection_lists_a_subset_and_hidden_tools_are_unknown() {
    let ombi = FakeOmbi::start(KEY).unwrap();
    let mp = FakeMoviePilot::start();
    let env = both(&ombi, &mp)
        .set(
            "MEDIA_MCP_TOOLS",
            "read_search, write_request_*, search_media, moviepilot_api",
        )
        .set(
            "MEDIA_MCP_TOOLS_DENY",
            "write_request_delete,moviepilot_api",
        );
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let listed = names(&mut h);
    for want in ["read_search", "search_media", "write_request_create"] {
        assert!(
            listed.contains(&want.to_owned()),
            "{want} missing: {listed:?}"
        );
    }
    // The job tools come with a selected tool that can become a job (search_media).
    let selected = |n: &str| {
        n == "read_search"
            || n == "search_media"
            || n.starts_with("write_request_")
            || n == "job_status"
            || n == "job_cancel"
    };
    assert!(listed.iter().all(|n| selected(n)), "{listed:?}");
    assert!(
        !listed.contains(&"write_request_delete".to_owned()),
        "{listed:?}"
    );
    for hidden in ["read_media", "write_request_delete", "moviepilot_api"] {
        let r = h.call_tool(hidden, json!({}));
        assert_eq!(r["error"]["code"], -32602, "{hidden}: {r}");
    }
    assert_eq!(mp.tool_calls("moviepilot_api"), 0);
    h.finish();
}

#[test]
fn a_bad_glob_stops_the_harness_naming_the_variable() {
    let out = run_cli(
        &["tools"],
        &Env::new().set("MEDIA_MCP_TOOLS_DENY", "write_[x]"),
    );
    assert!(!out.status.success());
    assert!(
        out.stderr.contains("MEDIA_MCP_TOOLS_DENY"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_listing_cache_follows_the_selection() {
    let ombi = FakeOmbi::start(KEY).unwrap();
    let cache = fresh_dir("selection-listing");
    let env = Env::ombi(&ombi, KEY)
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let list = |env: &Env| {
        let out = run_cli(&["tools"], env);
        assert!(out.status.success(), "{}", out.stderr);
        out.stdout
    };
    let all = list(&env);
    assert!(all.contains("write_request_create"), "{all}");
    let ro = env.clone().set("MEDIA_MCP_READ_ONLY", "1");
    let first = list(&ro);
    assert!(
        !first.contains("write_request_create") && first.contains("read_search"),
        "{first}"
    );
    let again = list(&ro);
    assert_eq!(first, again);
    let only = list(&env.clone().set("MEDIA_MCP_TOOLS", "read_search"));
    assert!(
        only.contains("read_search") && !only.contains("read_media"),
        "{only}"
    );
    let cached: Vec<Value> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tools.json"))
        .map(|e| json!(e.file_name().to_string_lossy()))
        .collect();
    assert_eq!(cached.len(), 3, "one listing per selection: {cached:?}");
}
