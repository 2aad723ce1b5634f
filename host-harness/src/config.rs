//! Configuration: raw values from the environment and an optional config file, validated once
//! into [`Settings`] (the ripgrep "low args → high args" split).
//!
//! [`VARIABLES`] is the single list of recognised variables; `--help` is generated from it. A
//! config file (`--config PATH`, TOML, or JSON when the name ends in `.json`) is a flat table
//! whose keys are the same variable names. Precedence: command-line flag > environment > file.
//! An empty value counts as unset, except that an `OMBI_USER` left empty everywhere is an error
//! (unset, calls act as Ombi's administrator; nobody should get that by leaving a value out).
//! Errors name the variable and never echo a secret.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use url::Url;

use crate::limits::{MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS, moviepilot_first_byte_cap};

mod front_door;

pub use front_door::FrontDoor;

/// One recognised configuration variable.
#[derive(Debug)]
pub struct Variable {
    /// Environment variable (and config-file key) name.
    pub name: &'static str,
    /// One-line description for `--help`.
    pub help: &'static str,
}

/// Every variable the harness reads, in `--help` order.
pub const VARIABLES: &[Variable] = &[
    Variable {
        name: "OMBI_URL",
        help: "Ombi base URL, with its path prefix if any (https://host/ombi). Unset: no Ombi tools.",
    },
    Variable {
        name: "OMBI_API_KEY",
        help: "Ombi API key (required with OMBI_URL). The harness adds it as the `ApiKey` header to requests to the Ombi origin (not to /health, which needs none); the component never sees it.",
    },
    Variable {
        name: "OMBI_USER",
        help: "Ombi user to act as by default (sent as the `UserName` header: printable ASCII, at most 256 characters). Set but empty is an error; unset, calls act as the key's administrator.",
    },
    Variable {
        name: "MOVIEPILOT_URL",
        help: "MoviePilot MCP endpoint URL (https://host/api/v1/mcp).",
    },
    Variable {
        name: "MOVIEPILOT_API_KEY",
        help: "MoviePilot API token (required with MOVIEPILOT_URL), added as `X-API-KEY` to requests to the MoviePilot origin.",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
        help: "1: let MoviePilot's database_operation run `write`, and `query` with `write: true` (default off).",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
        help: "1: let database_operation use `show_secrets` (default off).",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
        help: "Comma list: only these moviepilot_api operation ids run (unset: all).",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_API_DENY",
        help: "Comma list of moviepilot_api operation ids that never run.",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_DEADLINES",
        help: "name=ms,... deadline per bridged tool name or operation id (default search.torrents=300000).",
    },
    Variable {
        name: "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
        help: "compact (default): large MoviePilot input schemas are listed as MoviePilot's compact projection and moviepilot_input_contract returns one operation's full schema; full: every schema complete.",
    },
    Variable {
        name: "OMBI_CA_FILE",
        help: "PEM file of one or more CA certificates trusted for the Ombi origin only, in addition to the built-in web roots (a private CA or a self-signed certificate). Read and checked at start.",
    },
    Variable {
        name: "MOVIEPILOT_CA_FILE",
        help: "PEM file of one or more CA certificates trusted for the MoviePilot origin only, in addition to the built-in web roots. Read and checked at start.",
    },
    Variable {
        name: "MEDIA_MCP_UPSTREAM_MAX_IDLE",
        help: "Idle keep-alive connections kept per upstream origin for reuse, 0-256 (default 16; 0 opens a new connection for every request). An idle connection is closed after 30 s.",
    },
    Variable {
        name: "MEDIA_MCP_READ_ONLY",
        help: "1: list only tools proven read-only (Ombi read_* tools, bridged MoviePilot tools known to only read) and refuse every other call with FORBIDDEN, nothing sent.",
    },
    Variable {
        name: "MEDIA_MCP_TOOLS",
        help: "Comma list of tool names and globs (* any run, ? one character) to list, e.g. read_*,write_request_*. Unset: all. Other tools are not listed and not callable.",
    },
    Variable {
        name: "MEDIA_MCP_TOOLS_DENY",
        help: "Comma list of tool names and globs never to list or call (applied after MEDIA_MCP_TOOLS), e.g. moviepilot_api,write_settings_*.",
    },
    Variable {
        name: "MEDIA_MCP_PASS_KEY_TO_GUEST",
        help: "1: give OMBI_API_KEY / MOVIEPILOT_API_KEY to the component instead of injecting them (for hosts that cannot inject). Same as --pass-key-to-guest.",
    },
    Variable {
        name: "MEDIA_MCP_COMPONENT",
        help: "Path of the component (default: <executable dir>/../media_mcp.wasm). Same as --component.",
    },
    Variable {
        name: "MEDIA_MCP_CACHE_DIR",
        help: "Cache of compiled components (default: $XDG_CACHE_HOME/media-mcp or ~/.cache/media-mcp). Same as --cache-dir.",
    },
    Variable {
        name: "MEDIA_MCP_CALL_TIMEOUT_SECS",
        help: "Wall-clock limit of one tool call, 1-600 (default 60; 360 when MOVIEPILOT_URL is set, since MoviePilot's search.torrents may take 300 s; raised further by longer MEDIA_MCP_CALL_DEADLINE_MS or MEDIA_MCP_MOVIEPILOT_DEADLINES). A limit shorter than one of those deadlines is refused at start.",
    },
    Variable {
        name: "MEDIA_MCP_CALL_DEADLINE_MS",
        help: "The component's own whole-call deadline for upstream HTTP, in ms (default 30000).",
    },
    Variable {
        name: "MEDIA_MCP_MEMORY_LIMIT_MIB",
        help: "Linear-memory limit of one tool call in MiB, 16-4096 (default 64).",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_MAX_IN_FLIGHT",
        help: "serve --http: requests handled at once, 1-1024 (default 32); others wait up to the call timeout, then get 503.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_MAX_CONNECTIONS",
        help: "serve --http: connections held at once, 8-65536 (default 1024), lowered at start to fit the descriptor limit (each call in flight also holds an upstream socket); beyond it idle connections are closed to make room, else new ones wait.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS",
        help: "serve --http: seconds a client has to send a request's headers, 1-600 (default 10); then the connection is closed.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS",
        help: "serve --http: seconds a keep-alive connection may stay open without a request, 1-3600 (default 30).",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_BODY_TIMEOUT_SECS",
        help: "serve --http: seconds an authenticated request has to send its body (at most 4 MiB), 1-600 (default 10); then 408. No slot is held meanwhile.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_TOKENS",
        help: "serve --http: user=token,... each bearer token (at least 16 characters) acts as that Ombi user, whatever the client sends.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_AUTH",
        help: "serve --http: off = no token required, calls act as OMBI_USER (only on loopback or behind an authenticating proxy). Neither this nor tokens: every request gets 401. oauth = access tokens of your identity provider (MEDIA_MCP_OAUTH_*).",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_PROXY_TOKENS",
        help: "serve --http: label=token,... tokens of authenticating proxies: a request with one acts as the user MEDIA_MCP_HTTP_USER_HEADER names (required then). Tokens in MEDIA_MCP_HTTP_TOKENS act as their own user only.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_USER_HEADER",
        help: "serve --http: a header set by a trusted authenticating proxy (e.g. Remote-User) naming the Ombi user, for proxy tokens and MEDIA_MCP_HTTP_AUTH=off (then required); given twice or as a list it is 400.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
        help: "serve --http: browser origins allowed besides loopback ones (https://chat.example.com,...); any other Origin gets 403.",
    },
    Variable {
        name: "MEDIA_MCP_HTTP_PATH",
        help: "serve --http: the MCP path (default /mcp).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_ISSUER",
        help: "OAuth: the identity provider's issuer URL (required); its metadata and keys are fetched by the HTTP component, and serve --http allows its origin (no key is ever sent there).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_RESOURCE",
        help: "OAuth: this server's public MCP URL, e.g. https://media.example.com/mcp (required); the audience tokens must name.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_AUDIENCES",
        help: "OAuth: more accepted aud values (comma-separated), for providers that put their client id in aud.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_USER_CLAIM",
        help: "OAuth: the token claim naming the Ombi user (default preferred_username).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_USER_MAP",
        help: "OAuth: claim-value=ombi-user,...; when set, other users are refused.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_READ_SCOPE",
        help: "OAuth: the scope of the read-only tools (default media:read).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_WRITE_SCOPE",
        help: "OAuth: the scope of every tool (default media:write).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_JWKS_URI",
        help: "OAuth: the key set's URL, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_JWKS",
        help: "OAuth: the key set itself (JWKS JSON): no key is fetched.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID",
        help: "OAuth: this server's client id at the identity provider, for introspecting opaque tokens (RFC 7662); with the secret.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
        help: "OAuth: that client's secret (passed to the HTTP component, never logged).",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
        help: "OAuth: the introspection endpoint, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    },
    Variable {
        name: "MEDIA_MCP_OAUTH_INTROSPECT",
        help: "OAuth: opaque (default: only tokens that are not JWTs are introspected) or always.",
    },
    Variable {
        name: "MEDIA_MCP_PROGRESS_INTERVAL_MS",
        help: "How often a tool call whose request carries a progress token reports progress (notifications/progress: elapsed seconds, no total), in ms, 100-600000 (default 10000). Over stdio, and over serve --http when the client accepts text/event-stream.",
    },
    Variable {
        name: "MEDIA_MCP_LOG",
        help: "stderr log level: off, error, warn, info (default), debug. Secrets and headers are never logged.",
    },
];

/// Prefixes of extra variables passed through to the component unchanged (policy settings).
pub(crate) const PASSTHROUGH_PREFIXES: &[&str] = &["MEDIA_MCP_", "MOVIEPILOT_"];

/// Name endings that mark a secret: such extra variables are never passed to the component.
pub(crate) const SECRET_SUFFIXES: &[&str] = &["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

const DEFAULT_CALL_TIMEOUT_SECS: u64 = 60;
const DEFAULT_MEMORY_LIMIT_MIB: u64 = 64;
const MAX_CALL_TIMEOUT_SECS: u64 = 600;
/// How much longer than the component's longest deadline the host's limit must be at least.
const DEADLINE_SLACK_SECS: u64 = 1;
/// How much longer a default limit is made when a configured deadline needs it raised.
const DEFAULT_EXTRA_SECS: u64 = 29;
/// The component's defaults for the deadlines it reads (`component/src/config.rs`,
/// `component/src/moviepilot/config.rs`).
const GUEST_DEFAULT_CALL_DEADLINE_MS: u64 = 30_000;
const GUEST_DEFAULT_MOVIEPILOT_DEADLINES: &[(&str, u64)] = &[(
    "search.torrents",
    crate::limits::MOVIEPILOT_LONGEST_TOOL_SECS * 1000,
)];

/// The longest whole-call deadline the component will use, in ms, and the setting it comes
/// from: `MEDIA_MCP_CALL_DEADLINE_MS` and, with MoviePilot, each entry of
/// `MEDIA_MCP_MOVIEPILOT_DEADLINES` over the built-in ones. Values the component refuses (it
/// then keeps its default and reports the problem) are skipped here the same way.
fn longest_guest_deadline(raw: &RawSettings, moviepilot: bool) -> (u64, String) {
    let valid = |text: &str| {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|ms| (100..=600_000).contains(ms))
    };
    let call = raw
        .get("MEDIA_MCP_CALL_DEADLINE_MS")
        .and_then(&valid)
        .unwrap_or(GUEST_DEFAULT_CALL_DEADLINE_MS);
    let mut longest = (call, "MEDIA_MCP_CALL_DEADLINE_MS".to_owned());
    if moviepilot {
        let mut per_tool: Vec<(String, u64)> = GUEST_DEFAULT_MOVIEPILOT_DEADLINES
            .iter()
            .map(|(k, ms)| ((*k).to_owned(), *ms))
            .collect();
        for entry in raw
            .get("MEDIA_MCP_MOVIEPILOT_DEADLINES")
            .unwrap_or("")
            .split(',')
        {
            if let Some((k, Some(ms))) = entry.split_once('=').map(|(k, v)| (k.trim(), valid(v)))
                && !k.is_empty()
            {
                per_tool.retain(|(name, _)| name != k);
                per_tool.push((k.to_owned(), ms));
            }
        }
        for (name, ms) in per_tool {
            if ms > longest.0 {
                longest = (ms, format!("MEDIA_MCP_MOVIEPILOT_DEADLINES {name}"));
            }
        }
    }
    longest
}
/// `serve --http`: requests handled at once by default.
const DEFAULT_HTTP_MAX_IN_FLIGHT: u64 = 32;
/// How often a long call reports progress unless configured: well inside the 60 s after which
/// clients commonly give up on a silent request.
pub(crate) const DEFAULT_PROGRESS_INTERVAL_MS: u64 = 10_000;
/// Idle connections kept per upstream origin by default: enough for the default 32 requests in
/// flight of `serve --http` to find a warm connection for half of them, few enough that a
/// quiet harness holds at most 16 sockets per upstream for 30 s.
const DEFAULT_UPSTREAM_MAX_IDLE: u64 = 16;

/// A configuration problem, naming the variable (or `--config`) it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable, flag or file the problem is about.
    pub variable: String,
    /// What is wrong; never contains a secret value.
    pub message: String,
}

