//! The HTTP gateway: `target/media_mcp_http.wasm` (the MCP Streamable HTTP transport plugged
//! with the plugin) run as a `wasi:http/incoming-handler`, one fresh store per request, with
//! everything the plugin sandbox gives a call: the policy hooks (outbound origins, key
//! injection: keys never enter the guest), the memory limit, the epoch CPU budget, a wall-clock
//! limit, and the compiled-artifact cache. MCP itself (authentication, Origin checks, JSON-RPC)
//! is the transport's: what the harness serves is what gateways run.
//!
//! The pool holds [`INSTANCE_SLOTS`] instances; a request beyond that
//! many at once waits for a slot, and the wait counts against its call timeout.
//!
//! The answer is read whole (at most [`MAX_RESPONSE_BYTES`]) before it is sent, so a configured
//! key an upstream echoed back is replaced in it ([`Policy::redact_secrets`]), as over stdio.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use media_mcp_wire::code;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wasmtime_wasi::runtime::AbortOnDropJoinHandle;
use wasmtime_wasi_http::WasiHttpView as _;
use wasmtime_wasi_http::p2::bindings::ProxyPre;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;

use super::linker::{HostState, INSTANCE_SLOTS, PoolShape, gateway_linker, pooled_engine};
use super::store::{LoadReport, SandboxOptions, StoreRecipe};
use crate::artifact_cache;
use crate::policy::Policy;

/// Imports the gateway artifact has beyond the plugin world ([`super::ALLOWED_IMPORTS`]).
pub const GATEWAY_EXTRA_IMPORTS: &[&str] = &["wasi:random/random"];

/// The largest answer the gateway forwards (the transport's answers are tool results and the
/// tool list, far smaller).
pub const MAX_RESPONSE_BYTES: usize = 16 << 20;

/// An HTTP answer, whole.
pub type GatewayResponse = hyper::Response<Full<Bytes>>;

/// The loaded gateway component, ready for concurrent requests.
pub struct Gateway {
    pre: ProxyPre<HostState>,
    recipe: StoreRecipe,
    /// One permit per pooled instance slot; held while a request's store lives.
    slots: Arc<Semaphore>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("call_timeout", &self.recipe.call_timeout)
            .finish_non_exhaustive()
    }
}

/// A JSON-RPC error answer without an id, for failures of the host itself.
pub fn error_response(status: u16, message: &str) -> GatewayResponse {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::TRANSPORT_ERROR, "message": message}});
    let mut response = hyper::Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

impl Gateway {
    /// Reads, compiles (or loads from cache) and pre-instantiates the gateway component.
    ///
    /// # Errors
    ///
    /// The file is missing, not a component, does not export `wasi:http/incoming-handler`, or
    /// imports something the linker does not provide.
    pub fn load(path: &Path, options: SandboxOptions) -> anyhow::Result<(Gateway, LoadReport)> {
        let started = Instant::now();
        let wasm = std::fs::read(path)
            .with_context(|| format!("reading the HTTP component {}", path.display()))?;
        let digest = artifact_cache::component_digest(&wasm);
        let engine = pooled_engine(INSTANCE_SLOTS, PoolShape::GATEWAY)?;
        let (component, provenance) =
            artifact_cache::load_component(&engine, &wasm, &digest, options.cache_dir.as_deref())
                .with_context(|| format!("compiling the HTTP component {}", path.display()))?;
        let instance_pre = gateway_linker(&engine)?
            .instantiate_pre(&component)
            .map_err(|e| {
                anyhow::Error::from(e).context(format!(
                    "linking {} (it may import an interface the harness does not provide)",
                    path.display()
                ))
            })?;
        let pre = ProxyPre::new(instance_pre).map_err(|e| {
            anyhow::Error::from(e).context(format!(
                "{} does not export wasi:http/incoming-handler (build target/media_mcp_http.wasm with scripts/build-component.sh)",
                path.display()
            ))
        })?;
        let gateway = Gateway {
            pre,
            recipe: StoreRecipe::new(options, &engine),
            slots: Arc::new(Semaphore::new(INSTANCE_SLOTS as usize)),
        };
        Ok((
            gateway,
            LoadReport {
                provenance,
                elapsed: started.elapsed(),
                wasm_bytes: wasm.len(),
                component_digest: digest,
            },
        ))
    }

