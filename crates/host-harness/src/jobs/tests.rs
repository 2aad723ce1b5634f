use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::sync::oneshot;

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::registry::*;

fn jobs(after_ms: u64) -> Jobs {
    Jobs::new(JobSettings {
        after: Some(Duration::from_millis(after_ms)),
        keep: Duration::from_secs(60),
        max_per_user: 2,
        max: 3,
    })
}

type Call = std::pin::Pin<Box<dyn Future<Output = Produce> + Send>>;

/// A call that ends when the returned sender sends its result.
fn held() -> (
    oneshot::Sender<Value>,
    impl FnOnce(CancellationToken) -> Call,
) {
    let (send, receive) = oneshot::channel::<Value>();
    (send, move |_cancel| {
        Box::pin(async move {
            let outcome = receive.await.map_err(|_| json!({"code": -1}));
            Box::new(move || outcome) as Produce
        }) as Call
    })
}

#[tokio::test]
async fn a_call_that_ends_in_time_is_answered_and_forgotten() {
    let jobs = jobs(5_000);
    let waiter = jobs
        .begin("u", "t", &json!({}), false, |_| async {
            Box::new(|| -> Outcome { panic!("nobody else needs the outcome") }) as Produce
        })
        .unwrap();
    let id = waiter.id().to_owned();
    // Only the caller that started it waits: it answers with what its call kept.
    let Answered::Done(None) = waiter.answer().await else {
        panic!("a handle for a call that ended")
    };
    assert!(matches!(jobs.lookup("u", &id), Lookup::NotFound));
    assert_eq!(jobs.running(), 0);
}

