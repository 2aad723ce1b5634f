use super::*;
use crate::config::{Overrides, RawSettings, Settings};

const KEY: &str = "0123456789abcdef0123456789abcdef";

fn policy() -> Policy {
    let raw = RawSettings::from_env(
        [("OMBI_URL", "http://127.0.0.1:5000"), ("OMBI_API_KEY", KEY)]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    Policy::from_settings(&Settings::validate(&raw, &Overrides::default()).unwrap())
}

#[test]
fn an_echoed_key_is_replaced_in_json_and_sse_answers() {
    let json = format!(r#"{{"result":{{"text":"key {KEY}"}}}}"#);
    let cleaned = redact_body(&policy(), "application/json", json.as_bytes()).unwrap();
    assert!(!String::from_utf8_lossy(&cleaned).contains(KEY));
    assert!(String::from_utf8_lossy(&cleaned).contains("[redacted]"));
    let sse = format!("event: message\ndata: {json}\n\n");
    let cleaned = redact_body(&policy(), "text/event-stream", sse.as_bytes()).unwrap();
    let text = String::from_utf8_lossy(&cleaned);
    assert!(
        text.starts_with("event: message\ndata: {") && !text.contains(KEY),
        "{text}"
    );
}

#[test]
fn answers_without_a_key_are_left_alone() {
    assert_eq!(
        redact_body(&policy(), "application/json", br#"{"ok":true}"#),
        None
    );
    assert_eq!(redact_body(&policy(), "text/plain", KEY.as_bytes()), None);
}

#[test]
fn a_key_split_by_a_line_break_is_gone_from_the_text_block_too() {
    // The text block is serialized JSON: the line break inside the key is the escape `\n`
    // there, which the search cannot step over, so the block is rebuilt from the redacted
    // structured result.
    let structured =
        json!({"error": {"message": format!("key was {}\n{}", &KEY[..16], &KEY[16..])}});
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {
        "content": [{"type": "text", "text": structured.to_string()}],
        "structuredContent": structured,
        "isError": true,
    }});
    for (content_type, body) in [
        ("application/json", answer.to_string()),
        (
            "text/event-stream",
            format!("event: message\ndata: {answer}\n\n"),
        ),
    ] {
        let cleaned = redact_body(&policy(), content_type, body.as_bytes()).unwrap();
        let text = String::from_utf8_lossy(&cleaned);
        let json_part = text.trim().trim_start_matches("event: message\ndata: ");
        let value: Value = serde_json::from_str(json_part).unwrap();
        let block = value["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(block).unwrap(),
            value["result"]["structuredContent"]
        );
        assert!(block.contains("key was [redacted]"), "{block}");
        assert!(
            !text.contains(&KEY[..16]) && !text.contains(&KEY[16..]),
            "{text}"
        );
    }
}
