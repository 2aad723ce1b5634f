//! # media-mcp-fakes
//!
//! Fake upstreams on loopback for the integration tests, the benchmarks and the demo; nothing
//! here is part of the `host-harness` users install.
//!
//! * [`ombi::FakeOmbi`] serves the Ombi fixtures (`tests/fixtures/ombi/`, embedded by `build.rs`) like
//!   `tests/python/fake_ombi.py`, and records every request;
//! * [`moviepilot::FakeMoviePilot`] is MoviePilot's MCP endpoint (JSON-RPC over HTTP POST) with a handful of
//!   tools;
//! * [`seerr::FakeSeerr`] replays Seerr v3.1.0 as recorded from the real server
//!   (`fixtures/seerr/v3.1.0/`), its request validation and key check included;
//! * [`TestCa`] makes a CA and a loopback certificate per test; either fake serves HTTPS with
//!   it (`.tls(&ca)` on the builder);
//! * [`Fault`] and [`moviepilot::faults::CallFault`] are the ways an upstream misbehaves (late, reset, stalled,
//!   leaking secrets, oversized, lying framing...), served as a [`Reply`] instead of the normal
//!   answer.
//!
//! Dependencies point down: `ombi` and `moviepilot` (the servers) use `faults`, which uses
//! `reply`, which uses `raw` (socket takeover) and `lock`; `fixtures` is read by `ombi` and
//! `faults`.

#![warn(missing_docs)]

mod faults;
mod fixtures;
mod lock;
pub mod moviepilot;
pub mod ombi;
mod raw;
mod reply;
pub mod seerr;
mod tls;

pub use faults::{Fault, LEAKED_FRAME, LEAKED_PASSWORD, OVERSIZED_BYTES};
pub use fixtures::fixture;
pub use raw::RawEnd;
pub use reply::Reply;
pub use tls::TestCa;
