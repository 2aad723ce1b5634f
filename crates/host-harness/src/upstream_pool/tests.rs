use super::*;

fn message(error: &HttpError) -> &str {
    match error {
        HttpError::TlsAlertReceived {
            alert_id: None,
            alert_message: Some(m),
        } => m,
        other => panic!("not a certificate message: {other:?}"),
    }
}

#[test]
fn a_rejected_certificate_names_the_problem_and_the_setting() {
    let unknown = tls_error(
        &rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        "OMBI_CA_FILE",
    );
    assert_eq!(
        message(&unknown),
        "certificate not trusted: UnknownIssuer (a private CA can be trusted with OMBI_CA_FILE)"
    );
    let name = tls_error(
        &rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForName),
        "MOVIEPILOT_CA_FILE",
    );
    assert!(message(&name).starts_with("certificate not valid for this host: NotValidForName"));
}

#[test]
fn other_handshake_failures_are_protocol_errors() {
    let e = tls_error(&rustls::Error::HandshakeNotComplete, "OMBI_CA_FILE");
    assert!(matches!(e, HttpError::TlsProtocolError), "{e:?}");
}

#[test]
fn the_connector_reaches_its_own_origin_only() {
    use tower_service::Service as _;
    let origin = Origin::of_uri(&"http://127.0.0.1:9".parse().unwrap()).unwrap();
    let mut connector = OriginConnector {
        origin: Arc::new(origin),
        tls: None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let other = runtime.block_on(connector.call("http://127.0.0.1:10/x".parse().unwrap()));
    assert!(matches!(other, Err(ConnectError::WrongOrigin)));
    let https = runtime.block_on(connector.call("https://127.0.0.1:9/x".parse().unwrap()));
    assert!(matches!(https, Err(ConnectError::WrongOrigin)));
}

#[tokio::test]
async fn a_request_for_an_origin_without_a_client_is_refused() {
    use http_body_util::BodyExt as _;
    let pool = UpstreamPool::default();
    let body: WasiBody = http_body_util::Empty::<bytes::Bytes>::new()
        .map_err(|never| match never {})
        .boxed_unsync();
    let request = http::Request::get("http://127.0.0.1:9/")
        .body(body)
        .unwrap();
    let refused = pool.send(request, RequestOptions::default()).await;
    assert!(matches!(refused, Err(HttpError::HttpRequestDenied)));
}

/// A loopback HTTP/1.1 server answering every GET with 200 on kept-alive connections; the
/// count is of the connections it accepted.
async fn counting_server() -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while let Ok(n) = stream.read(&mut buf).await {
                    if n == 0 {
                        return;
                    }
                    head.extend_from_slice(&buf[..n]);
                    while let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
                        head.drain(..end + 4);
                        let answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                        if stream.write_all(answer).await.is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    (addr, accepted)
}

#[tokio::test]
async fn a_pooled_connection_expires_by_its_own_idle_time() {
    use http_body_util::BodyExt as _;
    use std::sync::atomic::Ordering;
    let (addr, accepted) = counting_server().await;
    let origin = Origin::of_uri(&format!("http://{addr}").parse().unwrap()).unwrap();
    let lifetime = Duration::from_secs(1);
    let pool = UpstreamPool {
        origins: vec![OriginPool {
            origin,
            extra_roots: Vec::new(),
            ca_variable: "",
            max_idle: 4,
            idle_timeout: lifetime,
            client: OnceLock::new(),
        }],
    };
    let get = || async {
        let body: WasiBody = http_body_util::Empty::<bytes::Bytes>::new()
            .map_err(|never| match never {})
            .boxed_unsync();
        let request = http::Request::get(format!("http://{addr}/"))
            .body(body)
            .unwrap();
        let response = pool.send(request, RequestOptions::default()).await.unwrap();
        assert_eq!(response.status(), 200);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&body[..], b"ok");
    };
    get().await;
    tokio::time::sleep(lifetime / 10).await;
    get().await;
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        1,
        "reused within its lifetime"
    );
    // A quiet spell longer than the lifetime: a new connection, and the call still answered.
    tokio::time::sleep(lifetime * 5 / 2).await;
    get().await;
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
    // The new connection's lifetime counts from its own last exchange, not from the client's
    // start or the first connection's: it is reused.
    tokio::time::sleep(lifetime / 10).await;
    get().await;
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}
