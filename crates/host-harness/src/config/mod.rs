//! Configuration: raw values from the environment and an optional config file, validated once
//! into [`Settings`] (the ripgrep "low args → high args" split).
//!
//! [`VARIABLES`] is the table of recognised variables (name, help, scope, kind, a number's
//! bounds and default), kept in `media_mcp_wire::variables`; `--help` is generated from it
//! and every reader takes its entry. A config file (`--config PATH`, TOML, or JSON when the name ends in `.json`) is a flat table
//! whose keys are the same variable names. Precedence: command-line flag > environment > file.
//! An empty value counts as unset, except that an `OMBI_USER` left empty everywhere is an error
//! (unset, calls act as Ombi's administrator; nobody should get that by leaving a value out).
//! Errors name the variable and never echo a secret.

mod deadline;
mod front_door;
mod raw;
mod settings;
mod table;
mod upstream;

#[cfg(test)]
mod tests;

pub use front_door::FrontDoor;
pub use raw::{ConfigError, RawSettings, Secret};
pub use settings::{Overrides, Settings};
pub(crate) use table::DEFAULT_PROGRESS_INTERVAL_MS;
pub use table::{Kind, Scope, Variable};
pub use table::{PASSTHROUGH_PREFIXES, SECRET_SUFFIXES, VARIABLES};
pub use upstream::{MAX_USER_NAME_CHARS, MIN_KEY_CHARS, Upstream, checked_user_name};
