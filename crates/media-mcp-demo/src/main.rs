//! `media-mcp-demo`: the component against a fake Ombi on loopback (`media-mcp-fakes`, serving
//! the fixtures of `tests/fixtures/ombi/` with a random API key), so it runs with no
//! configuration. Without flags it lists the tools and takes a short tour of a few calls
//! ([`tour`]); `--serve` serves MCP on stdio against the same fake instead; `--seerr` uses the
//! fake Seerr (Seerr v3.1.0 as recorded, acting as its user alice) instead of the fake Ombi.
//! `./scripts/demo.sh` builds and runs it. The demo is its own program so that the
//! `host-harness` users install carries no fake upstream.

mod tour;

use std::ffi::OsString;
use std::process::ExitCode;

use anyhow::Context as _;
use host_harness::app::{EXIT_ERROR, EXIT_USAGE, Host, settings};
use host_harness::cli::{
    Common, CommonArgs, Parsed, UsageError, common_flags_help, parse_as, variables_help,
};
use host_harness::config::RawSettings;
use host_harness::present;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_fakes::seerr::FakeSeerr;

/// A parsed command line.
#[derive(Debug)]
enum Command {
    Help,
    Run {
        common: Common,
        serve: bool,
        seerr: bool,
    },
}

/// The demo's command line: the harness's shared flags and `--serve`.
#[derive(Debug, clap::Parser)]
#[command(name = "media-mcp-demo", disable_help_flag = true)]
struct Cli {
    #[command(flatten)]
    common: CommonArgs,
    /// serve MCP on stdio against the fake Ombi instead of the tour
    #[arg(long)]
    serve: bool,
    /// use a fake Seerr (v3.1.0 as recorded, acting as its user alice) instead of the fake Ombi
    #[arg(long)]
    seerr: bool,
    /// print this help text
    #[arg(short = 'h', long, action = clap::ArgAction::Help)]
    help: Option<bool>,
}

fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    match parse_as::<Cli>("media-mcp-demo", args)? {
        Parsed::Args(cli) => Ok(Command::Run {
            common: cli.common.into(),
            serve: cli.serve,
            seerr: cli.seerr,
        }),
        Parsed::Help | Parsed::Version => Ok(Command::Help),
    }
}

fn help() -> String {
    format!(
        "media-mcp-demo: runs the media-mcp component against a fake Ombi on 127.0.0.1 with a
random key: lists the tools and takes a short tour of a few calls.

USAGE:
    media-mcp-demo [FLAGS]            the tour
    media-mcp-demo --serve [FLAGS]    serve MCP on stdio against the fake Ombi instead
    media-mcp-demo --seerr [--serve]  the same against a fake Seerr (v3.1.0 as recorded)

FLAGS:
{}    -h, --help             print this help text

OMBI_URL and OMBI_API_KEY (with --seerr: SEERR_URL, SEERR_API_KEY and SEERR_USER) are set to
the fake's; MoviePilot is switched off.
{}",
        common_flags_help(),
        variables_help()
    )
}

fn main() -> ExitCode {
    host_harness::app::skip_error_backtraces();
    match parse(std::env::args_os().skip(1)) {
        Ok(Command::Help) => {
            print!("{}", help());
            ExitCode::SUCCESS
        }
        Ok(Command::Run {
            common,
            serve,
            seerr,
        }) => match run(&common, serve, seerr) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("media-mcp-demo: error: {error:#}");
                ExitCode::from(EXIT_ERROR)
            }
        },
        Err(usage) => {
            eprintln!("media-mcp-demo: {usage}");
            eprintln!("Try 'media-mcp-demo --help'.");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The demo's upstream: a fake Ombi with a random key, or the fake Seerr.
enum Fake {
    Ombi(FakeOmbi),
    Seerr(FakeSeerr),
}

impl Fake {
    fn name(&self) -> &'static str {
        match self {
            Fake::Ombi(_) => "Ombi",
            Fake::Seerr(_) => "Seerr",
        }
    }

    fn url(&self) -> String {
        match self {
            Fake::Ombi(f) => f.url(),
            Fake::Seerr(f) => f.url(),
        }
    }

    /// Requests received, and how many carried the key header.
    fn requests(&self) -> (usize, usize, &'static str) {
        match self {
            Fake::Ombi(f) => {
                let r = f.requests();
                (
                    r.len(),
                    r.iter().filter(|r| r.api_key.is_some()).count(),
                    "ApiKey",
                )
            }
            Fake::Seerr(f) => {
                let r = f.requests();
                (
                    r.len(),
                    r.iter().filter(|r| r.api_key.is_some()).count(),
                    "X-Api-Key",
                )
            }
        }
    }
}

/// The fake upstream, the component configured against it.
fn run(common: &Common, serve: bool, seerr: bool) -> anyhow::Result<()> {
    let mut env = RawSettings::from_env(std::env::vars());
    let key = format!("demo-{}", uuid::Uuid::new_v4().simple());
    let fake = if seerr {
        let fake = FakeSeerr::start_at(&key, "requests")
            .context("starting the demo Seerr on 127.0.0.1")?;
        env.set("SEERR_URL", fake.url());
        env.set("SEERR_API_KEY", key);
        env.set("SEERR_USER", "alice".to_owned());
        env.set("OMBI_URL", "");
        env.set("OMBI_API_KEY", "");
        Fake::Seerr(fake)
    } else {
        let fake = FakeOmbi::start(&key).context("starting the demo Ombi on 127.0.0.1")?;
        env.set("OMBI_URL", fake.url());
        env.set("OMBI_API_KEY", key);
        env.set("SEERR_URL", "");
        Fake::Ombi(fake)
    };
    // The demo talks to its own upstream only.
    env.set("MOVIEPILOT_URL", "");
    env.set("MOVIEPILOT_API_KEY", "");
    let settings = settings(common, env)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let host = Host::start(&settings).await?;
        if serve {
            host_harness::log_info!(
                "demo {} at {}; serving MCP on stdio",
                fake.name(),
                fake.url()
            );
            return host.serve_stdio().await;
        }
        println!(
            "media-mcp demo: the component runs against a fake {} at {} (random API key).",
            fake.name(),
            fake.url()
        );
        println!("\n{} tool(s):", host.tools().len());
        print!("{}", present::tool_list(host.tools()));
        print!("{}", tour::tour(&host).await);
        let (all, keyed, header) = fake.requests();
        let who = if settings.pass_key_to_guest {
            "sent by the component (--pass-key-to-guest)"
        } else {
            "added by the host; the component never saw the key"
        };
        println!(
            "\nThe fake {} received {all} request(s); {keyed} carried the {header} header, {who}.",
            fake.name()
        );
        Ok(())
    })
}

#[cfg(test)]
mod tests;