impl ConfigError {
    fn new(variable: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            variable: variable.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// A secret value; `Debug` and `Display` print a placeholder.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself, for the one place that needs it (header injection, guest env).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// Raw values by variable name, before validation.
#[derive(Debug, Default, Clone)]
pub struct RawSettings {
    values: BTreeMap<String, String>,
    /// Variables given with an empty value (and no value in a higher layer).
    empty: BTreeSet<String>,
}

impl RawSettings {
    /// Keeps the recognised variables and the pass-through prefixes from `env`, plus the
    /// locations the default cache directory is derived from (`XDG_CACHE_HOME`, `HOME`).
    pub fn from_env<I, K, V>(env: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut raw = RawSettings::default();
        for (name, value) in env {
            let name = name.into();
            if is_recognised(&name) || name == "XDG_CACHE_HOME" || name == "HOME" {
                raw.set(name, value.into());
            }
        }
        raw
    }

    /// Parses a config file's text; keys are variable names, values strings, numbers or booleans.
    ///
    /// # Errors
    ///
    /// A syntax error, a nested value, or an unknown key (a likely typo).
    pub(crate) fn from_file_text(
        text: &str,
        json: bool,
        origin: &str,
    ) -> Result<Self, ConfigError> {
        let err = |message: String| ConfigError::new(origin, message);
        let table: BTreeMap<String, serde_json::Value> = if json {
            serde_json::from_str(text)
                .map_err(|e| err(format!("not a JSON object of settings: {e}")))?
        } else {
            let table: toml::Table =
                toml::from_str(text).map_err(|e| err(format!("not valid TOML: {e}")))?;
            let value = serde_json::to_value(table).map_err(|e| err(e.to_string()))?;
            serde_json::from_value(value).map_err(|e| err(e.to_string()))?
        };
        let mut raw = RawSettings::default();
        for (key, value) in table {
            if !is_recognised(&key) {
                return Err(err(format!(
                    "unknown setting {key} (see --help for the variables)"
                )));
            }
            let value = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Bool(b) => if b { "1" } else { "0" }.to_owned(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err(err(format!("{key} must be a string, number or boolean"))),
            };
            raw.set(key, value);
        }
        Ok(raw)
    }

    /// Reads a config file from disk; see [`RawSettings::from_file_text`].
    ///
    /// # Errors
    ///
    /// The file cannot be read or parsed.
    pub(crate) fn from_file(path: &Path) -> Result<Self, ConfigError> {
        let origin = format!("--config {}", path.display());
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(&origin, format!("cannot read: {e}")))?;
        let json = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
        Self::from_file_text(&text, json, &origin)
    }

    /// Sets a value; an empty one removes the variable (and is remembered as given empty).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        if value.is_empty() {
            self.values.remove(&name);
            self.empty.insert(name);
        } else {
            self.empty.remove(&name);
            self.values.insert(name, value);
        }
    }

    /// Values of `self` win over those of `lower`; a value in `lower` fills one that is empty
    /// in `self`.
    pub fn over(mut self, lower: RawSettings) -> Self {
        for (name, value) in lower.values {
            self.empty.remove(&name);
            self.values.entry(name).or_insert(value);
        }
        for name in lower.empty {
            if !self.values.contains_key(&name) {
                self.empty.insert(name);
            }
        }
        self
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    fn is_given_empty(&self, name: &str) -> bool {
        self.empty.contains(name)
    }
}

