use super::*;

#[test]
fn segments_are_percent_encoded() {
    assert_eq!(encode_segment("the matrix"), "the%20matrix");
    assert_eq!(encode_segment("a/b?c#d"), "a%2Fb%3Fc%23d");
    assert_eq!(encode_segment("amélie"), "am%C3%A9lie");
}
