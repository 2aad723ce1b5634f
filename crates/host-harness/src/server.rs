//! The MCP side: an rmcp [`ServerHandler`] written by hand (no macros) over the [`Sandbox`].
//!
//! * both eras, through rmcp 3.11's own dual-era serving, over the versions of
//!   [`media_mcp_wire::version::SUPPORTED`] (the same set as over HTTP):
//!   - legacy `initialize`: only the `tools` capability, no `listChanged` (no change
//!     notification is sent; a client sees a changed catalogue on its next `tools/list`). rmcp's `negotiate_initialize` echoes a supported
//!     requested version that has `initialize`, and otherwise answers the `protocol_version`
//!     of [`ServerHandler::get_info`], the newest legacy version;
//!   - modern (2026-07-28) requests carry their version in `_meta`: rmcp validates it (-32602
//!     for missing fields, -32022 for a version not spoken here), answers `server/discover`
//!     ([`ServerHandler::discover`], with caching hints), adds `resultType` for modern peers
//!     only, and answers removed methods (`ping`) with -32601; `tools/list` carries the
//!     caching hints of [`media_mcp_wire::cache`] and results the server's identity in
//!     `_meta`; `subscriptions/listen` acknowledges an empty filter and ends at once (no
//!     change notifications are ever sent);
//! * `tools/list`: the component's `list-tools`, called at start-up ([`Catalogue`]) and again
//!   when a call to a listed tool comes back unknown (a MoviePilot tool removed upstream);
//! * resources (the MCP Apps views) and prompts, from the same shared crate as over HTTP
//!   ([`apps`]), the listed view-linked tools carrying `_meta.ui.resourceUri`;
//! * the sandbox sits in a [`SandboxSlot`]: a warm `serve` answers `initialize` and
//!   `tools/list` from the cached listing while the component still loads, and the first
//!   `tools/call` waits for it;
//! * `tools/call`: a fresh instance per call ([`call_tool`]) with a new correlation id and the
//!   principal from `_meta["media-mcp/principal"]`; WIT `unknown-tool` and names not in the
//!   catalogue are JSON-RPC -32602, except that in read-only mode (`MEDIA_MCP_READ_ONLY`) a
//!   name left out of the catalogue goes to the component, which refuses a tool that may write
//!   with a `FORBIDDEN` result naming the setting; sandbox failures become contract error
//!   envelopes;
//! * a call whose request carries `_meta.progressToken` sends `notifications/progress` every
//!   progress interval while it runs (elapsed seconds, no total; see [`crate::progress`]);
//! * a call whose request is cancelled ([`Cancellations`], fed by the transport) is stopped:
//!   its future, and with it the instance, its store and any upstream request in flight, is
//!   dropped at once (the guest yields to tokio every epoch tick, and host I/O is async).
//!   Cancelling a tool that may write is logged as an unknown outcome.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest,
    CustomResult, DiscoverResult, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    GetTaskParams, GetTaskResult, Implementation, InitializeRequestParams, InitializeResult,
    JsonObject, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    SubscriptionFilter, Tool, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use serde_json::Value;

use media_mcp_wire::tool::CallResult;
pub use media_mcp_wire::{PRINCIPAL_META_KEY, SERVER_NAME};
use media_mcp_wire::{cache, job, meta, version};

use crate::cancel::Cancellations;
use crate::envelope;
use crate::jobs::{JobSettings, Jobs};
use crate::progress;
use crate::sandbox::{Failure, FailureKind, Sandbox};
use crate::stdio::quote_bounded;

mod apps;
mod call;
mod catalogue;
mod jobs;

pub use call::call_tool;
use call::{Answer, answer, result, unknown_tool};

pub use catalogue::{Catalogue, CatalogueSlot};

/// The protocol versions we speak ([`version::SUPPORTED`], newest first), as rmcp's type.
pub static SUPPORTED_PROTOCOL_VERSIONS: std::sync::LazyLock<Vec<ProtocolVersion>> =
    std::sync::LazyLock::new(|| {
        version::SUPPORTED
            .iter()
            .map(|v| {
                serde_json::from_value(Value::String((*v).to_owned()))
                    .expect("a protocol version is a string")
            })
            .collect()
    });

/// Whether a request speaks a modern version (per-request `_meta`).
fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| version::is_modern_era(v.as_str()))
}

/// How a resource or prompt request is answered: modern ones with this server's identity.
fn answer_in(context: &RequestContext<RoleServer>) -> apps::Answer {
    if modern(context) {
        apps::Answer::Modern(server_info_meta())
    } else {
        apps::Answer::Legacy
    }
}

