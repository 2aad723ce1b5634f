use super::*;

#[test]
fn base_path_is_stripped_case_insensitively() {
    assert_eq!(strip_base("/ombi/api/v1/x", "/ombi"), Some("/api/v1/x"));
    assert_eq!(strip_base("/OMBI", "/ombi"), Some("/"));
    assert_eq!(strip_base("/ombix/api", "/ombi"), None);
    assert_eq!(strip_base("/api", ""), Some("/api"));
}

#[test]
fn query_params_are_decoded() {
    assert_eq!(
        query_param("a=1&apikey=k%20y", "apikey").as_deref(),
        Some("k y")
    );
    assert_eq!(query_param("a=1", "apikey"), None);
}

#[test]
fn override_keys_ignore_case_and_query() {
    assert_eq!(
        override_key("get", "/api/v1/Stats?from={iso}"),
        ("GET".into(), "/api/v1/stats".into())
    );
}
