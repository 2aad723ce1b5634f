use super::*;

#[test]
fn every_match_is_found_in_one_pass_over_a_large_text() {
    // Many near-matches (the worst case of a naive search) and a match every 1000 chars.
    let key = "aaaaaaaaab";
    let needles = Needles::new([key]);
    let mut text = String::new();
    for _ in 0..1000 {
        text.push_str(&"a".repeat(990));
        text.push_str("AAAAAAAA\u{200b}AB");
    }
    let spans = needles.find(&text);
    assert_eq!(spans.len(), 1000);
    assert!(
        spans
            .iter()
            .all(|s| text[s.clone()].replace('\u{200b}', "") == "AAAAAAAAAB")
    );
}

#[test]
fn invisible_characters_are_those_that_show_nothing() {
    for c in [
        '\n',
        '\u{7f}',
        '\u{ad}',
        '\u{200b}',
        '\u{200d}',
        '\u{202e}',
        '\u{2066}',
        '\u{feff}',
        '\u{2028}',
        '\u{2029}',
        '\u{e0001}',
        '\u{fe0f}',
        '\u{3164}',
    ] {
        assert!(is_invisible(c), "{c:?}");
    }
    for c in [' ', 'a', '\u{e9}', '\u{4e2d}', '\u{1f600}', '\u{a0}'] {
        assert!(!is_invisible(c), "{c:?}");
    }
}
