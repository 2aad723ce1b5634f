//! Every configuration variable once: its name, `--help` line, who reads it, the kind of value
//! it takes (a number's bounds and default), and its section and text in
//! docs/reference/configuration.md. The harness's `--help`, config-file check and pass-through,
//! the components' readers and the configuration reference ([`crate::reference`]) all read this table.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;

/// Who reads a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The harness only; never passed to the component.
    Host,
    /// The component, which gets it unchanged (the harness may check it at start too).
    Guest,
    /// The harness, which hands the component its checked form (an upstream's URL, the user;
    /// a key only in pass-key mode).
    Both,
}

/// The kind of value a variable takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An http(s) URL.
    Url,
    /// A credential: never echoed, never logged.
    Secret,
    /// 1/0, true/false, yes/no or on/off; unset is off.
    Switch,
    /// A whole number within bounds.
    Number {
        /// Smallest value accepted.
        min: u64,
        /// Largest value accepted.
        max: u64,
        /// The value when unset.
        default: u64,
    },
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// A comma list.
    List,
    /// A file or directory.
    Path,
    /// Text with its own grammar, stated in the help.
    Text,
}

/// Bounds every deadline shares: the whole-call one and each MoviePilot one.
pub const DEADLINE_MIN_MS: u64 = 100;
/// Longest deadline anyone may configure.
pub const DEADLINE_MAX_MS: u64 = 600_000;

/// The section of the configuration reference a variable is listed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The upstreams' URLs, keys, user, certificates and connections.
    Upstreams,
    /// Which tools are listed and callable.
    ToolSelection,
    /// Limits and runtime of the harness and the component.
    Limits,
    /// MoviePilot's policy settings.
    MoviePilot,
    /// The HTTP transport component's settings.
    Http,
    /// The `serve --http` front door.
    FrontDoor,
    /// The HTTP transport's OAuth mode.
    OAuth,
    /// Job handles and tasks for long calls (the harness).
    Jobs,
}

impl Section {
    /// Every section, in the reference's order.
    pub const ALL: [Section; 8] = [
        Section::Upstreams,
        Section::ToolSelection,
        Section::Limits,
        Section::Jobs,
        Section::MoviePilot,
        Section::Http,
        Section::FrontDoor,
        Section::OAuth,
    ];

    /// The section's key in the reference's markers (`<!-- variables:KEY -->`).
    pub fn key(self) -> &'static str {
        match self {
            Section::Upstreams => "upstreams",
            Section::ToolSelection => "tool-selection",
            Section::Limits => "limits",
            Section::MoviePilot => "moviepilot",
            Section::Http => "http",
            Section::FrontDoor => "front-door",
            Section::OAuth => "oauth",
            Section::Jobs => "jobs",
        }
    }
}

/// One recognised configuration variable.
#[derive(Debug)]
pub struct Variable {
    /// Environment variable (and config-file key) name.
    pub name: &'static str,
    /// One-line description for `--help`; a number's bounds and default are added from `kind`.
    pub help: &'static str,
    /// Who reads it.
    pub scope: Scope,
    /// What values it takes.
    pub kind: Kind,
    /// Where the configuration reference lists it.
    pub section: Section,
    /// The reference's text for it (markdown, one table cell).
    pub doc: &'static str,
    /// A credential: never logged or echoed, and also read from the file `NAME_FILE` names
    /// (Docker and compose secrets).
    pub secret: bool,
}

impl Variable {
    /// The `--help` description: the help text and, for a number, its bounds and default.
    pub fn described(&self) -> String {
        match self.kind {
            Kind::Number { min, max, default } => {
                format!("{} [{min}-{max}, default {default}]", self.help)
            }
            Kind::Choice(words) => format!("{} [{}]", self.help, words.join(" | ")),
            _ => self.help.to_owned(),
        }
    }

    /// The variable naming a file that holds this secret's value (`OMBI_API_KEY_FILE`);
    /// `None` for a variable that is not a secret.
    pub fn file_variable(&self) -> Option<String> {
        self.secret.then(|| format!("{}{FILE_SUFFIX}", self.name))
    }

    /// Whether a component reads it (scope guest or both).
    pub fn is_guest(&self) -> bool {
        self.scope != Scope::Host
    }
}

/// What a secret's name is suffixed with to name a file holding it (see [`Variable::secret`]).
pub const FILE_SUFFIX: &str = "_FILE";

