//! The table of recognised variables is wire's ([`media_mcp_wire::variables`], re-exported
//! here); this module adds what only the harness needs: the pass-through of extra variables to
//! the component and the config file's key check.

pub use media_mcp_wire::variables::*;

/// Prefixes of extra variables passed through to the component unchanged (policy settings).
pub const PASSTHROUGH_PREFIXES: &[&str] = &["MEDIA_MCP_", "MOVIEPILOT_"];

/// Name endings that mark a secret: such extra variables are never passed to the component.
pub const SECRET_SUFFIXES: &[&str] = &["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

/// The table's entry for `name`.
pub fn find(name: &str) -> Option<&'static Variable> {
    VARIABLES.iter().find(|v| v.name == name)
}

/// Whether `name` is read from the environment or a config file: a variable of the table, a
/// secret's file variable (`OMBI_API_KEY_FILE`), or one with a pass-through prefix.
pub fn is_recognised(name: &str) -> bool {
    find(name).is_some()
        || secret_of_file_variable(name).is_some()
        || PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Whether the component gets `name` unchanged: a guest variable of the table, or an extra
/// one with a pass-through prefix and no secret ending.
pub fn passes_through(name: &str) -> bool {
    match find(name) {
        Some(v) => v.scope == Scope::Guest,
        None => {
            PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p))
                && !SECRET_SUFFIXES.iter().any(|s| name.ends_with(s))
        }
    }
}
