//! Runs a parsed [`Command`]: builds [`Settings`], finds and loads the component, then serves
//! MCP, lists tools or makes one call. stdout gets only the command's output. [`Host`] and
//! [`settings`] are also what other programs built on the harness use (the demo, `crates/media-mcp-demo/`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use media_mcp_wire::upstreams::UPSTREAMS;
use media_mcp_wire::variables::{COMPONENT, OAUTH_ISSUER};
use serde_json::Value;

use crate::artifact_cache;
use crate::background::Gate;
use crate::cli::{Command, Common};
use crate::config::{RawSettings, Settings};
use crate::policy::{Policy, guest_env};
use crate::sandbox::{Gateway, LoadReport, Sandbox, SandboxOptions};
use crate::server::{Catalogue, CatalogueSlot, McpServer, SandboxSlot, call_tool, load_failure};
use crate::upstream_pool::UpstreamPool;
use crate::{logging, present};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, JsonObject, Tool};

/// Exit status when the called tool reported an error (`isError`).
pub(crate) const EXIT_TOOL_ERROR: u8 = 1;
/// Exit status of `health` when the server is not ready or cannot be reached.
pub(crate) const EXIT_NOT_READY: u8 = 1;
/// Exit status for configuration, load and protocol errors.
pub const EXIT_ERROR: u8 = 2;
/// Exit status for command-line mistakes.
pub const EXIT_USAGE: u8 = 2;

/// The component file name looked for next to the build (`target/media_mcp.wasm`).
pub(crate) const COMPONENT_FILE: &str = "media_mcp.wasm";

/// The HTTP component (`serve --http`) looked for next to the build.
pub const HTTP_COMPONENT_FILE: &str = "media_mcp_http.wasm";

/// Turns off backtrace capture for error values (`RUST_LIB_BACKTRACE=0`) unless the
/// environment chooses; panics still follow `RUST_BACKTRACE`. Errors are printed with `{:#}`,
/// which never shows a backtrace, while wasmtime builds an error each time a store is dropped
/// (it ends the store's idle worker fiber with a "future dropped" error), so with
/// `RUST_BACKTRACE=1` every call paid for walking its stack. Call it first in `main`, before
/// any thread exists.
pub fn skip_error_backtraces() {
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        // SAFETY: called at the start of `main`, while the process has one thread, so nothing
        // reads the environment concurrently.
        #[allow(unsafe_code, reason = "setting a variable while single-threaded")]
        unsafe {
            std::env::set_var("RUST_LIB_BACKTRACE", "0");
        }
    }
}

/// Runs `command`.
///
/// # Errors
///
/// Configuration, load or I/O errors, to be printed once by `main`.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Help => {
            print!("{}", crate::cli::help());
            Ok(ExitCode::SUCCESS)
        }
        Command::Completions(shell) => {
            print!("{}", crate::cli::completions(shell));
            Ok(ExitCode::SUCCESS)
        }
        Command::Health(url) => {
            let outcome = crate::health::check(url.as_deref());
            if outcome.ready {
                println!("{}", outcome.line);
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!("{}", outcome.line);
                Ok(ExitCode::from(EXIT_NOT_READY))
            }
        }
        Command::Precompile(common) => {
            let settings = settings(&common, RawSettings::from_env(std::env::vars()))?;
            precompile(&settings)
        }
        Command::Version => {
            println!("media-mcp {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(common) => {
            let settings = settings(&common, RawSettings::from_env(std::env::vars()))?;
            block_on(settings.stdio_workers(), async move {
                // Loading waits until the handshake is answered (see `background::Gate`).
                let gate = Gate::closed();
                let (sandbox, catalogue) = start_serving(&settings, &gate).await?;
                let server = McpServer::with_slots(sandbox, catalogue)
                    .read_only(settings.read_only)
                    .progress_every(settings.progress_interval)
                    .jobs(settings.jobs);
                let (cancellations, listings) = (server.cancellations(), server.listings());
                let jobs = server.job_registry();
                crate::stdio::serve_stdio(server, cancellations, listings, gate).await?;
                if let Some(jobs) = jobs {
                    crate::jobs::finish_running(&jobs, settings.call_timeout).await;
                }
                Ok(ExitCode::SUCCESS)
            })
        }
        Command::ServeHttp { common, addr } => {
            let settings = settings(&common, RawSettings::from_env(std::env::vars()))?;
            block_on(settings.workers(), serve_http(settings, addr))
        }
        Command::Tools(common) => {
            let settings = settings(&common, RawSettings::from_env(std::env::vars()))?;
            block_on(settings.workers(), async move {
                let host = Host::start(&settings).await?;
                println!("{} tool(s):", host.tools().len());
                print!("{}", present::tool_list(host.tools()));
                Ok(ExitCode::SUCCESS)
            })
        }
        Command::Call {
            common,
            name,
            arguments,
            principal,
        } => {
            let settings = settings(&common, RawSettings::from_env(std::env::vars()))?;
            let arguments = match serde_json::from_str::<Value>(&arguments) {
                Ok(Value::Object(map)) => map,
                _ => anyhow::bail!(
                    "the arguments must be a JSON object, like '{{\"query\":\"matrix\"}}'"
                ),
            };
            block_on(settings.workers(), async move {
                let host = Host::start(&settings).await?;
                let result = host
                    .call(&name, Some(arguments), principal)
                    .await
                    .map_err(|e| {
                        anyhow::anyhow!("{} (`media-mcp tools` lists the tools)", e.message)
                    })?;
                let shown = result
                    .structured_content
                    .clone()
                    .unwrap_or_else(|| serde_json::to_value(&result).unwrap_or_default());
                println!("{}", serde_json::to_string_pretty(&shown)?);
                Ok(if result.is_error == Some(true) {
                    ExitCode::from(EXIT_TOOL_ERROR)
                } else {
                    ExitCode::SUCCESS
                })
            })
        }
    }
}