/// The secret whose file variable (`NAME_FILE`) is `name`.
pub fn secret_of_file_variable(name: &str) -> Option<&'static Variable> {
    let secret = name.strip_suffix(FILE_SUFFIX)?;
    VARIABLES.iter().find(|v| v.secret && v.name == secret)
}

/// Every variable, in `--help` order.
pub const VARIABLES: &[Variable] = &[
    OMBI_URL,
    OMBI_API_KEY,
    OMBI_USER,
    SEERR_URL,
    SEERR_API_KEY,
    SEERR_USER,
    MOVIEPILOT_URL,
    MOVIEPILOT_API_KEY,
    MOVIEPILOT_ALLOW_DB_WRITES,
    MOVIEPILOT_ALLOW_SECRETS,
    MOVIEPILOT_API_ALLOW,
    MOVIEPILOT_API_DENY,
    MOVIEPILOT_DEADLINES,
    MOVIEPILOT_SCHEMA_MODE,
    OMBI_CA_FILE,
    SEERR_CA_FILE,
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
    JOB_AFTER_MS,
    JOB_KEEP_SECS,
    JOB_MAX_PER_USER,
    JOB_MAX,
    LOG,
];

/// The names of the variables a component reads from its environment: a host passes these
/// (and extra pass-through ones) to the components; the API keys only to a component that
/// must send the key itself.
pub fn guest_variables() -> impl Iterator<Item = &'static str> {
    VARIABLES.iter().filter(|v| v.is_guest()).map(|v| v.name)
}

/// Whether a component reads `name` (a variable of scope guest or both).
pub fn is_guest(name: &str) -> bool {
    guest_variables().any(|n| n == name)
}

/// How often a long call reports progress unless configured: well inside the 60 s after which
/// clients commonly give up on a silent request.
pub const DEFAULT_PROGRESS_INTERVAL_MS: u64 = 10_000;

pub const OMBI_URL: Variable = Variable {
    name: "OMBI_URL",
    help: "Ombi base URL, with its path prefix if any (https://host/ombi). Unset: no Ombi tools.",
    scope: Scope::Both,
    kind: Kind::Url,
    section: Section::Upstreams,
    secret: false,
    doc: "Ombi base URL including any reverse-proxy path prefix (`https://host/ombi`). Unset: no Ombi tools are listed. Set but unusable (for hosts that do not check it first): only an `ombi_status` tool is listed, whose description and result name every configuration problem (`media-mcp tools` lists it). The harness refuses an unusable URL at start.",
};

pub const OMBI_API_KEY: Variable = Variable {
    name: "OMBI_API_KEY",
    help: "Ombi API key (required with OMBI_URL). The harness adds it as the `ApiKey` header to requests to the Ombi origin (not to /health, which needs none); the component never sees it.",
    scope: Scope::Both,
    kind: Kind::Secret,
    section: Section::Upstreams,
    secret: true,
    doc: "Ombi API key, required with `OMBI_URL`, at least 8 characters (so that removing it from results cannot hit ordinary text). The harness adds it as the `ApiKey` header on requests to the Ombi origin, except `/health`, which Ombi serves without a key.",
};

pub const OMBI_USER: Variable = Variable {
    name: "OMBI_USER",
    help: "Ombi user to act as by default (sent as the `UserName` header: printable ASCII, at most 256 characters). Set but empty is an error; unset, calls act as the key's administrator.",
    scope: Scope::Both,
    kind: Kind::Text,
    section: Section::Upstreams,
    secret: false,
    doc: "The Ombi user calls act as by default, sent as `UserName`: printable ASCII, at most 256 characters, no comma, checked at start. Set but empty is an error: leave it unset to act as the key's administrator (see [Acting as a user](#acting-as-a-user)). Over stdio a call can name another user in `_meta[\"media-mcp/principal\"]`.",
};

pub const SEERR_URL: Variable = Variable {
    name: "SEERR_URL",
    help: "Seerr (or Overseerr/Jellyseerr migrated to Seerr) base URL, with its path prefix if any. Unset: no Seerr tools. Not together with OMBI_URL.",
    scope: Scope::Both,
    kind: Kind::Url,
    section: Section::Upstreams,
    secret: false,
    doc: "Seerr base URL including any reverse-proxy path prefix (`https://host/seerr`); the tools call its `/api/v1`. Unset: no Seerr tools are listed. One request server per deployment: setting it together with `OMBI_URL` is a start error naming both (MoviePilot works beside either). See [the Seerr guide](../guide/seerr.md).",
};

