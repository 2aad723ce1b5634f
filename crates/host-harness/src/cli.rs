//! The command line: subcommands and flags (parsed by `clap` from the types below), the `--help`
//! text (its FLAGS section generated from those types, its VARIABLES section from
//! [`config::VARIABLES`](crate::config::VARIABLES), so every flag and variable is documented) and
//! shell completions. Parsing only collects what was typed; [`crate::app`] runs it.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{ArgAction, Args, CommandFactory as _, Parser, Subcommand, ValueEnum};

use crate::config::{Kind, Overrides, PASSTHROUGH_PREFIXES, SECRET_SUFFIXES, Scope, VARIABLES};
use media_mcp_wire::upstreams::UPSTREAMS;
use media_mcp_wire::variables::PASS_KEY_TO_GUEST;

/// Flags every subcommand accepts, as typed. Programs built on the harness (the demo) flatten
/// them into their own command line and turn them into [`Common`].
#[derive(Debug, Default, Clone, Args)]
pub struct CommonArgs {
    /// read settings from a TOML file (JSON if PATH ends in .json) whose keys are the variable
    /// names below; the environment overrides the file
    #[arg(long, value_name = "PATH", global = true, allow_hyphen_values = true)]
    pub config: Option<PathBuf>,
    /// the component to load (default: MEDIA_MCP_COMPONENT, else
    /// <executable dir>/../media_mcp.wasm, i.e. target/media_mcp.wasm)
    #[arg(long, value_name = "PATH", global = true, allow_hyphen_values = true)]
    pub component: Option<PathBuf>,
    /// where compiled components are cached
    #[arg(long, value_name = "PATH", global = true, allow_hyphen_values = true)]
    pub cache_dir: Option<PathBuf>,
    /// compile the component on every start
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// give the API keys to the component instead of injecting them
    #[arg(long, global = true)]
    pub pass_key_to_guest: bool,
}

/// Flags every subcommand accepts.
#[derive(Debug, Default, Clone)]
pub struct Common {
    /// `--config PATH`.
    pub config: Option<PathBuf>,
    /// `--component`, `--cache-dir`, `--no-cache`, `--pass-key-to-guest`.
    pub overrides: Overrides,
}

impl From<CommonArgs> for Common {
    fn from(args: CommonArgs) -> Self {
        Common {
            config: args.config,
            overrides: Overrides {
                component: args.component,
                cache_dir: args.cache_dir,
                no_cache: args.no_cache,
                pass_key_to_guest: args.pass_key_to_guest,
            },
        }
    }
}

/// A parsed command line.
#[derive(Debug, Clone)]
pub enum Command {
    /// `--help` (also `-h` or `help`, anywhere).
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
        addr: SocketAddr,
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
    /// `completions SHELL`: a completion script on stdout.
    Completions(Shell),
    /// `health [URL]`: exit 0 when the server's `/readyz` answers 200.
    Health(Option<String>),
    /// `precompile`: compile both components into the cache directory.
    Precompile(Common),
}

/// The shells `media-mcp completions` writes scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// GNU Bash.
    Bash,
    /// Z shell.
    Zsh,
    /// fish.
    Fish,
}

/// The command line as clap sees it.
#[derive(Debug, Parser)]
#[command(
    name = BIN,
    version,
    about = "runs the media-mcp WebAssembly component and serves its tools over MCP",
    propagate_version = true,
    arg_required_else_help = false,
    disable_help_flag = true,
    disable_version_flag = true
)]
struct Cli {
    #[command(flatten)]
    common: CommonArgs,
    #[command(flatten)]
    help: HelpFlags,
    #[command(subcommand)]
    command: Subcommands,
}

/// `-h` and `-V`, worded for the FLAGS section; parsing them yields [`Command::Help`] and
/// [`Command::Version`].
#[derive(Debug, Args)]
struct HelpFlags {
    /// print this help text
    #[arg(short = 'h', long, action = ArgAction::Help, global = true)]
    help: Option<bool>,
    /// print the version
    #[arg(short = 'V', long, action = ArgAction::Version, global = true)]
    version: Option<bool>,
}

