//! `media-mcp-compose`, the build tool behind `scripts/build-component.sh`, with the
//! wasm-tools libraries so a fresh clone needs no extra install:
//!
//! * `media-mcp-compose component CORE OUT`: what wasm-component-ld does after linking (the
//!   `wit-component` library): makes a component of a core module from the `component-type`
//!   custom sections wit-bindgen embedded. The build links core modules and runs Binaryen's
//!   `wasm-opt` on them first, which the linker's own componentization leaves no room for.
//! * `media-mcp-compose plug SOCKET PLUG OUT`: what `wac plug SOCKET --plug PLUG -o OUT` does
//!   (the `wac-graph` library). `scripts/build-component.sh` runs it with the transport as the
//!   socket and the plugin as the plug, making `target/media_mcp_http.wasm`.

mod component;
mod plug;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: media-mcp-compose component CORE.wasm OUT.wasm\n       \
                     media-mcp-compose plug SOCKET.wasm PLUG.wasm OUT.wasm";

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let Some((command, paths)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let result = match (command.to_str(), paths.as_slice()) {
        (Some("component"), [core, out]) => component::encode(core, out).map(|(from, to)| {
            eprintln!(
                "component: {} ({to} bytes) from the core module {} ({from} bytes)",
                out.display(),
                core.display()
            );
        }),
        (Some("plug"), [socket, plug, out]) => plug::compose(socket, plug, out).map(|bytes| {
            eprintln!("composed: {} ({bytes} bytes)", out.display());
        }),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("media-mcp-compose: {e:#}");
            ExitCode::FAILURE
        }
    }
}
