//! `media-mcp-compose SOCKET PLUG OUT`: what `wac plug SOCKET --plug PLUG -o OUT` does, with
//! the `wac-graph` library so a fresh clone needs no extra install. Every import of SOCKET
//! that PLUG exports is satisfied by an instance of PLUG; SOCKET's exports are re-exported;
//! the remaining imports of both become the composition's imports.
//!
//! `scripts/build-component.sh` runs it with the transport as the socket and the plugin as the
//! plug, making `target/media_mcp_http.wasm`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use wac_graph::types::Package;
use wac_graph::{CompositionGraph, EncodeOptions};

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [socket, plug, out] = args.as_slice() else {
        eprintln!("usage: media-mcp-compose SOCKET.wasm PLUG.wasm OUT.wasm");
        return ExitCode::from(2);
    };
    match compose(socket, plug, out) {
        Ok(bytes) => {
            eprintln!("composed: {} ({bytes} bytes)", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("media-mcp-compose: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn compose(socket: &PathBuf, plug: &PathBuf, out: &PathBuf) -> anyhow::Result<usize> {
    let mut graph = CompositionGraph::new();
    let load = |graph: &mut CompositionGraph, name: &str, path: &PathBuf| {
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