/// `_meta` naming this server, for modern results.
fn server_info_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.0.insert(
        meta::SERVER_INFO.to_owned(),
        serde_json::json!({"name": SERVER_NAME, "version": media_mcp_wire::SERVER_VERSION}),
    );
    meta
}

/// The sandbox as the server sees it: loaded, or still loading on a thread of its own. A warm
/// start answers `initialize` and `tools/list` from the listing cache while the component
/// loads; the first `tools/call` waits for it.
#[derive(Debug, Clone)]
pub struct SandboxSlot {
    loaded: tokio::sync::watch::Receiver<Option<Result<Arc<Sandbox>, Failure>>>,
}

impl SandboxSlot {
    /// A slot holding a loaded sandbox.
    pub fn ready(sandbox: Arc<Sandbox>) -> SandboxSlot {
        let (_sender, loaded) = tokio::sync::watch::channel(Some(Ok(sandbox)));
        SandboxSlot { loaded }
    }

    /// Runs `load` on a background thread (lower priority: it yields to the threads
    /// answering `initialize` and `tools/list`); calls wait for it. A failed load fails every
    /// call with the failure `load` returned.
    pub fn loading(
        load: impl FnOnce() -> Result<Sandbox, Failure> + Send + 'static,
        gate: &crate::background::Gate,
    ) -> SandboxSlot {
        let (sender, loaded) = tokio::sync::watch::channel(None);
        let spawned = crate::background::spawn("component-loader", gate, move || {
            let _ = sender.send(Some(load().map(Arc::new)));
        });
        if let Err(error) = spawned {
            crate::log_error!("cannot start the component's loading thread: {error}");
            let (sender, loaded) = tokio::sync::watch::channel(Some(Err(load_failure())));
            drop(sender);
            return SandboxSlot { loaded };
        }
        SandboxSlot { loaded }
    }

    /// The sandbox, once loaded.
    ///
    /// # Errors
    ///
    /// The load failed (or its thread died).
    pub async fn get(&self) -> Result<Arc<Sandbox>, Failure> {
        let mut loaded = self.loaded.clone();
        match loaded.wait_for(Option::is_some).await {
            Ok(value) => value.clone().unwrap_or_else(|| Err(load_failure())),
            Err(_closed) => Err(load_failure()),
        }
    }
}

/// What calls report when the component could not be loaded (the reason is logged).
pub fn load_failure() -> Failure {
    Failure {
        kind: FailureKind::Instantiate,
        message: "the plugin could not be started".to_owned(),
        requests_attempted: 0,
    }
}

/// The MCP server: the sandbox plus the catalogue listed at start-up, listed again when the
/// component answers that a listed tool is unknown (an upstream's tool set changed).
#[derive(Debug, Clone)]
pub struct McpServer {
    sandbox: SandboxSlot,
    catalogue: CatalogueSlot,
    read_only: bool,
    progress_interval: Duration,
    cancellations: Cancellations,
    /// Long calls as jobs; `None`: job mode is off.
    jobs: Option<Jobs>,
    offered: Arc<jobs::Offered>,
}

impl McpServer {
    /// A server over a loaded sandbox and its catalogue.
    pub fn new(sandbox: Arc<Sandbox>, catalogue: Arc<Catalogue>) -> Self {
        Self::with_slot(SandboxSlot::ready(sandbox), catalogue)
    }

    /// A server whose sandbox may still be loading.
    pub fn with_slot(sandbox: SandboxSlot, catalogue: Arc<Catalogue>) -> Self {
        Self::with_slots(sandbox, CatalogueSlot::ready(catalogue))
    }

    /// A server whose sandbox may still be loading and whose catalogue may still be read.
    pub fn with_slots(sandbox: SandboxSlot, catalogue: CatalogueSlot) -> Self {
        McpServer {
            sandbox,
            catalogue,
            read_only: false,
            progress_interval: Duration::from_millis(crate::config::DEFAULT_PROGRESS_INTERVAL_MS),
            cancellations: Cancellations::default(),
            jobs: None,
            offered: Arc::default(),
        }
    }

    /// Long calls as jobs, with these settings (off when they say so).
    pub fn jobs(mut self, settings: JobSettings) -> Self {
        self.jobs = settings.after.is_some().then(|| Jobs::new(settings));
        self
    }

    /// The job registry, when job mode is on (shutdown lets its calls finish).
    pub fn job_registry(&self) -> Option<Jobs> {
        self.jobs.clone()
    }

    /// How often a call whose request carries a progress token reports progress.
    pub fn progress_every(mut self, interval: Duration) -> Self {
        self.progress_interval = interval;
        self
    }

    /// The requests in flight: the transport records and cancels them, calls stop on it.
    pub fn cancellations(&self) -> Cancellations {
        self.cancellations.clone()
    }

