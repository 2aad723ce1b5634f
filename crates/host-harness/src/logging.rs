//! Diagnostics on stderr, one plain line per event, never on stdout (stdout carries the MCP
//! protocol) and without ANSI colours.
//!
//! Levels come from `MEDIA_MCP_LOG` (`error`, `warn`, `info` (default), `debug`, `off`). Callers
//! must not pass secrets or request headers; the policy layer only ever logs origins and paths.

use std::io::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};

/// How much to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Nothing at all.
    Off = 0,
    /// Failures the operator must act on.
    Error = 1,
    /// Refused requests, traps, timeouts.
    Warn = 2,
    /// Start-up facts and one line per tool call.
    Info = 3,
    /// Every outgoing request (origin and path, never headers or query).
    Debug = 4,
}

impl Level {
    /// Parses a `MEDIA_MCP_LOG` value.
    ///
    /// # Errors
    ///
    /// Returns the accepted spellings when `value` is none of them.
    pub fn parse(value: &str) -> Result<Level, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "off" | "none" | "0" => Ok(Level::Off),
            "error" => Ok(Level::Error),
            "warn" | "warning" => Ok(Level::Warn),
            "info" => Ok(Level::Info),
            "debug" | "trace" => Ok(Level::Debug),
            _ => Err("must be one of off, error, warn, info, debug".to_owned()),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
        }
    }
}

static LEVEL: AtomicU8 = AtomicU8::new(Level::Info as u8);

/// Sets the process-wide level.
pub(crate) fn set_level(level: Level) {
    LEVEL.store(level as u8, Ordering::Relaxed);
}

/// Whether events at `level` are printed.
pub fn enabled(level: Level) -> bool {
    level != Level::Off && level as u8 <= LEVEL.load(Ordering::Relaxed)
}

/// Prints one event; use the `log_*!` macros instead.
pub fn emit(level: Level, args: std::fmt::Arguments<'_>) {
    if enabled(level) {
        // Stderr is unbuffered: formatted straight into it, a line is one `write` per piece
        // (eleven for a call's line), and pieces of lines from two threads can interleave.
        let _ = std::io::stderr().write_all(line(level, args).as_bytes());
    }
}

/// The text of one event, newline included.
fn line(level: Level, args: std::fmt::Arguments<'_>) -> String {
    format!("media-mcp {}: {args}\n", level.label())
}

/// Logs at error level.
#[macro_export]
macro_rules! log_error { ($($arg:tt)*) => { $crate::logging::emit($crate::logging::Level::Error, format_args!($($arg)*)) } }
/// Logs at warn level.
#[macro_export]
macro_rules! log_warn { ($($arg:tt)*) => { $crate::logging::emit($crate::logging::Level::Warn, format_args!($($arg)*)) } }
/// Logs at info level.
#[macro_export]
macro_rules! log_info { ($($arg:tt)*) => { $crate::logging::emit($crate::logging::Level::Info, format_args!($($arg)*)) } }
/// Logs at debug level.
#[macro_export]
macro_rules! log_debug { ($($arg:tt)*) => { $crate::logging::emit($crate::logging::Level::Debug, format_args!($($arg)*)) } }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_labelled_line() {
        let text = line(Level::Warn, format_args!("call {} [{}] failed", "t", 7));
        assert_eq!(text, "media-mcp warn: call t [7] failed\n");
    }
}