    /// Answers one request in a fresh instance, within the call timeout. Failures of the
    /// sandbox (trap, timeout, out of memory) are JSON-RPC errors with status 500 or 504.
    pub async fn handle<B>(&self, request: hyper::Request<B>) -> GatewayResponse
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<wasmtime_wasi_http::Error>,
    {
        match tokio::time::timeout(self.recipe.call_timeout, self.run(request)).await {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => {
                crate::log_warn!("HTTP request failed in the sandbox: {error:#}");
                error_response(500, "the plugin failed while answering this request")
            }
            Err(_elapsed) => error_response(
                504,
                &format!(
                    "the request did not finish within the {} s call timeout",
                    self.recipe.call_timeout.as_secs()
                ),
            ),
        }
    }

    async fn run<B>(&self, request: hyper::Request<B>) -> anyhow::Result<GatewayResponse>
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<wasmtime_wasi_http::Error>,
    {
        // Released only once the task below has dropped the store (and its pooled instance).
        let slot: OwnedSemaphorePermit = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the slot semaphore is never closed");
        let mut store = self.recipe.store(self.pre.engine());
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let request = store
            .data_mut()
            .http()
            .new_incoming_request(Scheme::Http, request)?;
        let out = store.data_mut().http().new_response_outparam(sender)?;
        let pre = self.pre.clone();
        // The guest keeps running after it set the response head, to write the body. Dropping
        // this future (the client went away) aborts the task: the instance, its store and any
        // upstream request in flight are dropped with it.
        let mut task = AbortOnDropJoinHandle::from(tokio::spawn(async move {
            // Locals drop in reverse order: the store before its slot.
            let _slot = slot;
            let mut store = store;
            let proxy = pre.instantiate_async(&mut store).await?;
            proxy
                .wasi_http_incoming_handler()
                .call_handle(&mut store, request, out)
                .await
        }));
        let response = match receiver.await {
            Ok(Ok(response)) => response,
            Ok(Err(code)) => anyhow::bail!("the guest answered with an error: {code:?}"),
            Err(_dropped) => {
                return Err(match (&mut *task).await {
                    Ok(Ok(())) => anyhow::anyhow!("the guest never set a response"),
                    Ok(Err(e)) => anyhow::anyhow!("the guest failed before answering: {e:#}"),
                    Err(e) => anyhow::Error::from(e),
                });
            }
        };
        let (mut parts, body) = response.into_parts();
        let body = Limited::new(body, MAX_RESPONSE_BYTES)
            .collect()
            .await
            .map_err(|e| anyhow::anyhow!("reading the guest's answer: {e}"))?
            .to_bytes();
        if let Ok(Err(e)) = (&mut *task).await {
            anyhow::bail!("the guest failed while writing its answer: {e:#}");
        }
        let content_type = parts
            .headers
            .get(hyper::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let body = match redact_body(&self.recipe.policy, content_type, &body) {
            Some(cleaned) => {
                crate::log_warn!("a configured API key was redacted from an HTTP answer");
                cleaned
            }
            None => body,
        };
        parts.headers.remove(hyper::header::TRANSFER_ENCODING);
        parts
            .headers
            .insert(hyper::header::CONTENT_LENGTH, body.len().into());
        Ok(hyper::Response::from_parts(parts, Full::new(body)))
    }
}

/// `body` with every configured key replaced, when it is a JSON answer or an SSE answer whose
/// `data:` lines are JSON and a key was found; `None` otherwise. A tool result's text block is
/// then rebuilt from its redacted `structuredContent`: in the text (serialized JSON) a line
/// break or control inside the key is an escape such as `\n`, which would hide it.
fn redact_body(policy: &Policy, content_type: &str, body: &[u8]) -> Option<Bytes> {
    let clean = |json: &[u8]| -> Option<String> {
        let mut value: Value = serde_json::from_slice(json).ok()?;
        if !policy.redact_secrets(&mut value) {
            return None;
        }
        rebuild_text_block(&mut value);
        Some(value.to_string())
    };
    if content_type.starts_with("application/json") {
        return clean(body).map(Bytes::from);
    }
    if !content_type.starts_with("text/event-stream") {
        return None;
    }
    let text = String::from_utf8_lossy(body);
    let mut changed = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            match line
                .strip_prefix("data: ")
                .and_then(|d| clean(d.as_bytes()))
            {
                Some(c) => {
                    changed = true;
                    format!("data: {c}")
                }
                None => line.to_owned(),
            }
        })
        .collect();
    changed.then(|| Bytes::from(lines.join("\n")))
}

/// Sets the text block of a tool result (`result.content[0].text`) to its
/// `result.structuredContent`, serialized, when the answer has both.
fn rebuild_text_block(answer: &mut Value) {
    let Some(structured) = answer
        .pointer("/result/structuredContent")
        .map(Value::to_string)
    else {
        return;
    };
    if let Some(Value::String(text)) = answer.pointer_mut("/result/content/0/text") {
        *text = structured;
    }
}

#[cfg(test)]
mod tests;
