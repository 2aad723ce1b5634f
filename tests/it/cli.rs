//! The command line: `--help`, `tools`, `call` (output and exit status), usage errors, shell
//! completions, the demo (`media-mcp-demo`), configuration errors that name the variable (and
//! never echo a key), the config file, the compiled component cache (the second start skips
//! compilation; `precompile` bakes one that any user reads without writing; an unwritable
//! directory costs one warning), and where `serve --http` finds its component.

use host_harness::config::VARIABLES;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{
    Env, Harness, assert_no_secret, canary_key, fresh_dir, harness_alias_binary, run_binary,
    run_cli, structured,
};
use serde_json::Value;

/// The key the listing-cache tests configure (keys are at least 8 characters).
const KEY: &str = "cli-test-key";

#[test]
fn help_documents_every_variable() {
    let out = run_cli(&["--help"], &Env::new());
    assert!(out.status.success());
    for variable in VARIABLES {
        assert!(
            out.stdout.contains(variable.name),
            "--help lacks {}",
            variable.name
        );
    }
}

#[test]
fn the_host_harness_alias_runs_the_same_program() {
    let env = Env::new();
    // `tools` logs its load time on stderr, so only its status and stdout are compared.
    for args in [&["--version"][..], &["tools"], &["serve", "--ht"]] {
        let product = run_cli(args, &env);
        let alias = run_binary(harness_alias_binary(), args, &env);
        assert_eq!(alias.status.code(), product.status.code(), "{args:?}");
        assert_eq!(alias.stdout, product.stdout, "{args:?}");
        if args != ["tools"] {
            assert_eq!(alias.stderr, product.stderr, "{args:?}");
        }
    }
}

#[test]
fn help_and_version_exit_0_and_usage_mistakes_exit_2() {
    for args in [&["serve", "--help"][..], &["help"], &["call", "x", "-h"]] {
        let out = run_cli(args, &Env::new());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", out.stderr);
        assert!(out.stdout.contains("EXIT STATUS"), "{args:?}");
    }
    let version = run_cli(&["--version"], &Env::new());
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        version.stdout.trim(),
        format!("media-mcp {}", env!("CARGO_PKG_VERSION"))
    );
    for (args, named) in [
        (&[][..], "subcommand"),
        (&["completions", "powershell"], "powershell"),
        (&["serve", "--http", "localhost"], "--http"),
        (&["call"], "NAME"),
        (&["tools", "--principal", "bob"], "--principal"),
    ] {
        let out = run_cli(args, &Env::new());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(named), "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("media-mcp: ")
                && out.stderr.trim_end().ends_with("Try 'media-mcp --help'."),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// Runs `script` with `shell -c`, or returns `None` when the shell is not installed.
fn run_shell(shell: &str, args: &[&str]) -> Option<std::process::Output> {
    match std::process::Command::new(shell).args(args).output() {
        Ok(out) => Some(out),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("{shell} is not installed: its completion script is not checked");
            None
        }
        Err(e) => panic!("running {shell}: {e}"),
    }
}

#[test]
fn completions_are_printed_for_each_shell_and_parse() {
    let dir = fresh_dir("completions");
    for shell in ["bash", "zsh", "fish"] {
        let out = run_cli(&["completions", shell], &Env::new());
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", out.stderr);
        for word in ["serve", "tools", "call", "completions", "principal"] {
            assert!(out.stdout.contains(word), "{shell} script lacks {word}");
        }
        let path = dir.join(format!("media-mcp.{shell}"));
        std::fs::write(&path, &out.stdout).unwrap();
        if let Some(parsed) = run_shell(shell, &["-n", path.to_str().unwrap()]) {
            assert!(
                parsed.status.success(),
                "{shell} -n: {}",
                String::from_utf8_lossy(&parsed.stderr)
            );
        }
    }
}

