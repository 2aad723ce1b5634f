//! Sanitizing Ombi log lines for `read_logs`: values that look
//! like credentials are redacted (`api_key=` query values logged by the TMDB client, `ApiKey:`
//! headers, bearer tokens, passwords in connection strings, user info in URLs, long opaque
//! tokens, e-mail addresses), control characters go, and each line is bounded.

use crate::prelude::*;
/// Longest line returned, in characters.
pub const MAX_LINE_CHARS: usize = 1000;

/// Parameter names whose values are secrets (matched case-insensitively before `=` or `:`).
const SECRET_NAMES: &[&str] = &[
    "api_key",
    "apikey",
    "api-key",
    "x-api-key",
    "access_token",
    "refresh_token",
    "token",
    "password",
    "pwd",
    "secret",
    "client_secret",
    "signature",
    "sig",
    "authorization",
    "useraccesstoken",
    "mediaservertoken",
    "x-plex-token",
];

/// A sanitized line, and whether anything was redacted and whether it was shortened.
pub fn sanitize_line(raw: &str) -> (String, bool, bool) {
    let clean: String = raw
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let mut redacted = false;
    let mut out: Vec<String> = Vec::new();
    let mut redact_next = false;
    for word in clean.split(' ') {
        // `Authorization: Bearer <token>`: the scheme word stays, the token after it goes.
        if redact_next && matches!(word.to_ascii_lowercase().as_str(), "bearer" | "basic") {
            out.push(word.to_owned());
            continue;
        }
        if redact_next && !word.is_empty() {
            redact_next = false;
            redacted = true;
            out.push("[redacted]".to_owned());
            continue;
        }
        let lower = word.to_ascii_lowercase();
        // `ApiKey: value`, `Authorization: Bearer value`, `Bearer value`.
        if lower == "bearer"
            || SECRET_NAMES
                .iter()
                .any(|n| lower.trim_end_matches(':') == *n && lower.ends_with(':'))
        {
            redact_next = true;
            out.push(word.to_owned());
            continue;
        }
        let (w, r) = redact_word(word);
        redacted |= r;
        out.push(w);
    }
    let joined = out.join(" ");
    let shortened = joined.chars().count() > MAX_LINE_CHARS;
    let line = if shortened {
        format!(
            "{}…",
            joined.chars().take(MAX_LINE_CHARS).collect::<String>()
        )
    } else {
        joined
    };
    (line, redacted, shortened)
}

/// One whitespace-free word with its secret parts replaced.
fn redact_word(word: &str) -> (String, bool) {
    let mut w = word.to_owned();
    let mut redacted = false;
    // user:password@ in URLs.
    if let Some(scheme_end) = w.find("://") {
        let rest = &w[scheme_end + 3..];
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            w = format!("{}[redacted]@{}", &w[..scheme_end + 3], &rest[at + 1..]);
            redacted = true;
        }
    }
    // name=value pairs (query strings, connection strings).
    let (pairs, r) = redact_pairs(&w);
    w = pairs;
    redacted |= r;
    let alnum = w.chars().filter(char::is_ascii_alphanumeric).count();
    let opaque = alnum >= 32
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=+/.".contains(c))
        && w.chars().any(|c| c.is_ascii_digit());
    let email = w.contains('@')
        && !w.contains("://")
        && w.split('@').nth(1).is_some_and(|d| d.contains('.'));
    if opaque || email {
        return ("[redacted]".to_owned(), true);
    }
    (w, redacted)
}

/// Replaces the value of every `secret_name=value` pair (up to `&`, `;`, `,` or a quote).
fn redact_pairs(word: &str) -> (String, bool) {
    let lower = word.to_ascii_lowercase();
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    let mut redacted = false;
    while i < word.len() {
        let hit = SECRET_NAMES.iter().find_map(|n| {
            let starts_token = i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric();
            (starts_token && lower[i..].starts_with(n) && lower[i + n.len()..].starts_with('='))
                .then_some(n.len() + 1)
        });
        match hit {
            Some(len) => {
                out.push_str(&word[i..i + len]);
                let rest = &word[i + len..];
                let end = rest.find(['&', ';', ',', '"', '\'']).unwrap_or(rest.len());
                if end > 0 {
                    out.push_str("[redacted]");
                    redacted = true;
                }
                i += len + end;
            }
            None => {
                let ch = word[i..].chars().next().expect("i < len");
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    (out, redacted)
}

#[cfg(test)]
mod tests;
