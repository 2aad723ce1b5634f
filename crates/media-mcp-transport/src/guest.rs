//! The WIT glue (wasm32 only): reads the request head and body from `wasi:http`, lets
//! [`crate::admit`] and [`crate::handle`] decide, writes the answer back, and adapts the
//! imported `media-mcp:plugin/tools` to [`crate::Tools`]. No decision is made here.

// The allocator, panic handler, `cabi_realloc` and `memcmp`/`bcmp` std would have brought.
extern crate media_mcp_guest_rt;

mod bindings;

use bindings::exports::wasi::http::incoming_handler::Guest;
use bindings::media_mcp::plugin::tools as plugin;
use bindings::wasi;
use bindings::wasi::http::types::{
    Fields, IncomingRequest, Method, OutgoingBody, OutgoingResponse, ResponseOutparam,
};
use bindings::wasi::io::streams::StreamError;

use crate::auth::AuthMode;
use crate::config::Settings;
use crate::http::{self, Head, Response};
use crate::mcp::{self, ToolOutcome, ToolRecord, Tools};
use crate::prelude::*;
use crate::{health, oauth, resource_server};

mod fetch;

/// Bytes asked for per body read.
const READ_CHUNK: u64 = 64 * 1024;
/// `blocking-write-and-flush` takes at most 4096 bytes per call.
const WRITE_CHUNK: usize = 4096;

struct Component;

impl Guest for Component {
    fn handle(request: IncomingRequest, response_out: ResponseOutparam) {
        let answer = respond(&request);
        send(response_out, &answer);
    }
}

bindings::export!(Component with_types_in bindings);

fn respond(request: &IncomingRequest) -> Response {
    let env = wasi::cli::environment::get_environment();
    let settings =
        Settings::from_lookup(|name| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()));
    let method = method_name(&request.method());
    let path = request.path_with_query().unwrap_or_default();
    // Ready when the settings are usable: this component keeps no other state.
    let ready = settings
        .as_ref()
        .map(|_| ())
        .map_err(|_| health::NotReady::Misconfigured);
    if let Some(answer) = health::probe(&method, &path, ready) {
        return answer;
    }
    let settings = match settings {
        Ok(settings) => settings,
        Err(e) => {
            return Response::error(
                500,
                http::TRANSPORT_ERROR,
                &format!("the server is misconfigured: {e}"),
            );
        }
    };
    let headers: Vec<(String, Vec<u8>)> = request
        .headers()
        .entries()
        .into_iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value))
        .collect();
    let head = Head {
        method: &method,
        path_with_query: &path,
        headers: &headers,
    };
    let answer = answer(request, &settings, &head);
    http::with_cors(&settings, &head, answer)
}

/// The answer before CORS: OAuth metadata, the admission checks, the OAuth token (its
/// refusals coded for the request's era like the admission's), then MCP.
fn answer(request: &IncomingRequest, settings: &Settings, head: &Head<'_>) -> Response {
    if let AuthMode::OAuth(o) = &settings.auth
        && let Some(answer) = resource_server::metadata::serve(o, &settings.path, head)
    {
        return answer;
    }
    let mut admitted = match http::admit(settings, head) {
        Ok(admitted) => admitted,
        Err(refusal) => return refusal,
    };
    let grant = match &settings.auth {
        AuthMode::OAuth(o) => {
            let now = wasi::clocks::wall_clock::now().seconds;
            match resource_server::authorize(o, head, &fetch::WasiFetch, &oauth::NoCache, now) {
                Ok(grant) => Some((o, grant)),
                Err(refusal) => return http::in_era(head, refusal),
            }
        }
        _ => None,
    };
    let body = match read_body(request, admitted.body_cap) {
        Ok(body) => body,
        Err(answer) => return answer,
    };
    match grant {
        Some((o, grant)) => {
            resource_server::handle(o, grant, &body, &mut admitted, &Plugin, &settings.secrets)
        }
        None => mcp::handle(&body, &admitted, &Plugin, &settings.secrets),
    }
}

fn method_name(method: &Method) -> String {
    match method {
        Method::Get => "GET".into(),
        Method::Head => "HEAD".into(),
        Method::Post => "POST".into(),
        Method::Put => "PUT".into(),
        Method::Delete => "DELETE".into(),
        Method::Connect => "CONNECT".into(),
        Method::Options => "OPTIONS".into(),
        Method::Trace => "TRACE".into(),
        Method::Patch => "PATCH".into(),
        Method::Other(other) => other.clone(),
    }
}

/// Reads the body, stopping (413) as soon as it grows past `cap`.
fn read_body(request: &IncomingRequest, cap: usize) -> Result<Vec<u8>, Response> {
    let unreadable = || {
        Response::error(
            400,
            http::TRANSPORT_ERROR,
            "the request body could not be read",
        )
    };
    let body = request.consume().map_err(|()| unreadable())?;
    let stream = body.stream().map_err(|()| unreadable())?;
    let mut buf = Vec::new();
    loop {
        match stream.blocking_read(READ_CHUNK) {
            Ok(chunk) => {
                if buf.len() + chunk.len() > cap {
                    return Err(http::too_large());
                }
                buf.extend_from_slice(&chunk);
            }
            Err(StreamError::Closed) => break,
            Err(StreamError::LastOperationFailed(_)) => return Err(unreadable()),
        }
    }
    Ok(buf)
}

fn send(out: ResponseOutparam, answer: &Response) {
    let mut entries: Vec<(String, Vec<u8>)> = answer
        .headers
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone().into_bytes()))
        .collect();
    entries.push((
        "content-length".to_owned(),
        answer.body.len().to_string().into_bytes(),
    ));
    let Ok(fields) = Fields::from_list(&entries) else {
        // Our own header names and values are always valid; a refusal here is a bug.
        core::arch::wasm32::unreachable()
    };
    let response = OutgoingResponse::new(fields);
    if response.set_status_code(answer.status).is_err() {
        core::arch::wasm32::unreachable()
    }
    let Ok(body) = response.body() else {
        core::arch::wasm32::unreachable()
    };
    ResponseOutparam::set(out, Ok(response));
    if let Ok(stream) = body.write() {
        for chunk in answer.body.chunks(WRITE_CHUNK) {
            if stream.blocking_write_and_flush(chunk).is_err() {
                // The client went away; nothing left to tell it.
                return;
            }
        }
        drop(stream);
    }
    let _ = OutgoingBody::finish(body, None);
}

/// The composed plugin.
struct Plugin;

impl Tools for Plugin {
    fn list(&self) -> Vec<ToolRecord> {
        plugin::list_tools()
            .into_iter()
            .map(|t| ToolRecord {
                name: t.name,
                title: t.title,
                description: t.description,
                input_schema: t.input_schema,
                output_schema: t.output_schema,
                annotations: t.annotations,
            })
            .collect()
    }

    fn correlation_id(&self) -> String {
        let (a, b) = (
            wasi::random::random::get_random_u64(),
            wasi::random::random::get_random_u64(),
        );
        mcp::uuid_v4(a, b)
    }

    fn call(
        &self,
        name: &str,
        arguments: &str,
        correlation_id: &str,
        principal: Option<String>,
    ) -> Result<ToolOutcome, String> {
        let context = plugin::CallContext {
            correlation_id: correlation_id.to_owned(),
            principal,
        };
        match plugin::call_tool(name, arguments, &context) {
            Ok(r) => Ok(ToolOutcome {
                structured: r.structured,
                text: r.text,
                is_error: r.is_error,
            }),
            Err(plugin::CallError::UnknownTool(name)) => Err(name),
        }
    }
}
