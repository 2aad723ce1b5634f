//! Reserved `_meta` keys of MCP 2026-07-28.

/// The request's protocol version (required on modern requests).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The client's capabilities (required on modern requests).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The client's name and version (optional).
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The server's name and version, in each modern result.
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The `subscriptions/listen` request a notification belongs to.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
