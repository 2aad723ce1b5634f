use super::*;

#[test]
fn form_encoding_keeps_unreserved_characters_only() {
    assert_eq!(form_encode("a-Z_0.~"), "a-Z_0.~");
    assert_eq!(form_encode("a b+c/d:é"), "a+b%2Bc%2Fd%3A%C3%A9");
}

#[test]
fn basic_credentials_are_form_encoded_then_base64() {
    let i = Introspection {
        endpoint: None,
        client_id: "media mcp".into(),
        client_secret: "s3:cr/t".into(),
        always: false,
    };
    let header = basic(&i);
    let decoded = STANDARD
        .decode(header.strip_prefix("Basic ").unwrap())
        .unwrap();
    assert_eq!(decoded, b"media+mcp:s3%3Acr%2Ft");
}

#[test]
fn the_cache_key_is_a_digest_not_the_token() {
    let key = cache_key("opaque-token-123");
    assert!(!key.contains("opaque-token-123"));
    assert_eq!(key.len(), "oauth:introspected:".len() + 64);
}
