use std::sync::{Arc, Mutex};

use super::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn reports_come_while_the_call_runs_with_increasing_elapsed_times() {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let seen = reports.clone();
    let output = runtime().block_on(with_progress(
        async {
            tokio::time::sleep(Duration::from_millis(400)).await;
            7
        },
        Duration::from_millis(50),
        move |elapsed| {
            seen.lock().unwrap().push(elapsed);
            async {}
        },
    ));
    assert_eq!(output, 7);
    let reports = reports.lock().unwrap();
    assert!(!reports.is_empty(), "no progress during a 400 ms call");
    assert!(
        reports.len() <= 8,
        "more reports than intervals: {reports:?}"
    );
    assert!(reports[0] >= Duration::from_millis(50));
    assert!(
        reports.windows(2).all(|w| w[0] < w[1]),
        "elapsed times must increase: {reports:?}"
    );
}

#[test]
fn a_report_being_sent_finishes_before_the_result_is_returned() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let log = events.clone();
    runtime().block_on(async {
        with_progress(
            tokio::time::sleep(Duration::from_millis(60)),
            Duration::from_millis(40),
            move |_| {
                let log = log.clone();
                async move {
                    log.lock().unwrap().push("report started");
                    // The call ends while this report is on its way.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    log.lock().unwrap().push("report sent");
                }
            },
        )
        .await;
        events.lock().unwrap().push("answer");
    });
    assert_eq!(
        *events.lock().unwrap(),
        ["report started", "report sent", "answer"]
    );
}

#[test]
fn a_quick_call_reports_nothing() {
    let reports = Arc::new(Mutex::new(0));
    let seen = reports.clone();
    runtime().block_on(with_progress(
        async {},
        Duration::from_millis(50),
        move |_| {
            *seen.lock().unwrap() += 1;
            async {}
        },
    ));
    assert_eq!(*reports.lock().unwrap(), 0);
}

#[test]
fn reports_say_the_elapsed_time_and_name_the_tool() {
    assert_eq!(elapsed_seconds(Duration::from_millis(12_345)), 12.345);
    assert_eq!(
        message("read_search", Duration::from_millis(20_500)),
        "read_search: still running after 20 s"
    );
}

#[test]
fn a_call_after_a_quiet_spell_counts_its_interval_from_its_own_start() {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let seen = reports.clone();
    runtime().block_on(async {
        // The process has been quiet for several intervals before this call.
        tokio::time::sleep(Duration::from_millis(300)).await;
        with_progress(
            tokio::time::sleep(Duration::from_millis(40)),
            Duration::from_millis(100),
            move |elapsed| {
                seen.lock().unwrap().push(elapsed);
                async {}
            },
        )
        .await;
    });
    let reports = reports.lock().unwrap();
    assert!(reports.is_empty(), "a 40 ms call reported {reports:?}");
}
