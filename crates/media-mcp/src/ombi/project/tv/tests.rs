use super::*;

#[test]
fn tvmaze_rows_label_tvdb_and_tvmaze_and_omit_request_state() {
    let row = json!({"id": 81189, "theMovieDbId": "81189", "seriesId": 169, "imdbId": "tt0903747",
                     "title": "Breaking Bad", "requested": false, "requestId": 0, "available": false});
    let v = tvmaze(&row).into_json();
    assert_eq!(
        v["identifiers"],
        json!([
        {"namespace": "tvdb", "value": "81189"}, {"namespace": "tvmaze", "value": "169"},
        {"namespace": "imdb", "value": "tt0903747"}])
    );
    assert!(v.get("requested").is_none());
    assert!(v.get("request_targets").is_none());
}

#[test]
fn v2_tv_browse_ids_are_tmdb_and_series_id_is_never_tvmaze() {
    let v = list_item(&json!({"id": 1396, "theMovieDbId": null, "seriesId": 1396, "requestId": 7, "title": "Breaking Bad", "rating": "8,9"})).into_json();
    assert_eq!(
        v["identifiers"],
        json!([{"namespace": "tmdb", "value": "1396"}])
    );
    assert_eq!(
        v["request_targets"],
        json!([{"kind": "tv_parent", "id": 7}])
    );
    assert!(v.get("ratings").is_none());
}
