//! The output contract (`ombi-results-contract.md`): schemas, envelope, errors and budgets.

pub mod budget;
pub mod compose;
pub mod envelope;
pub mod error;

pub use compose::{compose_output_schema, compose_output_schema_with};
pub use envelope::{Rendered, Reply, render};
pub use error::{ErrorCode, ToolError};
