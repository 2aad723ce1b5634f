//! A `tools/list` answer written around tool-list JSON text its source already holds, instead
//! of serializing the tools again (137 KB of schemas for the component's catalogue).

use std::sync::Arc;

use rmcp::model::{
    JsonRpcMessage, JsonRpcResponse, ListToolsResult, RequestId, ServerJsonRpcMessage,
    ServerResult, Tool,
};

/// Where the transport finds the JSON text of a tool list it is about to send.
pub trait ListingText: Send + Sync {
    /// `tools` as a JSON array, exactly as `serde_json` would write them, when this source
    /// holds that text already; `None` otherwise (the answer is then serialized as usual).
    /// The answer to request `id` may carry no tools, when this source promised it the text.
    fn listing_text(&self, id: &RequestId, tools: &[Tool]) -> Option<Arc<str>>;
}

/// The line (without its newline) that carries `message` with its tools written as `text`, when
/// `message` is a `tools/list` answer; `None` for any other message, or when `text` holds a line
/// break (one message per line).
pub(super) fn spliced(message: &ServerJsonRpcMessage, source: &dyn ListingText) -> Option<Vec<u8>> {
    let JsonRpcMessage::Response(response) = message else {
        return None;
    };
    let ServerResult::ListToolsResult(listed) = &response.result else {
        return None;
    };
    let text = source.listing_text(&response.id, &listed.tools)?;
    if crate::artifact_cache::holds_line_break(&text) {
        return None;
    }
    let without_tools = ServerJsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: response.jsonrpc,
        id: response.id.clone(),
        result: ServerResult::ListToolsResult(ListToolsResult {
            result_type: listed.result_type.clone(),
            meta: listed.meta.clone(),
            next_cursor: listed.next_cursor.clone(),
            ttl_ms: listed.ttl_ms,
            cache_scope: listed.cache_scope,
            tools: Vec::new(),
        }),
    });
    let mut line = serde_json::to_vec(&without_tools).ok()?;
    // `tools` is the result's last field, and the result the message's last member.
    const EMPTY_TAIL: &[u8] = br#""tools":[]}}"#;
    line.truncate(line.strip_suffix(EMPTY_TAIL)?.len());
    line.reserve(text.len() + EMPTY_TAIL.len());
    line.extend_from_slice(br#""tools":"#);
    line.extend_from_slice(text.as_bytes());
    line.extend_from_slice(b"}}");
    Some(line)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rmcp::model::{
        JsonObject, JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0, ListToolsResult, RequestId,
        ServerJsonRpcMessage, ServerResult, Tool,
    };
    use serde_json::json;

    use super::{ListingText, spliced};

    /// Holds the text of one tool list and offers it for exactly those tools.
    struct Held(Vec<Tool>, Arc<str>);

    impl ListingText for Held {
        fn listing_text(&self, _id: &RequestId, tools: &[Tool]) -> Option<Arc<str>> {
            (tools == self.0.as_slice()).then(|| Arc::clone(&self.1))
        }
    }

    fn tools() -> Vec<Tool> {
        let schema: JsonObject = serde_json::from_value(json!({"type": "object"})).unwrap();
        vec![
            Tool::new(
                "read_a",
                "Reads \"a\".\nTwo lines.",
                Arc::new(schema.clone()),
            ),
            Tool::new("write_b", "Writes b.", Arc::new(schema)),
        ]
    }

    fn answer(result: ListToolsResult) -> ServerJsonRpcMessage {
        JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId::Number(7),
            result: ServerResult::ListToolsResult(result),
        })
    }

    fn held() -> Held {
        let tools = tools();
        let text = serde_json::to_string(&tools).unwrap();
        Held(tools, text.into())
    }

    #[test]
    fn a_spliced_answer_is_byte_for_byte_the_serialized_one() {
        let mut modern = ListToolsResult::with_all_items(tools());
        modern.ttl_ms = Some(60_000);
        modern.meta = Some(serde_json::from_value(json!({"a": {"b": [1]}})).unwrap());
        for result in [ListToolsResult::with_all_items(tools()), modern] {
            let message = answer(result);
            let line = spliced(&message, &held()).expect("the held tools");
            assert_eq!(line, serde_json::to_vec(&message).unwrap());
        }
    }

    #[test]
    fn other_tools_or_other_answers_are_not_spliced() {
        let mut changed = tools();
        changed[1].description = Some("Writes c.".into());
        assert!(spliced(&answer(ListToolsResult::with_all_items(changed)), &held()).is_none());
        let ping: ServerJsonRpcMessage = JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId::Number(1),
            result: ServerResult::empty(()),
        });
        assert!(spliced(&ping, &held()).is_none());
    }

    #[test]
    fn text_with_a_line_break_is_not_spliced() {
        let held = held();
        let broken = Held(held.0, held.1.replacen(',', ",\n", 1).into());
        assert!(spliced(&answer(ListToolsResult::with_all_items(tools())), &broken).is_none());
    }
}
