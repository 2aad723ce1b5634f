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
