use super::*;

#[test]
fn values_read_back_and_replace() {
    let c = HostCache::with_capacity(1024);
    assert_eq!(c.get("k"), None);
    c.set("k".into(), "one".into());
    c.set("k".into(), "three".into());
    assert_eq!(c.get("k").as_deref(), Some("three"));
    assert_eq!(c.bytes(), "k".len() + "three".len());
}

#[test]
fn the_oldest_writes_go_first_past_the_bound() {
    let c = HostCache::with_capacity(30);
    c.set("a".into(), "x".repeat(9)); // 10 bytes
    c.set("b".into(), "x".repeat(9));
    c.set("a".into(), "y".repeat(9)); // rewritten: now newer than b
    c.set("c".into(), "x".repeat(9));
    assert_eq!(c.bytes(), 30);
    c.set("d".into(), "x".repeat(9));
    assert_eq!(c.get("b"), None, "the oldest write is dropped");
    assert!(c.get("a").is_some() && c.get("c").is_some() && c.get("d").is_some());
    assert!(c.bytes() <= 30);
}

#[test]
fn an_entry_larger_than_the_bound_is_not_kept_and_drops_the_old_value() {
    let c = HostCache::with_capacity(16);
    c.set("k".into(), "small".into());
    c.set("k".into(), "x".repeat(100));
    assert_eq!(c.get("k"), None);
    assert_eq!(c.bytes(), 0);
}

#[test]
fn replaced_writes_do_not_pile_up() {
    let c = HostCache::with_capacity(1 << 20);
    for i in 0..10_000 {
        c.set("k".into(), i.to_string());
    }
    assert!(c.lock().order.len() <= 2 + 64, "{}", c.lock().order.len());
    assert_eq!(c.get("k").as_deref(), Some("9999"));
}