#[derive(Debug, Subcommand)]
enum Subcommands {
    /// MCP over stdin/stdout, or MCP Streamable HTTP with --http
    Serve {
        /// MCP Streamable HTTP on ADDR (127.0.0.1:8080) instead of stdio
        #[arg(long, value_name = "ADDR", value_parser = parse_addr, allow_hyphen_values = true)]
        http: Option<SocketAddr>,
    },
    /// list the tools, for people
    Tools,
    /// call one tool and print the result as pretty JSON
    Call {
        /// the tool's name
        name: String,
        /// the arguments, a JSON object (default {})
        #[arg(value_name = "JSON", default_value = "{}", allow_hyphen_values = true)]
        arguments: String,
        /// the Ombi user to act as, like _meta["media-mcp/principal"]
        #[arg(long, value_name = "USER", allow_hyphen_values = true)]
        principal: Option<String>,
    },
    /// print a completion script for SHELL to stdout
    Completions {
        /// bash, zsh or fish
        shell: Shell,
    },
    /// exit 0 when a serve --http server is ready (GET /readyz), for container health checks
    Health {
        /// http://HOST:PORT (default: the address of this container's serve --http process)
        #[arg(value_name = "URL")]
        url: Option<String>,
    },
    /// compile both components into the cache directory (to bake it into an image)
    Precompile,
}

fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    text.parse()
        .map_err(|_| format!("--http needs an address like 127.0.0.1:8080 (got {text:?})"))
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

/// What a command line asked for: the program's own arguments, or its help or version.
#[derive(Debug)]
pub enum Parsed<T> {
    /// Parsed arguments.
    Args(T),
    /// `-h`, `--help` or `help`.
    Help,
    /// `-V` or `--version`.
    Version,
}

/// Parses the arguments after the program name `bin` into `T`; help and version requests are
/// returned, not printed, so that the caller prints its own text.
///
/// # Errors
///
/// Whatever clap refuses (an unknown subcommand or flag, a missing or invalid value), as clap's
/// message without its own pointer to `--help`.
pub fn parse_as<T: Parser>(
    bin: &str,
    args: impl IntoIterator<Item = OsString>,
) -> Result<Parsed<T>, UsageError> {
    let argv = std::iter::once(OsString::from(bin)).chain(args);
    match T::try_parse_from(argv) {
        Ok(parsed) => Ok(Parsed::Args(parsed)),
        Err(e) => match e.kind() {
            clap::error::ErrorKind::DisplayHelp => Ok(Parsed::Help),
            clap::error::ErrorKind::DisplayVersion => Ok(Parsed::Version),
            _ => Err(usage_error(&e)),
        },
    }
}

/// clap's message without the `error: ` prefix and the closing `For more information` line,
/// which the programs print in their own words.
fn usage_error(e: &clap::Error) -> UsageError {
    let rendered = e.render().to_string();
    let text = rendered.trim_end();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let text = text
        .strip_suffix("For more information, try '--help'.")
        .unwrap_or(text);
    UsageError(text.trim_end().to_owned())
}

/// Parses the arguments after the program name.
///
/// # Errors
///
/// Unknown subcommand or flag, a missing or invalid value, or non-UTF-8 text where text is
/// needed.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let cli = match parse_as::<Cli>(BIN, args)? {
        Parsed::Args(cli) => cli,
        Parsed::Help => return Ok(Command::Help),
        Parsed::Version => return Ok(Command::Version),
    };
    let common = Common::from(cli.common);
    Ok(match cli.command {
        Subcommands::Serve { http: None } => Command::Serve(common),
        Subcommands::Serve { http: Some(addr) } => Command::ServeHttp { common, addr },
        Subcommands::Tools => Command::Tools(common),
        Subcommands::Call {
            name,
            arguments,
            principal,
        } => Command::Call {
            common,
            name,
            arguments,
            principal,
        },
        Subcommands::Completions { shell } => Command::Completions(shell),
        Subcommands::Health { url } => Command::Health(url),
        Subcommands::Precompile => Command::Precompile(common),
    })
}

/// The name the binary is installed under (`host-harness` is kept as an alias).
pub const BIN: &str = "media-mcp";

