use super::*;
use serde_json::json;

#[test]
fn fnv1a64_matches_the_reference_vectors() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn revision_ignores_secrets_and_key_order_but_not_writable_values() {
    let a = json!({"apiKey": "k1", "hideRequestsUsers": true, "branch": 1, "id": 1});
    let b = json!({"id": 9, "branch": 1, "hideRequestsUsers": true, "apiKey": "other"});
    let c = json!({"apiKey": "k1", "hideRequestsUsers": false, "branch": 1, "id": 1});
    let ra = revision("ombi", &a).unwrap();
    assert_eq!(ra.len(), 16);
    assert_eq!(Some(&ra), revision("ombi", &b).as_ref());
    assert_ne!(Some(&ra), revision("ombi", &c).as_ref());
}

#[test]
fn secrets_and_arrays_are_never_writable() {
    assert_eq!(writable_leaf("ombi", "/apiKey"), None);
    assert_eq!(writable_leaf("ombi", "/baseUrl"), None);
    assert_eq!(writable_leaf("customization", "/applicationUrl"), None);
    assert_eq!(writable_leaf("themoviedb", "/excludedKeywordIds/0"), None);
    assert_eq!(writable_leaf("user_management", "/bannedPlexUserIds"), None);
    assert_eq!(
        writable_leaf("sonarr", "/enabled"),
        None,
        "sonarr is not a writable section"
    );
    assert_eq!(writable_leaf("vote", "/enabled"), Some(Leaf::Bool));
}

#[test]
fn features_are_keyed_by_name() {
    let f = json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}]);
    assert_eq!(
        writable_values("features", &f),
        vec![
            ("/Movie4KRequests", json!(true)),
            ("/PlayedSync", json!(false))
        ]
    );
    assert!(revision("features", &f).is_some());
    assert_eq!(revision("sonarr", &json!({})), None);
}
