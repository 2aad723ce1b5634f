use super::*;

#[test]
fn a_request_is_cancelled_by_id_and_its_answer_is_dropped_once() {
    let calls = Cancellations::default();
    let (seven, other) = (RequestId::Number(7), RequestId::String("7".into()));
    assert!(calls.begin(&seven));
    assert!(
        !calls.begin(&seven),
        "an id in flight is not recorded twice"
    );
    assert!(calls.begin(&other));
    let signal = calls.signal(&seven).expect("recorded");
    assert!(!signal.is_cancelled());
    assert!(calls.cancel(&seven));
    assert!(signal.is_cancelled());
    assert!(
        !calls.signal(&other).unwrap().is_cancelled(),
        "other requests are unaffected"
    );
    assert_eq!(calls.end(&seven), Some(true));
    assert_eq!(calls.end(&other), Some(false));
    assert_eq!(calls.end(&seven), None);
    assert!(!calls.cancel(&seven), "nothing in flight to cancel");
    assert!(calls.signal(&seven).is_none());
    assert!(calls.begin(&seven), "the id is free again");
}
