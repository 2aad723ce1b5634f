//! The Ombi HTTP client: base path, headers (`Accept`, `UserName`, `ApiKey` only when the host
//! passes the key), and the one place where exchanges become JSON or contract errors.

use super::config::OmbiConfig;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::upstream::recognise::{
    json_body, json_bounded, json_elements, status_error, transport_error,
};
use crate::upstream::{Effect, HttpRequest, HttpResponse, MAX_BODY_BYTES, Method, Upstream};
use media_mcp_wire::upstreams;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// An Ombi client for one call.
pub struct Ombi<'a> {
    upstream: &'a dyn Upstream,
    config: &'a OmbiConfig,
    user: Option<&'a str>,
    timeout_ms: u64,
}

impl<'a> Ombi<'a> {
    /// A client acting as `principal`, else the configured default user, else the key's
    /// administrator identity.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` (`principal`) when the user name cannot be sent as a header.
    pub fn new(
        upstream: &'a dyn Upstream,
        config: &'a OmbiConfig,
        principal: Option<&'a str>,
        timeout_ms: u64,
    ) -> Result<Self, ToolError> {
        let user = principal
            .or(config.default_user.as_deref())
            .filter(|u| !u.trim().is_empty());
        if let Some(u) = user
            && media_mcp_wire::user::check_user_name(u).is_err()
        {
            return Err(ToolError::invalid_argument(
                "principal",
                "the user to act as must be printable ASCII of at most 256 characters",
            ));
        }
        Ok(Self {
            upstream,
            config,
            user,
            timeout_ms,
        })
    }

    /// The user the calls act as, if any.
    pub fn acting_user(&self) -> Option<&str> {
        self.user
    }

    /// GET `path` and decode JSON; `Ok(None)` for 204/empty.
    ///
    /// # Errors
    /// A contract error for transport failures, failure statuses and bad bodies.
    pub fn get<T: DeserializeOwned>(&self, path: &str) -> Result<Option<T>, ToolError> {
        self.send(Method::Get, path, None, Effect::Read)
    }

    /// GET `path`, an unpaged list, handing its elements to `each` one at a time
    /// ([`json_elements`]): a list of several megabytes is never held as one JSON tree.
    ///
    /// # Errors
    /// As [`Ombi::get`]; 204 or `null` (which do not say the list is empty) and JSON that is
    /// not an array are `UPSTREAM_SCHEMA_MISMATCH` naming `what`; the first error of `each`.
    pub fn get_each(
        &self,
        path: &str,
        what: &str,
        each: &mut dyn FnMut(Value) -> Result<(), ToolError>,
    ) -> Result<usize, ToolError> {
        self.get_each_or_none(path, what, each)?.ok_or_else(|| {
            ToolError::schema_mismatch(format!(
                "Ombi answered the list of {what} with no content (HTTP 204 or null), which does not say the list is empty"
            ))
        })
    }

    /// As [`Ombi::get_each`], for the routes where 204 or `null` means "nothing" (a disabled
    /// integration): `Ok(None)` for those, `Ok(Some(n))` for an array of `n` elements.
    ///
    /// # Errors
    /// As [`Ombi::get_each`], 204 and `null` aside.
    pub fn get_each_or_none(
        &self,
        path: &str,
        what: &str,
        each: &mut dyn FnMut(Value) -> Result<(), ToolError>,
    ) -> Result<Option<usize>, ToolError> {
        let resp = self.exchange(Method::Get, path, None, Effect::Read)?;
        let first = resp.body.iter().find(|b| !b.is_ascii_whitespace());
        if first.is_some_and(|b| *b != b'[' && *b != b'n') {
            return Err(ToolError::schema_mismatch(format!(
                "expected a JSON array of {what} from upstream"
            )));
        }
        json_elements(&resp, each)
    }

    /// A by-id read: 204 means no such title; Ombi answers many unknown ids with a 500.
    pub fn get_by_id(&self, path: &str) -> Result<Value, Box<Reply>> {
        by_id(self.get::<Value>(path))
    }

    /// As [`Ombi::get_by_id`], with every array of the answer cut to `keep` elements; the
    /// later ones go to `spill` ([`json_bounded`]).
    pub fn get_by_id_bounded(
        &self,
        path: &str,
        keep: usize,
        spill: &mut dyn FnMut(&str, Value),
    ) -> Result<Value, Box<Reply>> {
        by_id(
            self.exchange(Method::Get, path, None, Effect::Read)
                .and_then(|resp| json_bounded(&resp, keep, spill)),
        )
    }

    /// Sends `method path` with an optional JSON body and decodes the JSON answer.
    ///
    /// # Errors
    /// As [`Ombi::get`]; for [`Effect::Write`] a lost answer is `UNKNOWN_OUTCOME`.
    pub fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        effect: Effect,
    ) -> Result<Option<T>, ToolError> {
        let resp = self.exchange(method, path, body, effect)?;
        json_body(&resp)
    }

    /// Sends and checks the status; the body is left to the caller.
    ///
    /// # Errors
    /// A contract error for transport failures and failure statuses.
    pub fn exchange(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        effect: Effect,
    ) -> Result<HttpResponse, ToolError> {
        let mutation = effect == Effect::Write;
        let mut headers = vec![("accept".to_owned(), "application/json".to_owned())];
        if let Some(key) = &self.config.api_key {
            // Pass-key mode: the header the host would otherwise add.
            headers.push((upstreams::OMBI.key_header.to_ascii_lowercase(), key.clone()));
        }
        if let Some(user) = self.user {
            headers.push(("username".to_owned(), user.to_owned()));
        }
        let body = body.map(|b| {
            headers.push(("content-type".to_owned(), "application/json".to_owned()));
            serde_json::to_vec(b).unwrap_or_default()
        });
        let request = HttpRequest {
            method,
            url: self.config.base_url.join(path),
            headers,
            body,
            timeout_ms: self.timeout_ms,
        };
        let resp = self
            .upstream
            .send(&request, MAX_BODY_BYTES)
            .map_err(|e| transport_error(&e, mutation))?;
        match status_error(&resp, mutation) {
            Some(err) => Err(err),
            None => Ok(resp),
        }
    }
}

/// A by-id answer: 204 means no such title; Ombi answers many unknown ids with a 500.
fn by_id(answer: Result<Option<Value>, ToolError>) -> Result<Value, Box<Reply>> {
    match answer {
        Ok(Some(v)) if v.is_object() => Ok(v),
        Ok(Some(_)) => Err(Box::new(Reply::failure(ToolError::schema_mismatch("expected a JSON object for the title")))),
        Ok(None) => Err(Box::new(Reply::failure(ToolError::new(ErrorCode::NotFound, "no such title upstream")))),
        Err(e) if e.code == ErrorCode::UpstreamRejected && e.http_status == Some(500) => Err(Box::new(Reply::failure(e)
            .warn("Ombi answers unknown ids with an internal error: the id may not exist in this namespace"))),
        Err(e) => Err(Box::new(Reply::failure(e))),
    }
}