pub const SEERR_API_KEY: Variable = Variable {
    name: "SEERR_API_KEY",
    help: "Seerr API key (required with SEERR_URL). The harness adds it as the `X-Api-Key` header to requests to the Seerr origin; the component never sees it.",
    scope: Scope::Both,
    kind: Kind::Secret,
    section: Section::Upstreams,
    secret: true,
    doc: "Seerr API key (Settings → General), required with `SEERR_URL`, at least 8 characters (so that removing it from results cannot hit ordinary text). The harness adds it as the `X-Api-Key` header on requests to the Seerr origin.",
};

pub const SEERR_USER: Variable = Variable {
    name: "SEERR_USER",
    help: "Seerr user to act as by default: a Seerr user id, or a name resolved through Seerr's user search (sent as the `X-API-User` header, by id). Set but empty is an error; unset, calls act as the key's administrator (user 1).",
    scope: Scope::Both,
    kind: Kind::Text,
    section: Section::Upstreams,
    secret: false,
    doc: "The Seerr user calls act as by default: a Seerr user id (`7`) or a user name or e-mail matched exactly (case-insensitively) through `GET /user?q=`; sent as `X-API-User` with the id, so that user's permissions, quotas and auto-approval apply. A name that matches no Seerr user fails the call with `NOT_FOUND`; nothing is sent as the administrator instead. Same rules as `OMBI_USER` otherwise: printable ASCII, at most 256 characters, set but empty is an error; unset, every call acts as the key's administrator and every result says so.",
};

pub const SEERR_CA_FILE: Variable = Variable {
    name: "SEERR_CA_FILE",
    help: "PEM file of one or more CA certificates trusted for the Seerr origin only, in addition to the built-in web roots. Read and checked at start.",
    scope: Scope::Host,
    kind: Kind::Path,
    section: Section::Upstreams,
    secret: false,
    doc: "PEM file of one or more CA certificates (a private CA, or a self-signed server certificate) trusted in addition to the built-in web roots, for the Seerr origin only. Read and checked at start like `OMBI_CA_FILE`.",
};

pub const MOVIEPILOT_URL: Variable = Variable {
    name: "MOVIEPILOT_URL",
    help: "MoviePilot MCP endpoint URL (https://host/api/v1/mcp).",
    scope: Scope::Both,
    kind: Kind::Url,
    section: Section::Upstreams,
    secret: false,
    doc: "MoviePilot's MCP endpoint itself, base path included (`https://mp.example.com/api/v1/mcp`): http or https, no credentials, query or fragment. Unset: no MoviePilot backend. See [the MoviePilot guide](../guide/moviepilot.md).",
};

pub const MOVIEPILOT_API_KEY: Variable = Variable {
    name: "MOVIEPILOT_API_KEY",
    help: "MoviePilot API token (required with MOVIEPILOT_URL), added as `X-API-KEY` to requests to the MoviePilot origin.",
    scope: Scope::Both,
    kind: Kind::Secret,
    section: Section::Upstreams,
    secret: true,
    doc: "MoviePilot's `API_TOKEN`, required with the URL, at least 8 characters; injected as `X-API-KEY`.",
};

pub const MOVIEPILOT_ALLOW_DB_WRITES: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
    help: "1: let MoviePilot's database_operation run `write`, and `query` with `write: true` (default off).",
    scope: Scope::Guest,
    kind: Kind::Switch,
    section: Section::MoviePilot,
    secret: false,
    doc: "Lets `database_operation` run `write`, and `query` with `write: true`; default off.",
};

pub const MOVIEPILOT_ALLOW_SECRETS: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
    help: "1: let database_operation use `show_secrets` (default off).",
    scope: Scope::Guest,
    kind: Kind::Switch,
    section: Section::MoviePilot,
    secret: false,
    doc: "Lets `database_operation` use `show_secrets`; default off.",
};

pub const MOVIEPILOT_API_ALLOW: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
    help: "Comma list: only these moviepilot_api operation ids run (unset: all).",
    scope: Scope::Guest,
    kind: Kind::List,
    section: Section::MoviePilot,
    secret: false,
    doc: "Comma list: only these `moviepilot_api` operation ids run; default unset (all).",
};

pub const MOVIEPILOT_API_DENY: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_API_DENY",
    help: "Comma list of moviepilot_api operation ids that never run.",
    scope: Scope::Guest,
    kind: Kind::List,
    section: Section::MoviePilot,
    secret: false,
    doc: "Comma list: these operation ids never run; default empty.",
};

