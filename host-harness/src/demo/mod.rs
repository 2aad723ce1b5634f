//! The demo upstream and the demo tour.
//!
//! [`FakeOmbi`] is a loopback Ombi that serves the embedded fixtures (`tests/fixtures/ombi/`)
//! like `fake_ombi.py`; `host-harness demo` runs the component against it, and the integration
//! tests reuse it as `host_harness::demo::FakeOmbi`, with [`Fault`]s injected per route. [`tour`] is what `demo` prints.

pub mod fake_ombi;
pub mod faults;
pub mod fixtures;
pub mod raw;
pub mod routes;
mod tour;

pub use fake_ombi::{FakeOmbi, FakeOmbiBuilder, RawEnd, RecordedRequest, Reply};
pub use faults::Fault;
pub use tour::{TOUR, tour};
