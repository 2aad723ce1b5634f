use super::*;
use serde_json::json;

#[test]
fn messages_parse_to_the_same_value_as_serde_json() {
    let text = r#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"c":"\u00e9\n","d":18446744073709551615}"#;
    let parsed = parse(text.as_bytes()).unwrap();
    assert_eq!(parsed.value, serde_json::from_str::<Value>(text).unwrap());
    assert_eq!(parsed.duplicate, None);
    assert!(matches!(parse(b"{\"a\":1} x"), Err(Refusal::Syntax(_))));
    assert!(matches!(parse(b"{\"a\":"), Err(Refusal::Syntax(_))));
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(matches!(parse(deep.as_bytes()), Err(Refusal::Syntax(_))));
}

#[test]
fn every_value_counts_and_one_past_the_budget_is_refused() {
    // The object, its array and the array's items.
    let at = json!({"pad": vec![0; MAX_MESSAGE_VALUES - 2]}).to_string();
    assert!(parse(at.as_bytes()).is_ok());
    let over = json!({"pad": vec![0; MAX_MESSAGE_VALUES - 1]}).to_string();
    assert!(matches!(
        parse(over.as_bytes()),
        Err(Refusal::TooManyValues)
    ));
    let objects = json!(vec![json!({}); MAX_MESSAGE_VALUES]).to_string();
    assert!(matches!(
        parse(objects.as_bytes()),
        Err(Refusal::TooManyValues)
    ));
    // A line of four million zeros is refused without being read whole.
    let zeros = format!("[{}0]", "0,".repeat(4_000_000));
    assert!(matches!(
        parse(zeros.as_bytes()),
        Err(Refusal::TooManyValues)
    ));
}

#[test]
fn the_first_key_given_twice_is_reported_with_its_path() {
    let dup = |text: &str| parse(text.as_bytes()).unwrap().duplicate.unwrap();
    assert_eq!(
        dup(r#"{"id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#),
        Duplicate {
            path: "params".into(),
            key: "name".into()
        }
    );
    assert_eq!(
        dup(r#"{"id":1,"id":2}"#),
        Duplicate {
            path: String::new(),
            key: "id".into()
        }
    );
    let nested = dup(r#"{"params":{"arguments":{"tags":[1,{"x":1,"x":2}]},"y":1,"y":2}}"#);
    assert_eq!(
        (nested.path.as_str(), nested.key.as_str()),
        ("params.arguments.tags[1]", "x")
    );
    let last = parse(br#"{"a":1,"a":2}"#).unwrap();
    assert_eq!(last.value, json!({"a": 2}));
    assert_eq!(parse(br#"{"a":{"a":1}}"#).unwrap().duplicate, None);
}
