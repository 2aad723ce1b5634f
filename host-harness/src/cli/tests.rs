use super::*;

fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
    parse(args.iter().map(OsString::from))
}

#[test]
fn serve_with_flags() {
    let Command::Serve(c) = parse_str(&[
        "serve",
        "--component",
        "/x.wasm",
        "--no-cache",
        "--config=/c.toml",
    ])
    .unwrap() else {
        panic!()
    };
    assert_eq!(c.overrides.component.unwrap(), PathBuf::from("/x.wasm"));
    assert!(c.overrides.no_cache);
    assert_eq!(c.config.unwrap(), PathBuf::from("/c.toml"));
}

#[test]
fn call_takes_name_json_and_principal() {
    let Command::Call {
        name,
        arguments,
        principal,
        ..
    } = parse_str(&[
        "call",
        "read_search",
        r#"{"query":"x"}"#,
        "--principal",
        "bob",
    ])
    .unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (name.as_str(), arguments.as_str(), principal.as_deref()),
        ("read_search", r#"{"query":"x"}"#, Some("bob"))
    );
    let Command::Call { arguments, .. } = parse_str(&["call", "t"]).unwrap() else {
        panic!()
    };
    assert_eq!(arguments, "{}");
}

#[test]
fn common_flags_are_split_from_the_callers_own() {
    let args = [
        "--serve",
        "--no-cache",
        "--x",
        "v",
        "--cache-dir=/c",
        "--",
        "--no-cache",
    ];
    let (common, rest) = split_common(args.iter().map(OsString::from), &["--x"]).unwrap();
    assert!(common.overrides.no_cache);
    assert_eq!(common.overrides.cache_dir.unwrap(), PathBuf::from("/c"));
    assert_eq!(rest, ["--serve", "--x", "v", "--", "--no-cache"]);
}

#[test]
fn a_principal_named_like_a_flag_is_a_value() {
    let Command::Call {
        principal, common, ..
    } = parse_str(&["call", "t", "--principal", "--no-cache"]).unwrap()
    else {
        panic!()
    };
    assert_eq!(principal.as_deref(), Some("--no-cache"));
    assert!(!common.overrides.no_cache);
}

#[test]
fn mistakes_are_usage_errors() {
    assert!(parse_str(&[]).is_err());
    assert!(parse_str(&["serve", "--bogus"]).is_err());
    assert!(parse_str(&["bogus"]).is_err());
    assert!(parse_str(&["serve", "--component"]).is_err());
    assert!(parse_str(&["tools", "extra"]).is_err());
    assert!(parse_str(&["serve", "--serve"]).is_err());
    assert!(parse_str(&["demo"]).is_err());
    assert!(parse_str(&["tools", "--principal", "bob"]).is_err());
    assert!(parse_str(&["call"]).is_err());
}

#[test]
fn help_documents_every_variable() {
    assert!(matches!(parse_str(&["--help"]).unwrap(), Command::Help));
    assert!(matches!(
        parse_str(&["serve", "-h"]).unwrap(),
        Command::Help
    ));
    let help = help();
    for v in VARIABLES {
        assert!(help.contains(v.name), "{}", v.name);
    }
    assert!(help.contains("MEDIA_MCP_*"));
}

#[test]
fn serve_http_takes_an_address_and_only_serve_takes_it() {
    let Command::ServeHttp { addr, .. } =
        parse_str(&["serve", "--http", "127.0.0.1:8080"]).unwrap()
    else {
        panic!("expected serve --http");
    };
    assert_eq!(addr.to_string(), "127.0.0.1:8080");
    assert!(parse_str(&["serve", "--http=[::1]:9000"]).is_ok());
    assert!(parse_str(&["serve", "--http", "localhost"]).is_err());
    assert!(parse_str(&["serve", "--http"]).is_err());
    assert!(parse_str(&["tools", "--http", "127.0.0.1:8080"]).is_err());
}