    /// Where the transport finds the catalogue's tools as JSON text.
    pub fn listings(&self) -> Arc<dyn crate::stdio::ListingText> {
        self.catalogue.listings()
    }

    /// The catalogue as last listed (once the start-up listing is there), with the job tools
    /// when a tool can become a job.
    async fn catalogue(&self) -> Arc<Catalogue> {
        self.offered
            .of(self.catalogue.get().await, self.jobs.as_ref())
    }

    /// Lists the component's tools again after it answered that `gone`, which the catalogue
    /// holds, is unknown; a listing that fails keeps the catalogue as it was.
    async fn list_again(&self, sandbox: &Sandbox, gone: &str) {
        let listed = match sandbox.list_tools().await {
            Ok((specs, _)) => Catalogue::from_specs(specs),
            Err(failure) => Err(anyhow::anyhow!(failure.message)),
        };
        match listed {
            Ok(catalogue) => {
                crate::log_info!(
                    "tool {} is no longer offered; listed again: {} tool(s)",
                    quote_bounded(gone),
                    catalogue.tools().len()
                );
                self.catalogue.replace(catalogue);
            }
            Err(error) => {
                crate::log_warn!("listing the tools again failed, the list is kept: {error:#}");
            }
        }
    }

    /// In read-only mode, calls to names left out of the catalogue go to the component, which
    /// answers `FORBIDDEN` for a tool that may write and unknown-tool otherwise.
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self
    }
}