/// The completion script for `shell`: subcommands, flags and the shells `completions` takes;
/// zsh's also completes the variables' values ([`with_zsh_variable_values`]).
pub fn completions(shell: Shell) -> String {
    let generator = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(generator, &mut Cli::command(), BIN, &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    match shell {
        Shell::Bash => fix_bash_case_labels(&script),
        Shell::Zsh => with_zsh_variable_values(&script),
        Shell::Fish => script,
    }
}

/// The zsh script, also completing each variable of [`VARIABLES`] where it is assigned
/// (`MEDIA_MCP_LOG=<TAB>`, zsh's `-value-,NAME,-default-` contexts): its `--help` description,
/// with its words for a switch or a choice and file names for a path. `_media-mcp` is
/// registered for those contexts (by the `#compdef` line when autoloaded, by `compdef` when
/// sourced) and answers them before anything else.
fn with_zsh_variable_values(script: &str) -> String {
    let contexts = VARIABLES
        .iter()
        .map(|v| format!("-value-,{},-default-", v.name))
        .collect::<Vec<_>>()
        .join(" ");
    let mut values = String::from("_media-mcp_variable_value() {\n    case $service in\n");
    for v in VARIABLES {
        let description = zsh_quoted(&format!("{}: {}", v.name, v.described()));
        let complete = match v.kind {
            Kind::Switch => format!(
                "_wanted values expl {} compadd -- 1 0 true false yes no on off",
                description.replace('%', "%%")
            ),
            Kind::Choice(words) => format!(
                "_wanted values expl {} compadd -- {}",
                description.replace('%', "%%"),
                words.join(" ")
            ),
            Kind::Path => "_files".to_owned(),
            _ => format!("_message -r {description}"),
        };
        let _ = writeln!(values, "        (-value-,{},*) {complete} ;;", v.name);
    }
    values.push_str("    esac\n}\n");
    script
        .replacen(
            &format!("#compdef {BIN}\n"),
            &format!("#compdef {BIN} {contexts}\n\n{values}"),
            1,
        )
        .replacen(
            "_media-mcp() {\n",
            "_media-mcp() {\n    if [[ $service == -value-,* ]]; then\n        _media-mcp_variable_value\n        return\n    fi\n",
            1,
        )
        .replacen(
            &format!("    compdef _media-mcp {BIN}\n"),
            &format!("    compdef _media-mcp {BIN} {contexts}\n"),
            1,
        )
}

/// `text` as one zsh word in single quotes.
fn zsh_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// clap_complete 4.6.12 names the bash completion states of a hyphenated program inconsistently:
/// the loop that reads the words reaches `host__harness__subcmd__call`, but the `case` arms are
/// labelled `host__subcmd__harness__subcmd__call`, so nothing after a subcommand would complete
/// (clap-rs/clap issue 6421). The arms are relabelled the way the loop spells them; a generator
/// that spells them right is left as it is.
fn fix_bash_case_labels(script: &str) -> String {
    let escaped = BIN.replace('-', "__");
    let misspelt = BIN.replace('-', "__subcmd__");
    script.replace(
        &format!("        {misspelt}__subcmd__"),
        &format!("        {escaped}__subcmd__"),
    )
}

/// Where a flag's description starts in `--help`.
const FLAG_COLUMN: usize = 27;
/// Where a variable's description starts in `--help`.
const VARIABLE_COLUMN: usize = 34;
/// `--help` lines are wrapped to this width.
const HELP_WIDTH: usize = 100;

/// The `--help` lines of `command`'s flags (positionals and `-h`/`-V` left out), each
/// description prefixed with `(scope)` when given.
fn flags_help(command: &clap::Command, scope: Option<&str>) -> String {
    command
        .get_arguments()
        .filter(|arg| !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version))
        .map(|arg| flag_line(arg, scope))
        .collect()
}

/// One flag's `--help` entry: `-s, --long VALUE` and its description. Positionals (no long
/// name) give nothing.
fn flag_line(arg: &clap::Arg, scope: Option<&str>) -> String {
    let Some(long) = arg.get_long() else {
        return String::new();
    };
    let mut name = String::new();
    if let Some(short) = arg.get_short() {
        let _ = write!(name, "-{short}, ");
    }
    let _ = write!(name, "--{long}");
    if arg.get_action().takes_values() {
        for value in arg.get_value_names().unwrap_or_default() {
            let _ = write!(name, " {value}");
        }
    }
    let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    let scope = scope.map(|s| format!("({s}) ")).unwrap_or_default();
    entry(&name, &format!("{scope}{help}"), FLAG_COLUMN)
}

