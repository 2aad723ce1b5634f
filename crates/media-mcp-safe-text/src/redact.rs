//! Finding the configured keys in result text in every form that still reads as, or works as,
//! the key:
//!
//! * without regard to case: Ombi compares API keys case-insensitively, so an upper-cased key is
//!   a working credential. Letters whose case folds to ASCII (U+017F long s, U+212A Kelvin sign)
//!   count as those ASCII letters;
//! * across characters that show nothing: control characters (line breaks and tabs among them),
//!   Unicode format characters (category Cf: zero-width spaces and joiners, bidirectional
//!   controls such as U+202E, the byte-order mark, tags), line and paragraph separators, and the
//!   other default-ignorable code points (variation selectors, Hangul fillers). A key split by
//!   them still reads as the key;
//! * across white space of any kind (the space, U+00A0, U+3000, …): error text is often cut to
//!   one line with its line breaks folded into spaces before anything that knows the key sees
//!   it, and a key split by a space is still the key to whoever reads it.
//!
//! A match is replaced from its first to its last character, invisible ones inside it included;
//! everything around it is left as it was. The search is one pass over the text per key set
//! (Knuth–Morris–Pratt over the folded characters), so its work is linear in the text.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use crate::is_invisible;

/// Whether the key search steps over `c` as if it were not there: it shows nothing
/// ([`is_invisible`]) or is white space.
pub fn splits_keys(c: char) -> bool {
    c.is_whitespace() || is_invisible(c)
}

/// The configured keys, folded for searching.
#[derive(Clone, Default)]
pub struct Needles(Vec<Needle>);

#[derive(Clone)]
struct Needle {
    /// The key, folded ([`fold`]).
    chars: Vec<char>,
    /// KMP failure function: `fail[i]` is the length of the longest proper border of
    /// `chars[..=i]`.
    fail: Vec<usize>,
}

impl Needle {
    fn new(key: &str) -> Option<Needle> {
        let chars: Vec<char> = key.chars().filter_map(fold).collect();
        if chars.is_empty() {
            return None;
        }
        let mut fail = vec![0; chars.len()];
        let mut k = 0;
        for i in 1..chars.len() {
            while k > 0 && chars[i] != chars[k] {
                k = fail[k - 1];
            }
            if chars[i] == chars[k] {
                k += 1;
            }
            fail[i] = k;
        }
        Some(Needle { chars, fail })
    }

    /// Advances the match `state` (characters matched so far) by `c`; the new state.
    fn step(&self, mut state: usize, c: char) -> usize {
        if state == self.chars.len() {
            state = self.fail[state - 1];
        }
        while state > 0 && self.chars[state] != c {
            state = self.fail[state - 1];
        }
        if self.chars[state] == c {
            state += 1;
        }
        state
    }
}

impl Needles {
    /// Needles for `keys` (keys that fold to nothing are skipped).
    pub fn new<'a>(keys: impl IntoIterator<Item = &'a str>) -> Needles {
        Needles(keys.into_iter().filter_map(Needle::new).collect())
    }

    /// How many keys are searched for.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no key is searched for.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every match replaced by `replacement`; `None` when there is none.
    pub fn redact(&self, text: &str, replacement: &str) -> Option<String> {
        let spans = self.find(text);
        if spans.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for span in spans {
            out.push_str(&text[at..span.start]);
            out.push_str(replacement);
            at = span.end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// The byte ranges of all matches, overlapping ones merged, in order.
    fn find(&self, text: &str) -> Vec<Range<usize>> {
        let Some(longest) = self.0.iter().map(|n| n.chars.len()).max() else {
            return Vec::new();
        };
        // Byte offsets of the last `longest` folded characters, to map a match back to text.
        let mut starts = vec![0usize; longest];
        let mut states = vec![0usize; self.0.len()];
        let mut spans: Vec<Range<usize>> = Vec::new();
        let mut seen = 0usize;
        for (offset, c) in text.char_indices() {
            let Some(folded) = fold(c) else { continue };
            starts[seen % longest] = offset;
            for (needle, state) in self.0.iter().zip(states.iter_mut()) {
                *state = needle.step(*state, folded);
                if *state == needle.chars.len() {
                    let first = seen + 1 - needle.chars.len();
                    spans.push(starts[first % longest]..offset + c.len_utf8());
                }
            }
            seen += 1;
        }
        spans.sort_by_key(|s| s.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(spans.len());
        for span in spans {
            match merged.last_mut() {
                Some(last) if span.start < last.end => last.end = last.end.max(span.end),
                _ => merged.push(span),
            }
        }
        merged
    }
}

/// A character as the search sees it: `None` for one it steps over ([`splits_keys`]), else
/// lower-cased, with letters that case-fold to ASCII mapped to that letter.
fn fold(c: char) -> Option<char> {
    if c.is_ascii() {
        return (!c.is_ascii_control() && c != ' ').then(|| c.to_ascii_lowercase());
    }
    if splits_keys(c) {
        return None;
    }
    only_ascii(c.to_lowercase())
        .or_else(|| only_ascii(c.to_uppercase()))
        .or(Some(c))
}

/// The one ASCII character (lower-cased) a case mapping gives, if that is what it gives.
fn only_ascii(mut mapped: impl Iterator<Item = char>) -> Option<char> {
    match (mapped.next(), mapped.next()) {
        (Some(x), None) if x.is_ascii() => Some(x.to_ascii_lowercase()),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
