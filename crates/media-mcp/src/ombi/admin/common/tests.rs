use super::*;

#[test]
fn corrupted_labels_are_recognised() {
    assert!(is_corrupted("??????"));
    assert!(is_corrupted("? ? ?"));
    assert!(is_corrupted("Deu\u{FFFD}sch"));
    assert!(!is_corrupted("Deutsch"));
    assert!(!is_corrupted("What?"));
    assert!(!is_corrupted(""));
}

#[test]
fn clean_labels_win_deterministically_and_corrupted_ones_are_a_last_resort() {
    assert_eq!(
        select_label(&[Some("????"), Some("Abkhazian")]),
        Some(("Abkhazian", false))
    );
    assert_eq!(
        select_label(&[Some("English"), Some("Anglais")]),
        Some(("English", false))
    );
    assert_eq!(
        select_label(&[Some(""), None, Some("??"), Some("\u{FFFD}")]),
        Some(("??", true))
    );
    assert_eq!(select_label(&[None, Some("  ")]), None);
}

#[test]
fn non_arrays_are_schema_mismatches_and_null_is_not_an_empty_list() {
    assert!(array(None, "x").is_err());
    assert!(array(Some(json!(null)), "x").is_err());
    assert_eq!(
        array(Some(json!({"a": 1})), "x").unwrap_err().code,
        ErrorCode::UpstreamSchemaMismatch
    );
}

#[test]
fn partial_compound_reads_keep_data_and_fail_honestly() {
    let e = ToolError::new(ErrorCode::Forbidden, "no");
    let r = compound(
        json!({"kind": "metrics", "values": []}),
        vec![("sonarr_enabled".into(), e.clone())],
        3,
    );
    assert_eq!(
        r.error.as_ref().map(|e| e.code),
        Some(ErrorCode::PartialFailure)
    );
    assert!(r.data.is_some());
    let r = compound(json!({}), vec![("a".into(), e)], 1);
    assert_eq!(r.error.map(|e| e.code), Some(ErrorCode::Forbidden));
    assert!(r.data.is_none());
}
