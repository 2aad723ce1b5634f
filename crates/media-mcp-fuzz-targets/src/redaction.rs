//! Target `redaction`: the harness's removal of configured keys from results
//! (`Policy::redact_secrets`) over any text, with the key planted in it as written, upper-cased
//! or split by any character.
//!
//! Input: byte 0 picks the key's length (8 to 32), the next bytes its characters (from
//! `[a-z0-9._-]`), the rest is the text (lossy UTF-8) in which U+0001 stands for the key,
//! U+0002 for the key upper-cased and U+0003 for the key with the character after the U+0003
//! put in its middle.
//!
//! Properties: no panic; afterwards the key appears nowhere in the string, also after
//! removing what the redactor steps over (invisible characters, white space) and lower-casing,
//! and also when line breaks and controls were folded into spaces first (as error text is); a redacted object key reads
//! the same as a redacted string; redacting twice changes nothing more.

use host_harness::config::{Overrides, RawSettings, Settings};
use host_harness::policy::{Policy, REDACTED, splits_keys};
use serde_json::Value;

const KEY_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789._-";

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&length, rest)) = data.split_first() else {
        return;
    };
    let length = 8 + usize::from(length) % 25;
    if rest.len() < length {
        return;
    }
    let (key_bytes, text_bytes) = rest.split_at(length);
    let key: String = key_bytes
        .iter()
        .map(|b| char::from(KEY_ALPHABET[usize::from(*b) % KEY_ALPHABET.len()]))
        .collect();
    if REDACTED.contains(&key) {
        // The marker itself would read as the key.
        return;
    }
    let text = plant(&String::from_utf8_lossy(text_bytes), &key);
    let raw = RawSettings::from_env([
        ("OMBI_URL", "http://127.0.0.1:9".to_owned()),
        ("OMBI_API_KEY", key.clone()),
    ]);
    let settings = Settings::validate(&raw, &Overrides::default()).expect("a valid key");
    let policy = Policy::from_settings(&settings);

    let mut value = Value::String(text.clone());
    let hit = policy.redact_secrets(&mut value);
    let Value::String(clean) = &value else {
        unreachable!("a string stays a string")
    };
    assert_eq!(
        hit,
        clean != &text,
        "the hit flag says whether the text changed"
    );
    let seen: String = clean
        .chars()
        .filter(|c| !splits_keys(*c))
        .map(lower)
        .collect();
    assert!(!seen.contains(&key), "the key survived in {clean:?}");

    let folded: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut value_folded = Value::String(folded);
    policy.redact_secrets(&mut value_folded);
    let seen_folded: String = value_folded
        .as_str()
        .unwrap_or_default()
        .chars()
        .filter(|c| !splits_keys(*c))
        .map(lower)
        .collect();
    assert!(
        !seen_folded.contains(&key),
        "the key survived line breaks folded into spaces: {value_folded:?}"
    );

    let mut object = Value::Object([(text, Value::Null)].into_iter().collect());
    policy.redact_secrets(&mut object);
    let as_key = object.as_object().and_then(|o| o.keys().next().cloned());
    assert_eq!(as_key.as_deref(), Some(clean.as_str()));

    let mut again = value.clone();
    assert!(
        !policy.redact_secrets(&mut again),
        "a second pass found more"
    );
}

/// `c` lower-cased when that gives one character.
fn lower(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Replaces the markers of `text` by forms of `key`.
fn plant(text: &str, key: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\u{1}' => out.push_str(key),
            '\u{2}' => out.push_str(&key.to_uppercase()),
            '\u{3}' => {
                let (a, b) = key.split_at(key.len() / 2);
                out.push_str(a);
                out.extend(chars.next());
                out.push_str(b);
            }
            c => out.push(c),
        }
    }
    out
}