/// A `--help` entry: `name` indented by four spaces, then `description` from `column`, wrapped
/// at [`HELP_WIDTH`] (a name too long for the column gets a line of its own).
fn entry(name: &str, description: &str, column: usize) -> String {
    let mut text = String::new();
    let mut line = format!("    {name}");
    if line.len() >= column {
        text.push_str(&line);
        text.push('\n');
        line.clear();
    }
    line.push_str(&" ".repeat(column - line.len()));
    for word in description.split_whitespace() {
        if line.len() > column && line.len() + 1 + word.len() > HELP_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line = " ".repeat(column);
        }
        if line.len() > column {
            line.push(' ');
        }
        line.push_str(word);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

/// The `--help` lines of the [`CommonArgs`] flags (`media-mcp` and the demo share them).
pub fn common_flags_help() -> String {
    flags_help(&CommonArgs::augment_args(clap::Command::new(BIN)), None)
}

/// The `--help` text.
pub fn help() -> String {
    let cli = Cli::command();
    let mut flags = common_flags_help();
    for sub in cli.get_subcommands() {
        flags.push_str(&flags_help(sub, Some(sub.get_name())));
    }
    for arg in cli.get_arguments() {
        if matches!(arg.get_action(), ArgAction::Help | ArgAction::Version) {
            flags.push_str(&flag_line(arg, None));
        }
    }
    let mut text = format!(
        "media-mcp: runs the media-mcp WebAssembly component and serves its tools over MCP.

USAGE:
    media-mcp serve                 MCP over stdin/stdout (stdout carries only the protocol)
    media-mcp serve --http ADDR     MCP Streamable HTTP on ADDR (127.0.0.1:8080), stateless, by
                                    running media_mcp_http.wasm (beside media_mcp.wasm, or
                                    --component); MEDIA_MCP_HTTP_* configure it (see README)
    media-mcp tools                 list the tools, for people
    media-mcp call NAME ['JSON']    call one tool; prints the result as pretty JSON,
                                    exit status 1 when the result is an error
    media-mcp completions SHELL     print a completion script for bash, zsh or fish, e.g.
                                    media-mcp completions bash > \\
                                      ~/.local/share/bash-completion/completions/media-mcp
    media-mcp health [URL]          GET URL/readyz (default: the address of the one serve
                                    --http process of this executable, 0.0.0.0 probed as
                                    127.0.0.1) within 3 s; exit 0 when it answers 200, else 1
    media-mcp precompile            compile media_mcp.wasm and media_mcp_http.wasm into the
                                    cache directory (--cache-dir), readable by every user, so
                                    a start loads them from there (an image bakes it in)

FLAGS:
{flags}
"
    );
    text.push_str(&variables_help());
    text.push_str(
        "
EXIT STATUS: 0 success; 1 the called tool reported an error, or health found no ready server;
2 usage, configuration or load error.
",
    );
    text
}

/// The `--help` section on variables and what the component sees.
pub fn variables_help() -> String {
    let mut text = String::from("VARIABLES (environment or config file):\n");
    for v in VARIABLES {
        text.push_str(&entry(v.name, &v.described(), VARIABLE_COLUMN));
    }
    let prefixes = PASSTHROUGH_PREFIXES
        .iter()
        .map(|p| format!("{p}*"))
        .collect::<Vec<_>>()
        .join(", ");
    text.push_str(&entry(
        &prefixes,
        &format!(
            "other variables with these prefixes are passed to the component unchanged (policy \
             settings), except names ending in {}.",
            SECRET_SUFFIXES.join(" ")
        ),
        VARIABLE_COLUMN,
    ));
    let secrets = VARIABLES
        .iter()
        .filter_map(|v| v.file_variable())
        .collect::<Vec<_>>()
        .join(", ");
    text.push_str(&entry(
        "NAME_FILE",
        &format!(
            "a file holding a secret instead of the secret itself ({secrets}); one trailing \
             line end is dropped. Setting both NAME and NAME_FILE is an error."
        ),
        VARIABLE_COLUMN,
    ));
    let names = |scope| {
        VARIABLES
            .iter()
            .filter(|v| v.scope == scope && !matches!(v.kind, crate::config::Kind::Secret))
            .map(|v| v.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    text.push('\n');
    text.push_str(&paragraph(&format!(
        "The component sees only {} (as checked at start), {} (unchanged), and those other \
         variables; the keys only with {}. It may reach only the origins (scheme, host, port) \
         of {}. Logs go to stderr and never contain keys or request headers.",
        names(Scope::Both),
        names(Scope::Guest),
        PASS_KEY_TO_GUEST.name,
        UPSTREAMS
            .iter()
            .map(|u| u.url.name)
            .collect::<Vec<_>>()
            .join(" and "),
    )));
    text
}

/// `words` wrapped at [`HELP_WIDTH`].
fn paragraph(words: &str) -> String {
    let mut text = String::new();
    let mut line = String::new();
    for word in words.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > HELP_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests;
