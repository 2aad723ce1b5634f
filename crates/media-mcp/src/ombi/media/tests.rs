use super::*;

#[test]
fn min_value_dates_are_absent() {
    assert_eq!(year_of("0001-01-01T00:00:00Z"), None);
    assert_eq!(year_of("1999-03-30T00:00:00Z"), Some(1999));
}

#[test]
fn artwork_uris_are_validated() {
    assert_eq!(
        safe_artwork_uri(Some(&json!("/f89.jpg"))).as_deref(),
        Some("https://image.tmdb.org/t/p/original/f89.jpg")
    );
    assert_eq!(
        safe_artwork_uri(Some(&json!("https://static.tvmaze.com/a.jpg"))).as_deref(),
        Some("https://static.tvmaze.com/a.jpg")
    );
    assert_eq!(safe_artwork_uri(Some(&json!("http://x/a.jpg"))), None);
    assert_eq!(safe_artwork_uri(Some(&json!("https://u:p@x/a.jpg"))), None);
    assert_eq!(
        safe_artwork_uri(Some(&json!("https://x/a.jpg?apikey=1"))),
        None
    );
    assert_eq!(safe_artwork_uri(Some(&json!("javascript:alert(1)"))), None);
}

#[test]
fn media_artwork_follows_the_one_artwork_rule() {
    // The same rule as read_library's artwork view: a known image host, a raster type, no SVG.
    for refused in [
        "https://evil.example/a.jpg",
        "https://image.tmdb.org/t/p/original/a.svg",
        "https://image.tmdb.org:8443/t/p/original/a.jpg",
        "https://image.tmdb.org/t/p/original/a.html",
    ] {
        assert_eq!(safe_artwork_uri(Some(&json!(refused))), None, "{refused}");
    }
    for raw in ["/f89.jpg", "https://assets.fanart.tv/fanart/a.png"] {
        assert_eq!(
            safe_artwork_uri(Some(&json!(raw))),
            artwork_uri(raw).map(|(u, _)| u),
            "{raw}"
        );
    }
}

#[test]
fn absent_fields_stay_absent() {
    let mut m = MediaItem::new("movie");
    m.text("title", Some(&json!(null)))
        .flag("available", None)
        .year_from(Some(&json!("0001-01-01T00:00:00Z")));
    assert_eq!(m.into_json(), json!({"media": "movie", "identifiers": []}));
}
