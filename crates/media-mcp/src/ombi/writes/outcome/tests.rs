use super::*;

#[test]
fn error_codes_map_by_name_to_ordinals_and_contract_codes() {
    let er = engine_result(Some(json!({"result": false, "isError": true, "errorMessage": "quota", "errorCode": "TvRequestQuotaExceeded", "requestId": 0}))).unwrap();
    assert_eq!(er.error_ordinal(), Some(10));
    let e = er.error();
    assert_eq!((e.code, e.retryable), (ErrorCode::RateLimited, false));
    let er = engine_result(Some(
        json!({"result": false, "errorCode": "NoPermissionsRequestTV"}),
    ))
    .unwrap();
    assert!(er.is_error, "isError is computed when absent");
    assert_eq!(
        (er.error().code, er.error_ordinal()),
        (ErrorCode::Forbidden, Some(7))
    );
    let er = engine_result(Some(
        json!({"result": false, "errorCode": "ChildRequestDoesNotExist"}),
    ))
    .unwrap();
    assert_eq!(er.error().code, ErrorCode::NotFound);
    let er = engine_result(Some(
        json!({"result": false, "errorCode": "EpisodesAlreadyRequested"}),
    ))
    .unwrap();
    assert_eq!(
        (er.error().code, er.error_ordinal()),
        (ErrorCode::Conflict, Some(1))
    );
}

#[test]
fn result_true_with_an_error_message_is_not_a_success() {
    let er = engine_result(Some(json!({"result": true, "isError": false, "errorMessage": "Voted succesfully but could not approve!"}))).unwrap();
    assert!(!er.succeeded());
}

#[test]
fn a_missing_result_flag_is_never_a_success() {
    assert_eq!(
        engine_result(Some(json!({"message": "ok"})))
            .unwrap_err()
            .code,
        ErrorCode::UnknownOutcome
    );
    assert_eq!(
        engine_result(None).unwrap_err().code,
        ErrorCode::UnknownOutcome
    );
    assert_eq!(
        bool_answer(Some(json!("true"))).unwrap_err().code,
        ErrorCode::UnknownOutcome
    );
}

#[test]
fn ids_only_when_positive() {
    let v = Mutation::new(Outcome::Completed)
        .id("request_id", Some(0))
        .target(TargetKind::Movie, None)
        .into_json();
    assert_eq!(v, json!({"kind": "mutation", "outcome": "completed"}));
}
