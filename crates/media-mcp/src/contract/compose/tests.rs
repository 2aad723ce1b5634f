use super::*;

#[test]
fn media_page_closure_matches_the_contract_example() {
    let got = defs_closure(&["media_page"]);
    let want = [
        "credit",
        "episode",
        "error",
        "identifier",
        "media",
        "media_page",
        "paging",
        "provider",
        "reference",
        "season",
        "target",
    ];
    assert_eq!(got.into_iter().collect::<Vec<_>>(), want);
}

#[test]
fn request_page_closure_matches_the_contract_example() {
    let got = defs_closure(&["request_page"]);
    for name in [
        "request",
        "target",
        "identifier",
        "season",
        "episode",
        "paging",
        "error",
    ] {
        assert!(got.contains(name), "{name} missing");
    }
    assert!(!got.contains("media"));
}

#[test]
fn mutation_schema_embeds_only_what_it_references() {
    let schema = compose_output_schema("write_request_create", &["mutation"]);
    let defs = schema["$defs"].as_object().unwrap();
    let mut names: Vec<_> = defs.keys().cloned().collect();
    names.sort();
    assert_eq!(names, ["error", "mutation", "target"]);
    assert_eq!(
        schema["properties"]["operation"]["const"],
        "write_request_create"
    );
    assert_eq!(
        schema["properties"]["data"]["oneOf"][0]["$ref"],
        "#/$defs/mutation"
    );
}

#[test]
fn extra_families_compose_with_the_shared_envelope() {
    let extra: Map<String, Value> = serde_json::from_value(json!({
        "fam": {"type": "object", "properties": {"t": {"$ref": "#/$defs/target"}}}
    }))
    .unwrap();
    let with = compose_output_schema_with("x", &["fam"], &extra);
    let plain = compose_output_schema("x", &["mutation"]);
    assert_eq!(with["properties"], {
        let mut p = plain["properties"].clone();
        p["data"]["oneOf"][0]["$ref"] = json!("#/$defs/fam");
        p
    });
    let mut names: Vec<_> = with["$defs"].as_object().unwrap().keys().cloned().collect();
    names.sort();
    assert_eq!(names, ["error", "fam", "target"]);
}

#[test]
fn defs_are_copied_unchanged() {
    let schema = compose_output_schema("read_search", &["media_page"]);
    for (name, def) in schema["$defs"].as_object().unwrap() {
        assert_eq!(def, &shared_defs()[name], "{name} changed");
    }
}