/// What bash's completion function offers for the words of `line` (the last one being typed).
fn bash_completes(script: &std::path::Path, line: &[&str]) -> Option<String> {
    let words = line
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let program = format!(
        "source '{}'; COMP_WORDS=({words}); COMP_CWORD={}; \
         _media__mcp media-mcp '{}' '{}'; echo \"${{COMPREPLY[*]}}\"",
        script.display(),
        line.len() - 1,
        line[line.len() - 1],
        line[line.len() - 2],
    );
    let out = run_shell("bash", &["-c", &program])?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

#[test]
fn bash_and_fish_complete_subcommands_and_their_flags() {
    let dir = fresh_dir("completing");
    let bash = dir.join("media-mcp.bash");
    std::fs::write(&bash, run_cli(&["completions", "bash"], &Env::new()).stdout).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["media-mcp", "c"], "call completions"),
        (&["media-mcp", "completions", ""], "bash zsh fish"),
        (&["media-mcp", "call", "t", "--pr"], "--principal"),
        (&["media-mcp", "serve", "--ht"], "--http"),
    ];
    for (line, expected) in cases {
        if let Some(offered) = bash_completes(&bash, line) {
            assert!(offered.contains(expected), "bash {line:?}: {offered:?}");
        }
    }
    let fish = dir.join("media-mcp.fish");
    std::fs::write(&fish, run_cli(&["completions", "fish"], &Env::new()).stdout).unwrap();
    let program = format!(
        "source '{}'; complete -C'media-mcp call t --pr'; complete -C'media-mcp c'",
        fish.display()
    );
    if let Some(out) = run_shell("fish", &["-c", &program]) {
        let offered = String::from_utf8_lossy(&out.stdout);
        for expected in ["--principal", "call", "completions"] {
            assert!(
                offered.contains(expected),
                "fish lacks {expected}: {offered}"
            );
        }
    }
}

#[test]
fn tools_lists_the_catalogue_for_people() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let out = run_cli(&["tools"], &Env::ombi(&fake, &key));
    assert!(out.status.success(), "{}", out.stderr);
    assert!(out.stdout.contains("read_search"), "{}", out.stdout);
    assert_no_secret(&out.stdout, &key, "stdout");
    assert_no_secret(&out.stderr, &key, "stderr");
}

#[test]
fn call_prints_pretty_json_and_exits_by_is_error() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key);
    let ok = run_cli(
        &[
            "call",
            "read_search",
            r#"{"query":"matrix","media":"movie"}"#,
        ],
        &env,
    );
    assert_eq!(ok.status.code(), Some(0), "{}", ok.stderr);
    let envelope: Value = serde_json::from_str(&ok.stdout).expect("stdout is one JSON document");
    assert_eq!(envelope["ok"], true);
    assert!(ok.stdout.contains("\n  \""), "pretty-printed");
    let failed = run_cli(&["call", "read_search", r#"{"bogus":1}"#], &env);
    assert_eq!(failed.status.code(), Some(1), "{}", failed.stderr);
    assert_eq!(
        serde_json::from_str::<Value>(&failed.stdout).unwrap()["ok"],
        false
    );
    for out in [&ok, &failed] {
        assert_no_secret(&out.stdout, &key, "stdout");
        assert_no_secret(&out.stderr, &key, "stderr");
    }
}

#[test]
fn call_mistakes_exit_2_with_one_message() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key);
    let unknown = run_cli(&["call", "no_such_tool"], &env);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        unknown.stderr.contains("unknown tool"),
        "{}",
        unknown.stderr
    );
    assert!(unknown.stdout.is_empty());
    let not_object = run_cli(&["call", "read_search", "[1,2]"], &env);
    assert_eq!(not_object.status.code(), Some(2));
    assert!(
        not_object.stderr.contains("JSON object"),
        "{}",
        not_object.stderr
    );
    let flag = run_cli(&["tools", "--bogus"], &env);
    assert_eq!(flag.status.code(), Some(2));
    assert!(flag.stderr.contains("--bogus"));
}