/// Environment (and config file) → validated settings; also sets the log level.
///
/// # Errors
///
/// The config file cannot be read, or a setting is invalid.
pub fn settings(common: &Common, env: RawSettings) -> anyhow::Result<Settings> {
    let raw = match &common.config {
        Some(path) => env.over(RawSettings::from_file(path)?),
        None => env,
    };
    let settings = Settings::validate(&raw, &common.overrides)?;
    logging::set_level(settings.log_level);
    Ok(settings)
}

/// `--component`, else `MEDIA_MCP_COMPONENT`, else `<executable dir>/../media_mcp.wasm`.
fn component_path(settings: &Settings) -> anyhow::Result<PathBuf> {
    component_file(settings, COMPONENT_FILE)
}

/// `--component`, else `MEDIA_MCP_COMPONENT`, else `<executable dir>/../{file}`.
fn component_file(settings: &Settings, file: &str) -> anyhow::Result<PathBuf> {
    if let Some(path) = &settings.component {
        return Ok(path.clone());
    }
    let exe = std::env::current_exe().context("locating the executable")?;
    let beside_build = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join(file));
    match beside_build {
        Some(path) if path.is_file() => Ok(path),
        Some(path) => anyhow::bail!(
            "no component found: looked for {}; build it with scripts/build-component.sh, \
             or pass --component PATH / set {}",
            path.display(),
            COMPONENT.name
        ),
        None => anyhow::bail!(
            "no component found at <executable dir>/../{file}; build it with scripts/build-component.sh, \
             or pass --component PATH / set {}",
            COMPONENT.name
        ),
    }
}

/// The HTTP component `serve --http` runs. `--component` / `MEDIA_MCP_COMPONENT` may name it,
/// or name the plugin (the stdio setting), beside which it is built: a path whose file name is
/// [`HTTP_COMPONENT_FILE`] is taken as it is; otherwise [`HTTP_COMPONENT_FILE`] in the same
/// directory, when it exists; otherwise the named file itself (an HTTP component under
/// another name). Without a setting, `<executable dir>/../media_mcp_http.wasm`.
///
/// # Errors
///
/// Nothing exists where it looked; the message names each file.
pub fn http_component_path(settings: &Settings) -> anyhow::Result<PathBuf> {
    let Some(named) = &settings.component else {
        return component_file(settings, HTTP_COMPONENT_FILE);
    };
    if named.file_name() == Some(std::ffi::OsStr::new(HTTP_COMPONENT_FILE)) {
        anyhow::ensure!(
            named.is_file(),
            "no HTTP component found: looked for {} (--component / {}); \
             build it with scripts/build-component.sh",
            named.display(),
            COMPONENT.name
        );
        return Ok(named.clone());
    }
    let beside = named.with_file_name(HTTP_COMPONENT_FILE);
    if beside.is_file() {
        return Ok(beside);
    }
    anyhow::ensure!(
        named.is_file(),
        "no HTTP component found: looked for {} (beside --component / {}) \
         and {}; build them with scripts/build-component.sh",
        beside.display(),
        COMPONENT.name,
        named.display()
    );
    Ok(named.clone())
}

