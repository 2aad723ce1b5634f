use super::*;
use proptest::prelude::*;

#[test]
fn segments_are_percent_encoded() {
    assert_eq!(path_segment("the matrix").unwrap(), "the%20matrix");
    assert_eq!(path_segment("a/b?c#d").unwrap(), "a%2Fb%3Fc%23d");
    assert_eq!(path_segment("amélie").unwrap(), "am%C3%A9lie");
    assert_eq!(path_segment("a\\b").unwrap(), "a%5Cb");
}

#[test]
fn empty_and_dot_segments_are_refused() {
    for value in ["", ".", ".."] {
        assert_eq!(path_segment(value), None, "{value:?}");
    }
}

#[test]
fn encoded_dots_and_longer_dot_runs_stay_literal() {
    // What a WHATWG parser would read as dots is sent as text: `%` is encoded.
    assert_eq!(path_segment("%2e").unwrap(), "%252e");
    assert_eq!(path_segment(".%2E").unwrap(), ".%252E");
    assert_eq!(path_segment("%2e%2e").unwrap(), "%252e%252e");
    // Three dots, or dots with anything else, are no dot segment.
    assert_eq!(path_segment("...").unwrap(), "...");
    assert_eq!(path_segment(".. ").unwrap(), "..%20");
    assert_eq!(path_segment("tt0133093.").unwrap(), "tt0133093.");
}

/// Whether a URL path resolver (RFC 3986, or WHATWG with its `%2e` forms) reads `segment` as
/// `.` or `..`.
fn reads_as_dot_segment(segment: &str) -> bool {
    let decoded_dots = segment.to_ascii_lowercase().replace("%2e", ".");
    decoded_dots == "." || decoded_dots == ".."
}

proptest! {
    #[test]
    fn a_segment_is_never_empty_a_dot_segment_or_more_than_one_segment(value in "\\PC*|[.%2eE/]{0,6}") {
        match path_segment(&value) {
            None => prop_assert!(value.is_empty() || value == "." || value == ".."),
            Some(segment) => {
                prop_assert!(!segment.is_empty());
                prop_assert!(!reads_as_dot_segment(&segment), "{segment}");
                prop_assert!(
                    segment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
                    "{segment}"
                );
            }
        }
    }

    #[test]
    fn a_segment_decodes_back_to_the_value(value in "\\PC*") {
        if let Some(segment) = path_segment(&value) {
            let bytes = segment.as_bytes();
            let mut decoded = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i] == b'%' {
                    let hex = core::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                    decoded.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 3;
                } else {
                    decoded.push(bytes[i]);
                    i += 1;
                }
            }
            prop_assert_eq!(String::from_utf8(decoded).unwrap(), value);
        }
    }
}