fn is_recognised(name: &str) -> bool {
    VARIABLES.iter().any(|v| v.name == name)
        || PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Command-line flags that override variables.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--component PATH`.
    pub component: Option<PathBuf>,
    /// `--cache-dir PATH`.
    pub cache_dir: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--pass-key-to-guest`.
    pub pass_key_to_guest: bool,
}

/// A configured upstream service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// Normalised base URL: http(s), a host, no credentials, query or fragment.
    pub url: Url,
    /// The credential the harness injects (or passes to the guest).
    pub api_key: Secret,
    /// Extra CA certificates trusted for this upstream's origin only (`OMBI_CA_FILE`,
    /// `MOVIEPILOT_CA_FILE`), checked at start: each is a usable trust anchor.
    pub extra_roots: Vec<CertificateDer<'static>>,
    /// The variable the extra roots come from, for messages about certificates.
    pub ca_variable: &'static str,
}

impl Upstream {
    /// The base URL as the component receives it: no trailing slash.
    pub(crate) fn base_url(&self) -> String {
        self.url.as_str().trim_end_matches('/').to_owned()
    }

    /// The base path without trailing slash (`""` or `/ombi`).
    pub fn base_path(&self) -> &str {
        self.url.path().trim_end_matches('/')
    }
}

/// Validated settings, ready to build the sandbox and the policy.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Ombi, when `OMBI_URL` is set.
    pub ombi: Option<Upstream>,
    /// `OMBI_USER`.
    pub(crate) ombi_user: Option<String>,
    /// MoviePilot, when `MOVIEPILOT_URL` is set.
    pub moviepilot: Option<Upstream>,
    /// Give the keys to the guest instead of injecting them.
    pub pass_key_to_guest: bool,
    /// `MEDIA_MCP_READ_ONLY` (applied by the component; the server routes refusals to it).
    pub read_only: bool,
    /// Extra `MEDIA_MCP_*` / `MOVIEPILOT_*` variables for the guest, sorted by name.
    pub(crate) passthrough: Vec<(String, String)>,
    /// Explicit component path (`--component` or `MEDIA_MCP_COMPONENT`).
    pub component: Option<PathBuf>,
    /// Compiled-artifact cache directory; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// Wall-clock limit of one call.
    pub(crate) call_timeout: Duration,
    /// The host's cap on the wait for MoviePilot's first response byte: it follows the longest
    /// deadline the component may give a MoviePilot call.
    pub(crate) moviepilot_first_byte_cap: Duration,
    /// Linear-memory limit of one call, in bytes.
    pub(crate) memory_limit_bytes: usize,
    /// `serve --http`: requests handled at once.
    pub(crate) http_max_in_flight: usize,
    /// `serve --http`: connection limits and timeouts.
    pub(crate) http_front_door: FrontDoor,
    /// How often a call whose request carries a progress token reports progress.
    pub(crate) progress_interval: Duration,
    /// Idle connections kept per upstream origin (0: no reuse).
    pub(crate) upstream_max_idle: usize,
    /// stderr log level.
    pub(crate) log_level: crate::logging::Level,
}

