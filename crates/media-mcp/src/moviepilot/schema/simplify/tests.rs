use super::*;
use serde_json::json;

fn simplified(mut node: Value, defs: Value) -> (Value, Value) {
    let mut defs = match defs {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    simplify(&mut node, &mut defs);
    (node, Value::Object(defs))
}

#[test]
fn nested_alternatives_are_spliced_and_repeats_left_out() {
    let node = json!({"anyOf": [{"enum": [1, 2]}, {"anyOf": [{"const": 3}, {"enum": [1, 2]}]}]});
    let (node, _) = simplified(node, json!({}));
    assert_eq!(node, json!({"anyOf": [{"enum": [1, 2]}, {"const": 3}]}));
}

#[test]
fn a_lone_alternative_replaces_its_any_of_but_not_beside_other_keywords() {
    let (node, _) = simplified(json!({"anyOf": [{"type": "string"}]}), json!({}));
    assert_eq!(node, json!({"type": "string"}));
    let kept = json!({"type": "object", "anyOf": [{"required": ["a"]}]});
    assert_eq!(simplified(kept.clone(), json!({})).0, kept);
}

#[test]
fn what_accepts_everything_is_dropped() {
    let node = json!({"type": "object", "additionalProperties": {}, "properties": {
        "a": {"anyOf": [{"type": "null"}, {}]},
        "b": {"additionalProperties": true, "type": "object"},
        "c": {"additionalProperties": false}
    }});
    let (node, _) = simplified(node, json!({}));
    assert_eq!(
        node,
        json!({"type": "object", "properties": {"a": {}, "b": {"type": "object"}, "c": {"additionalProperties": false}}})
    );
}

#[test]
fn a_definition_used_once_from_outside_the_definitions_is_inlined() {
    let node = json!({"properties": {"q": {"anyOf": [{"type": "null"}, {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}]}}});
    let defs =
        json!({"#/$defs/P": {"type": "object", "properties": {"page": {"type": "integer"}}}});
    let (node, defs) = simplified(node, defs);
    assert_eq!(
        node,
        json!({"properties": {"q": {"type": ["null", "object"], "properties": {"page": {"type": "integer"}}}}})
    );
    assert_eq!(defs, json!({}));
}

#[test]
fn recursive_shared_and_accompanied_definitions_stay() {
    let node = json!({"properties": {
        "tree": {"$ref": "#/$defs/T"},
        "x": {"$ref": "#/$defs/S"}, "y": {"$ref": "#/$defs/S"},
        "z": {"$ref": "#/$defs/A", "type": "object"}
    }});
    let defs = json!({
        "#/$defs/T": {"type": "array", "items": {"$ref": "#/$defs/T"}},
        "#/$defs/S": {"type": "string"},
        "#/$defs/A": {"required": ["a"]}
    });
    let (after, kept) = simplified(node.clone(), defs.clone());
    assert_eq!((after, kept), (node, defs));
}

#[test]
fn values_and_names_are_not_read_as_schemas() {
    let node = json!({
        "const": {"anyOf": [{"anyOf": [1]}], "additionalProperties": {}},
        "enum": [{"$ref": "#/$defs/P"}],
        "properties": {"anyOf": {"type": "string"}, "$ref": {"type": "null"}},
        "x": {"$ref": "#/$defs/P"}
    });
    let defs = json!({"#/$defs/P": {"type": "integer"}});
    let (after, kept) = simplified(node.clone(), defs.clone());
    let mut expected = node;
    expected["x"] = json!({"type": "integer"});
    assert_eq!((after, kept), (expected, json!({})));
}

#[test]
fn alternatives_of_distinct_types_are_joined() {
    let integer_text = json!({"type": "string", "pattern": "^ *-?[0-9]+ *$"});
    let node = json!({"anyOf": [{"type": "null"}, {"anyOf": [{"type": "integer", "minimum": 1}, integer_text]}]});
    assert_eq!(
        simplified(node, json!({})).0,
        json!({"type": ["null", "integer", "string"], "minimum": 1, "pattern": "^ *-?[0-9]+ *$"})
    );
    // Numbers with other bounds than the integers, and keywords of other types, stay apart.
    let apart = json!({"anyOf": [
        {"type": "integer", "minimum": 1},
        {"type": "number", "maximum": 5},
        {"type": "string", "minimum": 3},
        {"type": "boolean", "enum": [true]}
    ]});
    assert_eq!(simplified(apart.clone(), json!({})).0, apart);
    let same = json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": ["number", "null"], "minimum": 1}]});
    assert_eq!(
        simplified(same, json!({})).0,
        json!({"type": ["integer", "number", "null"], "minimum": 1})
    );
}

#[test]
fn the_simplified_schema_accepts_what_the_original_accepts() {
    let schemas = [
        json!({"anyOf": [{"type": "null"}, {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[0-9]+$"}]}]}),
        json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "number", "maximum": 5}, {"type": "object", "required": ["a"]}]}),
        json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": ["number", "null"], "minimum": 1}, {"type": "array", "items": {"type": "string"}}]}),
        json!({"type": "object", "properties": {"q": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/P"}]}}, "$defs": {"P": {"type": "object", "additionalProperties": {}, "properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 2}]}}}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}, "b": {"$ref": "#/$defs/N"}}, "$defs": {"N": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 2}]}}}),
    ];
    let values = [
        json!({"a": 1}),
        json!({"a": null, "b": 3}),
        json!({"b": "3"}),
        json!(null),
        json!(true),
        json!(0),
        json!(1),
        json!(3.5),
        json!(0.5),
        json!(7),
        json!("12"),
        json!("x"),
        json!("xy"),
        json!([]),
        json!(["a"]),
        json!([1]),
        json!({}),
        json!({"a": 1}),
        json!({"q": null}),
        json!({"q": {"n": 1}}),
        json!({"q": {"n": "a"}}),
        json!({"q": {"n": "ab", "z": 1}}),
        json!({"q": 3}),
    ];
    for schema in schemas {
        let mut node = schema.clone();
        // Definitions by the pointer references use, as the weakener hands them over.
        let mut defs = Map::new();
        if let Some(Value::Object(d)) = node.as_object_mut().and_then(|o| o.remove("$defs")) {
            for (k, v) in d {
                defs.insert(format!("#/$defs/{k}"), v);
            }
        }
        simplify(&mut node, &mut defs);
        if !defs.is_empty() {
            // Back under the names the references point at.
            let named = defs
                .into_iter()
                .map(|(k, v)| (k["#/$defs/".len()..].to_owned(), v));
            node["$defs"] = Value::Object(named.collect());
        }
        for v in &values {
            assert_eq!(
                crate::schema::validate(&schema, v).is_ok(),
                crate::schema::validate(&node, v).is_ok(),
                "{schema} as {node} for {v}"
            );
        }
    }
}