/// A loaded component with its tools listed: what `tools` and `call` work with, and what
/// programs embedding the harness call and serve.
#[derive(Debug, Clone)]
pub struct Host {
    sandbox: Arc<Sandbox>,
    catalogue: Arc<Catalogue>,
    read_only: bool,
    progress_interval: std::time::Duration,
}

impl Host {
    /// Loads the component `settings` name and lists its tools once.
    ///
    /// # Errors
    ///
    /// No component, a component that does not load, or a listing that fails.
    pub async fn start(settings: &Settings) -> anyhow::Result<Host> {
        let (sandbox, catalogue) = start(settings).await?;
        Ok(Host {
            sandbox,
            catalogue,
            read_only: settings.read_only,
            progress_interval: settings.progress_interval,
        })
    }

    /// The listed tools, in the component's order.
    pub fn tools(&self) -> &[Tool] {
        self.catalogue.tools()
    }

    /// Calls one tool, as `tools/call` does.
    ///
    /// # Errors
    ///
    /// JSON-RPC -32602 for an unknown tool; tool failures are results.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        principal: Option<String>,
    ) -> Result<CallToolResult, ErrorData> {
        let write = self.catalogue.is_write(name);
        let never = tokio_util::sync::CancellationToken::new();
        call_tool(&self.sandbox, write, name, arguments, principal, &never).await
    }

    /// Serves MCP on stdin/stdout until the client closes stdin.
    ///
    /// # Errors
    ///
    /// The transport fails.
    pub async fn serve_stdio(self) -> anyhow::Result<()> {
        let server = McpServer::new(self.sandbox, self.catalogue)
            .read_only(self.read_only)
            .progress_every(self.progress_interval);
        let (cancellations, listings) = (server.cancellations(), server.listings());
        crate::stdio::serve_stdio(server, cancellations, listings, Gate::opened()).await
    }
}

/// Loads the component and lists its tools once.
async fn start(settings: &Settings) -> anyhow::Result<(Arc<Sandbox>, Arc<Catalogue>)> {
    let path = component_path(settings)?;
    let options = sandbox_options(settings);
    let guest_env = options.guest_env.clone();
    let (sandbox, report) = Sandbox::load(&path, options)?;
    let (catalogue, listing) = list_tools(&sandbox, &report, &path, &guest_env, settings).await?;
    let keys_to_guest = settings.pass_key_to_guest;
    log_ready(
        &path,
        settings.cache_dir.as_deref(),
        &report,
        catalogue.tools().len(),
        listing,
        &sandbox,
        keys_to_guest,
    );
    Ok((Arc::new(sandbox), Arc::new(catalogue)))
}

