//! The table of recognised variables: each one's name, `--help` text, who reads it and what
//! kind of value it takes (a number's bounds and default included). `--help`, the config
//! file's key check, the pass-through to the component and the number readers all read it.

use media_mcp_wire::settings::CALL_DEADLINE;

use super::variable::{Kind, Scope, Variable};

pub use super::http_table::*;

/// Every variable the harness reads, in `--help` order.
pub const VARIABLES: &[Variable] = &[
    OMBI_URL,
    OMBI_API_KEY,
    OMBI_USER,
    MOVIEPILOT_URL,
    MOVIEPILOT_API_KEY,
    MOVIEPILOT_ALLOW_DB_WRITES,
    MOVIEPILOT_ALLOW_SECRETS,
    MOVIEPILOT_API_ALLOW,
    MOVIEPILOT_API_DENY,
    MOVIEPILOT_DEADLINES,
    MOVIEPILOT_SCHEMA_MODE,
    OMBI_CA_FILE,
    MOVIEPILOT_CA_FILE,
    UPSTREAM_MAX_IDLE,
    WORKER_THREADS,
    READ_ONLY,
    TOOLS,
    TOOLS_DENY,
    PASS_KEY_TO_GUEST,
    COMPONENT,
    CACHE_DIR,
    CALL_TIMEOUT_SECS,
    CALL_DEADLINE_MS,
    MEMORY_LIMIT_MIB,
    HTTP_MAX_IN_FLIGHT,
    HTTP_MAX_CONNECTIONS,
    HTTP_HEADER_TIMEOUT_SECS,
    HTTP_IDLE_TIMEOUT_SECS,
    HTTP_BODY_TIMEOUT_SECS,
    HTTP_TOKENS,
    HTTP_AUTH,
    HTTP_PROXY_TOKENS,
    HTTP_USER_HEADER,
    HTTP_ALLOWED_ORIGINS,
    HTTP_PATH,
    OAUTH_ISSUER,
    OAUTH_RESOURCE,
    OAUTH_AUDIENCES,
    OAUTH_USER_CLAIM,
    OAUTH_USER_MAP,
    OAUTH_READ_SCOPE,
    OAUTH_WRITE_SCOPE,
    OAUTH_JWKS_URI,
    OAUTH_JWKS,
    OAUTH_INTROSPECTION_CLIENT_ID,
    OAUTH_INTROSPECTION_CLIENT_SECRET,
    OAUTH_INTROSPECTION_URI,
    OAUTH_INTROSPECT,
    PROGRESS_INTERVAL_MS,
    LOG,
];

/// Prefixes of extra variables passed through to the component unchanged (policy settings).
pub const PASSTHROUGH_PREFIXES: &[&str] = &["MEDIA_MCP_", "MOVIEPILOT_"];

/// Name endings that mark a secret: such extra variables are never passed to the component.
pub const SECRET_SUFFIXES: &[&str] = &["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

/// The table's entry for `name`.
pub fn find(name: &str) -> Option<&'static Variable> {
    VARIABLES.iter().find(|v| v.name == name)
}

