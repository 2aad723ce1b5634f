//! `host-harness`: parse the command line, run it, turn the outcome into an exit status.
//!
//! Errors are printed once, here, to stderr; stdout stays reserved for the command's output
//! (for `serve`, the MCP protocol).

use std::process::ExitCode;

fn main() -> ExitCode {
    host_harness::app::skip_error_backtraces();
    let command = match host_harness::cli::parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!("host-harness: {usage}");
            eprintln!("Try 'host-harness --help'.");
            return ExitCode::from(host_harness::app::EXIT_USAGE);
        }
    };
    match host_harness::app::run(command) {
        Ok(code) => code,
        Err(error) => {
            // `{:#}` prints the whole context chain on one line.
            eprintln!("host-harness: error: {error:#}");
            ExitCode::from(host_harness::app::EXIT_ERROR)
        }
    }
}
