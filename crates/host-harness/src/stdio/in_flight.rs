//! Request ids in flight, so that a reused id is refused instead of losing an answer.
//!
//! rmcp 3.11 keys the requests it is serving by id: a second request with the id of one still
//! being served replaces the first's entry, both run, and whichever finishes second finds no
//! entry and its answer is dropped (`service.rs`, `local_ct_pool`). The line filter therefore
//! records the id of every request it hands rmcp ([`InFlight::admit`]) and the transport
//! releases it when rmcp's answer goes out ([`InFlight::settle`]); a request whose id is in
//! flight is answered `-32600` and never reaches rmcp.
//!
//! Cancellation: rmcp would drop the answer of a cancelled request, so its id would never be
//! released here, and a later request reusing the id while the cancelled call still runs would
//! be answered with the cancelled call's result. So a `notifications/cancelled` for an id in
//! flight is kept from rmcp and applied here instead: it fires the request's signal in the
//! shared [`Cancellations`], the server stops the call and answers, and that answer (the first
//! line with the id after the cancellation) releases the id and is dropped, as the protocol
//! asks for a cancelled request.

use media_mcp_wire::code;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId};
use serde_json::json;

use crate::cancel::Cancellations;

/// What to do with a message on its way to rmcp.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Admit {
    /// Forward it.
    Forward,
    /// Answer it with this line instead (its id is in flight).
    Refuse(String),
    /// Drop it silently (a cancellation, applied here).
    Drop,
}

/// Ids of the requests forwarded to rmcp and not yet answered, shared by the filter, the
/// writer and the server (which stops a call when its request is cancelled).
#[derive(Debug, Clone, Default)]
pub(crate) struct InFlight(pub(crate) Cancellations);

impl InFlight {
    /// Decides about one message before it is handed to rmcp, recording requests.
    pub(crate) fn admit(&self, message: &ClientJsonRpcMessage) -> Admit {
        match message {
            JsonRpcMessage::Request(request) => {
                if self.0.begin(&request.id) {
                    Admit::Forward
                } else {
                    Admit::Refuse(id_in_use_response(&request.id))
                }
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                    && self.0.cancel(id)
                {
                    crate::log_debug!("request {id} cancelled by the client");
                    return Admit::Drop;
                }
                Admit::Forward
            }
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => Admit::Forward,
        }
    }

    /// Releases the id of an answer rmcp sends; `false` when the answer must not be written
    /// (its request was cancelled).
    pub(crate) fn settle(&self, id: &RequestId) -> bool {
        self.0.end(id) != Some(true)
    }
}

/// The `-32600` answer to a request whose id is in flight.
pub(crate) fn id_in_use_response(id: &RequestId) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code::INVALID_REQUEST, "message": "Invalid Request: this id belongs to a request still in progress; use a new id"}})
        .to_string()
}

#[cfg(test)]
mod tests;