/// Whether `name` is read from the environment or a config file: a variable of the table or
/// one with a pass-through prefix.
pub fn is_recognised(name: &str) -> bool {
    find(name).is_some() || PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Whether the component gets `name` unchanged: a guest variable of the table, or an extra
/// one with a pass-through prefix and no secret ending.
pub fn passes_through(name: &str) -> bool {
    match find(name) {
        Some(v) => v.scope == Scope::Guest,
        None => {
            PASSTHROUGH_PREFIXES.iter().any(|p| name.starts_with(p))
                && !SECRET_SUFFIXES.iter().any(|s| name.ends_with(s))
        }
    }
}

pub const OMBI_URL: Variable = Variable {
    name: "OMBI_URL",
    help: "Ombi base URL, with its path prefix if any (https://host/ombi). Unset: no Ombi tools.",
    scope: Scope::Both,
    kind: Kind::Url,
};

pub const OMBI_API_KEY: Variable = Variable {
    name: "OMBI_API_KEY",
    help: "Ombi API key (required with OMBI_URL). The harness adds it as the `ApiKey` header to requests to the Ombi origin (not to /health, which needs none); the component never sees it.",
    scope: Scope::Both,
    kind: Kind::Secret,
};

pub const OMBI_USER: Variable = Variable {
    name: "OMBI_USER",
    help: "Ombi user to act as by default (sent as the `UserName` header: printable ASCII, at most 256 characters). Set but empty is an error; unset, calls act as the key's administrator.",
    scope: Scope::Both,
    kind: Kind::Text,
};

pub const MOVIEPILOT_URL: Variable = Variable {
    name: "MOVIEPILOT_URL",
    help: "MoviePilot MCP endpoint URL (https://host/api/v1/mcp).",
    scope: Scope::Both,
    kind: Kind::Url,
};

pub const MOVIEPILOT_API_KEY: Variable = Variable {
    name: "MOVIEPILOT_API_KEY",
    help: "MoviePilot API token (required with MOVIEPILOT_URL), added as `X-API-KEY` to requests to the MoviePilot origin.",
    scope: Scope::Both,
    kind: Kind::Secret,
};

pub const MOVIEPILOT_ALLOW_DB_WRITES: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
    help: "1: let MoviePilot's database_operation run `write`, and `query` with `write: true` (default off).",
    scope: Scope::Guest,
    kind: Kind::Switch,
};

pub const MOVIEPILOT_ALLOW_SECRETS: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
    help: "1: let database_operation use `show_secrets` (default off).",
    scope: Scope::Guest,
    kind: Kind::Switch,
};

pub const MOVIEPILOT_API_ALLOW: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
    help: "Comma list: only these moviepilot_api operation ids run (unset: all).",
    scope: Scope::Guest,
    kind: Kind::List,
};

pub const MOVIEPILOT_API_DENY: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_API_DENY",
    help: "Comma list of moviepilot_api operation ids that never run.",
    scope: Scope::Guest,
    kind: Kind::List,
};

pub const MOVIEPILOT_DEADLINES: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_DEADLINES",
    help: "name=ms,... deadline per bridged tool name or operation id (default search.torrents=300000).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const MOVIEPILOT_SCHEMA_MODE: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
    help: "compact (default): large MoviePilot input schemas are listed as MoviePilot's compact projection and moviepilot_input_contract returns one operation's full schema; full: every schema complete.",
    scope: Scope::Guest,
    kind: Kind::Choice(&["compact", "full"]),
};

pub const OMBI_CA_FILE: Variable = Variable {
    name: "OMBI_CA_FILE",
    help: "PEM file of one or more CA certificates trusted for the Ombi origin only, in addition to the built-in web roots (a private CA or a self-signed certificate). Read and checked at start.",
    scope: Scope::Host,
    kind: Kind::Path,
};

pub const MOVIEPILOT_CA_FILE: Variable = Variable {
    name: "MOVIEPILOT_CA_FILE",
    help: "PEM file of one or more CA certificates trusted for the MoviePilot origin only, in addition to the built-in web roots. Read and checked at start.",
    scope: Scope::Host,
    kind: Kind::Path,
};

/// The default is enough for the default 32 requests in flight of `serve --http` to find a warm
/// connection for half of them, few enough that a quiet harness holds at most 16 sockets per
/// upstream for 30 s.
pub const UPSTREAM_MAX_IDLE: Variable = Variable {
    name: "MEDIA_MCP_UPSTREAM_MAX_IDLE",
    help: "Idle keep-alive connections kept per upstream origin for reuse (0 opens a new connection for every request). An idle connection is closed after 30 s.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 0,
        max: 256,
        default: 16,
    },
};

/// `serve` over stdio has one client, whose calls mostly wait on the upstream: with one worker
/// no call is handed between workers, which costs more CPU than overlapping calls on several
/// cores saves there (crates/media-mcp-bench/NOTES.md). `serve --http` serves many clients at once.
pub const WORKER_THREADS: Variable = Variable {
    name: "MEDIA_MCP_WORKER_THREADS",
    help: "Worker threads that run calls and connections; 0: one per CPU core. Unset: 1 for serve over stdio, one per CPU core for serve --http, tools and call.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 0,
        max: 256,
        default: 1,
    },
};