/// A schema whose property `a` is an array of arrays ... of integers, `length` levels deep,
/// each level a definition used once; and property `c` a cycle of two definitions.
fn chain(length: usize) -> (Value, Map<String, Value>) {
    let pointer = |i: usize| format!("#/$defs/D{i}");
    let mut defs = Map::new();
    for i in 0..length {
        let body = if i + 1 < length {
            json!({"type": "array", "items": {"$ref": pointer(i + 1)}})
        } else {
            json!({"type": "integer"})
        };
        defs.insert(pointer(i), body);
    }
    defs.insert("#/$defs/A".into(), json!({"items": {"$ref": "#/$defs/B"}}));
    defs.insert("#/$defs/B".into(), json!({"items": {"$ref": "#/$defs/A"}}));
    let node = json!({"properties": {"a": {"$ref": pointer(0)}, "c": {"$ref": "#/$defs/A"}}});
    (node, defs)
}

#[test]
fn a_chain_of_definitions_used_once_is_inlined_in_one_walk_to_a_bounded_depth() {
    let length = 3000;
    let (mut node, mut defs) = chain(length);
    simplify(&mut node, &mut defs);
    // The cycle stays: B is only reachable through A, which is used twice.
    assert!(defs.contains_key("#/$defs/A") && defs.contains_key("#/$defs/B"));
    // The chain's head is inlined down to the depth bound; the rest stays behind references.
    let mut inlined = 0;
    let mut at = &node["properties"]["a"];
    while let Some(next) = at.get("items") {
        inlined += 1;
        at = next;
    }
    assert!(inlined > 10, "{inlined}");
    assert_eq!(at["$ref"], format!("#/$defs/D{inlined}"));
    assert_eq!(defs.len(), length - inlined + 2);
    assert!(depth_of(&node) <= MAX_DEPTH);
}

#[test]
fn a_chain_inlined_in_part_checks_what_it_checked_before() {
    let length = 60;
    let (mut node, mut defs) = chain(length);
    let named = |defs: Map<String, Value>| -> Value {
        let named = defs
            .into_iter()
            .map(|(k, v)| (k["#/$defs/".len()..].to_owned(), v));
        Value::Object(named.collect())
    };
    let mut original = node.clone();
    original["$defs"] = named(defs.clone());
    simplify(&mut node, &mut defs);
    assert!(defs.len() > 2, "the depth bound leaves part of the chain");
    node["$defs"] = named(defs);
    let nested = |levels: usize| (0..levels).fold(json!(7), |v, _| json!([v]));
    for v in [
        nested(length - 1),
        nested(length - 2),
        nested(length),
        json!([[["x"]]]),
    ] {
        let v = json!({"a": v, "c": [[[]]]});
        assert_eq!(
            crate::schema::validate(&node, &v).is_ok(),
            crate::schema::validate(&original, &v).is_ok()
        );
    }
    assert!(crate::schema::validate(&node, &json!({"a": nested(length - 1)})).is_ok());
}

