//! The table of recognised variables: each one's name, `--help` text, who reads it and what
//! kind of value it takes (a number's bounds and default included). `--help`, the config
//! file's key check, the pass-through to the component and the number readers all read it.

use media_mcp_wire::settings::CALL_DEADLINE;

use super::variable::{Kind, Scope, Variable};

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

pub const HTTP_MAX_IN_FLIGHT: Variable = Variable {
    name: "MEDIA_MCP_HTTP_MAX_IN_FLIGHT",
    help: "serve --http: requests handled at once; others wait up to the call timeout, then get 503.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 1024,
        default: 32,
    },
};

pub const HTTP_MAX_CONNECTIONS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_MAX_CONNECTIONS",
    help: "serve --http: connections held at once, lowered at start to fit the descriptor limit (each call in flight also holds an upstream socket); beyond it idle connections are closed to make room, else new ones wait.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 8,
        max: 65_536,
        default: 1024,
    },
};

pub const HTTP_HEADER_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS",
    help: "serve --http: seconds a client has to send a request's headers; then the connection is closed.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 600,
        default: 10,
    },
};

pub const HTTP_IDLE_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS",
    help: "serve --http: seconds a keep-alive connection may stay open without a request.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 3600,
        default: 30,
    },
};

pub const HTTP_BODY_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_BODY_TIMEOUT_SECS",
    help: "serve --http: seconds an authenticated request has to send its body (at most 4 MiB); then 408. No slot is held meanwhile.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 600,
        default: 10,
    },
};

pub const HTTP_TOKENS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_TOKENS",
    help: "serve --http: user=token,... each bearer token (at least 16 characters) acts as that Ombi user, whatever the client sends.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const HTTP_AUTH: Variable = Variable {
    name: "MEDIA_MCP_HTTP_AUTH",
    help: "serve --http: off = no token required, calls act as OMBI_USER (only on loopback or behind an authenticating proxy); oauth = access tokens of your identity provider (MEDIA_MCP_OAUTH_*). Neither this nor tokens: every request gets 401.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const HTTP_PROXY_TOKENS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_PROXY_TOKENS",
    help: "serve --http: label=token,... tokens of authenticating proxies: a request with one acts as the user MEDIA_MCP_HTTP_USER_HEADER names (required then). Tokens in MEDIA_MCP_HTTP_TOKENS act as their own user only.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const HTTP_USER_HEADER: Variable = Variable {
    name: "MEDIA_MCP_HTTP_USER_HEADER",
    help: "serve --http: a header set by a trusted authenticating proxy (e.g. Remote-User) naming the Ombi user, for proxy tokens and MEDIA_MCP_HTTP_AUTH=off (then required); given twice or as a list it is 400.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const HTTP_ALLOWED_ORIGINS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
    help: "serve --http: browser origins allowed besides loopback ones (https://chat.example.com,...); any other Origin gets 403.",
    scope: Scope::Guest,
    kind: Kind::List,
};

pub const HTTP_PATH: Variable = Variable {
    name: "MEDIA_MCP_HTTP_PATH",
    help: "serve --http: the MCP path (default /mcp).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_ISSUER: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_ISSUER",
    help: "OAuth: the identity provider's issuer URL (required); its metadata and keys are fetched by the HTTP component, and serve --http allows its origin (no key is ever sent there).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_RESOURCE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_RESOURCE",
    help: "OAuth: this server's public MCP URL, e.g. https://media.example.com/mcp (required); the audience tokens must name.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_AUDIENCES: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_AUDIENCES",
    help: "OAuth: more accepted aud values (comma-separated), for providers that put their client id in aud.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_USER_CLAIM: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_USER_CLAIM",
    help: "OAuth: the token claim naming the Ombi user (default preferred_username).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_USER_MAP: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_USER_MAP",
    help: "OAuth: claim-value=ombi-user,...; when set, other users are refused.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_READ_SCOPE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_READ_SCOPE",
    help: "OAuth: the scope of the read-only tools (default media:read).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_WRITE_SCOPE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_WRITE_SCOPE",
    help: "OAuth: the scope of every tool (default media:write).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_JWKS_URI: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_JWKS_URI",
    help: "OAuth: the key set's URL, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_JWKS: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_JWKS",
    help: "OAuth: the key set itself (JWKS JSON): no key is fetched.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_INTROSPECTION_CLIENT_ID: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID",
    help: "OAuth: this server's client id at the identity provider, for introspecting opaque tokens (RFC 7662); with the secret.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_INTROSPECTION_CLIENT_SECRET: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
    help: "OAuth: that client's secret (passed to the HTTP component, never logged).",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_INTROSPECTION_URI: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
    help: "OAuth: the introspection endpoint, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    scope: Scope::Guest,
    kind: Kind::Text,
};

pub const OAUTH_INTROSPECT: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECT",
    help: "OAuth: opaque (default: only tokens that are not JWTs are introspected) or always.",
    scope: Scope::Guest,
    kind: Kind::Text,
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
