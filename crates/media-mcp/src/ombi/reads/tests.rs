use crate::testing::{FakeUpstream, call, call_as};
use crate::upstream::Method;
use serde_json::{Value, json};

/// The arguments the conformance checker samples (required properties, first enum value)
/// must give a successful, schema-valid envelope against the fixtures, and an unknown
/// argument must be refused before anything is sent.
#[test]
fn sampled_arguments_succeed_and_unknown_arguments_are_refused() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v2/search/movie/popular/0/20",
            "v2-search-movie-popular-paged.json",
        )
        .fixture(
            Method::Get,
            "/api/v2/requests/movie/20/0/requestedDate/desc",
            "v2-requests-movie-paged.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/request/count",
            "v1-request-count.json",
        )
        .fixture(Method::Get, "/api/v1/issues/20/0/0", "v1-issues-paged.json")
        .fixture(Method::Get, "/api/v1/vote", "v1-vote-overview.json")
        .fixture(
            Method::Get,
            "/api/v1/identity/users",
            "v1-identity-users.json",
        );
    let sampled: [(&str, Value); 6] = [
        (
            "read_discover",
            json!({"media": "movie", "category": "popular"}),
        ),
        ("read_requests", json!({})),
        ("read_request_stats", json!({"scope": "counts"})),
        ("read_issues", json!({"view": "list"})),
        ("read_votes", json!({})),
        ("read_users", json!({"view": "list"})),
    ];
    for (tool, args) in sampled {
        let out = call(&up, tool, args.clone());
        assert_eq!(out["ok"], true, "{tool}: {out}");
        let sent = up.requests().len();
        let mut bad = args.clone();
        bad["conformance_unknown_field"] = json!(1);
        let out = call(&up, tool, bad);
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{tool}");
        assert_eq!(
            up.requests().len(),
            sent,
            "{tool}: nothing sent for bad arguments"
        );
    }
}

/// A user to act as is checked by wire's one rule before anything is sent: a comma, which
/// cannot be written in the hosts' user lists, is refused like a control character.
#[test]
fn a_principal_that_breaks_the_user_name_rule_is_refused_before_sending() {
    let up = FakeUpstream::new();
    for principal in ["smith, bob", "bob\nsmith", "jos\u{e9}"] {
        let out = call_as(&up, "read_requests", json!({}), Some(principal));
        assert_eq!(
            out["error"]["code"], "INVALID_ARGUMENT",
            "{principal:?}: {out}"
        );
    }
    assert!(up.requests().is_empty());
}
