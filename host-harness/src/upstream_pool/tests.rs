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
