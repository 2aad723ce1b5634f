//! The command line: subcommands, flags and the `--help` text (generated from
//! [`config::VARIABLES`](crate::config::VARIABLES), so every variable is documented).
//! Parsing only collects what was typed; [`crate::app`] runs it.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::config::{Overrides, PASSTHROUGH_PREFIXES, SECRET_SUFFIXES, VARIABLES};

/// Flags every subcommand accepts.
#[derive(Debug, Default, Clone)]
pub struct Common {
    /// `--config PATH`.
    pub config: Option<PathBuf>,
    /// `--component`, `--cache-dir`, `--no-cache`, `--pass-key-to-guest`.
    pub overrides: Overrides,
}

/// A parsed command line.
#[derive(Debug, Clone)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
    /// `serve`: MCP over stdio against the configured upstreams.
    Serve(Common),
    /// `tools`: the tool list, for people.
    Tools(Common),
    /// `call NAME JSON`: one call, pretty JSON out, exit status 1 when `isError`.
    Call {
        /// Shared flags.
        common: Common,
        /// Tool name.
        name: String,
        /// Arguments, a JSON object as text.
        arguments: String,
        /// `--principal USER`.
        principal: Option<String>,
    },
    /// `demo [--serve]`: against the embedded fake Ombi.
    Demo {
        /// Shared flags.
        common: Common,
        /// Serve MCP on stdio instead of printing the tour.
        serve: bool,
    },
}

/// A command-line mistake, printed with a pointer to `--help`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Parses the arguments after the program name.
///
/// # Errors
///
/// Unknown subcommand or flag, a missing value, or non-UTF-8 arguments.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut args = args
        .into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| UsageError(format!("argument is not UTF-8: {}", a.to_string_lossy())))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter();
    let mut common = Common::default();
    let mut subcommand = None;
    let mut positional = Vec::new();
    let mut principal = None;
    let mut serve = false;
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, UsageError> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| UsageError(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "-h" | "--help" | "help" if subcommand.is_none() || flag != "help" => {
                return Ok(Command::Help);
            }
            "-V" | "--version" => return Ok(Command::Version),
            "--config" => common.config = Some(value("--config")?.into()),
            "--component" => common.overrides.component = Some(value("--component")?.into()),
            "--cache-dir" => common.overrides.cache_dir = Some(value("--cache-dir")?.into()),
            "--no-cache" => common.overrides.no_cache = true,
            "--pass-key-to-guest" => common.overrides.pass_key_to_guest = true,
            "--principal" => principal = Some(value("--principal")?),
            "--serve" => serve = true,
            "--" => positional.extend(args.by_ref()),
            f if f.starts_with('-') && f.len() > 1 && !f.starts_with("-{") => {
                return Err(UsageError(format!("unknown flag {f}")));
            }
            _ if subcommand.is_none() => subcommand = Some(arg),
            _ => positional.push(arg),
        }
    }
    let check_flags = |allowed_principal: bool, allowed_serve: bool| -> Result<(), UsageError> {
        if principal.is_some() && !allowed_principal {
            return Err(UsageError("--principal only applies to `call`".into()));
        }
        if serve && !allowed_serve {
            return Err(UsageError("--serve only applies to `demo`".into()));
        }
        Ok(())
    };
    let no_positional = |name: &str| -> Result<(), UsageError> {
        match positional.first() {
            Some(extra) => Err(UsageError(format!(
                "`{name}` takes no argument (got {extra:?})"
            ))),
            None => Ok(()),
        }
    };
    match subcommand.as_deref() {
        None => Err(UsageError(
            "missing subcommand (serve, tools, call, demo)".into(),
        )),
        Some("serve") => {
            check_flags(false, false)?;
            no_positional("serve")?;
            Ok(Command::Serve(common))
        }
        Some("tools") => {
            check_flags(false, false)?;
            no_positional("tools")?;
            Ok(Command::Tools(common))
        }
        Some("call") => {
            check_flags(true, false)?;
            let mut positional = positional.into_iter();
            let name = positional
                .next()
                .ok_or_else(|| UsageError("`call` needs a tool name".into()))?;
            let arguments = positional.next().unwrap_or_else(|| "{}".to_owned());
            if let Some(extra) = positional.next() {
                return Err(UsageError(format!(
                    "`call` takes NAME and one JSON argument (got extra {extra:?})"
                )));
            }
            Ok(Command::Call {
                common,
                name,
                arguments,
                principal,
            })
        }
        Some("demo") => {
            check_flags(false, true)?;
            no_positional("demo")?;
            Ok(Command::Demo { common, serve })
        }
        Some(other) => Err(UsageError(format!(
            "unknown subcommand {other:?} (serve, tools, call, demo)"
        ))),
    }
}

