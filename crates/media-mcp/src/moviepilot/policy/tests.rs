use super::*;
use serde_json::json;

fn args(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

#[test]
fn database_reads_pass_and_writes_name_their_setting() {
    let p = Policy::default();
    for ok in [
        json!({"action": "tables", "arguments": {}}),
        json!({"action": "schema", "arguments": {"table_name": "site"}}),
        json!({"action": "query", "arguments": {"sql": "select 1", "write": false}}),
    ] {
        assert!(check("database_operation", &args(ok), &p).is_ok());
    }
    for (bad, setting) in [
        (
            json!({"action": "write", "arguments": {"sql": "delete from site"}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "Write", "arguments": {}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": {"sql": "x", "write": true}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": "{\"sql\": \"x\", \"write\": \"yes\"}"}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": {"sql": "select * from systemconfig", "show_secrets": true}}),
            "ALLOW_SECRETS",
        ),
        (
            json!({"action": "tables", "arguments": "{\"show_secrets\": 1}"}),
            "ALLOW_SECRETS",
        ),
    ] {
        let e = check("database_operation", &args(bad.clone()), &p).unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden, "{bad}");
        assert!(e.message.contains(setting), "{bad}: {}", e.message);
    }
    let open = Policy {
        allow_db_writes: true,
        allow_secrets: true,
        ..Policy::default()
    };
    assert!(
        check(
            "database_operation",
            &args(json!({"action": "write", "arguments": {"sql": "x", "show_secrets": true}})),
            &open
        )
        .is_ok()
    );
}

#[test]
fn api_operations_pass_the_allow_and_deny_lists() {
    let p = Policy {
        api_allow: Some(vec!["media.search".into(), "subscription.add".into()]),
        api_deny: vec!["subscription.add".into()],
        ..Policy::default()
    };
    assert!(
        check(
            "moviepilot_api",
            &args(json!({"operation_id": "media.search"})),
            &p
        )
        .is_ok()
    );
    let e = check(
        "moviepilot_api",
        &args(json!({"operation_id": "subscription.add"})),
        &p,
    )
    .unwrap_err();
    assert!(e.message.contains("MEDIA_MCP_MOVIEPILOT_API_DENY"));
    let e = check(
        "moviepilot_api",
        &args(json!({"operation_id": "system.restart"})),
        &p,
    )
    .unwrap_err();
    assert!(e.message.contains("MEDIA_MCP_MOVIEPILOT_API_ALLOW"));
    assert!(
        check(
            "moviepilot_api",
            &args(json!({"operation_id": "system.restart"})),
            &Policy::default()
        )
        .is_ok()
    );
}

#[test]
fn only_provable_reads_are_reads() {
    assert!(call_is_read(
        "moviepilot_api",
        &args(json!({"operation_id": "media.search"}))
    ));
    assert!(!call_is_read(
        "moviepilot_api",
        &args(json!({"operation_id": "subscription.add"}))
    ));
    assert!(!call_is_read("add_subscribe", &args(json!({}))));
    assert!(call_is_read(
        "database_operation",
        &args(json!({"action": "query", "arguments": {"sql": "x"}}))
    ));
    assert!(!call_is_read(
        "database_operation",
        &args(json!({"action": "query", "arguments": {"sql": "x", "write": true}}))
    ));
    let p = Policy::default();
    assert!(tool_is_read_only("database_operation", &p));
    assert!(!tool_is_read_only(
        "database_operation",
        &Policy {
            allow_db_writes: true,
            ..p.clone()
        }
    ));
    assert!(!tool_is_read_only("moviepilot_api", &p));
    assert!(tool_is_read_only(
        "moviepilot_api",
        &Policy {
            api_allow: Some(vec!["media.search".into()]),
            ..p.clone()
        }
    ));
    assert!(!tool_is_read_only("some_plugin_tool", &p));
}

/// MoviePilot v2.9.15's 39 listed tools and which of them only read.
const V2_9_15_READS: [&str; 23] = [
    "get_recommendations",
    "get_search_results",
    "list_directory",
    "query_directory_settings",
    "query_download_tasks",
    "query_downloaders",
    "query_episode_schedule",
    "query_library_exists",
    "query_library_latest",
    "query_media_detail",
    "query_popular_subscribes",
    "query_rule_groups",
    "query_schedulers",
    "query_site_userdata",
    "query_sites",
    "query_subscribe_history",
    "query_subscribe_shares",
    "query_subscribes",
    "query_transfer_history",
    "query_workflows",
    "search_media",
    "search_person",
    "search_person_credits",
];
const V2_9_15_WRITES: [&str; 16] = [
    "add_download",
    "add_subscribe",
    "delete_download",
    "delete_subscribe",
    "recognize_media",
    "run_scheduler",
    "run_workflow",
    "scrape_metadata",
    "search_subscribe",
    "search_torrents",
    "send_message",
    "test_site",
    "transfer_file",
    "update_site",
    "update_site_cookie",
    "update_subscribe",
];

#[test]
fn per_purpose_tools_are_reads_by_their_prefix_except_the_listed_writes() {
    let policy = Policy::default();
    for t in V2_9_15_READS {
        assert!(tool_is_read_only(t, &policy), "{t} reads");
        assert!(call_is_read(t, &Map::new()), "{t} reads");
    }
    for t in V2_9_15_WRITES {
        assert!(!tool_is_read_only(t, &policy), "{t} writes");
        assert!(!call_is_read(t, &Map::new()), "{t} writes");
    }
    for (t, why) in READ_PREFIX_EXCEPTIONS {
        assert!(!why.is_empty() && !named_as_read(t));
    }
    for t in [
        "downloader_operation",
        "mediaserver_operation",
        "plugin_notes",
        "querysites",
    ] {
        assert!(!tool_is_read_only(t, &policy), "{t} writes");
    }
}

#[test]
fn a_torrent_search_has_one_class_in_both_versions() {
    // v2.9.15's search_torrents and the documented search.torrents / search.title run the same
    // site search, which stores its results as MoviePilot's last search.
    let searches = [
        ("search_torrents", Map::new()),
        (
            "moviepilot_api",
            args(json!({"operation_id": "search.torrents"})),
        ),
        (
            "moviepilot_api",
            args(json!({"operation_id": "search.title"})),
        ),
    ];
    for (tool, a) in &searches {
        assert!(!call_is_read(tool, a), "{tool} {a:?}");
    }
    let allow_searches = Policy {
        api_allow: Some(vec!["media.search".into(), "search.torrents".into()]),
        ..Policy::default()
    };
    assert!(!tool_is_read_only("moviepilot_api", &allow_searches));
    assert!(!tool_is_read_only("search_torrents", &Policy::default()));
}
