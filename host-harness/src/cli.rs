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
    /// `serve --http ADDR`: MCP Streamable HTTP on `ADDR`, by running the HTTP component.
    ServeHttp {
        /// Shared flags.
        common: Common,
        /// Where to listen.
        addr: std::net::SocketAddr,
    },
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
    let (common, rest) = split_common(args, &["--principal", "--http"])?;
    let mut args = rest.into_iter();
    let mut subcommand = None;
    let mut positional = Vec::new();
    let mut principal = None;
    let mut http = None;
    while let Some(arg) = args.next() {
        let (flag, inline) = split_inline(&arg);
        match flag.as_str() {
            "-h" | "--help" | "help" if subcommand.is_none() || flag != "help" => {
                return Ok(Command::Help);
            }
            "-V" | "--version" => return Ok(Command::Version),
            "--principal" => principal = Some(value(inline, &mut args, "--principal")?),
            "--http" => http = Some(value(inline, &mut args, "--http")?),
            "--" => positional.extend(args.by_ref()),
            f if is_flag(f) => return Err(UsageError(format!("unknown flag {f}"))),
            _ if subcommand.is_none() => subcommand = Some(arg),
            _ => positional.push(arg),
        }
    }
    if principal.is_some() && subcommand.as_deref() != Some("call") {
        return Err(UsageError("--principal only applies to `call`".into()));
    }
    if http.is_some() && subcommand.as_deref() != Some("serve") {
        return Err(UsageError("--http only applies to `serve`".into()));
    }
    let no_positional = |name: &str| -> Result<(), UsageError> {
        match positional.first() {
            Some(extra) => Err(UsageError(format!(
                "`{name}` takes no argument (got {extra:?})"
            ))),
            None => Ok(()),
        }
    };
    match subcommand.as_deref() {
        None => Err(UsageError("missing subcommand (serve, tools, call)".into())),
        Some("serve") => {
            no_positional("serve")?;
            match http {
                None => Ok(Command::Serve(common)),
                Some(addr) => Ok(Command::ServeHttp {
                    common,
                    addr: addr.parse().map_err(|_| {
                        UsageError(format!(
                            "--http needs an address like 127.0.0.1:8080 (got {addr:?})"
                        ))
                    })?,
                }),
            }
        }
        Some("tools") => {
            no_positional("tools")?;
            Ok(Command::Tools(common))
        }
        Some("call") => {
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
        Some(other) => Err(UsageError(format!(
            "unknown subcommand {other:?} (serve, tools, call)"
        ))),
    }
}

/// Takes the [`Common`] flags out of `args` and returns them with the rest, in order. Flags
/// named in `with_value` are the caller's own flags that take a value: they and their values
/// are passed through untouched, as is everything from `--` on.
///
/// # Errors
///
/// A common flag without its value, or non-UTF-8 arguments.
pub fn split_common(
    args: impl IntoIterator<Item = OsString>,
    with_value: &[&str],
) -> Result<(Common, Vec<String>), UsageError> {
    let mut args = args
        .into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| UsageError(format!("argument is not UTF-8: {}", a.to_string_lossy())))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter();
    let mut common = Common::default();
    let mut rest = Vec::new();
    while let Some(arg) = args.next() {
        let (flag, inline) = split_inline(&arg);
        match flag.as_str() {
            "--config" => common.config = Some(value(inline, &mut args, "--config")?.into()),
            "--component" => {
                common.overrides.component = Some(value(inline, &mut args, "--component")?.into());
            }
            "--cache-dir" => {
                common.overrides.cache_dir = Some(value(inline, &mut args, "--cache-dir")?.into());
            }
            "--no-cache" => common.overrides.no_cache = true,
            "--pass-key-to-guest" => common.overrides.pass_key_to_guest = true,
            "--" => {
                rest.push(arg);
                rest.extend(args.by_ref());
            }
            f if with_value.contains(&f) => {
                rest.push(arg.clone());
                if inline.is_none() {
                    rest.extend(args.next());
                }
            }
            _ => rest.push(arg),
        }
    }
    Ok((common, rest))
}

/// `--flag=value` → (`--flag`, `Some(value)`); anything else → (itself, `None`).
fn split_inline(arg: &str) -> (String, Option<String>) {
    match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
        _ => (arg.to_owned(), None),
    }
}

/// A flag's value: written inline (`--flag=value`) or the next argument.
fn value(
    inline: Option<String>,
    args: &mut impl Iterator<Item = String>,
    name: &str,
) -> Result<String, UsageError> {
    inline
        .or_else(|| args.next())
        .ok_or_else(|| UsageError(format!("{name} needs a value")))
}

/// Whether `arg` is a flag rather than a value (`-` alone and JSON like `-{` are values).
fn is_flag(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1 && !arg.starts_with("-{")
}

/// The `--help` lines of the [`Common`] flags (`host-harness` and the demo share them).
pub const COMMON_FLAGS_HELP: &str = "    --config PATH          read settings from a TOML file (JSON if PATH ends in .json) whose keys
                           are the variable names below; the environment overrides the file
    --component PATH       the component to load (default: MEDIA_MCP_COMPONENT, else
                           <executable dir>/../media_mcp.wasm, i.e. target/media_mcp.wasm)
    --cache-dir PATH       where compiled components are cached
    --no-cache             compile the component on every start
    --pass-key-to-guest    give the API keys to the component instead of injecting them
";

/// The `--help` text.
pub fn help() -> String {
    let mut text = format!(
        "host-harness: runs the media-mcp WebAssembly component and serves its tools over MCP.

USAGE:
    host-harness serve                 MCP over stdin/stdout (stdout carries only the protocol)
    host-harness serve --http ADDR     MCP Streamable HTTP on ADDR (127.0.0.1:8080), stateless, by
                                       running media_mcp_http.wasm (beside media_mcp.wasm, or
                                       --component); MEDIA_MCP_HTTP_* configure it (see README)
    host-harness tools                 list the tools, for people
    host-harness call NAME ['JSON']    call one tool; prints the result as pretty JSON,
                                       exit status 1 when the result is an error

FLAGS:
{COMMON_FLAGS_HELP}    --principal USER       (call) the Ombi user to act as, like _meta[\"media-mcp/principal\"]
    -h, --help             this text
    -V, --version          the version

"
    );
    text.push_str(&variables_help());
    text.push_str(
        "
EXIT STATUS: 0 success; 1 the called tool reported an error; 2 usage, configuration or load error.
",
    );
    text
}

/// The `--help` section on variables and what the component sees.
pub fn variables_help() -> String {
    let mut text = String::from("VARIABLES (environment or config file):\n");
    for v in VARIABLES {
        let _ = writeln!(text, "    {:<29} {}", v.name, v.help);
    }
    let _ = write!(
        text,
        "    {:<29} passed to the component unchanged (policy settings), except names ending in {}
                                  and the harness's own variables above.

The component sees only OMBI_URL, OMBI_USER, MOVIEPILOT_URL and those extra variables; it may
reach only the origins (scheme, host, port) of OMBI_URL and MOVIEPILOT_URL. Logs go to stderr
and never contain keys or request headers.
",
        PASSTHROUGH_PREFIXES
            .iter()
            .map(|p| format!("{p}*"))
            .collect::<Vec<_>>()
            .join(", "),
        SECRET_SUFFIXES.join(" "),
    );
    text
}

#[cfg(test)]
mod tests;