/// The `--help` text.
pub fn help() -> String {
    let mut text = String::from(
        "host-harness: runs the media-mcp WebAssembly component and serves its tools over MCP.

USAGE:
    host-harness serve                 MCP over stdin/stdout (stdout carries only the protocol)
    host-harness tools                 list the tools, for people
    host-harness call NAME ['JSON']    call one tool; prints the result as pretty JSON,
                                       exit status 1 when the result is an error
    host-harness demo                  start a fake Ombi on 127.0.0.1 with a random key,
                                       list the tools and take a short tour of a few calls
    host-harness demo --serve          serve MCP on stdio against that fake Ombi

FLAGS:
    --config PATH          read settings from a TOML file (JSON if PATH ends in .json) whose keys
                           are the variable names below; the environment overrides the file
    --component PATH       the component to load (default: MEDIA_MCP_COMPONENT, else
                           <executable dir>/../media_mcp.wasm, i.e. target/media_mcp.wasm)
    --cache-dir PATH       where compiled components are cached
    --no-cache             compile the component on every start
    --pass-key-to-guest    give the API keys to the component instead of injecting them
    --principal USER       (call) the Ombi user to act as, like _meta[\"media-mcp/principal\"]
    -h, --help             this text
    -V, --version          the version

VARIABLES (environment or config file):
",
    );
    for v in VARIABLES {
        let _ = writeln!(text, "    {:<29} {}", v.name, v.help);
    }
    let _ =
        write!(
        text,
        "    {:<29} passed to the component unchanged (policy settings), except names ending in {}
                                  and the harness's own variables above.

The component sees only OMBI_URL, OMBI_USER, MOVIEPILOT_URL and those extra variables; it may
reach only the origins (scheme, host, port) of OMBI_URL and MOVIEPILOT_URL. Logs go to stderr
and never contain keys or request headers.

EXIT STATUS: 0 success; 1 the called tool reported an error; 2 usage, configuration or load error.
",
        PASSTHROUGH_PREFIXES.iter().map(|p| format!("{p}*")).collect::<Vec<_>>().join(", "),
        SECRET_SUFFIXES.join(" "),
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn serve_with_flags() {
        let Command::Serve(c) = parse_str(&[
            "serve",
            "--component",
            "/x.wasm",
            "--no-cache",
            "--config=/c.toml",
        ])
        .unwrap() else {
            panic!()
        };
        assert_eq!(c.overrides.component.unwrap(), PathBuf::from("/x.wasm"));
        assert!(c.overrides.no_cache);
        assert_eq!(c.config.unwrap(), PathBuf::from("/c.toml"));
    }

    #[test]
    fn call_takes_name_json_and_principal() {
        let Command::Call {
            name,
            arguments,
            principal,
            ..
        } = parse_str(&[
            "call",
            "read_search",
            r#"{"query":"x"}"#,
            "--principal",
            "bob",
        ])
        .unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (name.as_str(), arguments.as_str(), principal.as_deref()),
            ("read_search", r#"{"query":"x"}"#, Some("bob"))
        );
        let Command::Call { arguments, .. } = parse_str(&["call", "t"]).unwrap() else {
            panic!()
        };
        assert_eq!(arguments, "{}");
    }

    #[test]
    fn demo_serve() {
        assert!(matches!(
            parse_str(&["demo", "--serve"]).unwrap(),
            Command::Demo { serve: true, .. }
        ));
        assert!(matches!(
            parse_str(&["demo"]).unwrap(),
            Command::Demo { serve: false, .. }
        ));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        assert!(parse_str(&[]).is_err());
        assert!(parse_str(&["serve", "--bogus"]).is_err());
        assert!(parse_str(&["bogus"]).is_err());
        assert!(parse_str(&["serve", "--component"]).is_err());
        assert!(parse_str(&["tools", "extra"]).is_err());
        assert!(parse_str(&["serve", "--serve"]).is_err());
        assert!(parse_str(&["call"]).is_err());
    }

    #[test]
    fn help_documents_every_variable() {
        assert!(matches!(parse_str(&["--help"]).unwrap(), Command::Help));
        assert!(matches!(
            parse_str(&["serve", "-h"]).unwrap(),
            Command::Help
        ));
        let help = help();
        for v in VARIABLES {
            assert!(help.contains(v.name), "{}", v.name);
        }
        assert!(help.contains("MEDIA_MCP_*"));
    }
}