#[test]
fn a_huge_any_of_is_simplified_without_comparing_every_pair() {
    let mut alternatives: Vec<Value> = (0..20_000).map(|i| json!({"const": i})).collect();
    alternatives.extend((0..20_000).map(|_| json!({"type": "null"})));
    alternatives.extend((0..20_000).map(|_| json!({"type": "string", "minLength": 1})));
    let (node, _) = simplified(json!({"anyOf": alternatives}), json!({}));
    let kept = node["anyOf"].as_array().expect("anyOf");
    // The typed alternatives are joined into one; repeats among the first ones are left out.
    assert_eq!(
        kept.last(),
        Some(&json!({"type": ["null", "string"], "minLength": 1}))
    );
    for v in [json!(5), json!(null), json!("x"), json!(""), json!(20_001)] {
        let original = (0..20_000).any(|i| v == json!(i))
            || v.is_null()
            || v.as_str().is_some_and(|s| !s.is_empty());
        assert_eq!(crate::schema::validate(&node, &v).is_ok(), original, "{v}");
    }
}

mod generated {
    use super::*;
    use crate::moviepilot::schema::Weakener;
    use proptest::prelude::*;

    /// Schemas of the shapes the weakener meets: types, bounds, patterns, values, properties,
    /// items and nested `anyOf`, with references to two definitions (one may refer to itself).
    fn schema() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!({})),
            prop::sample::select(vec![
                "null", "boolean", "integer", "number", "string", "array", "object"
            ])
            .prop_map(|t| json!({"type": t})),
            (prop::sample::select(vec!["integer", "number"]), -2i64..3)
                .prop_map(|(t, n)| json!({"type": t, "minimum": n})),
            (0u64..3).prop_map(|n| json!({"type": "string", "minLength": n})),
            // Keywords of another type: they check nothing here.
            (prop::sample::select(vec!["string", "null"]), 0i64..3)
                .prop_map(|(t, n)| json!({"type": t, "minimum": n, "minLength": n})),
            Just(json!({"type": "string", "pattern": "^ *-?[0-9]+ *$"})),
            prop::sample::select(vec![
                json!({"const": 1}),
                json!({"enum": [null, "a"]}),
                json!({"$ref": "#/$defs/L"}),
                json!({"$ref": "#/$defs/T"})
            ]),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..4).prop_map(|a| json!({"anyOf": a})),
                prop::collection::vec(inner.clone(), 1..3).prop_map(|a| json!({"oneOf": a})),
                (inner.clone(), any::<bool>()).prop_map(|(p, required)| {
                    let required: Vec<&str> = if required { vec!["p"] } else { vec![] };
                    json!({"type": "object", "properties": {"p": p}, "required": required})
                }),
                inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
                (inner.clone(), inner).prop_map(|(a, b)| json!({"type": ["object", "null"], "additionalProperties": a, "anyOf": [b]})),
            ]
        })
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(Value::from),
            (-3i64..4).prop_map(Value::from),
            Just(json!(1.5)),
            prop::sample::select(vec!["", "a", "12", " -3 ", "x1"]).prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 16, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                (inner.clone(), any::<bool>()).prop_map(|(v, q)| if q {
                    json!({"p": v})
                } else {
                    json!({"p": v, "q": 1})
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn simplifying_a_weakened_schema_changes_nothing_it_accepts(
            root in schema(), looped in schema(), other in schema(), values in prop::collection::vec(value(), 8)
        ) {
            // `T` refers to itself through `items`, `L` is a plain definition.
            let mut root = root;
            if let Some(o) = root.as_object_mut() {
                o.insert("$defs".into(), json!({"T": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/T"}}, looped]}, "L": other}));
            }
            let simplified = Weakener::new(&root).weaken(&root);
            let unsimplified = Weakener::new(&root).weaken_unsimplified(&root);
            for v in &values {
                prop_assert_eq!(
                    crate::schema::validate(&simplified, v).is_ok(),
                    crate::schema::validate(&unsimplified, v).is_ok(),
                    "{} as {} for {}", unsimplified, simplified, v
                );
            }
        }
    }
}