/// [`start`] for `serve`. When this component file and environment have a cached listing, its
/// tools are parsed while `initialize` is answered, and the component is read, checked against
/// the digest the listing records and loaded, each on a background thread, so `tools/list` is
/// answered without waiting for the component (the first call waits); otherwise as [`start`].
async fn start_serving(
    settings: &Settings,
    gate: &Gate,
) -> anyhow::Result<(SandboxSlot, CatalogueSlot)> {
    let path = component_path(settings)?;
    let options = sandbox_options(settings);
    let cached = settings.cache_dir.clone().and_then(|dir| {
        let key =
            artifact_cache::listing_key(&artifact_cache::file_identity(&path)?, &options.guest_env);
        let listing = artifact_cache::load_listing(&dir, &key)?;
        Some((dir, key, listing))
    });
    let Some((dir, key, listing)) = cached else {
        let (sandbox, catalogue) = start(settings).await?;
        return Ok((SandboxSlot::ready(sandbox), CatalogueSlot::ready(catalogue)));
    };
    let tools = listing.count;
    let listed_from = listing.component;
    let keys_to_guest = settings.pass_key_to_guest;
    let cache_dir = settings.cache_dir.clone();
    let loader_dir = dir.clone();
    let loader_key = key.clone();
    let slot = SandboxSlot::loading(
        move || {
            let label = path.display().to_string();
            let wasm = match std::fs::read(&path) {
                Ok(wasm) => wasm,
                Err(error) => {
                    crate::log_error!("cannot read the component {label}: {error}");
                    return Err(load_failure());
                }
            };
            if !listed_from.matches(&wasm) {
                artifact_cache::remove_listing(&loader_dir, &loader_key);
                crate::log_error!(
                    "the component {label} is not the one its cached listing was made from; \
                 the listing is removed: start again to list this component"
                );
                return Err(load_failure());
            }
            match Sandbox::from_bytes_with_digest(&wasm, listed_from.0, &label, options) {
                Ok((sandbox, report)) => {
                    log_ready(
                        &path,
                        cache_dir.as_deref(),
                        &report,
                        tools,
                        "listing cached",
                        &sandbox,
                        keys_to_guest,
                    );
                    Ok(sandbox)
                }
                Err(error) => {
                    crate::log_error!("cannot load the component: {error:#}");
                    Err(load_failure())
                }
            }
        },
        gate,
    );
    let sandbox = slot.clone();
    // One copy of the listing's text, for the parsed catalogue and the early answers alike.
    let text: Option<Arc<str>> = listing.text().map(Arc::from);
    let unparsed = text.clone().filter(|text| listing.vouches_for(text));
    // Without text to answer `tools/list` from, its answer waits for the parse.
    let gate = if unparsed.is_some() {
        gate.clone()
    } else {
        Gate::opened()
    };
    let catalogue = CatalogueSlot::pending(
        async move {
            let (parsed, parsing) = tokio::sync::oneshot::channel();
            let spawned = crate::background::spawn("listing-parser", &gate, move || {
                let _ = parsed.send(listing.tools().and_then(|tools| match text {
                    Some(text) => Catalogue::from_listing(tools, text),
                    None => Catalogue::from_tools(tools),
                }));
            });
            if let Err(error) = spawned {
                crate::log_warn!(
                    "cannot start the listing's parsing thread: {error}; listing the component's tools"
                );
                return list_after_load(&sandbox).await;
            }
            match parsing.await {
                Ok(Ok(catalogue)) => return catalogue,
                Ok(Err(error)) => crate::log_warn!(
                    "ignoring unusable listing cache file {}: {error:#}; listing the component's tools",
                    dir.display()
                ),
                Err(_) => crate::log_warn!("reading the listing cache failed: its thread stopped"),
            }
            artifact_cache::remove_listing(&dir, &key);
            list_after_load(&sandbox).await
        },
        unparsed,
    );
    Ok((slot, catalogue))
}

/// The component's tools, listed once it has loaded (when its cached listing turned out
/// unusable); an empty catalogue when it cannot load or list, as calls then fail anyway.
async fn list_after_load(slot: &SandboxSlot) -> Catalogue {
    let Ok(sandbox) = slot.get().await else {
        return Catalogue::default();
    };
    match sandbox.list_tools().await {
        Ok((specs, _)) => Catalogue::from_specs(specs).unwrap_or_else(|error| {
            crate::log_error!("{error:#}");
            Catalogue::default()
        }),
        Err(failure) => {
            crate::log_error!("list-tools failed: {}", failure.message);
            Catalogue::default()
        }
    }
}

fn sandbox_options(settings: &Settings) -> SandboxOptions {
    SandboxOptions {
        guest_env: guest_env(settings),
        policy: Arc::new(Policy::from_settings(settings)),
        upstreams: Arc::new(UpstreamPool::from_settings(settings)),
        call_timeout: settings.call_timeout,
        memory_limit_bytes: settings.memory_limit_bytes,
        cache_dir: settings.cache_dir.clone(),
    }
}

/// The start-up log line.
fn log_ready(
    path: &Path,
    cache_dir: Option<&Path>,
    report: &LoadReport,
    tools: usize,
    listing: &str,
    sandbox: &Sandbox,
    keys_to_guest: bool,
) {
    crate::log_info!(
        "component {} ({} bytes) ready in {:.1} ms ({}); {tools} tool(s) ({listing}); outbound allowed to [{}]; keys {}",
        path.display(),
        report.wasm_bytes,
        report.elapsed.as_secs_f64() * 1000.0,
        report.provenance.describe(cache_dir),
        sandbox.policy().allowed_origins().join(", "),
        if keys_to_guest {
            "passed to the component"
        } else {
            "injected by the host"
        },
    );
}

