//! The fake against the recordings: replayed in recording order, every exchange gets the
//! recorded status and body, including the answers the fake makes itself (route table, key
//! check, query validation) rather than replays.

use super::recorded::{Asked, Auth, Replay, exchanges};
use serde_json::Value;

fn asked(e: &Value) -> Asked<'_> {
    Asked {
        method: e["method"].as_str().expect("method"),
        path: e["path"].as_str().expect("path"),
        query: e["query"].as_str().expect("query"),
        auth: match e["auth"].as_str() {
            Some("key") => Auth::Key,
            Some("wrong") => Auth::Wrong,
            _ => Auth::None,
        },
        user: e["user"].as_str(),
        body: Some(e["body"].clone()).filter(|b| !b.is_null()),
    }
}

#[test]
fn the_fake_answers_every_recorded_exchange_as_seerr_did() {
    let mut replay = Replay::default();
    let mut drift = Vec::new();
    for e in exchanges() {
        let (status, body) = replay.answer(&asked(e));
        let want_status = e["status"].as_u64().unwrap_or(0);
        let want_body = Some(e["response"].clone()).filter(|v| !v.is_null());
        if u64::from(status) != want_status || body != want_body {
            drift.push(format!(
                "{} {}?{} as {:?}: {status} instead of {want_status}",
                e["method"], e["path"], e["query"], e["user"]
            ));
        }
    }
    assert!(
        drift.is_empty(),
        "the fake drifted from the recordings:\n{}",
        drift.join("\n")
    );
    assert!(exchanges().len() > 100);
}

#[test]
fn validation_answers_are_made_by_the_fake_for_any_route() {
    let mut replay = Replay::default();
    let (status, body) = replay.answer(&Asked {
        method: "GET",
        path: "/issue/count",
        query: "foo=1",
        auth: Auth::Key,
        user: None,
        body: None,
    });
    assert_eq!(status, 400);
    assert_eq!(body.unwrap()["message"], "Unknown query parameter 'foo'");
    let (status, _) = replay.answer(&Asked {
        method: "GET",
        path: "/user/5/quota",
        query: "",
        auth: Auth::None,
        user: None,
        body: None,
    });
    assert_eq!(status, 401);
}

#[test]
fn the_recordings_hold_seerr_status_enums_and_each_request_outcome() {
    let statuses: Vec<(u64, &str)> = exchanges()
        .iter()
        .filter(|e| e["method"] == "POST" && e["path"] == "/request")
        .map(|e| {
            (
                e["status"].as_u64().unwrap_or(0),
                e["response"]["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    for want in [
        (409, "Request for this media already exists."),
        (202, "No seasons available to request"),
        (403, "Movie Quota exceeded."),
        (403, "This media is blocklisted."),
    ] {
        assert!(statuses.contains(&want), "{want:?} not recorded");
    }
    let request_states: Vec<u64> = exchanges()
        .iter()
        .filter(|e| e["method"] == "POST" && e["path"] == "/request" && e["status"] == 201)
        .filter_map(|e| e["response"]["status"].as_u64())
        .collect();
    assert!(request_states.contains(&1) && request_states.contains(&2));
}

#[test]
fn a_replay_from_a_scenario_answers_in_that_state() {
    let movie = Asked {
        method: "GET",
        path: "/movie/603",
        query: "",
        auth: Auth::Key,
        user: Some("2"),
        body: None,
    };
    let (_, before) = Replay::default().answer(&movie);
    assert!(before.unwrap()["mediaInfo"].is_null());
    let (_, during) = Replay::from_scenario("issues").answer(&movie);
    assert_eq!(during.unwrap()["mediaInfo"]["tmdbId"], 603);
    // An exchange not recorded from the scenario on answers as it last did before it (the
    // administrator's look-up of a name).
    let lookup = Asked {
        method: "GET",
        path: "/user",
        query: "take=100&q=alice",
        user: None,
        ..movie
    };
    let (status, users) = Replay::from_scenario("server").answer(&lookup);
    assert_eq!(status, 200);
    assert_eq!(users.unwrap()["results"][0]["username"], "alice");
}
