use super::spawn;

#[tokio::test]
async fn work_runs_on_a_named_thread_at_a_lower_priority_inside_the_runtime() {
    let (sent, received) = tokio::sync::oneshot::channel();
    spawn("background-test", move || {
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