/// Recognised variables the components read themselves, passed through unchanged (the tool
/// selection is also validated here, so every host applies the same selection). Every
/// `MEDIA_MCP_*` name in [`VARIABLES`] is either here or in [`HARNESS_ONLY`].
const GUEST_VARIABLES: &[&str] = &[
    "MEDIA_MCP_READ_ONLY",
    "MEDIA_MCP_TOOLS",
    "MEDIA_MCP_TOOLS_DENY",
    "MEDIA_MCP_CALL_DEADLINE_MS",
    "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
    "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
    "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
    "MEDIA_MCP_MOVIEPILOT_API_DENY",
    "MEDIA_MCP_MOVIEPILOT_DEADLINES",
    "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
    "MEDIA_MCP_HTTP_TOKENS",
    "MEDIA_MCP_HTTP_PROXY_TOKENS",
    "MEDIA_MCP_HTTP_AUTH",
    "MEDIA_MCP_HTTP_USER_HEADER",
    "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
    "MEDIA_MCP_HTTP_PATH",
    "MEDIA_MCP_OAUTH_ISSUER",
    "MEDIA_MCP_OAUTH_RESOURCE",
    "MEDIA_MCP_OAUTH_AUDIENCES",
    "MEDIA_MCP_OAUTH_USER_CLAIM",
    "MEDIA_MCP_OAUTH_USER_MAP",
    "MEDIA_MCP_OAUTH_READ_SCOPE",
    "MEDIA_MCP_OAUTH_WRITE_SCOPE",
    "MEDIA_MCP_OAUTH_JWKS_URI",
    "MEDIA_MCP_OAUTH_JWKS",
    "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID",
    "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
    "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
    "MEDIA_MCP_OAUTH_INTROSPECT",
];

