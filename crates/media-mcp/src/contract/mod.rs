//! The output contract (`ombi-results-contract.md`): schemas, envelope, errors and budgets.

pub(crate) mod budget;
pub(crate) mod compose;
pub(crate) mod envelope;
pub(crate) mod error;

pub use budget::MAX_STRUCTURED_BYTES;
pub use compose::compose_output_schema;
pub(crate) use compose::compose_output_schema_with;
pub use envelope::Rendered;
pub(crate) use envelope::{Reply, render};
pub(crate) use error::{ErrorCode, ToolError};
