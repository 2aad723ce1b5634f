//! What every Seerr write answers with: the `mutation` record, and a refusal that still says
//! nothing changed.

use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// A `mutation` result under construction.
#[derive(Debug, Clone, Default)]
pub struct Mutation(Map<String, Value>);

impl Mutation {
    /// A mutation with `outcome` (`completed`, `rejected`, ...).
    pub fn new(outcome: &str) -> Self {
        let mut m = Map::new();
        m.insert("kind".into(), json!("mutation"));
        m.insert("outcome".into(), json!(outcome));
        Self(m)
    }

    /// Sets `field` to `value` when it is `Some`.
    pub fn maybe(mut self, field: &str, value: Option<Value>) -> Self {
        if let Some(v) = value {
            self.0.insert(field.into(), v);
        }
        self
    }

    /// Sets `message` (sanitized) unless empty.
    pub fn message(mut self, message: &str) -> Self {
        let m = crate::contract::error::sanitize(message);
        if !m.is_empty() {
            self.0.insert("message".into(), json!(m));
        }
        self
    }

    pub fn into_json(self) -> Value {
        Value::Object(self.0)
    }
}

/// The reply to a write Seerr refused with `error`: when the change certainly did not happen
/// (any refusal but an unknown outcome), the failure carries a `rejected` mutation.
pub fn refused(error: ToolError, mutation: Mutation) -> Reply {
    if error.code == ErrorCode::UnknownOutcome {
        return Reply::failure(error);
    }
    let message = error.message.clone();
    Reply {
        data: Some(mutation.message(&message).into_json()),
        ..Reply::failure(error)
    }
}
