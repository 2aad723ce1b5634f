//! `media-mcp`: loads the media-mcp component in wasmtime and serves its tools over MCP.

fn main() -> std::process::ExitCode {
    host_harness::app::main()
}