#[test]
fn configuration_errors_name_the_variable_and_hide_the_key() {
    let key = canary_key();
    let cases = [
        (
            Env::new()
                .set("OMBI_URL", "ftp://ombi.example")
                .set("OMBI_API_KEY", &key),
            "OMBI_URL",
        ),
        (
            Env::new().set("OMBI_URL", "http://127.0.0.1:9"),
            "OMBI_API_KEY",
        ),
        (
            Env::new()
                .set("OMBI_URL", "http://127.0.0.1:9")
                .set("OMBI_API_KEY", &format!("{key} x")),
            "OMBI_API_KEY",
        ),
        (
            Env::new()
                .set("OMBI_URL", &format!("http://127.0.0.1:9/?apikey={key}"))
                .set("OMBI_API_KEY", &key),
            "OMBI_URL",
        ),
        (
            Env::new().set("MEDIA_MCP_CALL_TIMEOUT_SECS", "forever"),
            "MEDIA_MCP_CALL_TIMEOUT_SECS",
        ),
        // A host limit the component's own deadline would outlast is refused, not cut.
        (
            Env::new()
                .set("MEDIA_MCP_CALL_DEADLINE_MS", "120000")
                .set("MEDIA_MCP_CALL_TIMEOUT_SECS", "60"),
            "MEDIA_MCP_CALL_DEADLINE_MS",
        ),
    ];
    for (env, variable) in cases {
        let out = run_cli(&["tools"], &env);
        assert_eq!(out.status.code(), Some(2), "{variable}: {}", out.stderr);
        assert!(out.stderr.contains(variable), "{variable}: {}", out.stderr);
        assert_eq!(
            out.stderr.lines().count(),
            1,
            "printed once: {}",
            out.stderr
        );
        assert_no_secret(&out.stderr, &key, "stderr");
    }
}

#[test]
fn a_config_file_configures_the_upstream() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let dir = fresh_dir("config");
    let path = dir.join("media-mcp.toml");
    std::fs::write(
        &path,
        format!("OMBI_URL = \"{}\"\nOMBI_API_KEY = \"{key}\"\n", fake.url()),
    )
    .unwrap();
    let out = run_cli(&["tools", "--config", path.to_str().unwrap()], &Env::new());
    assert!(out.status.success(), "{}", out.stderr);
    assert!(out.stdout.contains("read_search"));
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "OMBI_URLL = \"x\"\n").unwrap();
    let out = run_cli(&["tools", "--config", bad.to_str().unwrap()], &Env::new());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.contains("OMBI_URLL"), "{}", out.stderr);
}

