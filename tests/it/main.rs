//! The integration tests: one binary, one module per topic. They run the release harness
//! (`target/release/media-mcp`) on the real component (`target/media_mcp.wasm`) against
//! [`FakeOmbi`](media_mcp_fakes::ombi::FakeOmbi) on loopback, over real stdio pipes.
//!
//! * `component`: what the built components (plugin, HTTP composition) import, their sizes;
//! * `fake_ombi`: the fake upstream behaves like `fake_ombi.py`;
//! * `mcp_stdio`: handshake versions, tools/list, ping, protocol errors, concurrency;
//! * `mcp_modern`: MCP 2026-07-28 over stdio (discover, per-request `_meta`, rmcp's client);
//! * `apps`: the MCP Apps views, resources and prompts over stdio, both eras;
//! * `http_front`: `serve --http` under descriptor exhaustion, stalled bodies, proxy tokens, CORS;
//! * `long_calls`: progress notifications while a call runs, cancellation of a running call;
//! * `calls`: tool results, principals, timeouts, the API key's path;
//! * `policy`: outbound origins, redirects, the http hook itself;
//! * `moviepilot`: the MoviePilot backend against the fake MoviePilot MCP endpoint;
//! * `moviepilot_versions`: the MoviePilot backend against both MoviePilot versions (the
//!   documented router schema, recursive definitions included, and v2.9.15 as recorded);
//! * `moviepilot_faults`: every injected `tools/call` fault of the fake MoviePilot on a read and
//!   a write (the MoviePilot fault matrix);
//! * `seerr`: the Seerr backend against the fake Seerr replaying Seerr v3.1.0 as recorded;
//! * `canary`: a canary API key through every tool under every fault, found nowhere;
//! * `faults`: every injected upstream fault on a read and a write (the fault matrix);
//! * `soak`: thousands of calls, 32 in flight, random faults: once each, same answers, flat memory;
//! * `selection`: read-only mode and tool selection, for both backends and the listing cache;
//! * `upstream`: pooled upstream connections (reuse, replacement, no re-sent writes) and
//!   private CAs per origin over HTTPS;
//! * `cli`: `tools`, `call`, `--help`, the demo binary, configuration errors, the compile cache.
//!
//! New tests go in the module of their topic.

mod apps;
mod calls;
mod canary;
mod cli;
mod component;
mod fake_ombi;
mod faults;
mod http_front;
mod jobs;
mod jobs_http;
mod long_calls;
mod mcp_modern;
mod mcp_stdio;
mod moviepilot;
mod moviepilot_faults;
mod moviepilot_versions;
mod policy;
mod seerr;
mod selection;
mod soak;
mod stdio_kinds;
mod support;
mod upstream;
