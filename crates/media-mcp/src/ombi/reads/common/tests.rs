use super::*;

#[test]
fn absent_values_stay_absent() {
    let mut r = Rec::new();
    r.flag("denied", Some(&json!(null)))
        .id("id", Some(&json!(0)))
        .date("d", Some(&json!("0001-01-01T00:00:00Z")))
        .text("t", Some(&json!("  ")))
        .count("c", Some(&json!(-1)));
    assert_eq!(r.build(), json!({}));
}

#[test]
fn request_types_follow_ombi_codes_and_unknown_codes_warn() {
    let mut w = Vec::new();
    let mut r = Rec::new();
    put_request_type(&mut r, Some(&json!(0)), "row", &mut w);
    assert_eq!(
        r.build(),
        json!({"request_type": "tv", "request_type_code": 0})
    );
    let mut r = Rec::new();
    put_request_type(&mut r, Some(&json!(1)), "row", &mut w);
    assert_eq!(r.build()["request_type"], "movie");
    let mut r = Rec::new();
    put_request_type(&mut r, Some(&json!(7)), "row", &mut w);
    assert_eq!(r.build(), json!({}));
    assert_eq!(w.len(), 1);
}
