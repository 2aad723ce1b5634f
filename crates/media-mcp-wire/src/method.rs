//! MCP method names.

/// Legacy handshake (2025-11-25 and earlier).
pub const INITIALIZE: &str = "initialize";
/// The client's acknowledgment that the legacy handshake is done.
pub const INITIALIZED: &str = "notifications/initialized";
/// Legacy liveness check (removed in 2026-07-28).
pub const PING: &str = "ping";
/// The server's versions, capabilities and identity (2026-07-28).
pub const SERVER_DISCOVER: &str = "server/discover";
/// The tool catalogue.
pub const TOOLS_LIST: &str = "tools/list";
/// One tool call.
pub const TOOLS_CALL: &str = "tools/call";
/// A long-lived stream of change notifications (2026-07-28).
pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
/// Its acknowledgment, the first message of the stream.
pub const SUBSCRIPTIONS_ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
/// Progress of a request in flight.
pub const PROGRESS: &str = "notifications/progress";
/// The Tasks extension's methods (SEP-2663).
pub const TASKS_GET: &str = "tasks/get";
pub const TASKS_CANCEL: &str = "tasks/cancel";
pub const TASKS_UPDATE: &str = "tasks/update";

/// The resources (the MCP Apps views).
pub const RESOURCES_LIST: &str = "resources/list";
/// One resource's contents.
pub const RESOURCES_READ: &str = "resources/read";
/// The resource templates (none).
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// The prompts.
pub const PROMPTS_LIST: &str = "prompts/list";
/// One prompt's messages.
pub const PROMPTS_GET: &str = "prompts/get";

/// The methods whose `Mcp-Name` header mirrors `params.name` (`resources/read` mirrors
/// `params.uri`).
pub const NAMED: &[&str] = &[TOOLS_CALL, PROMPTS_GET];
