use std::io::{ErrorKind, Read as _};
use std::net::TcpStream as Client;
use std::time::Duration;

use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpListener;

use super::*;

#[tokio::test]
async fn connections_queued_before_the_stop_are_taken_and_new_ones_never_queue() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // The kernel completes these handshakes itself; nothing has accepted them yet.
    let mut clients: Vec<Client> = (0..3).map(|_| Client::connect(addr).unwrap()).collect();

    refuse_new_handshakes(&listener).unwrap();
    let late = Client::connect_timeout(&addr, Duration::from_millis(300));
    assert_eq!(
        late.map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::TimedOut),
        "a SYN after the stop is dropped, not queued"
    );

    let mut taken = queued(&listener);
    assert_eq!(taken.len(), clients.len());
    assert!(queued(&listener).is_empty(), "nothing is left once taken");
    for (stream, peer) in &mut taken {
        stream.write_all(peer.to_string().as_bytes()).await.unwrap();
        stream.shutdown().await.unwrap();
    }
    let mut peers: Vec<String> = clients
        .iter_mut()
        .map(|client| {
            let mut said = String::new();
            client.read_to_string(&mut said).unwrap();
            said
        })
        .collect();
    let mut expected: Vec<String> = clients
        .iter()
        .map(|c| c.local_addr().unwrap().to_string())
        .collect();
    peers.sort();
    expected.sort();
    assert_eq!(
        peers, expected,
        "each queued connection is served, none reset"
    );

    drop(listener);
    let refused = Client::connect(addr).map(|_| ()).map_err(|e| e.kind());
    assert_eq!(refused, Err(ErrorKind::ConnectionRefused));
}

#[tokio::test]
async fn a_listener_with_nothing_queued_gives_nothing_at_once() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    assert!(queued(&listener).is_empty());
}
