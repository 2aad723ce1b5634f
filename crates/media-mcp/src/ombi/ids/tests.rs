use super::*;

#[test]
fn zero_empty_and_duplicates_are_dropped() {
    let mut ids = Identifiers::default();
    ids.add(Ns::Tmdb, Some(&json!(603)))
        .add(Ns::Tmdb, Some(&json!("603")))
        .add(Ns::Imdb, Some(&json!(null)))
        .add(Ns::Tvdb, Some(&json!(0)))
        .add(Ns::Tvdb, Some(&json!("")));
    assert_eq!(
        ids.to_json(),
        json!([{"namespace": "tmdb", "value": "603"}])
    );
}

#[test]
fn the_same_value_may_stand_in_two_namespaces() {
    let mut ids = Identifiers::default();
    ids.add_text(Ns::Tmdb, "5").add_text(Ns::Tvdb, "5");
    assert_eq!(ids.to_json().as_array().unwrap().len(), 2);
}

#[test]
fn targets_need_a_positive_id() {
    assert_eq!(target(TargetKind::Movie, Some(0)), None);
    assert_eq!(
        target(TargetKind::TvChild, Some(7)),
        Some(json!({"kind": "tv_child", "id": 7}))
    );
}