/// The component's tools: from the listing cache when this component file and environment were
/// listed before without any outgoing request (and the listing was made from these bytes),
/// otherwise from `list-tools` (then cached if it attempted no request). Returns the catalogue
/// and where it came from, for the start-up log.
async fn list_tools(
    sandbox: &Sandbox,
    report: &LoadReport,
    path: &Path,
    guest_env: &[(String, String)],
    settings: &Settings,
) -> anyhow::Result<(Catalogue, &'static str)> {
    let cache = settings.cache_dir.as_deref().and_then(|dir| {
        let identity = artifact_cache::file_identity(path)?;
        Some((dir, artifact_cache::listing_key(&identity, guest_env)))
    });
    if let Some((dir, key)) = &cache
        && let Some(listing) = artifact_cache::load_listing(dir, key)
        && listing.component.0 == report.component_digest
    {
        match listing.tools().and_then(Catalogue::from_tools) {
            Ok(catalogue) => return Ok((catalogue, "listing cached")),
            Err(error) => crate::log_warn!(
                "ignoring unusable listing cache file in {}: {error:#}",
                dir.display()
            ),
        }
    }
    let (specs, attempted) = sandbox
        .list_tools()
        .await
        .map_err(|f| anyhow::anyhow!("list-tools failed: {}", f.message))?;
    let catalogue = Catalogue::from_specs(specs)?;
    match cache {
        Some((dir, key)) if attempted == 0 => {
            match artifact_cache::store_listing(
                dir,
                &key,
                &report.component_digest,
                catalogue.tools(),
            ) {
                Ok(()) => Ok((catalogue, "listed and cached")),
                Err(error) => {
                    artifact_cache::warn_unwritable(dir, &error);
                    Ok((catalogue, "listed"))
                }
            }
        }
        // A listing that fetched something (MoviePilot discovery) is never reused.
        _ => Ok((catalogue, "listed")),
    }
}

