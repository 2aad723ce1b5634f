use super::*;

fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
    parse(args.iter().map(OsString::from))
}

#[test]
fn serve_and_common_flags() {
    let Command::Run {
        common,
        serve,
        seerr,
    } = parse_str(&["--serve", "--no-cache"]).unwrap()
    else {
        panic!()
    };
    assert!(serve && common.overrides.no_cache && !seerr);
    let Command::Run { serve, seerr, .. } = parse_str(&["--seerr"]).unwrap() else {
        panic!()
    };
    assert!(!serve && seerr);
    assert!(matches!(parse_str(&["--help"]).unwrap(), Command::Help));
}

#[test]
fn mistakes_are_usage_errors() {
    assert!(parse_str(&["serve"]).is_err());
    assert!(parse_str(&["--principal", "bob"]).is_err());
    assert!(parse_str(&["--component"]).is_err());
}

#[test]
fn help_names_the_common_flags_and_variables() {
    let help = help();
    assert!(help.contains("--pass-key-to-guest"), "{help}");
    assert!(help.contains("OMBI_USER"), "{help}");
}