/// Variables that configure the harness itself and are therefore not passed to the guest.
const HARNESS_ONLY: &[&str] = &[
    "MEDIA_MCP_PASS_KEY_TO_GUEST",
    "MEDIA_MCP_COMPONENT",
    "MEDIA_MCP_CACHE_DIR",
    "MEDIA_MCP_CALL_TIMEOUT_SECS",
    "MEDIA_MCP_MEMORY_LIMIT_MIB",
    "MEDIA_MCP_HTTP_MAX_IN_FLIGHT",
    "MEDIA_MCP_HTTP_MAX_CONNECTIONS",
    "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS",
    "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS",
    "MEDIA_MCP_HTTP_BODY_TIMEOUT_SECS",
    "MEDIA_MCP_PROGRESS_INTERVAL_MS",
    "MEDIA_MCP_UPSTREAM_MAX_IDLE",
    "MEDIA_MCP_LOG",
];

impl Settings {
    /// Validates raw values plus command-line overrides.
    ///
    /// # Errors
    ///
    /// The first invalid variable, by name.
    pub fn validate(raw: &RawSettings, flags: &Overrides) -> Result<Settings, ConfigError> {
        let ombi = upstream(raw, ["OMBI_URL", "OMBI_API_KEY", "OMBI_CA_FILE"])?;
        let moviepilot = upstream(
            raw,
            ["MOVIEPILOT_URL", "MOVIEPILOT_API_KEY", "MOVIEPILOT_CA_FILE"],
        )?;
        let ombi_user = match raw.get("OMBI_USER") {
            None if raw.is_given_empty("OMBI_USER") => {
                return Err(ConfigError::new("OMBI_USER", EMPTY_USER_MESSAGE));
            }
            None => None,
            Some(user) => Some(
                check_user_name(user)
                    .map_err(|m| ConfigError::new("OMBI_USER", m))?
                    .to_owned(),
            ),
        };
        let read_only = flag(raw, "MEDIA_MCP_READ_ONLY")?;
        tool_patterns(raw, "MEDIA_MCP_TOOLS")?;
        tool_patterns(raw, "MEDIA_MCP_TOOLS_DENY")?;
        let pass_key_to_guest =
            flags.pass_key_to_guest || flag(raw, "MEDIA_MCP_PASS_KEY_TO_GUEST")?;
        let (deadline_ms, deadline_setting) = longest_guest_deadline(raw, moviepilot.is_some());
        // The host's limit must outlast the component's own deadline, or a call the component
        // would have ended cleanly is cut by the host instead.
        let needed_secs = deadline_ms.div_ceil(1000) + DEADLINE_SLACK_SECS;
        let default_call_timeout = if moviepilot.is_some() {
            MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS
        } else {
            DEFAULT_CALL_TIMEOUT_SECS
        }
        .max(needed_secs + DEFAULT_EXTRA_SECS)
        .min(MAX_CALL_TIMEOUT_SECS);
        let call_timeout_secs = bounded(
            raw,
            "MEDIA_MCP_CALL_TIMEOUT_SECS",
            1,
            MAX_CALL_TIMEOUT_SECS,
            default_call_timeout,
        )?;
        if call_timeout_secs < needed_secs {
            return Err(ConfigError::new(
                "MEDIA_MCP_CALL_TIMEOUT_SECS",
                format!(
                    "is {call_timeout_secs} s, but the component may wait {deadline_ms} ms ({deadline_setting}); the host's limit must be at least {needed_secs} s: raise it or lower that deadline"
                ),
            ));
        }
        let call_timeout = Duration::from_secs(call_timeout_secs);
        let moviepilot_first_byte_cap = moviepilot_first_byte_cap(deadline_ms, call_timeout_secs);
        let memory_mib = bounded(
            raw,
            "MEDIA_MCP_MEMORY_LIMIT_MIB",
            16,
            4096,
            DEFAULT_MEMORY_LIMIT_MIB,
        )?;
        let http_max_in_flight = bounded(
            raw,
            "MEDIA_MCP_HTTP_MAX_IN_FLIGHT",
            1,
            1024,
            DEFAULT_HTTP_MAX_IN_FLIGHT,
        )?;
        let progress_interval_ms = bounded(
            raw,
            "MEDIA_MCP_PROGRESS_INTERVAL_MS",
            100,
            600_000,
            DEFAULT_PROGRESS_INTERVAL_MS,
        )?;
        let upstream_max_idle = bounded(
            raw,
            "MEDIA_MCP_UPSTREAM_MAX_IDLE",
            0,
            256,
            DEFAULT_UPSTREAM_MAX_IDLE,
        )?;
        let log_level = match raw.get("MEDIA_MCP_LOG") {
            None => crate::logging::Level::Info,
            Some(v) => {
                crate::logging::Level::parse(v).map_err(|m| ConfigError::new("MEDIA_MCP_LOG", m))?
            }
        };
        let component = flags
            .component
            .clone()
            .or_else(|| raw.get("MEDIA_MCP_COMPONENT").map(PathBuf::from));
        let cache_dir = if flags.no_cache {
            None
        } else {
            flags
                .cache_dir
                .clone()
                .or_else(|| raw.get("MEDIA_MCP_CACHE_DIR").map(PathBuf::from))
                .or_else(|| {
                    raw.get("XDG_CACHE_HOME")
                        .map(|d| Path::new(d).join("media-mcp"))
                })
                .or_else(|| {
                    raw.get("HOME")
                        .map(|h| Path::new(h).join(".cache").join("media-mcp"))
                })
        };
        let passthrough = raw
            .values
            .iter()
            .filter(|(name, _)| PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p)))
            .filter(|(name, _)| !HARNESS_ONLY.contains(&name.as_str()))
            .filter(|(name, _)| !VARIABLES.iter().any(|v| v.name == name.as_str()))
            .filter(|(name, _)| !SECRET_SUFFIXES.iter().any(|s| name.ends_with(s)))
            .chain(
                raw.values
                    .iter()
                    .filter(|(name, _)| GUEST_VARIABLES.contains(&name.as_str())),
            )
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect::<BTreeMap<_, _>>()
            .into_iter()
            .collect();
        Ok(Settings {
            ombi,
            ombi_user,
            moviepilot,
            pass_key_to_guest,
            read_only,
            passthrough,
            component,
            cache_dir,
            call_timeout,
            moviepilot_first_byte_cap,
            memory_limit_bytes: usize::try_from(memory_mib << 20).unwrap_or(usize::MAX),
            http_max_in_flight: usize::try_from(http_max_in_flight).unwrap_or(usize::MAX),
            http_front_door: FrontDoor::read(raw)?,
            progress_interval: Duration::from_millis(progress_interval_ms),
            upstream_max_idle: usize::try_from(upstream_max_idle).unwrap_or(usize::MAX),
            log_level,
        })
    }
}

