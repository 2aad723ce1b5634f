use super::*;
use unicode_general_category::{GeneralCategory, get_general_category};

#[test]
fn the_format_table_is_unicode_category_cf() {
    for c in (0..=0x10ffff).filter_map(char::from_u32) {
        assert_eq!(
            is_format(c),
            get_general_category(c) == GeneralCategory::Format,
            "{c:?}"
        );
    }
}

#[test]
fn invisible_characters_are_controls_format_separators_and_default_ignorables() {
    for c in (0..=0x10ffff).filter_map(char::from_u32) {
        if matches!(
            get_general_category(c),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        ) {
            assert!(is_invisible(c), "{c:?}");
        }
    }
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

#[test]
fn zero_width_and_bidirectional_characters_are_stripped() {
    assert_eq!(
        strip_format("The\u{200b} Matrix\u{202e}txet\u{202c} \u{2066}x\u{2069}\u{feff}").unwrap(),
        "The Matrixtxet x"
    );
    assert_eq!(
        strip_format("ig\u{ad}nore\u{2060}d\u{e0041}\u{e0001}").unwrap(),
        "ignored"
    );
    // Joiners next to ASCII or at an end hide nothing useful: removed.
    assert_eq!(strip_format("\u{200d}a\u{200c}b\u{200d}").unwrap(), "ab");
}

#[test]
fn other_text_is_left_as_it_was() {
    for text in [
        "plain ASCII\twith\nbreaks",
        "千と千尋の神隠し",
        "Amélie",
        // Combining marks, emoji with a variation selector and with skin tone.
        "e\u{301} n\u{303} \u{2764}\u{fe0f} \u{1f44d}\u{1f3fd}",
        // Emoji joined by ZWJ; a Persian word with ZWNJ; Devanagari with ZWJ.
        "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
        "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}",
        "\u{915}\u{94d}\u{200d}\u{937}",
        // An Arabic number sign is drawn.
        "\u{600}\u{661}\u{662}",
        // Line and paragraph separators are not format characters.
        "a\u{2028}b",
    ] {
        assert_eq!(strip_format(text), None, "{text:?}");
    }
}
