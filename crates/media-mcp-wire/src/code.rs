//! JSON-RPC error codes.

/// The body is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON is not a JSON-RPC request.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Bad parameters, an unknown tool, or (modern) missing required `_meta`.
pub const INVALID_PARAMS: i64 = -32602;
/// Legacy `resources/read` of a URI this server does not have (2026-07-28 uses -32602).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// The server failed.
pub const INTERNAL_ERROR: i64 = -32603;
/// A request that was cancelled (its answer is dropped).
pub const REQUEST_CANCELLED: i64 = -32800;
/// Legacy refusals of the HTTP layer (the implementation-defined range -32000..-32019,
/// never used for a modern request).
pub const TRANSPORT_ERROR: i64 = -32000;
/// Modern Streamable HTTP: a required header is missing or does not match the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// Modern: the request needs a client capability it did not declare.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// Modern: the requested protocol version is not spoken here.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