pub const MOVIEPILOT_DEADLINES: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_DEADLINES",
    help: "name=ms,... deadline per bridged tool name or operation id (default search.torrents=300000,search_torrents=300000).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::MoviePilot,
    secret: false,
    doc: "`name=ms,...` per tool name or operation id; default `search.torrents=300000,search_torrents=300000` (the documented endpoint's torrent-search operation and v2.9.15's torrent-search tool).",
};

pub const MOVIEPILOT_SCHEMA_MODE: Variable = Variable {
    name: "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
    help: "compact (default): large MoviePilot input schemas are listed as MoviePilot's compact projection and moviepilot_input_contract returns one operation's full schema; full: every schema complete.",
    scope: Scope::Guest,
    kind: Kind::Choice(&["compact", "full"]),
    section: Section::MoviePilot,
    secret: false,
    doc: "`compact`: large input schemas are published as MoviePilot's compact projection (top-level object, required fields, the operation/action enum) and `moviepilot_input_contract` returns the full input schema of one operation on demand; `full`: every schema complete (MoviePilot's `moviepilot_api` alone is about 0.5 MB); default `compact`.",
};

pub const OMBI_CA_FILE: Variable = Variable {
    name: "OMBI_CA_FILE",
    help: "PEM file of one or more CA certificates trusted for the Ombi origin only, in addition to the built-in web roots (a private CA or a self-signed certificate). Read and checked at start.",
    scope: Scope::Host,
    kind: Kind::Path,
    section: Section::Upstreams,
    secret: false,
    doc: "PEM file of one or more CA certificates (a private CA, or a self-signed server certificate) trusted in addition to the built-in web roots, for the Ombi origin only. Read and checked at start: an unreadable file or one without a certificate stops the harness with an error naming the variable. There is no way to turn certificate verification off; a certificate that does not verify is reported in the call's error (`certificate not trusted: UnknownIssuer`).",
};

pub const MOVIEPILOT_CA_FILE: Variable = Variable {
    name: "MOVIEPILOT_CA_FILE",
    help: "PEM file of one or more CA certificates trusted for the MoviePilot origin only, in addition to the built-in web roots. Read and checked at start.",
    scope: Scope::Host,
    kind: Kind::Path,
    section: Section::Upstreams,
    secret: false,
    doc: "PEM file of one or more CA certificates (a private CA, or a self-signed server certificate) trusted in addition to the built-in web roots, for the MoviePilot origin only. Read and checked at start: an unreadable file or one without a certificate stops the harness with an error naming the variable. There is no way to turn certificate verification off; a certificate that does not verify is reported in the call's error (`certificate not trusted: UnknownIssuer`).",
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
    section: Section::Upstreams,
    secret: false,
    doc: "Idle keep-alive connections kept per upstream origin, 0–256 (default 16). Calls reuse them (no TCP or TLS handshake per call); an idle connection is closed after 30 s, or earlier by the upstream (the next request then opens a new one). `0` opens a connection for every request.",
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
    section: Section::Limits,
    secret: false,
    doc: "Worker threads that run calls and connections, 0–256; `0` is one per CPU core. Unset: `1` for `serve` over stdio, one per CPU core for `serve --http`, `tools` and `call`. A stdio server has one client whose calls mostly wait on the upstream; with one worker no call is handed between threads, which on 2 cores took 10–15 % off the CPU of a sequential call and a few per cent off the throughput at 32 calls in flight ([crates/media-mcp-bench/NOTES.md](../../crates/media-mcp-bench/NOTES.md#runtime-shape-one-worker-for-stdio)). Calls still overlap on one worker: the component yields to other calls while it computes.",
};

pub const READ_ONLY: Variable = Variable {
    name: "MEDIA_MCP_READ_ONLY",
    help: "1: list only tools proven read-only (Ombi read_* tools, bridged MoviePilot tools known to only read) and refuse every other call with FORBIDDEN, nothing sent.",
    scope: Scope::Guest,
    kind: Kind::Switch,
    section: Section::ToolSelection,
    secret: false,
    doc: "`1`: list only tools proven read-only and refuse every other call with `FORBIDDEN` naming this setting; nothing is sent. See [SECURITY.md](../SECURITY.md), section 6.",
};

