//! A configuration problem found while reading the environment: the variable at fault and what
//! is wrong with it (the type hosts check the plugin's variables with, so both say the same).
//! Code decides by the variable, people read `"{variable} {message}"`.

pub use media_mcp_wire::plugin_settings::Problem as ConfigProblem;