pub const READ_ONLY: Variable = Variable {
    name: "MEDIA_MCP_READ_ONLY",
    help: "1: list only tools proven read-only (Ombi read_* tools, bridged MoviePilot tools known to only read) and refuse every other call with FORBIDDEN, nothing sent.",
    scope: Scope::Guest,
    kind: Kind::Switch,
};

pub const TOOLS: Variable = Variable {
    name: "MEDIA_MCP_TOOLS",
    help: "Comma list of tool names and globs (* any run, ? one character) to list, e.g. read_*,write_request_*. Unset: all. Other tools are not listed and not callable.",
    scope: Scope::Guest,
    kind: Kind::List,
};

pub const TOOLS_DENY: Variable = Variable {
    name: "MEDIA_MCP_TOOLS_DENY",
    help: "Comma list of tool names and globs never to list or call (applied after MEDIA_MCP_TOOLS), e.g. moviepilot_api,write_settings_*.",
    scope: Scope::Guest,
    kind: Kind::List,
};

pub const PASS_KEY_TO_GUEST: Variable = Variable {
    name: "MEDIA_MCP_PASS_KEY_TO_GUEST",
    help: "1: give OMBI_API_KEY / MOVIEPILOT_API_KEY to the component instead of injecting them (for hosts that cannot inject). Same as --pass-key-to-guest.",
    scope: Scope::Host,
    kind: Kind::Switch,
};

pub const COMPONENT: Variable = Variable {
    name: "MEDIA_MCP_COMPONENT",
    help: "Path of the component (default: <executable dir>/../media_mcp.wasm). Same as --component.",
    scope: Scope::Host,
    kind: Kind::Path,
};

pub const CACHE_DIR: Variable = Variable {
    name: "MEDIA_MCP_CACHE_DIR",
    help: "Cache of compiled components (default: $XDG_CACHE_HOME/media-mcp or ~/.cache/media-mcp). Same as --cache-dir.",
    scope: Scope::Host,
    kind: Kind::Path,
};

pub const CALL_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_CALL_TIMEOUT_SECS",
    help: "Wall-clock limit of one tool call (360 by default when MOVIEPILOT_URL is set, since MoviePilot's search.torrents may take 300 s; raised further by longer MEDIA_MCP_CALL_DEADLINE_MS or MEDIA_MCP_MOVIEPILOT_DEADLINES). A limit shorter than one of those deadlines is refused at start.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 600,
        default: 60,
    },
};

pub const CALL_DEADLINE_MS: Variable = Variable {
    name: CALL_DEADLINE.name,
    help: "The component's own whole-call deadline for upstream HTTP, in ms.",
    scope: Scope::Guest,
    kind: Kind::Number {
        min: CALL_DEADLINE.min,
        max: CALL_DEADLINE.max,
        default: CALL_DEADLINE.default,
    },
};

pub const MEMORY_LIMIT_MIB: Variable = Variable {
    name: "MEDIA_MCP_MEMORY_LIMIT_MIB",
    help: "Linear-memory limit of one tool call in MiB.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 16,
        max: 4096,
        default: 64,
    },
};

/// How often a long call reports progress unless configured: well inside the 60 s after which
/// clients commonly give up on a silent request.
pub(crate) const DEFAULT_PROGRESS_INTERVAL_MS: u64 = 10_000;

pub const PROGRESS_INTERVAL_MS: Variable = Variable {
    name: "MEDIA_MCP_PROGRESS_INTERVAL_MS",
    help: "How often a tool call whose request carries a progress token reports progress (notifications/progress: elapsed seconds, no total), in ms. Over stdio, and over serve --http when the client accepts text/event-stream.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 100,
        max: 600_000,
        default: DEFAULT_PROGRESS_INTERVAL_MS,
    },
};

pub const LOG: Variable = Variable {
    name: "MEDIA_MCP_LOG",
    help: "stderr log level (default info). Secrets and headers are never logged.",
    scope: Scope::Host,
    kind: Kind::Choice(&["off", "error", "warn", "info", "debug"]),
};