#[test]
fn a_missing_component_is_reported_with_the_way_to_build_it() {
    let out = run_cli(
        &["tools", "--component", "/nonexistent/media_mcp.wasm"],
        &Env::new(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.contains("/nonexistent/media_mcp.wasm"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_second_start_loads_the_compiled_component_from_the_cache() {
    let cache = fresh_dir("cache");
    let env = Env::new()
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let first = run_cli(&["tools"], &env);
    assert!(first.status.success(), "{}", first.stderr);
    assert!(
        first
            .stderr
            .contains("(compiled, and stored in the compiled-artifact cache in "),
        "{}",
        first.stderr
    );
    let second = run_cli(&["tools"], &env);
    assert!(
        second
            .stderr
            .contains("(from the compiled-artifact cache in "),
        "{}",
        second.stderr
    );
    let mut files: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        2,
        "one .cwasm, one listing, no leftovers: {files:?}"
    );
    // Names are content hashes, so their sorted order says nothing: count by suffix.
    let count = |suffix: &str| files.iter().filter(|f| f.ends_with(suffix)).count();
    assert!(
        count(".cwasm") == 1 && count(".tools.json") == 1,
        "{files:?}"
    );
    let no_cache = run_cli(&["tools", "--no-cache"], &env);
    assert!(
        no_cache
            .stderr
            .contains("(compiled (the compiled-artifact cache is off))"),
        "{}",
        no_cache.stderr
    );
}

/// Lists the tools once with a fresh cache, then again from the listing cache, and returns the
/// `tools` output of both runs and the cache directory's file names.
fn list_twice(env: &Env) -> (String, String, Vec<String>) {
    let cache = fresh_dir("listing");
    let env = env
        .clone()
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let first = run_cli(&["tools"], &env);
    assert!(first.status.success(), "{}", first.stderr);
    let second = run_cli(&["tools"], &env);
    assert!(second.status.success(), "{}", second.stderr);
    let files = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    (
        first.stdout,
        format!("{}\n{}", second.stdout, second.stderr),
        files,
    )
}

#[test]
fn the_second_start_reuses_the_listing_and_lists_the_same_tools() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let (first, second, files) = list_twice(&Env::ombi(&fake, KEY));
    assert!(second.contains("(listing cached)"), "{second}");
    assert!(
        second.starts_with(&first),
        "the cached listing differs:\n{first}\n---\n{second}"
    );
    assert!(first.contains("read_search"), "{first}");
    assert!(
        files.iter().any(|f| f.ends_with(".tools.json")),
        "{files:?}"
    );
    assert!(
        fake.requests().is_empty(),
        "listing sent requests: {:?}",
        fake.requests()
    );
    // Another configuration is another listing.
    let other = FakeOmbi::start(KEY).unwrap();
    let (_, listed, _) = list_twice(&Env::ombi(&other, KEY).set("OMBI_URL", ""));
    assert!(!listed.contains("read_search"), "{listed}");
}

#[test]
fn a_warm_serve_answers_from_the_listing_while_loading_and_its_first_call_works() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let cache = fresh_dir("warm-serve");
    let env = Env::ombi(&fake, KEY)
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let mut listed = Vec::new();
    for _ in 0..2 {
        let mut h = Harness::serve_initialized(&env, "2025-06-18");
        let tools = h.rpc("tools/list", serde_json::json!({}));
        listed.push(tools["result"]["tools"].clone());
        let call = h.call_tool(
            "read_search",
            serde_json::json!({"query": "matrix", "media": "movie"}),
        );
        assert_eq!(structured(&call)["ok"], true, "{call}");
        let out = h.finish();
        assert!(out.status.success(), "{}", out.stderr);
        listed.push(Value::String(out.stderr));
    }
    assert_eq!(listed[0], listed[2], "the cached listing differs");
    let second_log = listed[3].as_str().unwrap();
    assert!(second_log.contains("(listing cached)"), "{second_log}");
}

#[test]
fn a_cached_listing_is_never_served_for_other_component_bytes() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let cache = fresh_dir("listing-digest");
    let env = Env::ombi(&fake, KEY)
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let first = run_cli(&["tools"], &env);
    assert!(first.status.success(), "{}", first.stderr);
    let listing = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tools.json"))
        .expect("a cached listing");
    // The listing now claims other component bytes than the file holds: its first line is
    // the component's SHA-256 and the number of tools.
    let text = std::fs::read_to_string(&listing).unwrap();
    let (header, tools) = text.split_once('\n').unwrap();
    let count = header.split_once(' ').unwrap().1;
    let other = "ab".repeat(32);
    std::fs::write(&listing, format!("{other} {count}\n{tools}")).unwrap();

    let mut h = Harness::serve_initialized(&env, "2025-06-18");
    let call = h.call_tool(
        "read_search",
        serde_json::json!({"query": "matrix", "media": "movie"}),
    );
    assert_eq!(call["result"]["isError"], true, "{call}");
    let out = h.finish();
    assert!(
        out.stderr
            .contains("is not the one its cached listing was made from"),
        "{}",
        out.stderr
    );
    assert!(!listing.exists(), "the stale listing is removed");
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());
    // The next start lists the component afresh, and its call works.
    let mut h = Harness::serve_initialized(&env, "2025-06-18");
    let call = h.call_tool(
        "read_search",
        serde_json::json!({"query": "matrix", "media": "movie"}),
    );
    assert_eq!(structured(&call)["ok"], true, "{call}");
    let out = h.finish();
    assert!(out.stderr.contains("(listed and cached)"), "{}", out.stderr);
}

#[test]
fn a_warm_serve_lists_what_a_cold_one_lists_in_both_protocol_eras() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let cache = fresh_dir("listing-warm");
    let cold = Env::ombi(&fake, KEY);
    let warm = cold
        .clone()
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap());
    assert!(run_cli(&["tools"], &warm).status.success());
    let modern = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "0"},
    });
    for era in ["legacy", "modern"] {
        // Asked first thing, while a warm start may still be parsing its listing.
        let listed = |env: &Env| {
            let (mut h, params) = if era == "legacy" {
                let h = Harness::serve_initialized(env, "2025-06-18");
                (h, serde_json::json!({}))
            } else {
                let h = Harness::spawn(&["serve"], env);
                (h, serde_json::json!({"_meta": modern}))
            };
            let tools = h.rpc("tools/list", params);
            assert!(h.finish().status.success());
            tools["result"].clone()
        };
        let (cold, warm) = (listed(&cold), listed(&warm));
        assert_eq!(cold["tools"].as_array().map(Vec::len), Some(31), "{era}");
        assert_eq!(warm, cold, "{era}");
    }
}