pub const TOOLS: Variable = Variable {
    name: "MEDIA_MCP_TOOLS",
    help: "Comma list of tool names and globs (* any run, ? one character) to list, e.g. read_*,write_request_*. Unset: all. Other tools are not listed and not callable.",
    scope: Scope::Guest,
    kind: Kind::List,
    section: Section::ToolSelection,
    secret: false,
    doc: "Comma list of tool names and globs (`*` any run, `?` one character) to list, e.g. `read_*,write_request_*`; unset: all. A tool left out is not callable (-32602). Each listed tool costs every client context on every turn (the 31 Ombi tools are about 45 KB).",
};

pub const TOOLS_DENY: Variable = Variable {
    name: "MEDIA_MCP_TOOLS_DENY",
    help: "Comma list of tool names and globs never to list or call (applied after MEDIA_MCP_TOOLS), e.g. moviepilot_api,write_settings_*.",
    scope: Scope::Guest,
    kind: Kind::List,
    section: Section::ToolSelection,
    secret: false,
    doc: "Comma list of names and globs never to list or call, applied after `MEDIA_MCP_TOOLS` (e.g. `moviepilot_api,write_settings_*`).",
};

pub const PASS_KEY_TO_GUEST: Variable = Variable {
    name: "MEDIA_MCP_PASS_KEY_TO_GUEST",
    help: "1: give OMBI_API_KEY / SEERR_API_KEY / MOVIEPILOT_API_KEY to the component instead of injecting them (for hosts that cannot inject). Same as --pass-key-to-guest.",
    scope: Scope::Host,
    kind: Kind::Switch,
    section: Section::Upstreams,
    secret: false,
    doc: "`1`: hand the keys to the component instead of injecting them, for hosts that cannot inject headers. Same as `--pass-key-to-guest`.",
};

pub const COMPONENT: Variable = Variable {
    name: "MEDIA_MCP_COMPONENT",
    help: "Path of the component (default: <executable dir>/../media_mcp.wasm). Same as --component.",
    scope: Scope::Host,
    kind: Kind::Path,
    section: Section::Limits,
    secret: false,
    doc: "Path of the component (default: `<executable dir>/../media_mcp.wasm`). Same as `--component`.",
};

pub const CACHE_DIR: Variable = Variable {
    name: "MEDIA_MCP_CACHE_DIR",
    help: "Cache of compiled components (default: $XDG_CACHE_HOME/media-mcp or ~/.cache/media-mcp). Same as --cache-dir.",
    scope: Scope::Host,
    kind: Kind::Path,
    section: Section::Limits,
    secret: false,
    doc: "Cache of compiled components and listings (default: `$XDG_CACHE_HOME/media-mcp` or `~/.cache/media-mcp`). Same as `--cache-dir`.",
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
    section: Section::Limits,
    secret: false,
    doc: "Host wall-clock limit per call, 1–600. Default 60; 360 with MoviePilot, whose `search.torrents` may take 300 s (the host also lets MoviePilot take up to 330 s to answer, 30 s past the longest MoviePilot deadline and under this limit). It must outlast the component's longest deadline (`MEDIA_MCP_CALL_DEADLINE_MS`, `MEDIA_MCP_MOVIEPILOT_DEADLINES`) by 1 s: the default is raised to fit, an explicit shorter limit is refused at start.",
};

pub const CALL_DEADLINE_MS: Variable = Variable {
    name: "MEDIA_MCP_CALL_DEADLINE_MS",
    help: "The component's own whole-call deadline for upstream HTTP, in ms.",
    scope: Scope::Guest,
    kind: Kind::Number {
        min: DEADLINE_MIN_MS,
        max: DEADLINE_MAX_MS,
        default: 30_000,
    },
    section: Section::Limits,
    secret: false,
    doc: "The component's own whole-call deadline for upstream HTTP, 100–600000 ms (default 30000).",
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
    section: Section::Limits,
    secret: false,
    doc: "Linear-memory limit per call, 16–4096 MiB (default 64).",
};

/// How long a call runs before it is answered with a job handle unless configured: inside
/// the ~60 s after which claude.ai, ChatGPT and Claude Desktop end a tool call.
pub const DEFAULT_JOB_AFTER_MS: u64 = 45_000;

