//! The call floor: the same request a tool call makes (`GET /api/v1/Search/movie/matrix` with
//! the `ApiKey` header, on a fresh loopback connection, as the sandbox's wasi:http client does)
//! sent by a native hyper client straight to the same fake Ombi, the body parsed with
//! serde_json. No MCP, no sandbox, no projection: what remains of a call's time is the
//! measuring method itself (loopback TCP, HTTP, JSON), so a server's overhead is its time minus
//! this one.

use std::net::SocketAddr;

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Empty};
use serde_json::Value;
use tokio::net::TcpStream;
use wasmtime_wasi_http::io::TokioIo;

/// GETs `path` from `addr` and parses the body as JSON; returns the value and the body size.
///
/// # Errors
///
/// Connection, HTTP or JSON errors, or a status other than 200.
pub async fn get_json(
    addr: SocketAddr,
    path: &str,
    api_key: &str,
) -> anyhow::Result<(Value, usize)> {
    let request = http::Request::get(path)
        .header(http::header::HOST, addr.to_string())
        .header("ApiKey", api_key)
        .body(Empty::<Bytes>::new())?;
    send_json(addr, request).await
}

/// Sends `request` to `addr` on a fresh connection and parses the body as JSON; returns the
/// value and the body size.
///
/// # Errors
///
/// Connection, HTTP or JSON errors, or a status other than 200.
pub async fn send_json<B>(
    addr: SocketAddr,
    request: http::Request<B>,
) -> anyhow::Result<(Value, usize)>
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let stream = TcpStream::connect(addr).await.context("connecting")?;
    stream.set_nodelay(true)?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context("HTTP handshake")?;
    let driver = tokio::spawn(connection);
    let response = sender.send_request(request).await.context("sending")?;
    anyhow::ensure!(response.status() == 200, "status {}", response.status());
    let body = response.into_body().collect().await?.to_bytes();
    let value: Value = serde_json::from_slice(&body).context("parsing")?;
    drop(sender);
    driver.abort();
    Ok((value, body.len()))
}
