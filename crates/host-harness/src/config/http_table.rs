//! The `serve --http` front door's and its OAuth mode's entries of the configuration table
//! ([`super::table::VARIABLES`] lists them in `--help` order).

use super::variable::{Kind, Scope, Variable};

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
    help: "serve --http: seconds a request's headers may take to arrive, from their first byte; then the connection is closed.",
    scope: Scope::Host,
    kind: Kind::Number {
        min: 1,
        max: 600,
        default: 10,
    },
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
