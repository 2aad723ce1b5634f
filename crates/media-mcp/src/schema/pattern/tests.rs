use super::*;

const PATTERNS: &[&str] = &[
    "^[a-z]{2}$",
    "^[a-z]{2}(-[A-Z]{2})?$",
    "^[A-Z]{2}$",
    "^tt[0-9]{1,12}$",
    "^[1-9][0-9]{0,9}$",
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    "^[^/?#\\x00-\\x1f]+$",
    "^[^\\x00-\\x1f]+$",
    "^/?[A-Za-z0-9]+$",
    "^[0-9a-f]{16}$",
    "^[a-z]+$",
    "^log(-[0-9]{8})?\\.txt$",
    "^(movie|tv)s?$",
    "a|b+c",
    "\\d{2,}\\s\\w*",
    "^(?:ab)*$",
    "x.y",
];

const SAMPLES: &[&str] = &[
    "",
    "en",
    "EN",
    "en-US",
    "en-us",
    "eng",
    "tt0133093",
    "tt",
    "603",
    "0",
    "0603",
    "1234567890",
    "12345678901",
    "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
    "5D1B1D2D-1A2B-4C3D-9E8F-0A1B2C3D4E5F",
    "the matrix",
    "a/b",
    "a\nb",
    "x?y",
    "/abc",
    "abc",
    "0123456789abcdef",
    "log.txt",
    "log-20261130.txt",
    "log-2026.txt",
    "movies",
    "tv",
    "tvs",
    "a",
    "bbbc",
    "12 x_",
    "1 ",
    "abab",
    "aba",
    "x\ny",
    "xzy",
    "é",
    "ab\u{1f}",
    "#",
    "?",
];

#[test]
fn agrees_with_the_regex_crate() {
    for p in PATTERNS {
        let ours = Pattern::new(p).unwrap_or_else(|| panic!("{p} should compile"));
        let reference = regex::Regex::new(p).unwrap();
        for s in SAMPLES {
            assert_eq!(
                ours.is_match(s),
                reference.is_match(s),
                "pattern {p:?} on {s:?}"
            );
        }
    }
}

#[test]
fn unsupported_syntax_is_refused_not_ignored() {
    for p in [
        "^(?!x).*$",
        "(?=.)",
        "\\bword",
        "(a)\\1",
        "[\\D]",
        "a{2,1}",
        "(",
        "a)",
        "*a",
        "\\p{L}",
    ] {
        assert!(Pattern::new(p).is_none(), "{p}");
    }
}

#[test]
fn hostile_patterns_stay_linear() {
    let p = Pattern::new("^(a+)+$").unwrap();
    let text = format!("{}b", "a".repeat(5000));
    assert!(!p.is_match(&text));
    assert!(
        Pattern::new("a{1000}{1000}").is_none(),
        "program size is bounded"
    );
}
