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
fn keys_split_by_any_white_space_are_found_whole() {
    // Error text cut to one line has its line breaks folded into spaces before the key is
    // searched for; a key split so must still be found, as must one split by other spaces.
    let key = "0123456789abcdef0123456789abcdef";
    let needles = Needles::new([key]);
    for split in [
        " ",
        "  ",
        "\u{a0}",
        "\u{2003}",
        "\u{3000}",
        "\u{85}",
        " \u{200b}\n",
    ] {
        let text = format!("key was {}{split}{} (bad)", &key[..13], &key[13..]);
        assert_eq!(
            needles.redact(&text, "[redacted]").as_deref(),
            Some("key was [redacted] (bad)"),
            "{split:?}"
        );
    }
    // Words around a match keep their spaces.
    assert_eq!(
        needles
            .redact(&format!("a {key} b"), "[redacted]")
            .as_deref(),
        Some("a [redacted] b")
    );
}
