use super::*;
use serde_json::json;

#[test]
fn strings_and_keys_are_rewritten_at_every_depth() {
    let mut value = json!({"a\u{200b}": ["x\u{202e}", {"k": "v\u{feff}", "n": 1}], "b": null});
    assert!(rewrite_strings(&mut value, &mut strip_format));
    assert_eq!(value, json!({"a": ["x", {"k": "v", "n": 1}], "b": null}));
    assert!(!rewrite_strings(&mut value, &mut strip_format));
}