#[test]
fn a_damaged_cached_listing_is_listed_afresh_by_a_warm_serve() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let cache = fresh_dir("listing-damaged");
    let env = Env::ombi(&fake, KEY)
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info");
    let first = run_cli(&["tools"], &env);
    assert!(first.status.success(), "{}", first.stderr);
    let listing = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tools.json"))
        .expect("a cached listing");
    // Its first line (the component's digest) still holds; the tools after it do not parse.
    let text = std::fs::read_to_string(&listing).unwrap();
    let header = text.split_once('\n').unwrap().0;
    std::fs::write(&listing, format!("{header}\n[{{\"name\": 1}}]")).unwrap();

    let mut h = Harness::serve_initialized(&env, "2025-06-18");
    let tools = h.rpc("tools/list", serde_json::json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"read_search"), "{tools}");
    let call = h.call_tool(
        "read_search",
        serde_json::json!({"query": "matrix", "media": "movie"}),
    );
    assert_eq!(structured(&call)["ok"], true, "{call}");
    let out = h.finish();
    assert!(
        out.stderr.contains("ignoring unusable listing cache file"),
        "{}",
        out.stderr
    );
    assert!(!listing.exists(), "the damaged listing is removed");
}

#[test]
fn a_listing_that_fetched_something_is_never_cached() {
    let mp = media_mcp_fakes::moviepilot::FakeMoviePilot::start();
    let env = Env::new()
        .set("MOVIEPILOT_URL", &mp.mcp_url())
        .set("MOVIEPILOT_API_KEY", mp.key());
    let (_, second, files) = list_twice(&env);
    assert!(!second.contains("(listing cached)"), "{second}");
    assert!(
        files.iter().all(|f| !f.ends_with(".tools.json")),
        "{files:?}"
    );
}

#[test]
fn demo_lists_tools_and_tours_without_showing_its_key() {
    let out = media_mcp_tests::run_demo(&[], &Env::new());
    assert!(out.status.success(), "{}", out.stderr);
    assert!(out.stdout.contains("read_search"), "{}", out.stdout);
    assert!(out.stdout.contains("> read_search"), "{}", out.stdout);
    for text in [&out.stdout, &out.stderr] {
        let leaked = text.match_indices("demo-").any(|(at, _)| {
            text[at + 5..]
                .chars()
                .take(32)
                .filter(char::is_ascii_hexdigit)
                .count()
                == 32
        });
        assert!(!leaked, "the demo key is printed:\n{text}");
    }
}

