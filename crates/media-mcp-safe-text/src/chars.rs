//! Characters that show nothing.

use alloc::string::String;

/// General_Category=Format (Cf) of Unicode 16, as inclusive ranges in ascending order (checked
/// against the Unicode tables, character by character, in `chars/tests.rs`).
const FORMAT: &[(char, char)] = &[
    ('\u{ad}', '\u{ad}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0001}', '\u{e0001}'),
    ('\u{e0020}', '\u{e007f}'),
];

/// Whether `c` is a format character (Unicode category Cf): soft hyphen, zero-width space,
/// non-joiner and joiner, the bidirectional controls (U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), the byte-order mark, interlinear annotation controls, tags, …
pub fn is_format(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    FORMAT
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` shows nothing: a control, a format character (Cf), a line or paragraph
/// separator, or another default-ignorable code point.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || is_format(c)
        || matches!(c,
            '\u{2028}' | '\u{2029}'
            // Default_Ignorable_Code_Point (Unicode 16) outside Cf: combining grapheme joiner,
            // Hangul fillers, Khmer inherent vowels, Mongolian variation selectors, variation
            // selectors, reserved code points of the ignorable blocks, tags and their
            // supplement.
            | '\u{34f}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{2065}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{e0000}'..='\u{e0fff}'
        )
}

/// Format characters that are drawn: the prepended concatenation marks (Arabic number signs,
/// the Syriac abbreviation mark, Kaithi number signs), kept by [`strip_format`].
fn is_drawn_format(c: char) -> bool {
    matches!(c,
        '\u{600}'..='\u{605}' | '\u{6dd}' | '\u{70f}' | '\u{890}'..='\u{891}' | '\u{8e2}'
        | '\u{110bd}' | '\u{110cd}')
}

/// Whether a zero-width (non-)joiner next to `c` may shape it: `c` is a letter or symbol
/// outside ASCII (Persian and Indic words, emoji sequences), or a variation selector of one.
fn joinable(c: Option<char>) -> bool {
    c.is_some_and(|c| !c.is_ascii() && !c.is_control() && !is_format(c))
}

/// `text` without the format characters that show nothing, or `None` when it has none.
///
/// Removed: every Unicode format character (Cf) — zero-width space, word joiner, byte-order
/// mark, soft hyphen, the bidirectional controls, interlinear annotation controls, tags —
/// except the prepended concatenation marks, which are drawn, and U+200C ZERO WIDTH NON-JOINER
/// and U+200D ZERO WIDTH JOINER between two characters outside ASCII, where they shape
/// scripts and join emoji. Everything else, line breaks and variation selectors included, is
/// kept as it was.
pub fn strip_format(text: &str) -> Option<String> {
    if text.is_ascii() || !text.chars().any(is_format) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep = !is_format(c)
            || is_drawn_format(c)
            || matches!(c, '\u{200c}' | '\u{200d}')
                && joinable(prev)
                && joinable(chars.peek().copied());
        if keep {
            out.push(c);
        }
        prev = Some(c);
    }
    (out.len() != text.len()).then_some(out)
}

#[cfg(test)]
mod tests;