fn upstream(
    raw: &RawSettings,
    [url_var, key_var, ca_var]: [&'static str; 3],
) -> Result<Option<Upstream>, ConfigError> {
    let Some(text) = raw.get(url_var) else {
        for unused in [key_var, ca_var] {
            if raw.get(unused).is_some() {
                // Not an error: a key without a URL is harmless, but say so in the log.
                crate::log_warn!("{unused} is set but {url_var} is not; ignoring it");
            }
        }
        return Ok(None);
    };
    let url = parse_base_url(url_var, text)?;
    let api_key = match raw.get(key_var) {
        None => {
            return Err(ConfigError::new(
                key_var,
                format!("required when {url_var} is set"),
            ));
        }
        Some(key) if !is_header_safe(key) || key.contains(' ') => {
            return Err(ConfigError::new(
                key_var,
                "must be printable text without spaces or control characters",
            ));
        }
        Some(key) if key.trim().len() < MIN_KEY_CHARS => {
            return Err(ConfigError::new(
                key_var,
                "must be at least 8 characters: the harness removes the key from every result, and a shorter one could not be told apart from ordinary text (Ombi's keys are 32 characters)",
            ));
        }
        Some(key) => Secret::new(key.trim()),
    };
    let extra_roots = match raw.get(ca_var) {
        None => Vec::new(),
        Some(path) => read_ca_file(ca_var, Path::new(path))?,
    };
    Ok(Some(Upstream {
        url,
        api_key,
        extra_roots,
        ca_variable: ca_var,
    }))
}

/// Reads a PEM file of CA certificates and checks that each one can be a trust anchor.
///
/// # Errors
///
/// The file cannot be read, holds no `CERTIFICATE` block, or a block is not a usable
/// certificate. Messages name `var`; they quote neither the file's content nor its path.
pub(crate) fn read_ca_file(
    var: &str,
    path: &Path,
) -> Result<Vec<CertificateDer<'static>>, ConfigError> {
    use rustls::pki_types::pem::PemObject as _;
    let bytes = std::fs::read(path)
        .map_err(|e| ConfigError::new(var, format!("cannot be read ({})", e.kind())))?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ConfigError::new(var, format!("is not a readable PEM file ({e})")))?;
    if certs.is_empty() {
        return Err(ConfigError::new(
            var,
            "holds no certificate: expected one or more PEM blocks `-----BEGIN CERTIFICATE-----`",
        ));
    }
    for (n, cert) in certs.iter().enumerate() {
        let mut store = rustls::RootCertStore::empty();
        store.add(cert.clone()).map_err(|e| {
            ConfigError::new(
                var,
                format!("certificate {} is not a usable CA certificate ({e})", n + 1),
            )
        })?;
    }
    Ok(certs)
}

