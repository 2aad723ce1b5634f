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
fn common_flags_go_before_or_after_the_subcommand_and_stop_at_double_dash() {
    let Command::Call {
        common, arguments, ..
    } = parse_str(&[
        "--no-cache",
        "call",
        "t",
        "--cache-dir=/c",
        "--",
        "--pass-key-to-guest",
    ])
    .unwrap()
    else {
        panic!()
    };
    assert!(common.overrides.no_cache);
    assert_eq!(common.overrides.cache_dir.unwrap(), PathBuf::from("/c"));
    assert_eq!(arguments, "--pass-key-to-guest");
    assert!(!common.overrides.pass_key_to_guest);
}

#[test]
fn call_arguments_may_start_with_a_hyphen() {
    for json in ["-", "-{"] {
        let Command::Call { arguments, .. } = parse_str(&["call", "t", json]).unwrap() else {
            panic!()
        };
        assert_eq!(arguments, json);
    }
    // A flag after the name is still a flag, not the arguments.
    let Command::Call {
        arguments,
        principal,
        ..
    } = parse_str(&["call", "t", "--principal", "bob"]).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (arguments.as_str(), principal.as_deref()),
        ("{}", Some("bob"))
    );
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
    assert!(parse_str(&["call", "t", "{}", "extra"]).is_err());
    assert!(parse_str(&["completions"]).is_err());
    assert!(parse_str(&["completions", "powershell"]).is_err());
    let e = parse_str(&["serve", "--bogus"]).unwrap_err();
    assert!(e.0.contains("--bogus"), "{e}");
    assert!(
        !e.0.starts_with("error:") && !e.0.contains("For more information"),
        "{e}"
    );
}

#[test]
fn help_documents_every_variable() {
    assert!(matches!(parse_str(&["--help"]).unwrap(), Command::Help));
    assert!(matches!(
        parse_str(&["serve", "-h"]).unwrap(),
        Command::Help
    ));
    for args in [&["help"][..], &["call", "t", "--help"], &["help", "serve"]] {
        assert!(
            matches!(parse_str(args).unwrap(), Command::Help),
            "{args:?}"
        );
    }
    // A tool may be called `help`.
    assert!(matches!(
        parse_str(&["call", "help"]).unwrap(),
        Command::Call { name, .. } if name == "help"
    ));
    for args in [&["-V"][..], &["--version"], &["tools", "-V"]] {
        assert!(
            matches!(parse_str(args).unwrap(), Command::Version),
            "{args:?}"
        );
    }
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

#[test]
fn help_names_every_subcommand_and_flag_of_the_parser() {
    let help = help();
    let cli = Cli::command();
    let subcommands = cli.get_subcommands().collect::<Vec<_>>();
    assert!(subcommands.len() >= 4, "{subcommands:?}");
    for sub in std::iter::once(&cli).chain(subcommands) {
        if sub.get_name() != "media-mcp" {
            assert!(
                help.contains(&format!("media-mcp {}", sub.get_name())),
                "{}",
                sub.get_name()
            );
        }
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                assert!(help.contains(&format!("--{long}")), "--{long}");
            }
        }
    }
    assert!(help.contains("(call) the Ombi user to act as"), "{help}");
    assert!(
        help.contains("(serve) MCP Streamable HTTP on ADDR"),
        "{help}"
    );
    assert!(help.contains("EXIT STATUS: 0 success; 1"), "{help}");
}

#[test]
fn long_descriptions_wrap_under_their_column() {
    let flags = common_flags_help();
    let lines = flags.lines().collect::<Vec<_>>();
    let at = lines
        .iter()
        .position(|l| l.starts_with("    --config PATH"))
        .unwrap();
    assert!(lines[at].ends_with("whose keys"), "{flags}");
    let next = format!("{}are the variable names", " ".repeat(FLAG_COLUMN));
    assert!(lines[at + 1].starts_with(&next), "{flags}");
    let variables = variables_help();
    for line in flags.lines().chain(variables.lines()) {
        assert!(line.len() <= HELP_WIDTH, "{line}");
    }
    // A name too long for the column stands on its own line.
    let long = entry(&"X".repeat(40), "text", VARIABLE_COLUMN);
    assert_eq!(
        long,
        format!(
            "    {}\n{}text\n",
            "X".repeat(40),
            " ".repeat(VARIABLE_COLUMN)
        )
    );
}

/// Every `OMBI_*`, `MOVIEPILOT_*` and `MEDIA_MCP_*` setting the configuration reference
/// (`docs/reference/configuration.md`) and the README name is in `--help`.
#[test]
fn help_documents_every_setting_in_the_docs() {
    let help = help();
    let mut checked = 0;
    for doc in ["docs/reference/configuration.md", "README.md"] {
        let path = format!("{}/../../{doc}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect(doc);
        for (at, _) in text.match_indices(['O', 'M']) {
            let rest = &text[at..];
            if !["OMBI_", "MOVIEPILOT_", "MEDIA_MCP_"]
                .iter()
                .any(|p| rest.starts_with(p))
                || text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                continue;
            }
            let len = rest
                .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..len];
            // `MEDIA_MCP_HTTP_*` names a family, not a setting.
            if name.ends_with('_') && rest[len..].starts_with('*') {
                continue;
            }
            assert!(
                help.contains(name),
                "{doc} documents {name}, --help does not"
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn zsh_completes_the_value_of_every_variable_of_the_table() {
    let script = completions(Shell::Zsh);
    let header = script.lines().next().unwrap();
    let sourced = script
        .lines()
        .find(|l| l.trim_start().starts_with("compdef _media-mcp media-mcp"))
        .unwrap();
    for v in VARIABLES {
        let context = format!(" -value-,{},-default-", v.name);
        assert!(header.contains(&context), "autoloaded: {}", v.name);
        assert!(sourced.contains(&context), "sourced: {}", v.name);
        let arm = script
            .lines()
            .find(|l| {
                l.trim_start()
                    .starts_with(&format!("(-value-,{},*) ", v.name))
            })
            .unwrap_or_else(|| panic!("no case arm for {}", v.name));
        match v.kind {
            Kind::Choice(words) => assert!(arm.ends_with(&format!("{} ;;", words.join(" ")))),
            Kind::Switch => assert!(arm.contains("compadd -- 1 0 "), "{arm}"),
            Kind::Path => assert!(arm.contains("_files"), "{arm}"),
            _ => assert!(arm.contains(&v.described().replace('\'', "'\\''")), "{arm}"),
        }
    }
    let answers_first = "_media-mcp() {\n    if [[ $service == -value-,* ]]; then";
    assert!(script.contains(answers_first));
}

#[test]
fn completions_cover_the_subcommands_in_each_shell() {
    for shell in Shell::value_variants() {
        let script = completions(*shell);
        // fish writes flags as `-l principal`.
        for word in [
            "serve",
            "tools",
            "call",
            "completions",
            "principal",
            "http",
            "config",
        ] {
            assert!(script.contains(word), "{shell:?} lacks {word}");
        }
    }
    assert!(completions(Shell::Bash).contains("complete -F"));
    assert!(completions(Shell::Zsh).starts_with("#compdef media-mcp"));
    assert!(completions(Shell::Fish).contains("complete -c media-mcp"));
}
