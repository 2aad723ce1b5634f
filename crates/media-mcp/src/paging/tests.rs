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

#[test]
fn upstream_pages_say_only_what_upstream_showed() {
    let w = Window {
        offset: 10,
        limit: 5,
    };
    // A reported total: the continuation counts consumed rows, not returned items.
    let beyond = Beyond::Total {
        total: Some(30),
        consumed: 5,
    };
    let p = upstream(w, 4, beyond, "requests");
    assert_eq!(
        (
            p["total"].as_u64(),
            p["has_more"].as_bool(),
            p["next_offset"].as_u64()
        ),
        (Some(30), Some(true), Some(15))
    );
    let beyond = Beyond::Total {
        total: None,
        consumed: 5,
    };
    let p = upstream(w, 5, beyond, "requests");
    assert!(p["total"].is_null() && p["has_more"].is_null() && p["next_offset"].is_null());
    // No total: a short page ends the list, a full one offers a continuation of unknown worth.
    let p = upstream(
        w,
        3,
        Beyond::Open {
            ended: true,
            next: 13,
        },
        "issues",
    );
    assert_eq!(
        (p["has_more"].as_bool(), p["next_offset"].is_null()),
        (Some(false), true)
    );
    let p = upstream(
        w,
        5,
        Beyond::Open {
            ended: false,
            next: 15,
        },
        "issues",
    );
    assert_eq!(
        (p["has_more"].is_null(), p["next_offset"].as_u64()),
        (true, Some(15))
    );
    let p = upstream(w, 5, Beyond::Unknown { next: Some(15) }, "media");
    assert_eq!(
        (
            p["has_more"].is_null(),
            p["next_offset"].as_u64(),
            p["mode"].as_str()
        ),
        (true, Some(15), Some("upstream"))
    );
}
