//! Upstream connection reuse: `read_search` latency through `host-harness serve` against a fake
//! Ombi over plain HTTP and over HTTPS (a CA generated for the run, trusted through
//! `OMBI_CA_FILE`), each with the connection pool (the default) and with reuse turned off
//! (`MEDIA_MCP_UPSTREAM_MAX_IDLE=0`: a TCP connection, and for HTTPS a TLS handshake, per
//! request). The four servers run side by side and the calls are interleaved round-robin, so
//! the ratios compare the same moments of a shared machine.

use std::path::Path;
use std::time::Instant;

use anyhow::Context as _;
use media_mcp_fakes::TestCa;
use media_mcp_fakes::ombi::FakeOmbi;
use serde_json::Value;

use crate::client::{McpClient, ServerSpec, cold_start};
use crate::measure::server_env;
use crate::plan::Plan;
use crate::stats::Summary;
use crate::workload::{API_KEY, search_args};

/// One configuration's figures.
#[derive(Debug, Clone)]
pub struct ReuseResult {
    /// `http` or `https`.
    pub scheme: &'static str,
    /// Whether connections were pooled.
    pub reuse: bool,
    /// Sequential call latency.
    pub latency: Summary,
    /// Connections the fake accepted per upstream request during the measured calls.
    pub connections_per_request: f64,
}

struct Subject {
    scheme: &'static str,
    reuse: bool,
    fake_index: usize,
    client: McpClient,
    times: Vec<std::time::Duration>,
}

/// Measures the four configurations.
///
/// # Errors
///
/// The harness or a fake fails to start, or a call fails.
pub async fn run(root: &Path, plan: Plan) -> anyhow::Result<Vec<ReuseResult>> {
    let harness = crate::harness(root);
    let wasm = root.join("target/media_mcp.wasm");
    let cache_dir = root.join("target/bench/cwasm-cache");
    let ca = TestCa::new("media-mcp bench CA");
    let ca_file = root.join("target/bench/upstream-ca.pem");
    std::fs::create_dir_all(root.join("target/bench"))?;
    std::fs::write(&ca_file, ca.ca_pem())?;
    let fakes = [
        FakeOmbi::start(API_KEY).context("starting the fake Ombi")?,
        FakeOmbi::builder(API_KEY)
            .tls(&ca)
            .start()
            .context("starting the HTTPS fake Ombi")?,
    ];
    let mut subjects = Vec::new();
    for (fake_index, scheme) in [(0, "http"), (1, "https")] {
        for reuse in [true, false] {
            let mut env = server_env(&fakes[fake_index]);
            env.push(("MEDIA_MCP_COMPONENT".into(), wasm.display().to_string()));
            env.push((
                "MEDIA_MCP_CACHE_DIR".into(),
                cache_dir.display().to_string(),
            ));
            env.push(("OMBI_CA_FILE".into(), ca_file.display().to_string()));
            if !reuse {
                env.push(("MEDIA_MCP_UPSTREAM_MAX_IDLE".into(), "0".into()));
            }
            let spec = ServerSpec {
                name: format!("ours {scheme} reuse={reuse}"),
                program: harness.clone(),
                args: vec!["serve".into()],
                env,
            };
            let (client, _, _) = cold_start(&spec).await?;
            subjects.push(Subject {
                scheme,
                reuse,
                fake_index,
                client,
                times: Vec::with_capacity(plan.calls),
            });
        }
    }
    for subject in &subjects {
        for _ in 0..plan.warmup {
            good_call(&subject.client).await?;
        }
    }
    // Two subjects share each fake: the fake's counters are read around each call.
    let mut accepted = vec![0usize; subjects.len()];
    let mut requests = vec![0usize; subjects.len()];
    for _ in 0..plan.calls {
        for (i, subject) in subjects.iter_mut().enumerate() {
            let fake = &fakes[subject.fake_index];
            let (c0, r0) = (fake.connections_accepted(), fake.requests().len());
            let started = Instant::now();
            good_call(&subject.client).await?;
            subject.times.push(started.elapsed());
            accepted[i] += fake.connections_accepted() - c0;
            requests[i] += fake.requests().len() - r0;
        }
        for fake in &fakes {
            fake.clear_requests();
        }
    }
    let mut results = Vec::new();
    for (i, subject) in subjects.into_iter().enumerate() {
        results.push(ReuseResult {
            scheme: subject.scheme,
            reuse: subject.reuse,
            latency: Summary::of(&subject.times),
            connections_per_request: accepted[i] as f64 / requests[i].max(1) as f64,
        });
        subject.client.shutdown().await;
    }
    Ok(results)
}

async fn good_call(client: &McpClient) -> anyhow::Result<()> {
    let result = client.call("read_search", &search_args()).await?;
    anyhow::ensure!(
        result.get("isError") != Some(&Value::Bool(true))
            && result.get("structuredContent").is_some(),
        "read_search did not succeed: {result}"
    );
    Ok(())
}

/// The report section.
pub fn render(results: &[ReuseResult]) -> String {
    let mut out = String::from(
        "\n## Upstream connection reuse\n\n\
         `read_search` through `host-harness serve`, sequential, against a fake Ombi over plain \
         HTTP and over HTTPS (a CA generated for the run, trusted with `OMBI_CA_FILE`), with \
         the connection pool (default) and without (`MEDIA_MCP_UPSTREAM_MAX_IDLE=0`). The four \
         servers run at once and their calls alternate, so each ratio compares the same \
         moments. Loopback has no network round trip: against a remote upstream each new \
         connection also costs one (TCP) or two (TCP and TLS) round trips.\n\n\
         | upstream | reuse | latency median | p99 | connections per request | median vs no reuse |\n\
         |---|---|---|---|---|---|\n",
    );
    for r in results {
        let baseline = results
            .iter()
            .find(|b| b.scheme == r.scheme && !b.reuse)
            .map_or(f64::NAN, |b| b.latency.median_ms);
        out.push_str(&format!(
            "| {} | {} | {:.2} ms | {:.2} ms | {:.2} | {:.2}× |\n",
            r.scheme,
            if r.reuse { "pooled" } else { "off" },
            r.latency.median_ms,
            r.latency.p99_ms,
            r.connections_per_request,
            r.latency.median_ms / baseline,
        ));
    }
    out
}