pub const JOB_AFTER_MS: Variable = Variable {
    name: "MEDIA_MCP_JOB_AFTER_MS",
    help: "A call to a tool that can become a job (MoviePilot's) still running after this many ms is answered with a job handle and goes on detached; job_status reads its result. 0 turns job mode off (calls block). serve and serve --http only.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 0,
        max: 600_000,
        default: DEFAULT_JOB_AFTER_MS,
    },
    section: Section::Jobs,
    secret: false,
    doc: "A call to a tool that can become a job (the MoviePilot tools, whose deadlines can exceed it) still running after this many ms, 0–600000 (default 45000), is answered with a job handle (`data.kind: \"job\"`) and goes on detached; `job_status` reads its result and `job_cancel` stops it. `0` turns job mode off: calls block, and `job_status` and `job_cancel` are not listed. See [Long calls](../guide/long-calls.md#job-handles).",
};

pub const JOB_KEEP_SECS: Variable = Variable {
    name: "MEDIA_MCP_JOB_KEEP_SECS",
    help: "How long a finished job's result can be read with job_status (or tasks/get), in seconds.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 900,
        max: 86_400,
        default: 1800,
    },
    section: Section::Jobs,
    secret: false,
    doc: "How long a finished job's result can be read again, 900–86400 s (default 1800); also the `ttlMs` of a task. Results also expire oldest first when finished results outgrow `MEDIA_MCP_JOB_MAX` results at the byte cap. Nothing survives a restart.",
};

pub const JOB_MAX_PER_USER: Variable = Variable {
    name: "MEDIA_MCP_JOB_MAX_PER_USER",
    help: "Calls to job tools one user may have running at once; past it a call is refused with RATE_LIMITED and nothing is sent.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 1024,
        default: 4,
    },
    section: Section::Jobs,
    secret: false,
    doc: "Calls to tools that can become jobs one principal may have running at once, 1–1024 (default 4). Past it a new call is refused with `RATE_LIMITED` naming this setting, and nothing is sent upstream; a call identical to a running one joins it instead.",
};

pub const JOB_MAX: Variable = Variable {
    name: "MEDIA_MCP_JOB_MAX",
    help: "Calls to job tools running at once in all; past it a call is refused with RATE_LIMITED and nothing is sent.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 4096,
        default: 64,
    },
    section: Section::Jobs,
    secret: false,
    doc: "Calls to tools that can become jobs running at once for all principals, 1–4096 (default 64). Past it a new call is refused with `RATE_LIMITED` naming this setting, and nothing is sent upstream.",
};

pub const PROGRESS_INTERVAL_MS: Variable = Variable {
    name: "MEDIA_MCP_PROGRESS_INTERVAL_MS",
    help: "How often a tool call whose request carries a progress token reports progress (notifications/progress: elapsed seconds, no total), in ms. Over stdio, and over serve --http when the client accepts text/event-stream.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 100,
        max: 600_000,
        default: DEFAULT_PROGRESS_INTERVAL_MS,
    },
    section: Section::Limits,
    secret: false,
    doc: "How often a call whose request carries `_meta.progressToken` reports progress, 100–600000 ms (default 10000); see [Long calls](../guide/long-calls.md).",
};

pub const LOG: Variable = Variable {
    name: "MEDIA_MCP_LOG",
    help: "stderr log level (default info). Secrets and headers are never logged.",
    scope: Scope::Host,
    kind: Kind::Choice(&["off", "error", "warn", "info", "debug"]),
    section: Section::Limits,
    secret: false,
    doc: "stderr log level: `off`, `error`, `warn`, `info` (default) or `debug`. Secrets and headers are never logged.",
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
    section: Section::FrontDoor,
    secret: false,
    doc: "calls run at once; others wait up to the call timeout, then 503",
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
    section: Section::FrontDoor,
    secret: false,
    doc: "connections held at once, lowered at start to fit the descriptor limit (which the harness raises to its hard limit) less 64 reserved, one upstream socket per call in flight and the upstream pool. At the cap the connection idle the longest is closed to make room; when none is idle, new ones wait in the listen queue. A failed `accept` (out of descriptors, an aborted connection) is logged once per burst and retried with back-off",
};

pub const HTTP_HEADER_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS",
    help: "serve --http: seconds a request's headers may take to arrive, from their first byte; then the connection is closed.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 600,
        default: 10,
    },
    section: Section::FrontDoor,
    secret: false,
    doc: "time a request's headers may take to arrive, counted from their first byte; then the connection is closed without an answer",
};

pub const HTTP_IDLE_TIMEOUT_SECS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS",
    help: "serve --http: seconds a connection may stay open without a request, from its acceptance or its last answer; then it is closed cleanly.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 3600,
        default: 30,
    },
    section: Section::FrontDoor,
    secret: false,
    doc: "time a connection may stay open without a request, counted from its own acceptance or its last answer (each connection has its own clock); then it is closed cleanly, and a client retries on a new one",
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
    section: Section::FrontDoor,
    secret: false,
    doc: "time an admitted request has to send its body (at most 4 MiB); then 408",
};

