//! The second upstream of the throughput table: `crates/media-mcp-bench/upstream/slow_ombi.py`, a small Ombi
//! stand-in on Python's standard library (`ThreadingHTTPServer`: a thread per connection) that
//! answers the search after [`UPSTREAM_DELAY`]. Against it, what a server's upstream
//! connections cost (a new connection per call, or one kept alive) shows next to the tokio
//! fake Ombi's figures.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, bail};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

use crate::workload::{API_KEY, UPSTREAM_DELAY};

/// The fixture the search answers with (what the fake Ombi serves for the same route).
const FIXTURE: &str = "tests/fixtures/ombi/v1-search-movie-term.json";

/// A running `slow_ombi.py`; killed when dropped.
pub struct PythonUpstream {
    _child: Child,
    addr: SocketAddr,
}

impl PythonUpstream {
    /// Starts it with `python3` on a free loopback port.
    ///
    /// # Errors
    ///
    /// `python3` cannot run it, or it did not say which port it listens on within 10 s.
    pub async fn start(root: &Path) -> anyhow::Result<PythonUpstream> {
        let mut child = Command::new("python3")
            .arg(root.join("crates/media-mcp-bench/upstream/slow_ombi.py"))
            .args(["--api-key", API_KEY, "--fixture"])
            .arg(root.join(FIXTURE))
            .arg(format!("--delay-ms={}", UPSTREAM_DELAY.as_millis()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .context("starting python3 crates/media-mcp-bench/upstream/slow_ombi.py")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let mut line = String::new();
        tokio::time::timeout(
            Duration::from_secs(10),
            BufReader::new(stdout).read_line(&mut line),
        )
        .await
        .context("slow_ombi.py did not start within 10 s")??;
        let Some(port) = line.strip_prefix("listening ") else {
            bail!("slow_ombi.py said {line:?} instead of its port");
        };
        let port: u16 = port.trim().parse().context("slow_ombi.py's port")?;
        Ok(PythonUpstream {
            _child: child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
        })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, as `OMBI_URL`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}
