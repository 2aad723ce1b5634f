//! `host-harness`: the same program as `media-mcp`, under the name earlier releases installed.

fn main() -> std::process::ExitCode {
    host_harness::app::main()
}
