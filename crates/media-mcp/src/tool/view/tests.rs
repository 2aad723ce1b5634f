use super::*;
use crate::contract::ErrorCode;
use core::cell::Cell;
use serde_json::{Map, json};

/// A handler that counts its runs and says which view it is.
type Probe = fn(&Cell<u32>) -> &'static str;

fn list(runs: &Cell<u32>) -> &'static str {
    runs.set(runs.get() + 1);
    "list"
}

fn detail(runs: &Cell<u32>) -> &'static str {
    runs.set(runs.get() + 1);
    "detail"
}

static VIEWS: Views<Probe> = Views {
    field: "view",
    default: Some("list"),
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "list",
            description: "a page of things",
            families: &["thing_page"],
            handler: list,
        },
        View {
            name: "detail",
            description: "one thing (by id)",
            families: &["thing_page", "metrics"],
            handler: detail,
        },
    ],
};

fn args(schema: &Value, given: Value) -> Args {
    let Value::Object(map) = given else {
        unreachable!()
    };
    Args::from_schema(schema, map)
}

#[test]
fn the_property_is_written_from_the_table() {
    assert_eq!(
        VIEWS.property(),
        json!({
            "enum": ["list", "detail"],
            "default": "list",
            "description": "list: a page of things; detail: one thing (by id)."
        })
    );
}

#[test]
fn a_selector_without_default_has_no_default() {
    let required = Views {
        default: None,
        ..VIEWS
    };
    let property = required.property();
    assert!(property.get("default").is_none(), "{property}");
    assert_eq!(property["enum"], json!(["list", "detail"]));
}

#[test]
fn each_gloss_writes_its_form() {
    let views: &[View<Probe>] = &[
        View {
            name: "one",
            description: "the first",
            families: &[],
            handler: list,
        },
        View {
            name: "two",
            description: "",
            families: &[],
            handler: list,
        },
        View {
            name: "three",
            description: "the third",
            families: &[],
            handler: list,
        },
    ];
    let written = |gloss, intro, sep, last| {
        Views {
            field: "which",
            default: None,
            prose: Prose::Joined {
                intro,
                gloss,
                sep,
                last,
                end: ".",
            },
            views,
        }
        .description()
    };
    assert_eq!(
        written(Gloss::Paren, "Pick: ", ", ", ", or "),
        "Pick: one (the first), two, or three (the third)."
    );
    assert_eq!(
        written(Gloss::Space, "", "; ", "; "),
        "one the first; two ; three the third."
    );
    assert_eq!(
        written(Gloss::Bare, "Pick ", ", ", " or "),
        "Pick the first,  or the third."
    );
}

#[test]
fn whole_prose_is_the_selectors_own_text() {
    let views: &[View<Probe>] = &[
        View {
            name: "one",
            description: "",
            families: &[],
            handler: list,
        },
        View {
            name: "two",
            description: "",
            families: &[],
            handler: detail,
        },
    ];
    let whole = Views {
        field: "which",
        default: None,
        prose: Prose::Whole("Whatever the id names."),
        views,
    };
    assert_eq!(
        whole.property(),
        json!({"enum": ["one", "two"], "description": "Whatever the id names."})
    );
}

#[test]
fn an_unknown_name_is_an_invalid_argument_naming_the_field_and_runs_nothing() {
    let runs = Cell::new(0);
    let schema = json!({"properties": {"view": VIEWS.property()}});
    let unknown = args(&schema, json!({"view": "summary"}));
    let err = VIEWS
        .select(&unknown)
        .map(|v| (v.handler)(&runs))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert_eq!(err.field.as_deref(), Some("view"));
    assert!(err.message.contains("\"summary\""), "{}", err.message);
    assert_eq!(runs.get(), 0);
    assert!(VIEWS.get("").is_err());
}

#[test]
fn the_named_view_runs_and_an_absent_one_is_the_schema_default() {
    let runs = Cell::new(0);
    let schema = json!({"properties": {"view": VIEWS.property()}});
    let given = args(&schema, json!({"view": "detail"}));
    assert_eq!((VIEWS.select(&given).unwrap().handler)(&runs), "detail");
    let absent = args(&schema, Value::Object(Map::new()));
    assert_eq!((VIEWS.select(&absent).unwrap().handler)(&runs), "list");
    assert_eq!(runs.get(), 2);
}

#[test]
fn the_table_answers_for_its_views_through_the_trait() {
    let table: &dyn ViewTable = &VIEWS;
    assert_eq!(table.field(), "view");
    assert_eq!(table.names(), ["list", "detail"]);
    assert_eq!(table.property(), VIEWS.property());
    assert_eq!(
        table.families("detail"),
        Some(&["thing_page", "metrics"][..])
    );
    assert_eq!(table.families("summary"), None);
}