/// Parses and checks an upstream base URL. Messages describe the problem without echoing the
/// URL, which could carry credentials.
///
/// # Errors
///
/// Not a URL, not http(s), no host, user info, a query or a fragment.
pub(crate) fn parse_base_url(var: &str, text: &str) -> Result<Url, ConfigError> {
    let err = |m: &str| ConfigError::new(var, m);
    let url = Url::parse(text.trim())
        .map_err(|e| ConfigError::new(var, format!("not a valid URL ({e})")))?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(ConfigError::new(
            var,
            format!("must be an http or https URL, not {}:", url.scheme()),
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(err("must name a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(err(
            "must not contain a user name or password; set the API key variable instead",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(err(
            "must not contain a query string or fragment (never put the key in the URL)",
        ));
    }
    Ok(url)
}

/// A switch; unset is off.
fn flag(raw: &RawSettings, var: &str) -> Result<bool, ConfigError> {
    match raw.get(var) {
        None => Ok(false),
        Some(v) => parse_bool(v)
            .ok_or_else(|| ConfigError::new(var, "must be 1/0, true/false, yes/no or on/off")),
    }
}

/// Checks a comma list of tool names and globs (`*`, `?`); the component reads the same rules.
fn tool_patterns(raw: &RawSettings, var: &str) -> Result<(), ConfigError> {
    let Some(text) = raw.get(var) else {
        return Ok(());
    };
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        if !entry
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.*?".contains(c))
        {
            let shown: String = entry.chars().filter(|c| !c.is_control()).take(60).collect();
            return Err(ConfigError::new(
                var,
                format!(
                    "entry `{shown}` must be a tool name or a glob (letters, digits, _ - . and the wildcards * ?)"
                ),
            ));
        }
    }
    Ok(())
}

fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn bounded(
    raw: &RawSettings,
    var: &str,
    min: u64,
    max: u64,
    default: u64,
) -> Result<u64, ConfigError> {
    let Some(text) = raw.get(var) else {
        return Ok(default);
    };
    match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ConfigError::new(
            var,
            format!("must be a whole number from {min} to {max}"),
        )),
    }
}

