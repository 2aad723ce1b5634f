use std::time::{Duration, Instant};

use super::{Gate, HOLD_AT_MOST, spawn};

#[tokio::test]
async fn work_runs_on_a_named_thread_at_a_lower_priority_inside_the_runtime() {
    let (sent, received) = tokio::sync::oneshot::channel();
    spawn("background-test", &Gate::opened(), move || {
        let name = std::thread::current().name().map(str::to_owned);
        let nice = rustix::process::getpriority_process(None).ok();
        let in_runtime = tokio::runtime::Handle::try_current().is_ok();
        let _ = sent.send((name, nice, in_runtime));
    })
    .unwrap();
    let (name, nice, in_runtime) = received.await.unwrap();
    assert_eq!(name.as_deref(), Some("background-test"));
    let before = rustix::process::getpriority_process(None).unwrap();
    assert_eq!(nice, Some((before + super::NICE).min(19)));
    assert!(in_runtime);
}

#[tokio::test]
async fn work_waits_for_its_gate_and_runs_when_it_opens() {
    let gate = Gate::closed();
    let (sent, received) = tokio::sync::oneshot::channel();
    spawn("background-test", &gate, move || {
        let _ = sent.send(Instant::now());
    })
    .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let opened = Instant::now();
    gate.open();
    assert!(gate.is_open());
    let ran = tokio::time::timeout(Duration::from_secs(5), received)
        .await
        .unwrap()
        .unwrap();
    assert!(ran >= opened, "the work ran before its gate opened");
}

#[tokio::test]
async fn a_gate_that_never_opens_holds_work_back_for_a_bounded_time() {
    let spawned = Instant::now();
    let (sent, received) = tokio::sync::oneshot::channel();
    spawn("background-test", &Gate::closed(), move || {
        let _ = sent.send(Instant::now());
    })
    .unwrap();
    let ran = tokio::time::timeout(Duration::from_secs(5), received)
        .await
        .unwrap()
        .unwrap();
    assert!(ran.duration_since(spawned) >= HOLD_AT_MOST);
}
