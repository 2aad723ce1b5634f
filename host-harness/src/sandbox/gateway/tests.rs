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