/// Shortest API key accepted. Results are searched for the keys (in any case, across invisible
/// characters) and every match is replaced; a shorter key would match ordinary text.
pub const MIN_KEY_CHARS: usize = 8;

/// Longest user name to act as: the component refuses longer `UserName` values on every call,
/// so a longer `OMBI_USER` is refused here, at start.
pub const MAX_USER_NAME_CHARS: usize = 256;

const EMPTY_USER_MESSAGE: &str = "is set but empty: name the Ombi user to act as, or leave OMBI_USER unset to act as the API key's administrator user (which bypasses permissions and quotas, and whose requests Ombi approves automatically)";

/// Checks a user name to act as (sent upstream as the `UserName` header) and returns it
/// without surrounding spaces: the same rule the component applies on every call, so a name
/// accepted here never fails a call later.
///
/// # Errors
///
/// Why the name cannot be used, without echoing it.
pub fn check_user_name(user: &str) -> Result<&str, &'static str> {
    let user = user.trim();
    if user.is_empty() {
        Err(EMPTY_USER_MESSAGE)
    } else if !user.is_ascii() {
        Err("must be ASCII: it is sent as the UserName header, and header values carry ASCII only")
    } else if user.bytes().any(|b| b.is_ascii_control()) {
        Err(
            "must not contain control characters such as line breaks or tabs: it is sent as the UserName header",
        )
    } else if user.len() > MAX_USER_NAME_CHARS {
        Err(
            "must be at most 256 characters: it is sent as the UserName header, and the plugin refuses longer names on every call",
        )
    } else {
        Ok(user)
    }
}

/// Whether `value` can travel in an HTTP header: visible ASCII or spaces, not blank.
fn is_header_safe(value: &str) -> bool {
    !value.trim().is_empty() && value.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
}

#[cfg(test)]
mod tests;
