use super::*;
use crate::moviepilot::schema::check as whole_check;
use crate::testing::MemoryCache;

fn api() -> Value {
    json!({
        "type": "object",
        "properties": {"operation_id": {"type": "string"}},
        "required": ["operation_id"],
        "oneOf": [
            {"type": "object", "properties": {"operation_id": {"const": "media.search"}, "query": {"$ref": "#/$defs/Query"}}, "required": ["operation_id", "query"], "additionalProperties": false},
            {"$ref": "#/$defs/Restart"},
            {"type": "object", "properties": {"operation_id": {"enum": ["a.b", "media.search"]}, "body": {"type": "integer"}}, "required": ["operation_id", "body"]}
        ],
        "$defs": {
            "Query": {"type": "object", "properties": {"title": {"type": "string", "minLength": 1}}, "required": ["title"]},
            "Restart": {"type": "object", "properties": {"operation_id": {"const": "system.restart"}}, "required": ["operation_id"]}
        }
    })
}

fn refs(node: &Value) -> Vec<String> {
    match node {
        Value::Object(m) => m
            .iter()
            .flat_map(|(k, v)| match (k.as_str(), v) {
                ("$ref", Value::String(r)) => vec![r.clone()],
                _ => refs(v),
            })
            .collect(),
        Value::Array(a) => a.iter().flat_map(refs).collect(),
        _ => Vec::new(),
    }
}

fn split(schema: &Value) -> (Form, Vec<(String, Value)>) {
    let mut parts = Vec::new();
    let form = build(schema, &mut |form, op, weak| {
        assert_eq!(form.key(), Some("operation_id"));
        parts.push((op.to_owned(), weak));
    });
    (form, parts)
}

/// `form` ready for `args`, as a call finds it stored: with the branch `args` name among
/// `parts`, or else with the operation names.
fn ready(form: &Form, parts: &[(String, Value)], args: &Value) -> Prepared {
    let branch = form
        .operation(args)
        .and_then(|op| parts.iter().find(|(o, _)| o == op))
        .map(|(_, w)| w.clone());
    let operations = branch
        .is_none()
        .then(|| parts.iter().map(|(o, _)| o.clone()).collect());
    Prepared {
        form: form.clone(),
        branch,
        operations,
    }
}

fn split_check(schema: &Value, args: &Value) -> bool {
    let (form, parts) = split(schema);
    check("t", &ready(&form, &parts, args), args).is_ok()
}

#[test]
fn branches_told_apart_by_an_operation_are_kept_one_per_operation() {
    let (form, parts) = split(&api());
    let Form::Operations { key, .. } = &form else {
        panic!("{form:?}")
    };
    assert_eq!(key, "operation_id");
    let names: Vec<&str> = parts.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(names, ["media.search", "system.restart", "a.b"]);
    for (_, weak) in &parts {
        // Each branch is self-contained: its references resolve in its own `$defs`.
        for r in refs(weak) {
            assert!(crate::schema::resolve(weak, &r).is_some(), "{r} in {weak}");
        }
    }
    // Two branches accept media.search: either may fit.
    assert!(parts[0].1.get("anyOf").is_some(), "{}", parts[0].1);
}

#[test]
fn checking_one_branch_agrees_with_checking_the_whole_schema() {
    let schema = api();
    for args in [
        json!({"operation_id": "media.search", "query": {"title": "Dune"}}),
        json!({"operation_id": "media.search", "query": {"title": ""}}),
        json!({"operation_id": "media.search", "body": 3}),
        json!({"operation_id": "media.search"}),
        json!({"operation_id": "system.restart"}),
        json!({"operation_id": "a.b", "body": "x"}),
        json!({"operation_id": "a.b", "body": 1}),
        json!({"operation_id": "nope"}),
        json!({"operation_id": 7}),
        json!({}),
    ] {
        assert_eq!(
            split_check(&schema, &args),
            whole_check(&schema, &args).is_ok(),
            "{args}"
        );
    }
}

#[test]
fn schemas_without_named_branches_are_checked_whole() {
    let plain = json!({"type": "object", "properties": {"title": {"type": "string"}}});
    assert!(matches!(split(&plain).0, Form::Whole(_)));
    let mut unnamed = api();
    unnamed["oneOf"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "object"}));
    let (form, parts) = split(&unnamed);
    assert!(matches!(form, Form::Whole(_)) && parts.is_empty());
}

#[test]
fn a_known_operation_without_its_branch_is_missing_and_an_unknown_one_invalid() {
    let (form, parts) = split(&api());
    let names: Vec<String> = parts.iter().map(|(o, _)| o.clone()).collect();
    let without_branch = |operations: Option<Vec<String>>| Prepared {
        form: form.clone(),
        branch: None,
        operations,
    };
    let known = json!({"operation_id": "a.b", "body": 1});
    let stored = without_branch(Some(names.clone()));
    assert_eq!(check("t", &stored, &known), Err(Refused::Missing));
    let unknown = json!({"operation_id": "x.y"});
    let Err(Refused::Invalid(e)) = check("t", &stored, &unknown) else {
        panic!()
    };
    assert_eq!(e.field.as_deref(), Some("operation_id"));
    assert!(e.message.contains("no operation `x.y`"), "{}", e.message);
    // Without the names either, nothing tells an unknown operation from a dropped branch.
    assert_eq!(
        check("t", &without_branch(None), &unknown),
        Err(Refused::Missing)
    );
}

