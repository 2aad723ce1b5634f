//! [`ListedTool`]: the record that the component lists, the listing cache stores and the server
//! publishes, below all three: the wire crate's tool record (JSON fields still as text). The
//! server converts it to an MCP tool; the listing cache stores it.

pub use media_mcp_wire::ToolRecord as ListedTool;
