use super::*;

#[test]
fn sse_events_join_data_lines_and_skip_comments() {
    let body =
        ": keep-alive\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: {\"b\":2}\n";
    assert_eq!(sse_events(body), ["{\"a\":\n1}", "{\"b\":2}"]);
}
