use super::*;

fn spec(name: &str) -> ListedTool {
    ListedTool {
        name: name.into(),
        title: "T".into(),
        description: "d \"quoted\"".into(),
        input_schema: r#"{"type":"object"}"#.into(),
        output_schema: r#"{"type":"object"}"#.into(),
        annotations: "{}".into(),
    }
}

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn listing_keys_cover_the_component_and_every_variable() {
    let a = [1u8; 32];
    let base = listing_key(&a, &env(&[("OMBI_URL", "http://x")]));
    assert_eq!(base, listing_key(&a, &env(&[("OMBI_URL", "http://x")])));
    assert_ne!(
        base,
        listing_key(&[2u8; 32], &env(&[("OMBI_URL", "http://x")]))
    );
    assert_ne!(base, listing_key(&a, &env(&[("OMBI_URL", "http://y")])));
    assert_ne!(
        base,
        listing_key(&a, &env(&[("OMBI_URL", "http://x"), ("B", "")]))
    );
    // Concatenation cannot collide: ("ab","c") and ("a","bc") differ.
    assert_ne!(
        listing_key(&a, &env(&[("ab", "c")])),
        listing_key(&a, &env(&[("a", "bc")]))
    );
    assert!(!base.contains("http"));
}

#[test]
fn listings_round_trip_and_damaged_files_are_ignored() {
    let dir = std::env::temp_dir().join(format!("media-mcp-listing-{}", std::process::id()));
    let specs = vec![spec("read_a"), spec("read_b")];
    store_listing(&dir, "k", &specs).unwrap();
    assert_eq!(load_listing(&dir, "k"), Some(specs));
    assert_eq!(load_listing(&dir, "missing"), None);
    std::fs::write(listing_path(&dir, "bad"), b"[{\"name\": 1}]").unwrap();
    assert_eq!(load_listing(&dir, "bad"), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