/// `precompile`: both components compiled into the cache directory, one line each on stdout.
fn precompile(settings: &Settings) -> anyhow::Result<ExitCode> {
    use crate::sandbox::Compiled;
    let dir = settings.cache_dir.as_deref().with_context(|| {
        format!(
            "precompile needs a cache directory: --cache-dir or {} (and no --no-cache)",
            media_mcp_wire::variables::CACHE_DIR.name
        )
    })?;
    for (path, kind) in [
        (component_path(settings)?, Compiled::Plugin),
        (http_component_path(settings)?, Compiled::Gateway),
    ] {
        let started = std::time::Instant::now();
        let provenance = crate::sandbox::precompile(&path, kind, dir)?;
        println!(
            "{}: {} ({:.1} ms)",
            path.display(),
            if provenance == artifact_cache::Provenance::Cached {
                format!(
                    "already in the compiled-artifact cache in {}",
                    dir.display()
                )
            } else {
                provenance.describe(Some(dir))
            },
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `future` to completion on a new multi-threaded tokio runtime with `workers` worker
/// threads (0: one per CPU core).
///
/// # Errors
///
/// The runtime cannot be built, or `future` fails.
fn block_on<T>(
    workers: usize,
    future: impl Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if workers > 0 {
        builder.worker_threads(workers);
    }
    builder.enable_all().build()?.block_on(future)
}

/// The identity provider's origins the HTTP component fetches from in OAuth mode (the
/// issuer's, and those of a configured key set or introspection endpoint), allowed for outbound requests without any key;
/// empty in the other modes.
///
/// # Errors
///
/// One of them is also an upstream's origin: the upstream's key would be injected into the
/// component's requests to the identity provider.
fn oauth_origins(
    settings: &Settings,
    transport: &media_mcp_transport::Settings,
) -> Result<Vec<url::Url>, String> {
    let media_mcp_transport::auth::AuthMode::OAuth(oauth) = &transport.auth else {
        return Ok(Vec::new());
    };
    let upstreams: Vec<_> = settings
        .upstreams()
        .filter_map(|u| crate::policy::Origin::of_url(&u.url))
        .collect();
    let mut origins = Vec::new();
    for origin in oauth.fetch_origins() {
        let url =
            url::Url::parse(&origin).map_err(|e| format!("the OAuth origin {origin}: {e}"))?;
        if crate::policy::Origin::of_url(&url).is_some_and(|o| upstreams.contains(&o)) {
            return Err(format!(
                "{} / _JWKS_URI / _INTROSPECTION_URI: {origin} is also an upstream's origin \
                 ({}); serve the identity provider on its own origin, so no API key can be \
                 sent to it",
                OAUTH_ISSUER.name,
                UPSTREAMS
                    .iter()
                    .map(|u| u.url.name)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ));
        }
        origins.push(url);
    }
    Ok(origins)
}

/// `serve --http ADDR`: loads the HTTP component and serves it until SIGINT/SIGTERM.
async fn serve_http(settings: Settings, addr: std::net::SocketAddr) -> anyhow::Result<ExitCode> {
    let path = http_component_path(&settings)?;
    let mut options = sandbox_options(&settings);
    // The transport's settings, as the component will read them: checked once here (a bad
    // token table stops the start, naming the variable) and applied to every request's headers
    // before it costs a slot.
    let guest_var = |name: &str| {
        options
            .guest_env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let admission = media_mcp_transport::Settings::from_lookup(guest_var)
        .map_err(|e| anyhow::anyhow!("configuration: {e}"))?;
    let oauth_origins =
        oauth_origins(&settings, &admission).map_err(|e| anyhow::anyhow!("configuration: {e}"))?;
    let policy = Policy::from_settings(&settings).allowing(&oauth_origins);
    let allowed = policy.allowed_origins().join(", ");
    options.policy = Arc::new(policy);
    options.upstreams = Arc::new(
        UpstreamPool::from_settings(&settings).allowing(&oauth_origins, settings.upstream_max_idle),
    );
    let call_timeout = options.call_timeout;
    let cache_dir = options.cache_dir.clone();
    let (gateway, report) =
        tokio::task::spawn_blocking(move || Gateway::load(&path, options).map(|g| (g, path)))
            .await?
            .map(|((gateway, report), path)| {
                crate::log_info!(
                    "HTTP component {} ({} bytes) loaded in {:.1} ms {}",
                    path.display(),
                    report.wasm_bytes,
                    report.elapsed.as_secs_f64() * 1000.0,
                    report.provenance.describe(cache_dir.as_deref())
                );
                (gateway, report)
            })?;
    let _ = report;
    let listener = crate::http_serve::bind(addr).await?;
    crate::log_info!(
        "serving MCP over HTTP on http://{}/ (keys {}; origins allowed: {})",
        listener.local_addr()?,
        if settings.pass_key_to_guest {
            "passed to the guest"
        } else {
            "injected by the host"
        },
        allowed
    );
    let door = settings.http_front_door;
    let options = crate::http_serve::HttpOptions {
        max_in_flight: settings.http_max_in_flight,
        queue_timeout: call_timeout,
        shutdown_grace: call_timeout,
        progress_interval: settings.progress_interval,
        max_connections: door.max_connections,
        upstream_idle: settings.upstream_max_idle * 2,
        header_timeout: door.header_timeout,
        idle_timeout: door.idle_timeout,
        body_timeout: door.body_timeout,
    };
    let jobs = settings
        .jobs
        .after
        .is_some()
        .then(|| crate::jobs::Jobs::new(settings.jobs));
    crate::http_serve::serve(
        Arc::new(gateway),
        admission,
        jobs,
        listener,
        options,
        crate::http_serve::shutdown_signal()?,
    )
    .await?;
    crate::log_info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// The whole program: parse the command line, run it, turn the outcome into an exit status.
/// Errors are printed once, here, to stderr; stdout stays reserved for the command's output
/// (for `serve`, the MCP protocol).
pub fn main() -> ExitCode {
    skip_error_backtraces();
    let command = match crate::cli::parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!("{}: {usage}", crate::cli::BIN);
            eprintln!("Try '{} --help'.", crate::cli::BIN);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match run(command) {
        Ok(code) => code,
        Err(error) => {
            // `{:#}` prints the whole context chain on one line.
            eprintln!("{}: error: {error:#}", crate::cli::BIN);
            ExitCode::from(EXIT_ERROR)
        }
    }
}