#[tokio::test]
async fn a_call_past_the_threshold_becomes_a_job_that_outlives_its_caller() {
    let jobs = jobs(20);
    let (finish, run) = held();
    let waiter = jobs.begin("u", "t", &json!({}), false, run).unwrap();
    let Answered::Job(running) = waiter.answer().await else {
        panic!("no handle")
    };
    assert_eq!(running.id.len(), 32);
    assert!(running.id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(matches!(jobs.lookup("u", &running.id), Lookup::Running(_)));
    finish.send(json!({"late": true})).unwrap();
    let Lookup::Finished(finished) = jobs.wait("u", &running.id, Duration::from_secs(5)).await
    else {
        panic!("not finished")
    };
    assert_eq!(finished.tool, "t");
    assert!(!finished.cancelled);
    assert_eq!(*finished.outcome, Ok(json!({"late": true})));
    // A finished result can be read again.
    assert!(matches!(jobs.lookup("u", &running.id), Lookup::Finished(_)));
}

#[tokio::test]
async fn a_caller_that_joined_gets_the_outcome_the_starter_kept_for_itself() {
    let jobs = jobs(5_000);
    let (finish, run) = held();
    let starter = jobs.begin("u", "t", &json!({}), false, run).unwrap();
    let joined = jobs
        .begin("u", "t", &json!({}), false, |_| {
            std::future::pending::<Produce>()
        })
        .unwrap();
    finish.send(json!({"r": 2})).unwrap();
    let (mine, theirs) = tokio::join!(starter.answer(), joined.answer());
    assert!(matches!(mine, Answered::Done(Some(_))), "{mine:?}");
    let Answered::Done(Some(outcome)) = theirs else {
        panic!("{theirs:?}")
    };
    assert_eq!(*outcome, Ok(json!({"r": 2})));
}

#[tokio::test]
async fn an_identical_call_joins_the_running_one_and_runs_nothing() {
    let jobs = jobs(20);
    let runs = Arc::new(AtomicUsize::new(0));
    let start = |jobs: &Jobs, args: Value| {
        let runs = runs.clone();
        jobs.begin("u", "t", &args, false, move |_| {
            runs.fetch_add(1, Ordering::SeqCst);
            std::future::pending::<Produce>()
        })
        .unwrap()
    };
    let first = start(&jobs, json!({"q": "x", "page": 1}));
    let second = start(&jobs, json!({"page": 1, "q": "x"}));
    assert_eq!(first.id(), second.id());
    let other = start(&jobs, json!({"q": "y"}));
    assert_ne!(first.id(), other.id());
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    // Another principal's identical call is its own.
    let theirs = jobs
        .begin("v", "t", &json!({"q": "x", "page": 1}), false, |_| {
            std::future::pending::<Produce>()
        })
        .unwrap();
    assert_ne!(theirs.id(), first.id());
}

#[tokio::test]
async fn the_last_caller_leaving_before_the_threshold_stops_the_call() {
    let jobs = jobs(60_000);
    let (stopped_tx, stopped_rx) = oneshot::channel::<()>();
    let waiter = jobs
        .begin("u", "t", &json!({}), false, move |_| async move {
            struct Dropped(Option<oneshot::Sender<()>>);
            impl Drop for Dropped {
                fn drop(&mut self) {
                    let _ = self.0.take().map(|s| s.send(()));
                }
            }
            let _guard = Dropped(Some(stopped_tx));
            std::future::pending::<Produce>().await
        })
        .unwrap();
    let id = waiter.id().to_owned();
    drop(waiter);
    // Sent by the guard, or the sender dropped with a call never polled: either way it is gone.
    let _ = tokio::time::timeout(Duration::from_secs(5), stopped_rx)
        .await
        .expect("the call was not stopped");
    assert!(matches!(jobs.lookup("u", &id), Lookup::NotFound));
    assert_eq!(jobs.running(), 0);
}

#[tokio::test]
async fn another_principal_finds_nothing_and_cannot_cancel() {
    let jobs = jobs(10);
    let (_finish, run) = held();
    let Answered::Job(running) = jobs
        .begin("u", "t", &json!({}), true, run)
        .unwrap()
        .answer()
        .await
    else {
        panic!("no handle")
    };
    assert!(matches!(jobs.lookup("v", &running.id), Lookup::NotFound));
    assert!(matches!(
        jobs.cancel("v", &running.id, |_, _, _| Ok(json!(null))),
        Lookup::NotFound
    ));
    assert!(matches!(jobs.lookup("u", &running.id), Lookup::Running(_)));
    assert!(matches!(
        jobs.lookup("u", "0".repeat(32).as_str()),
        Lookup::NotFound
    ));
}

#[tokio::test]
async fn bounds_refuse_before_anything_runs() {
    let jobs = jobs(60_000);
    let pending = |_| std::future::pending::<Produce>();
    let _a = jobs.begin("u", "t", &json!(1), false, pending).unwrap();
    let _b = jobs.begin("u", "t", &json!(2), false, pending).unwrap();
    let ran = AtomicUsize::new(0);
    let refused = jobs.begin("u", "t", &json!(3), false, |_| {
        ran.fetch_add(1, Ordering::SeqCst);
        std::future::pending::<Produce>()
    });
    assert_eq!(refused.unwrap_err(), Refusal::PerUser(2));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    // Joining a running call is not a new one.
    let _join = jobs.begin("u", "t", &json!(1), false, pending).unwrap();
    let _c = jobs.begin("v", "t", &json!(1), false, pending).unwrap();
    assert_eq!(
        jobs.begin("w", "t", &json!(1), false, pending).unwrap_err(),
        Refusal::Global(3)
    );
}

#[tokio::test]
async fn cancel_leaves_the_outcome_it_is_given_and_stops_the_call() {
    let jobs = jobs(10);
    let (stopped_tx, stopped_rx) = oneshot::channel::<()>();
    let Answered::Job(running) = jobs
        .begin("u", "w", &json!({}), true, move |cancel| async move {
            cancel.cancelled().await;
            let _ = stopped_tx.send(());
            Box::new(|| Ok(json!("never stored"))) as Produce
        })
        .unwrap()
        .answer()
        .await
    else {
        panic!("no handle")
    };
    let seen = std::sync::Mutex::new(None);
    let after = jobs.cancel("u", &running.id, |tool, write, _| {
        *seen.lock().unwrap() = Some((tool.to_owned(), write));
        Ok(json!({"cancelled": true}))
    });
    assert_eq!(*seen.lock().unwrap(), Some(("w".to_owned(), true)));
    let Lookup::Finished(after) = after else {
        panic!("not finished")
    };
    assert!(after.cancelled);
    assert_eq!(*after.outcome, Ok(json!({"cancelled": true})));
    let _ = tokio::time::timeout(Duration::from_secs(5), stopped_rx).await;
    let Lookup::Finished(kept) = jobs.lookup("u", &running.id) else {
        panic!("forgotten")
    };
    assert_eq!(*kept.outcome, Ok(json!({"cancelled": true})));
    assert_eq!(jobs.running(), 0);
}

#[tokio::test]
async fn finished_outcomes_expire_after_their_keep_time() {
    let jobs = Jobs::new(JobSettings {
        after: Some(Duration::from_millis(10)),
        keep: Duration::from_millis(30),
        max_per_user: 4,
        max: 4,
    });
    let (finish, run) = held();
    let Answered::Job(running) = jobs
        .begin("u", "t", &json!({}), false, run)
        .unwrap()
        .answer()
        .await
    else {
        panic!("no handle")
    };
    finish.send(json!(1)).unwrap();
    assert!(matches!(
        jobs.wait("u", &running.id, Duration::from_secs(5)).await,
        Lookup::Finished(_)
    ));
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert!(matches!(jobs.lookup("u", &running.id), Lookup::NotFound));
}

#[tokio::test]
async fn the_oldest_finished_outcomes_go_first_when_they_outgrow_their_bytes() {
    let jobs = Jobs::new(JobSettings {
        after: Some(Duration::from_millis(10)),
        keep: Duration::from_secs(60),
        max_per_user: 4,
        max: 1,
    });
    let big = json!("x".repeat(RESULT_BYTES * 3 / 4));
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (finish, run) = held();
        let Answered::Job(running) = jobs
            .begin("u", "t", &json!(ids.len()), false, run)
            .unwrap()
            .answer()
            .await
        else {
            panic!("no handle")
        };
        finish.send(big.clone()).unwrap();
        assert!(matches!(
            jobs.wait("u", &running.id, Duration::from_secs(5)).await,
            Lookup::Finished(_)
        ));
        ids.push(running.id);
    }
    assert!(matches!(jobs.lookup("u", &ids[0]), Lookup::NotFound));
    assert!(matches!(jobs.lookup("u", &ids[1]), Lookup::Finished(_)));
}

#[tokio::test]
async fn a_joined_call_goes_on_when_the_caller_that_started_it_leaves() {
    let jobs = jobs(60_000);
    let (finish, run) = held();
    let starter = jobs.begin("u", "t", &json!({}), false, run).unwrap();
    let joined = jobs
        .begin("u", "t", &json!({}), false, |_| {
            std::future::pending::<Produce>()
        })
        .unwrap();
    // The starter gives up while it drives the call.
    let _ = tokio::time::timeout(Duration::from_millis(20), starter.answer()).await;
    finish.send(json!({"r": 3})).unwrap();
    let Answered::Done(Some(outcome)) = joined.answer().await else {
        panic!("the joined caller got nothing")
    };
    assert_eq!(*outcome, Ok(json!({"r": 3})));
}
