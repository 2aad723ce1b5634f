use super::*;

#[test]
fn only_https_allowlisted_raster_images_pass() {
    assert_eq!(
        validate("/abc.jpg"),
        Some((
            "https://image.tmdb.org/t/p/original/abc.jpg".into(),
            "image/jpeg"
        ))
    );
    assert_eq!(
        validate("https://assets.fanart.tv/fanart/movies/603/a.png").map(|v| v.1),
        Some("image/png")
    );
    for bad in [
        "http://assets.fanart.tv/a.jpg",
        "https://user:pw@assets.fanart.tv/a.jpg",
        "https://assets.fanart.tv:8443/a.jpg",
        "https://assets.fanart.tv/a.jpg?api_key=1",
        "https://evil.example/a.jpg",
        "https://assets.fanart.tv/a.svg",
        "https://assets.fanart.tv/a.html",
        "https://assets.fanart.tv/../a.jpg",
        "javascript:alert(1)",
        "/../etc.jpg",
        "//evil.example/a.jpg",
        "<html>",
    ] {
        assert_eq!(validate(bad), None, "{bad}");
    }
}

#[test]
fn banner_routes_are_labelled_by_what_they_return() {
    assert_eq!(
        plan("movie", "banner", "tmdb", "603").unwrap().kind,
        "background"
    );
    assert!(
        plan("movie", "banner", "tmdb", "603")
            .unwrap()
            .path
            .contains("/background/movie/")
    );
    assert_eq!(
        plan("tv", "banner", "tvdb", "81189").unwrap().kind,
        "season_poster"
    );
    assert!(plan("tv", "banner", "tmdb", "1").is_none());
}
