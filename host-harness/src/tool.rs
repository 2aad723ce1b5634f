//! [`ListedTool`]: the record that the component lists, the listing cache stores and the server
//! publishes, below all three.

/// One tool as the component's `list-tools` returns it (the WIT `tool` record; JSON fields
/// still as text). The server converts it to an MCP tool; the listing cache stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedTool {
    /// Unique name (`read_search`).
    pub name: String,
    /// Human-readable title.
    pub title: String,
    /// Description for the model.
    pub description: String,
    /// JSON Schema of the arguments, as text.
    pub input_schema: String,
    /// JSON Schema of the structured result, as text.
    pub output_schema: String,
    /// MCP annotations object, as text.
    pub annotations: String,
}
