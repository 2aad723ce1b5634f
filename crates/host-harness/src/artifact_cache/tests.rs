use super::*;

fn tool(name: &str) -> Tool {
    let schema = |text: &str| std::sync::Arc::new(serde_json::from_str(text).unwrap());
    Tool::new(
        name.to_owned(),
        "d \"quoted\"",
        schema(r#"{"type":"object","properties":{"q":{"type":"string"}}}"#),
    )
    .with_raw_output_schema(schema(r#"{"type":"object","$defs":{"x":{"const":1}}}"#))
    .with_title("T")
}

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn listing_keys_cover_the_component_file_and_every_variable() {
    let a = [1, 2, 3, 4, 5, 6, 7];
    let base = listing_key(&a, &env(&[("OMBI_URL", "http://x")]));
    assert_eq!(base, listing_key(&a, &env(&[("OMBI_URL", "http://x")])));
    for changed in 0..a.len() {
        let mut other = a;
        other[changed] += 1;
        assert_ne!(
            base,
            listing_key(&other, &env(&[("OMBI_URL", "http://x")])),
            "part {changed}"
        );
    }
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
fn a_rewritten_component_file_has_another_identity() {
    let dir = std::env::temp_dir().join(format!("media-mcp-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.wasm");
    std::fs::write(&path, b"one").unwrap();
    let first = file_identity(&path).unwrap();
    assert_eq!(file_identity(&path), Some(first));
    // Same size, same modification time set back: the status-change time still moves.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    std::fs::write(&path, b"two").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_ne!(file_identity(&path), Some(first));
    assert_eq!(file_identity(&dir.join("missing")), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_listing_knows_the_component_it_was_made_from() {
    let digest = ComponentDigest(component_digest(b"component one"));
    assert!(digest.matches(b"component one"));
    assert!(!digest.matches(b"component two"));
}

/// The listing's text when it vouches for it.
fn unparsed(listing: &CachedListing) -> Option<&str> {
    listing.text().filter(|text| listing.vouches_for(text))
}

#[test]
fn a_listing_with_an_other_output_schema_is_parsed_before_use() {
    let dir = std::env::temp_dir().join(format!("media-mcp-outputs-{}", std::process::id()));
    let schema: rmcp::model::JsonObject =
        serde_json::from_value(serde_json::json!({"type": "array"})).unwrap();
    let mut listed = tool("read_a");
    listed.output_schema = Some(std::sync::Arc::new(schema));
    store_listing(
        &dir,
        "k",
        &component_digest(b"wasm"),
        &[listed, tool("read_b")],
    )
    .unwrap();
    let listing = load_listing(&dir, "k").unwrap();
    assert!(listing.tools().is_ok() && unparsed(&listing).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn listings_round_trip_and_damaged_files_are_ignored() {
    let dir = std::env::temp_dir().join(format!("media-mcp-listing-{}", std::process::id()));
    let tools = vec![tool("read_a"), tool("read_b")];
    let digest = component_digest(b"wasm");
    store_listing(&dir, "k", &digest, &tools).unwrap();
    let listing = load_listing(&dir, "k").unwrap();
    assert_eq!(listing.component, ComponentDigest(digest));
    assert_eq!(listing.count, 2);
    assert_eq!(listing.tools().unwrap(), tools);
    assert_eq!(
        unparsed(&listing),
        Some(serde_json::to_string(&tools).unwrap().as_str())
    );
    assert_eq!(load_listing(&dir, "missing"), None);
    // A damaged first line is no listing at all.
    for bad in ["", "[]", "00 2\n[]", &format!("{} x\n[]", "ab".repeat(32))] {
        std::fs::write(listing_path(&dir, "bad"), bad).unwrap();
        assert_eq!(load_listing(&dir, "bad"), None, "{bad}");
    }
    // Damaged tools are found when they are parsed.
    for bad in [r#"[{"name": 1}]"#, "[", "[]"] {
        let text = format!("{} 2\n{bad}", "ab".repeat(32));
        std::fs::write(listing_path(&dir, "bad"), text).unwrap();
        let listing = load_listing(&dir, "bad").unwrap();
        assert!(listing.tools().is_err(), "{bad}");
    }
    // Text that is not what was written, or an older file's header, is parsed before use.
    let written = std::fs::read_to_string(listing_path(&dir, "k")).unwrap();
    let (header, text) = written.split_once('\n').unwrap();
    let older = header.splitn(3, ' ').take(2).collect::<Vec<_>>().join(" ");
    let edited = text.replacen("read_b", "read_c", 1);
    for (name, file) in [
        ("edited", format!("{header}\n{edited}")),
        ("older", format!("{older}\n{text}")),
    ] {
        std::fs::write(listing_path(&dir, name), file).unwrap();
        let listing = load_listing(&dir, name).unwrap();
        assert!(
            listing.tools().is_ok() && unparsed(&listing).is_none(),
            "{name}"
        );
    }
    remove_listing(&dir, "k");
    assert_eq!(load_listing(&dir, "k"), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_line_break_is_found_anywhere_and_nothing_else_counts_as_one() {
    for text in ["a\nb", "\r", "{\"d\":\"盗梦空间\"}\r\n", "end\n"] {
        assert!(super::holds_line_break(text), "{text:?}");
    }
    for text in ["", "{\"d\":\"盗梦空间 \\n escaped\"}", "\u{2028}\u{85}\t"] {
        assert!(!super::holds_line_break(text), "{text:?}");
    }
}

#[test]
fn the_start_line_says_whether_the_compiled_artifact_cache_was_used() {
    let dir = Path::new("/cache");
    assert_eq!(
        Provenance::Cached.describe(Some(dir)),
        "from the compiled-artifact cache in /cache"
    );
    assert_eq!(
        Provenance::CompiledAndCached.describe(Some(dir)),
        "compiled, and stored in the compiled-artifact cache in /cache"
    );
    assert_eq!(
        Provenance::Compiled.describe(Some(dir)),
        "compiled in memory (the compiled-artifact cache in /cache is not writable)"
    );
    assert_eq!(
        Provenance::Compiled.describe(None),
        "compiled (the compiled-artifact cache is off)"
    );
}