/// The `initialize` answer (before version negotiation): the shared capabilities ([`apps`]);
/// `tasks`: the Tasks extension is served as well (`server/discover` says so; a legacy
/// `initialize` never does).
pub fn server_config(tasks: bool) -> ServerConfig {
    let mut capabilities = apps::capabilities();
    if tasks {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(
                rmcp::model::TASKS_EXTENSION_ID.to_owned(),
                JsonObject::new(),
            );
    }
    let mut info = InitializeResult::new(capabilities);
    info.server_info = Implementation::new(SERVER_NAME, media_mcp_wire::SERVER_VERSION);
    // The fallback for a client asking `initialize` for a version we do not speak there.
    info.protocol_version = serde_json::from_value(Value::String(version::NEWEST_LEGACY.into()))
        .expect("a protocol version is a string");
    info
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        server_config(self.jobs.is_some())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut answer = self.negotiate_initialize(&request)?;
        // The Tasks extension is modern-era only; the MCP Apps extension is for both eras.
        if let Some(extensions) = answer.capabilities.extensions.as_mut() {
            extensions.remove(rmcp::model::TASKS_EXTENSION_ID);
        }
        Ok(answer)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(SUPPORTED_PROTOCOL_VERSIONS.as_slice())
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(
            SUPPORTED_PROTOCOL_VERSIONS.clone(),
            server_config(self.jobs.is_some()),
        )
        .with_ttl_ms(cache::TTL_MS)
        .with_cache_scope(scope(cache::DISCOVER_SCOPE)))
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // Listening is accepted, for nothing: no change notification is ever sent.
        Some(SubscriptionFilter::new())
    }

    async fn listen(&self, _subscription: SubscriptionContext) -> Result<(), ErrorData> {
        // Ends the subscription at once, gracefully (rmcp sends the final result).
        Ok(())
    }

    async fn ping(&self, _context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = if self.catalogue.answer_unparsed(&context.id) {
            Vec::new()
        } else {
            self.catalogue().await.tools().to_vec()
        };
        let mut listed = ListToolsResult::with_all_items(tools);
        if modern(&context) {
            listed.ttl_ms = Some(cache::TTL_MS);
            listed.cache_scope = Some(scope(cache::TOOLS_LIST_SCOPE));
            listed.meta = Some(server_info_meta());
        }
        Ok(listed)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        // rmcp asks this from synchronous code (its HTTP server's argument checks, which
        // `serve --http` does not use); the start-up listing is read before any call is served.
        self.offered
            .of(self.catalogue.now(), self.jobs.as_ref())
            .get(name)
            .cloned()
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        apps::list_resources(answer_in(&context))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        apps::list_resource_templates(answer_in(&context))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        apps::read_resource(&request.uri, answer_in(&context)).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        apps::list_prompts(answer_in(&context))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        apps::get_prompt(&request.name, request.arguments, answer_in(&context)).map(Into::into)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // rmcp's default answer quotes the whole method name, however long.
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {}", quote_bounded(&request.method)),
            None,
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let catalogue = self.catalogue().await;
        let listed = catalogue.get(&request.name).is_some();
        if !listed && !self.read_only {
            return Err(unknown_tool(&request.name));
        }
        let principal = principal(&context)?;
        let is_modern = modern(&context);
        let job_tool = self
            .jobs
            .as_ref()
            .filter(|_| listed && matches!(&*request.name, job::STATUS_TOOL | job::CANCEL_TOOL));
        let jobs = self
            .jobs
            .as_ref()
            .filter(|_| catalogue.can_become_job(&request.name));
        let tasks = is_modern
            && context
                .client_capabilities()
                .is_some_and(|caps| caps.supports_tasks());
        // A transport that does not apply cancellations itself leaves them to rmcp's signal.
        let cancel = self
            .cancellations
            .signal(&context.id)
            .unwrap_or_else(|| context.ct.clone());
        let write = catalogue.is_write(&request.name);
        let name = request.name.clone();
        let call = async {
            if let Some(jobs) = job_tool {
                let owner = principal.clone().unwrap_or_default();
                return jobs::job_tool(jobs, &owner, &name, request.arguments.as_ref())
                    .await
                    .map(CallToolResponse::from);
            }
            let sandbox = match self.sandbox.get().await {
                Ok(sandbox) => sandbox,
                Err(failure) => {
                    let id = uuid::Uuid::new_v4().to_string();
                    let value = envelope::failure_envelope(&name, &id, &failure, false);
                    return Ok(result(CallResult::from_envelope(value, true)).into());
                }
            };
            if let Some(jobs) = jobs {
                let call = jobs::JobCall {
                    sandbox,
                    write,
                    name: name.to_string(),
                    arguments: request.arguments,
                    principal,
                    listed,
                    tasks,
                };
                let server = self.clone();
                let relist: jobs::Relist = Box::new(move |sandbox, gone| {
                    Box::pin(async move { server.list_again(&sandbox, &gone).await })
                });
                return jobs::call_as_job(jobs, call, &cancel, relist).await;
            }
            match answer(
                &sandbox,
                write,
                &name,
                request.arguments,
                principal,
                &cancel,
            )
            .await?
            {
                Answer::Result(result) => Ok(result.into()),
                Answer::UnknownTool(unknown) => {
                    if listed {
                        self.list_again(&sandbox, &unknown).await;
                    }
                    Err(unknown_tool(&unknown))
                }
            }
        };
        let answer = match context.meta.get_progress_token() {
            None => call.await,
            Some(token) => {
                let peer = context.peer;
                progress::with_progress(call, self.progress_interval, |elapsed| {
                    let mut report = ProgressNotificationParam::new(
                        token.clone(),
                        progress::elapsed_seconds(elapsed),
                    );
                    report.message = Some(progress::message(&request.name, elapsed));
                    let peer = peer.clone();
                    async move {
                        if let Err(error) = peer.notify_progress(report).await {
                            crate::log_debug!("a progress notification was not sent: {error}");
                        }
                    }
                })
                .await
            }
        };
        let answer = answer?;
        let answer = if is_modern {
            jobs::with_meta(answer, server_info_meta())
        } else {
            answer
        };
        Ok(apps::with_result_meta(answer, &request.name, || {
            catalogue.get(media_mcp_apps::REQUEST_TOOL).is_some()
        }))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let owner = principal(&context)?.unwrap_or_default();
        let jobs = self.jobs.as_ref().ok_or_else(no_tasks)?;
        jobs::get_task(jobs, &owner, &request.task_id)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = principal(&context)?.unwrap_or_default();
        let jobs = self.jobs.as_ref().ok_or_else(no_tasks)?;
        jobs::ack_task(jobs, &owner, &request.task_id, true)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = principal(&context)?.unwrap_or_default();
        let jobs = self.jobs.as_ref().ok_or_else(no_tasks)?;
        jobs::ack_task(jobs, &owner, &request.task_id, false)
    }
}

/// The user a request acts as: `_meta["media-mcp/principal"]` (rmcp moves the request's
/// `_meta` into the context before the handler runs), `None` for the default user.
fn principal(context: &RequestContext<RoleServer>) -> Result<Option<String>, ErrorData> {
    match context.meta.0.get(PRINCIPAL_META_KEY) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(user)) if !user.trim().is_empty() => Ok(Some(user.clone())),
        Some(_) => Err(ErrorData::invalid_params(
            format!("_meta[\"{PRINCIPAL_META_KEY}\"] must be a non-empty string"),
            None,
        )),
    }
}

/// `tasks/*` when job mode is off (rmcp answers -32601 before this, as the extension is
/// then not declared).
fn no_tasks() -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        "tasks are not served: job mode is off (MEDIA_MCP_JOB_AFTER_MS=0)",
        None,
    )
}

/// rmcp's `cacheScope` for the wire crate's name of it.
fn scope(name: &str) -> CacheScope {
    if name == "public" {
        CacheScope::Public
    } else {
        CacheScope::Private
    }
}

#[cfg(test)]
mod tests;