#[test]
fn a_call_reads_a_form_and_a_branch_whose_size_does_not_grow_with_the_operations() {
    let schema = |n: usize| {
        let ops: Vec<Value> = (0..n)
            .map(|i| json!({"type": "object", "properties": {"operation_id": {"const": format!("op.{i:04}")}}, "required": ["operation_id"]}))
            .collect();
        json!({"type": "object", "properties": {"operation_id": {"type": "string"}}, "oneOf": ops})
    };
    let read = |n: usize| {
        let cache = crate::testing::MemoryCache::default();
        let url = |k: &str| (k == "MOVIEPILOT_URL").then(|| "http://mp.test/mcp".to_owned());
        let cfg = crate::moviepilot::config::from_lookup(&url, &mut Vec::new()).expect("config");
        let memo = Memo::new(&cache, &cfg);
        let args = json!({"operation_id": "op.0001"});
        let fresh = memo.prepare(1, "t", &schema(n), &args);
        for key in [Some("operation_id"), None] {
            let stored = memo.prepared(1, "t", key, &args).expect("stored");
            assert!(stored.checks_as(&fresh) && stored.operations.is_none());
            assert!(check("t", &stored, &args).is_ok());
        }
        let map = cache.map.borrow();
        let size = |what: &str| {
            map.iter()
                .find(|(k, _)| k.ends_with(what))
                .map(|(_, v)| v.len())
        };
        (size(" form t"), size(" op t op.0001"))
    };
    assert_eq!(read(3), read(3000));
}

#[test]
fn index_and_forms_read_back_as_written() {
    let index = Index {
        generation: 7,
        version: "2025-06-18".into(),
        tools: vec![
            IndexedTool {
                name: "moviepilot_api".into(),
                projected: false,
                key: Some("operation_id".into()),
            },
            IndexedTool {
                name: "search_media".into(),
                projected: true,
                key: None,
            },
        ],
        problems: vec!["tool `x` listed twice; the first is kept".into()],
    };
    assert_eq!(Index::from_json(&index.to_json()), Some(index));
    for form in [split(&api()).0, Form::Whole(json!({"type": "object"}))] {
        assert_eq!(Form::from_json(form.to_json()), Some(form));
    }
}

#[test]
fn a_recursive_definition_used_by_every_operation_is_stored_once_per_branch_at_its_own_size() {
    let json_data = json!({"anyOf": [
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/JsonData-Input"}},
        {"type": "array", "items": {"$ref": "#/$defs/JsonData-Input"}},
        {"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {"type": "null"}]});
    let ops: Vec<Value> = (0..300)
        .map(|i| json!({"type": "object", "properties": {
            "operation_id": {"const": format!("op.{i}")},
            "query": {"type": "object", "additionalProperties": {"$ref": "#/$defs/JsonData-Input"}},
            "body": {"$ref": "#/$defs/JsonData-Input"}}, "required": ["operation_id"], "additionalProperties": false}))
        .collect();
    let schema = json!({"type": "object", "required": ["operation_id"], "oneOf": ops, "$defs": {"JsonData-Input": json_data}});
    let (form, parts) = split(&schema);
    assert_eq!(parts.len(), 300);
    // Each stored branch is its own size plus the definition's, never the definition expanded.
    let own = schema["oneOf"][7].to_string().len() + schema["$defs"].to_string().len();
    for (op, weak) in &parts {
        let size = weak.to_string().len();
        assert!(size < 4 * own, "{op}: {size} bytes stored for {own}");
    }
    let args = json!({"operation_id": "op.7", "query": {"page": 1, "count": 20, "f": {"a": [[1], {"b": null}]}}});
    assert!(check("t", &ready(&form, &parts, &args), &args).is_ok());
}

fn config() -> MoviePilotConfig {
    let url = |k: &str| (k == "MOVIEPILOT_URL").then(|| "http://mp.test/mcp".to_owned());
    crate::moviepilot::config::from_lookup(&url, &mut Vec::new()).expect("config")
}

#[test]
fn with_the_key_the_index_names_a_call_reads_only_its_operation_entry() {
    let cache = MemoryCache::default();
    let cfg = config();
    let memo = Memo::new(&cache, &cfg);
    let args = json!({"operation_id": "media.search", "query": {"title": "Dune"}});
    let fresh = memo.prepare(1, "t", &api(), &args);
    for (key, reads) in [(Some("operation_id"), 1), (None, 2)] {
        cache.reads.borrow_mut().clear();
        let stored = memo.prepared(1, "t", key, &args).expect("stored");
        assert!(stored.checks_as(&fresh), "{key:?}");
        assert_eq!(cache.reads.borrow().len(), reads, "{key:?}");
    }
    // An operation that is not stored: the form and the names tell it is unknown.
    let unknown = json!({"operation_id": "nope"});
    cache.reads.borrow_mut().clear();
    let stored = memo
        .prepared(1, "t", Some("operation_id"), &unknown)
        .expect("form");
    assert_eq!(cache.reads.borrow().len(), 3);
    assert!(matches!(
        check("t", &stored, &unknown),
        Err(Refused::Invalid(_))
    ));
}

#[test]
fn a_learnt_key_goes_into_the_index_of_its_own_generation_only() {
    let cache = MemoryCache::default();
    let cfg = config();
    let memo = Memo::new(&cache, &cfg);
    let index = Index {
        generation: 3,
        version: "2025-06-18".into(),
        tools: vec![IndexedTool {
            name: "moviepilot_api".into(),
            projected: true,
            key: None,
        }],
        problems: vec![],
    };
    memo.put_index(&index);
    memo.learn_key(3, "moviepilot_api", "operation_id");
    let learnt = memo.index().expect("index");
    assert_eq!(learnt.tools[0].key.as_deref(), Some("operation_id"));
    assert_eq!(learnt.generation, 3);
    // A refresh wrote a newer index meanwhile: it stays as it is.
    let newer = Index {
        generation: 4,
        ..index.clone()
    };
    memo.put_index(&newer);
    memo.learn_key(3, "moviepilot_api", "action");
    assert_eq!(memo.index(), Some(newer));
}
