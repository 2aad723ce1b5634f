use super::*;

const INDEX: &str = r#"{"fixtures": [
    {"method": "GET", "path": "/api/v1/Request/movie/{id}", "body_file": "by-id.json"},
    {"method": "GET", "path": "/api/v1/Request/movie/info", "body_file": "info.json", "status": 200},
    {"method": "GET", "path": "/api/v1/Stats?from={iso}&to={iso}", "body_file": "stats.json"},
    {"method": "DELETE", "path": "/api/v1/Request/tv/{id}", "body_file": null},
    {"method": "ANY", "path": "/api/**", "body_file": "err.txt"},
    {"method": "POST|PUT", "path": "[ApiController] routes", "body_file": "e.json"}
]}"#;

fn table() -> RouteTable {
    RouteTable::from_index(INDEX.as_bytes()).unwrap()
}

#[test]
fn skips_error_shapes() {
    assert_eq!(table().routes.len(), 4);
}

#[test]
fn most_literal_segments_win() {
    assert_eq!(
        table()
            .find("GET", "/api/v1/Request/movie/info")
            .unwrap()
            .body_file
            .as_deref(),
        Some("info.json")
    );
    assert_eq!(
        table()
            .find("GET", "/api/v1/Request/movie/603")
            .unwrap()
            .body_file
            .as_deref(),
        Some("by-id.json")
    );
}

#[test]
fn matching_is_case_insensitive_and_ignores_empty_segments() {
    assert!(table().find("GET", "/API/V1/request/MOVIE//7").is_some());
}

#[test]
fn method_must_match_and_query_is_not_part_of_the_template() {
    assert!(table().find("POST", "/api/v1/Request/movie/7").is_none());
    let table = table();
    assert_eq!(
        table.find("GET", "/api/v1/Stats").unwrap().template,
        "/api/v1/Stats"
    );
}

#[test]
fn entries_without_body_file_have_none() {
    let r = table()
        .find("DELETE", "/api/v1/Request/tv/9")
        .unwrap()
        .clone();
    assert_eq!((r.status, r.body_file), (200, None));
}

#[test]
fn percent_decoding_like_python_unquote() {
    assert_eq!(percent_decode("the%20matrix"), "the matrix");
    assert_eq!(percent_decode("100%"), "100%");
    assert_eq!(percent_decode("%E2%9C%93"), "✓");
}

#[test]
fn the_shipped_index_loads() {
    let index = crate::fixtures::fixture("index.json").unwrap();
    let t = RouteTable::from_index(index).unwrap();
    assert!(t.routes.len() > 200, "{}", t.routes.len());
    assert!(t.find("GET", "/api/v1/Search/movie/matrix").is_some());
}
