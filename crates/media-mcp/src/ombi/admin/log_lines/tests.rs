use super::*;

#[test]
fn query_keys_headers_and_bearer_tokens_are_redacted() {
    let (l, r, _) =
        sanitize_line("GET https://api.themoviedb.org/3/movie/603?api_key=abc123&language=en done");
    assert!(
        r && !l.contains("abc123") && l.contains("language=en"),
        "{l}"
    );
    let (l, _, _) = sanitize_line("Headers: ApiKey: s3cr3t UserName: bob");
    assert!(!l.contains("s3cr3t") && l.contains("bob"), "{l}");
    let (l, _, _) = sanitize_line("Authorization: Bearer eyJhbGciOi");
    assert!(!l.contains("eyJhbGciOi"), "{l}");
}

#[test]
fn connection_strings_urls_with_users_and_opaque_tokens_are_redacted() {
    let (l, _, _) = sanitize_line("Server=db;User Id=sa;Password=hunter2;Database=ombi");
    assert!(!l.contains("hunter2") && l.contains("Database=ombi"), "{l}");
    let (l, _, _) = sanitize_line("calling http://admin:pw@sonarr:8989/api/v3");
    assert!(!l.contains("admin:pw") && l.contains("sonarr:8989"), "{l}");
    let (l, _, _) = sanitize_line("key 0123456789abcdef0123456789abcdef used by alice@example.org");
    assert!(
        !l.contains("0123456789abcdef") && !l.contains("alice@"),
        "{l}"
    );
}

#[test]
fn ordinary_lines_survive_and_long_lines_are_bounded() {
    let raw = "2026-05-02 22:04:51.123 +00:00 [INF] Ombi.Schedule.Jobs.Plex.PlexContentSync: Starting Plex Content Cacher";
    assert_eq!(sanitize_line(raw), (raw.to_owned(), false, false));
    let (l, _, cut) = sanitize_line(&"x ".repeat(800));
    assert!(cut && l.chars().count() == MAX_LINE_CHARS + 1);
    let (l, _, _) = sanitize_line("a\u{7}b\u{1b}[31mc");
    assert!(!l.chars().any(char::is_control));
}