pub const HTTP_TOKENS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_TOKENS",
    help: "serve --http: user=token,... each bearer token (at least 16 characters) acts as that Ombi user, whatever the client sends.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::Http,
    secret: true,
    doc: "`user=token,...`: each bearer token (at least 16 characters) acts as that Ombi user (`UserName`), whatever the client sends in `_meta` or a user header (a user header naming someone else is 403). User names are checked at start by the rule of `OMBI_USER` (printable ASCII, at most 256 characters, no comma).",
};

pub const HTTP_AUTH: Variable = Variable {
    name: "MEDIA_MCP_HTTP_AUTH",
    help: "serve --http: off = no token required, calls act as OMBI_USER (only on loopback or behind an authenticating proxy); oauth = access tokens of your identity provider (MEDIA_MCP_OAUTH_*). Neither this nor tokens: every request gets 401.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::Http,
    secret: false,
    doc: "`off`: no token is required and calls act as `OMBI_USER` (only on loopback or behind an authenticating proxy); `oauth`: access tokens of your identity provider (see [OAuth](../guide/oauth.md)), with neither tokens nor a user header set (a start error otherwise). With neither this nor tokens every request is refused with 401 and a message saying how to configure one.",
};

pub const HTTP_PROXY_TOKENS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_PROXY_TOKENS",
    help: "serve --http: label=token,... tokens of authenticating proxies: a request with one acts as the user MEDIA_MCP_HTTP_USER_HEADER names (required then). Tokens in MEDIA_MCP_HTTP_TOKENS act as their own user only.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::Http,
    secret: true,
    doc: "`label=token,...`: tokens of authenticating proxies. A request with one acts as the user `MEDIA_MCP_HTTP_USER_HEADER` names (required then); the header given twice, or holding a list, is 400.",
};

pub const HTTP_USER_HEADER: Variable = Variable {
    name: "MEDIA_MCP_HTTP_USER_HEADER",
    help: "serve --http: a header set by a trusted authenticating proxy (e.g. Remote-User) naming the Ombi user, for proxy tokens and MEDIA_MCP_HTTP_AUTH=off (then required); given twice or as a list it is 400.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::Http,
    secret: false,
    doc: "A header set by a trusted authenticating proxy (`Remote-User` for Authelia, Authentik, oauth2-proxy) naming the Ombi user, for proxy tokens and `MEDIA_MCP_HTTP_AUTH=off` (then required on every request); off by default. With `MEDIA_MCP_HTTP_TOKENS` alone it is a start error: the proxy's token goes in `MEDIA_MCP_HTTP_PROXY_TOKENS`.",
};

pub const HTTP_ALLOWED_ORIGINS: Variable = Variable {
    name: "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
    help: "serve --http: browser origins allowed besides loopback ones (https://chat.example.com,...); any other Origin gets 403.",
    scope: Scope::Guest,
    kind: Kind::List,
    section: Section::Http,
    secret: false,
    doc: "Browser origins allowed besides loopback ones (`https://chat.example.com,...`); any other `Origin` is 403. What an allowed origin gets is in [HTTP endpoints](http-endpoints.md#browsers-cors).",
};

pub const HTTP_PATH: Variable = Variable {
    name: "MEDIA_MCP_HTTP_PATH",
    help: "serve --http: the MCP path (default /mcp).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::Http,
    secret: false,
    doc: "The MCP path (default `/mcp`; other paths are 404).",
};

pub const OAUTH_ISSUER: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_ISSUER",
    help: "OAuth: the identity provider's issuer URL (required); its metadata and keys are fetched by the HTTP component, and serve --http allows its origin (no key is ever sent there).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The provider's issuer, exactly as its tokens carry it in `iss` (required). Its metadata is read from `<issuer>/.well-known/openid-configuration`, else RFC 8414's `/.well-known/oauth-authorization-server<path>`; the metadata must name the same issuer.",
};

pub const OAUTH_RESOURCE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_RESOURCE",
    help: "OAuth: this server's public MCP URL, e.g. https://media.example.com/mcp (required); the audience tokens must name.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "This server's public MCP URL, `https://…/mcp` (required): the audience tokens must carry (RFC 8707) and the `resource` of the metadata.",
};

