use super::*;

#[test]
fn local_pages_know_their_total() {
    let w = Window {
        offset: 0,
        limit: 2,
    };
    let p = local(w, 2, 5, "media");
    assert_eq!(
        (
            p["total"].as_u64(),
            p["has_more"].as_bool(),
            p["next_offset"].as_u64()
        ),
        (Some(5), Some(true), Some(2))
    );
    let p = local(
        Window {
            offset: 4,
            limit: 2,
        },
        1,
        5,
        "media",
    );
    assert_eq!(
        (p["has_more"].as_bool(), p["next_offset"].is_null()),
        (Some(false), true)
    );
}

#[test]
fn partial_pages_never_claim_a_total() {
    let p = local_partial(
        Window {
            offset: 0,
            limit: 10,
        },
        10,
        false,
        "media",
    );
    assert!(p["total"].is_null() && p["has_more"].is_null() && p["next_offset"].is_null());
}
