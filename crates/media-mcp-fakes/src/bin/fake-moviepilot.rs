//! The fake MoviePilot as a process, for tests in other languages (tests/python/): prints
//! `{"url": …, "key": …}` on one line, serves until stdin closes, then prints
//! `{"tool_calls": {tool: count}}` and exits.
//!
//! `fake-moviepilot [--v2.9.15] [--torrent-search-delay-ms N]`

use std::io::{BufRead as _, Write as _};
use std::time::Duration;

use media_mcp_fakes::moviepilot::{FakeMoviePilot, Version};
use serde_json::json;

fn main() {
    let mut builder = FakeMoviePilot::builder();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--v2.9.15" => builder = builder.version(Version::V2_9_15),
            "--torrent-search-delay-ms" => {
                let ms = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
                    eprintln!("fake-moviepilot: --torrent-search-delay-ms takes a number");
                    std::process::exit(2)
                });
                builder = builder.torrent_search_delay(Duration::from_millis(ms));
            }
            other => {
                eprintln!("fake-moviepilot: unknown argument {other:?}");
                std::process::exit(2)
            }
        }
    }
    let fake = builder.start();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", json!({"url": fake.mcp_url(), "key": fake.key()}));
    let _ = out.flush();
    for line in std::io::stdin().lock().lines() {
        if line.is_err() {
            break;
        }
    }
    let _ = writeln!(out, "{}", json!({"tool_calls": fake.tool_call_counts()}));
}
