use super::*;

#[test]
fn request_type_zero_is_tv() {
    assert_eq!(table("request_types").unwrap().rows[0], (0, "TvShow"));
    assert_eq!(table("issue_statuses").unwrap().rows[3], (3, "Deleted"));
}