#[test]
fn serve_http_finds_the_http_component_beside_the_plugin_setting() {
    let plugin = media_mcp_tests::component_file();
    let env = Env::new().set("MEDIA_MCP_HTTP_AUTH", "off");
    for named in ["--component", "MEDIA_MCP_COMPONENT"] {
        let plugin_arg = plugin.display().to_string();
        let (args, env) = if named == "--component" {
            (
                vec![
                    "serve",
                    "--http",
                    "127.0.0.1:0",
                    "--component",
                    plugin_arg.as_str(),
                ],
                env.clone(),
            )
        } else {
            (
                vec!["serve", "--http", "127.0.0.1:0"],
                env.clone().set("MEDIA_MCP_COMPONENT", &plugin_arg),
            )
        };
        let h = Harness::spawn(&args, &env);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while !h.stderr().contains("serving MCP over HTTP") {
            assert!(
                std::time::Instant::now() < deadline,
                "{named}: did not start: {}",
                h.stderr()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(h.stderr().contains("media_mcp_http.wasm"), "{}", h.stderr());
        // Dropping the harness kills the server.
        drop(h);
    }
    let out = run_cli(
        &[
            "serve",
            "--http",
            "127.0.0.1:0",
            "--component",
            "/nonexistent/media_mcp.wasm",
        ],
        &Env::new().set("MEDIA_MCP_HTTP_AUTH", "off"),
    );
    assert_eq!(out.status.code(), Some(2));
    for looked in [
        "/nonexistent/media_mcp_http.wasm",
        "/nonexistent/media_mcp.wasm",
    ] {
        assert!(out.stderr.contains(looked), "{looked}: {}", out.stderr);
    }
}

/// The harness with `args` run as another user (uid and gid 4321) when the tests run as root,
/// who may write anywhere; otherwise as it is, with `dir` made read-only.
fn as_other_user(args: &[&str], env: &Env, dir: &std::path::Path) -> std::process::Command {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let mut command = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=4321", "--regid=4321", "--clear-groups", "--"]);
        c.arg(media_mcp_tests::harness_binary());
        c
    } else {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        std::process::Command::new(media_mcp_tests::harness_binary())
    };
    command.args(args);
    env.apply(&mut command);
    command
}

fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_precompiled_cache_is_read_by_any_user_without_writing_to_it() {
    use std::os::unix::fs::PermissionsExt as _;
    let cache = fresh_dir("baked").join("cache");
    let dir = cache.to_str().unwrap();
    let env = Env::new();
    let out = run_cli(&["precompile", "--cache-dir", dir], &env);
    assert!(out.status.success(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[0].contains("media_mcp.wasm: compiled, and stored in the compiled-artifact cache in")
    );
    assert!(
        lines[1].contains(
            "media_mcp_http.wasm: compiled, and stored in the compiled-artifact cache in"
        )
    );
    let again = run_cli(&["precompile", "--cache-dir", dir], &env);
    assert_eq!(
        again
            .stdout
            .matches("already in the compiled-artifact cache")
            .count(),
        2
    );
    let baked = names_in(&cache);
    assert_eq!(
        baked.iter().filter(|n| n.ends_with(".cwasm")).count(),
        2,
        "{baked:?}"
    );
    assert_eq!(
        std::fs::metadata(&cache).unwrap().permissions().mode() & 0o777,
        0o755
    );
    for name in &baked {
        let mode = std::fs::metadata(cache.join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644, "{name}");
    }
    let env = Env::new()
        .set("MEDIA_MCP_CACHE_DIR", dir)
        .set("MEDIA_MCP_LOG", "info")
        .set("OMBI_URL", "http://127.0.0.1:9")
        .set("OMBI_API_KEY", KEY);
    let out = as_other_user(&["tools"], &env, &cache)
        .output()
        .expect("running the harness");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("(from the compiled-artifact cache in {dir})")),
        "{stderr}"
    );
    // The listing cannot be stored: one warning, and the start goes on.
    assert_eq!(
        stderr.matches("cannot write the cache directory").count(),
        1,
        "{stderr}"
    );
    // serve --http loads its component from the baked cache and warns of nothing.
    let http = media_mcp_tests::target_dir().join("media_mcp_http.wasm");
    let env = env.set("MEDIA_MCP_COMPONENT", http.to_str().unwrap());
    let mut server = as_other_user(&["serve", "--http", "127.0.0.1:0"], &env, &cache)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running the harness");
    let mut lines = Vec::new();
    let stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    for line in std::io::BufRead::lines(stderr) {
        let line = line.unwrap();
        let serving = line.contains("serving MCP over HTTP on");
        lines.push(line);
        if serving {
            break;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let log = lines.join("\n");
    let loaded = lines
        .iter()
        .find(|l| l.starts_with("media-mcp info: HTTP component "))
        .unwrap_or_else(|| panic!("{log}"));
    assert!(
        loaded.contains(" ms from the compiled-artifact cache in ") && loaded.ends_with(dir),
        "{log}"
    );
    assert!(!log.contains("media-mcp warn"), "{log}");
    assert_eq!(names_in(&cache), baked);
}

#[test]
fn an_unwritable_cache_directory_compiles_in_memory_with_one_warning() {
    // A directory whose parent is a file cannot be created by anyone.
    let file = fresh_dir("unwritable").join("file");
    std::fs::write(&file, "").unwrap();
    let cache = file.join("cache");
    let env = Env::new()
        .set("MEDIA_MCP_CACHE_DIR", cache.to_str().unwrap())
        .set("MEDIA_MCP_LOG", "info")
        .set("OMBI_URL", "http://127.0.0.1:9")
        .set("OMBI_API_KEY", KEY);
    let out = run_cli(&["tools"], &env);
    assert!(out.status.success(), "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "(compiled in memory (the compiled-artifact cache in {} is not writable))",
            cache.display()
        )),
        "{}",
        out.stderr
    );
    assert_eq!(
        out.stderr
            .matches("cannot write the cache directory")
            .count(),
        1,
        "{}",
        out.stderr
    );
    // The listing could not be stored either, and the start line does not claim it was.
    assert!(
        out.stderr.contains("tool(s) (listed)") && !out.stderr.contains("listed and cached"),
        "{}",
        out.stderr
    );
    let precompile = run_cli(
        &["precompile", "--cache-dir", cache.to_str().unwrap()],
        &env,
    );
    assert_eq!(precompile.status.code(), Some(2));
    assert!(
        precompile
            .stderr
            .contains("cannot write the cache directory"),
        "{}",
        precompile.stderr
    );
}