pub const OAUTH_AUDIENCES: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_AUDIENCES",
    help: "OAuth: more accepted aud values (comma-separated), for providers that put their client id in aud.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "More accepted `aud` values, comma-separated: for providers that ignore the `resource` parameter and put their client id in `aud`.",
};

pub const OAUTH_USER_CLAIM: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_USER_CLAIM",
    help: "OAuth: the token claim naming the Ombi user (default preferred_username).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The claim naming the Ombi user (default `preferred_username`).",
};

pub const OAUTH_USER_MAP: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_USER_MAP",
    help: "OAuth: claim-value=ombi-user,...; when set, other users are refused.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "`claim-value=Ombi user,...`; when set, anyone not listed is refused (403).",
};

pub const OAUTH_READ_SCOPE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_READ_SCOPE",
    help: "OAuth: the scope of the read-only tools (default media:read).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The scope that lists and calls the read-only tools (default `media:read`).",
};

pub const OAUTH_WRITE_SCOPE: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_WRITE_SCOPE",
    help: "OAuth: the scope of every tool (default media:write).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The scope that adds every other tool (default `media:write`).",
};

pub const OAUTH_JWKS_URI: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_JWKS_URI",
    help: "OAuth: the key set's URL, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The key set's URL, needed only when the provider's `jwks_uri` is on another origin than the issuer.",
};

pub const OAUTH_JWKS: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_JWKS",
    help: "OAuth: the key set itself (JWKS JSON): no key is fetched.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The key set itself (`{\"keys\": [...]}`): nothing is fetched (update it when the provider rotates keys).",
};

pub const OAUTH_INTROSPECTION_CLIENT_ID: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID",
    help: "OAuth: this server's client id at the identity provider, for introspecting opaque tokens (RFC 7662); with the secret.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "This server's own client at the provider, for token introspection (RFC 7662); set both it and the secret, or neither. When set, a token that is not a JWT is introspected; unset, it is refused (401).",
};

pub const OAUTH_INTROSPECTION_CLIENT_SECRET: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
    help: "OAuth: that client's secret (passed to the HTTP component, never logged).",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: true,
    doc: "That client's secret.",
};

pub const OAUTH_INTROSPECTION_URI: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
    help: "OAuth: the introspection endpoint, when not the one the issuer's metadata names on its own origin; serve --http allows its origin.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "The introspection endpoint, needed only when the metadata's `introspection_endpoint` is missing or on another origin.",
};

pub const OAUTH_INTROSPECT: Variable = Variable {
    name: "MEDIA_MCP_OAUTH_INTROSPECT",
    help: "OAuth: opaque (default: only tokens that are not JWTs are introspected) or always.",
    scope: Scope::Guest,
    kind: Kind::Text,
    section: Section::OAuth,
    secret: false,
    doc: "`opaque` (default: JWTs are verified with the keys, other tokens introspected) or `always` (every token is introspected, so a revoked JWT is refused at once).",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variable_is_named_once_with_its_default_in_bounds() {
        let mut names: alloc::vec::Vec<&str> = VARIABLES.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), VARIABLES.len());
        for v in VARIABLES {
            if let Kind::Number { min, max, default } = v.kind {
                assert!((min..=max).contains(&default), "{}", v.name);
            }
        }
    }

    #[test]
    fn credentials_are_secrets_with_a_file_variable() {
        for v in VARIABLES {
            let looks_secret = v.kind == Kind::Secret
                || ["_KEY", "_TOKENS", "_SECRET"]
                    .iter()
                    .any(|s| v.name.ends_with(s));
            assert_eq!(v.secret, looks_secret, "{}", v.name);
        }
        assert_eq!(
            OMBI_API_KEY.file_variable().as_deref(),
            Some("OMBI_API_KEY_FILE")
        );
        assert_eq!(OMBI_URL.file_variable(), None);
        assert_eq!(
            secret_of_file_variable("MEDIA_MCP_HTTP_TOKENS_FILE").map(|v| v.name),
            Some(HTTP_TOKENS.name)
        );
        assert!(secret_of_file_variable("OMBI_URL_FILE").is_none());
        assert!(secret_of_file_variable("OMBI_API_KEY").is_none());
    }

    #[test]
    fn guest_variables_are_those_of_scope_guest_or_both() {
        assert!(is_guest(OMBI_URL.name) && is_guest(READ_ONLY.name));
        assert!(!is_guest(LOG.name) && !is_guest("PATH"));
        assert_eq!(guest_variables().count(), 37);
    }
}
