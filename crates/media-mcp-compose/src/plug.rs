//! `plug SOCKET PLUG OUT`: every import of SOCKET that PLUG exports is satisfied by an
//! instance of PLUG; SOCKET's exports are re-exported; the remaining imports of both become the
//! composition's imports.

use std::path::Path;

use anyhow::Context as _;
use wac_graph::types::Package;
use wac_graph::{CompositionGraph, EncodeOptions};

/// Writes the composition to `out`; returns its size in bytes.
pub(crate) fn compose(socket: &Path, plug: &Path, out: &Path) -> anyhow::Result<usize> {
    let mut graph = CompositionGraph::new();
    let load = |graph: &mut CompositionGraph, name: &str, path: &Path| {
        let package = Package::from_file(name, None, path, graph.types_mut())
            .with_context(|| format!("reading {}", path.display()))?;
        graph
            .register_package(package)
            .with_context(|| format!("registering {}", path.display()))
    };
    let socket_id = load(&mut graph, "media-mcp:socket", socket)?;
    let plug_id = load(&mut graph, "media-mcp:plug", plug)?;
    wac_graph::plug(&mut graph, vec![plug_id], socket_id)
        .with_context(|| format!("plugging {} into {}", plug.display(), socket.display()))?;
    let bytes = graph
        .encode(EncodeOptions::default())
        .context("encoding the composition")?;
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    Ok(bytes.len())
}
