//! Validated settings: raw values checked once, each by its table entry, into [`Settings`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use media_mcp_wire::plugin_settings;
use media_mcp_wire::upstreams::{REQUEST_SERVERS, UPSTREAMS, Upstream as WireUpstream};

use super::deadline::host_call_timeout;
use super::front_door::FrontDoor;
use super::raw::{ConfigError, RawSettings};
use super::table::{self, Kind, passes_through};
use super::upstream::{EMPTY_USER_MESSAGE, Upstream, checked_user_name, upstream};
use crate::limits::first_byte_cap;

/// Command-line flags that override variables.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--component PATH`.
    pub component: Option<PathBuf>,
    /// `--cache-dir PATH`.
    pub cache_dir: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--pass-key-to-guest`.
    pub pass_key_to_guest: bool,
}

/// Validated settings, ready to build the sandbox and the policy.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The upstreams whose URL is set, in the order of `media_mcp_wire::upstreams::UPSTREAMS`.
    upstreams: Vec<Upstream>,
    /// The user to act as by default, per upstream that has one (`OMBI_USER`), checked.
    users: Vec<(&'static WireUpstream, String)>,
    /// Give the keys to the guest instead of injecting them.
    pub pass_key_to_guest: bool,
    /// `MEDIA_MCP_READ_ONLY` (applied by the component; the server routes refusals to it).
    pub read_only: bool,
    /// The variables the component gets unchanged, sorted by name.
    pub(crate) passthrough: Vec<(String, String)>,
    /// Explicit component path (`--component` or `MEDIA_MCP_COMPONENT`).
    pub component: Option<PathBuf>,
    /// Compiled-artifact cache directory; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// Wall-clock limit of one call.
    pub(crate) call_timeout: Duration,
    /// Linear-memory limit of one call, in bytes.
    pub(crate) memory_limit_bytes: usize,
    /// `serve --http`: requests handled at once.
    pub(crate) http_max_in_flight: usize,
    /// `serve --http`: connection limits and timeouts.
    pub(crate) http_front_door: FrontDoor,
    /// How often a call whose request carries a progress token reports progress.
    pub(crate) progress_interval: Duration,
    /// Long calls as jobs (`serve` and `serve --http`).
    pub(crate) jobs: crate::jobs::JobSettings,
    /// Idle connections kept per upstream origin (0: no reuse).
    pub(crate) upstream_max_idle: usize,
    /// Worker threads of the runtime when set (0: one per CPU core); unset, each command's own.
    pub(crate) worker_threads: Option<usize>,
    /// stderr log level.
    pub(crate) log_level: crate::logging::Level,
}

impl Settings {
    /// The configured upstreams, in the order of `media_mcp_wire::upstreams::UPSTREAMS`, each
    /// with its entry there.
    pub fn upstreams(&self) -> impl Iterator<Item = &Upstream> {
        self.upstreams.iter()
    }

    /// `spec`'s upstream, when its URL is set.
    pub fn upstream(&self, spec: &WireUpstream) -> Option<&Upstream> {
        self.upstreams.iter().find(|u| u.spec == spec)
    }

    /// The user `spec`'s calls act as by default, when set.
    pub(crate) fn user(&self, spec: &WireUpstream) -> Option<&str> {
        let (_, user) = self.users.iter().find(|(s, _)| *s == spec)?;
        Some(user)
    }

    /// The runtime's worker threads for `serve --http`, `tools` and `call` (0: one per CPU
    /// core): the setting, else one per core.
    pub(crate) fn workers(&self) -> usize {
        self.worker_threads.unwrap_or(0)
    }

    /// The runtime's worker threads for `serve` over stdio: the setting, else the table's
    /// default (one).
    pub(crate) fn stdio_workers(&self) -> usize {
        let Kind::Number { default, .. } = table::WORKER_THREADS.kind else {
            unreachable!("the worker threads are a number in the table")
        };
        self.worker_threads
            .unwrap_or_else(|| usize::try_from(default).unwrap_or(1))
    }

    /// Validates raw values plus command-line overrides; secrets given as files
    /// (`NAME_FILE`) are read first.
    ///
    /// # Errors
    ///
    /// The first invalid variable, by name.
    pub fn validate(raw: &RawSettings, flags: &Overrides) -> Result<Settings, ConfigError> {
        let raw = &raw.clone().with_secret_files(|path| std::fs::read(path))?;
        let mut upstreams = Vec::new();
        for spec in UPSTREAMS {
            upstreams.extend(upstream(raw, spec)?);
        }
        one_request_server(&upstreams)?;
        let mut users = Vec::new();
        for spec in UPSTREAMS {
            if let Some(variable) = spec.user {
                users.extend(user(raw, variable.name)?.map(|u| (spec, u)));
            }
        }
        plugin_variables(raw)?;
        let read_only = raw.switch(&table::READ_ONLY)?;
        let pass_key_to_guest = flags.pass_key_to_guest || raw.switch(&table::PASS_KEY_TO_GUEST)?;
        let long: Vec<_> = upstreams
            .iter()
            .filter_map(|u| u.spec.tool_deadlines)
            .collect();
        let (call_timeout, longest_deadline_ms) = host_call_timeout(raw, &long)?;
        // Such an upstream may take as long as the longest deadline the component gives a call.
        for u in upstreams
            .iter_mut()
            .filter(|u| u.spec.tool_deadlines.is_some())
        {
            u.first_byte_cap = Some(first_byte_cap(longest_deadline_ms, call_timeout.as_secs()));
        }
        let memory_mib = raw.number(&table::MEMORY_LIMIT_MIB)?;
        let log_var = table::LOG.name;
        let log_level = match raw.get(log_var) {
            None => crate::logging::Level::Info,
            Some(v) => crate::logging::Level::parse(v).map_err(|m| ConfigError::new(log_var, m))?,
        };
        let component = flags
            .component
            .clone()
            .or_else(|| raw.get(table::COMPONENT.name).map(PathBuf::from));
        let cache_dir = if flags.no_cache {
            None
        } else {
            flags
                .cache_dir
                .clone()
                .or_else(|| raw.get(table::CACHE_DIR.name).map(PathBuf::from))
                .or_else(|| {
                    raw.get("XDG_CACHE_HOME")
                        .map(|d| Path::new(d).join("media-mcp"))
                })
                .or_else(|| {
                    raw.get("HOME")
                        .map(|h| Path::new(h).join(".cache").join("media-mcp"))
                })
        };
        let passthrough = raw
            .values()
            .filter(|(name, _)| passes_through(name))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Ok(Settings {
            upstreams,
            users,
            pass_key_to_guest,
            read_only,
            passthrough,
            component,
            cache_dir,
            call_timeout,
            memory_limit_bytes: count(memory_mib << 20),
            http_max_in_flight: count(raw.number(&table::HTTP_MAX_IN_FLIGHT)?),
            http_front_door: FrontDoor::read(raw)?,
            progress_interval: Duration::from_millis(raw.number(&table::PROGRESS_INTERVAL_MS)?),
            jobs: crate::jobs::JobSettings {
                after: match raw.number(&table::JOB_AFTER_MS)? {
                    0 => None,
                    ms => Some(Duration::from_millis(ms)),
                },
                keep: Duration::from_secs(raw.number(&table::JOB_KEEP_SECS)?),
                max_per_user: count(raw.number(&table::JOB_MAX_PER_USER)?),
                max: count(raw.number(&table::JOB_MAX)?),
            },
            upstream_max_idle: count(raw.number(&table::UPSTREAM_MAX_IDLE)?),
            worker_threads: raw
                .get(table::WORKER_THREADS.name)
                .map(|_| raw.number(&table::WORKER_THREADS))
                .transpose()?
                .map(count),
            log_level,
        })
    }
}

/// Reads and checks the user to act as from `variable`.
///
/// # Errors
///
/// Set but empty, or a name the component would refuse.
fn user(raw: &RawSettings, variable: &'static str) -> Result<Option<String>, ConfigError> {
    match raw.get(variable) {
        None if raw.is_given_empty(variable) => Err(ConfigError::new(variable, EMPTY_USER_MESSAGE)),
        None => Ok(None),
        Some(user) => checked_user_name(user)
            .map(|u| Some(u.to_owned()))
            .map_err(|m| ConfigError::new(variable, m)),
    }
}

/// Checks the plugin's own variables by the plugin's rules (`media_mcp_wire::plugin_settings`),
/// so a value the plugin would read another way or ignore is refused at start.
///
/// # Errors
///
/// The first problem the plugin would report, naming its variable.
fn plugin_variables(raw: &RawSettings) -> Result<(), ConfigError> {
    let lookup = |name: &str| raw.get(name).map(str::to_owned);
    match plugin_settings::problems(&lookup).into_iter().next() {
        Some(problem) => Err(ConfigError::new(problem.variable, problem.message)),
        None => Ok(()),
    }
}

/// A deployment talks to one request server (Ombi or Seerr); MoviePilot works beside either.
///
/// # Errors
///
/// Two request servers are configured: the error names both variables.
fn one_request_server(upstreams: &[Upstream]) -> Result<(), ConfigError> {
    let set: Vec<&str> = REQUEST_SERVERS
        .iter()
        .filter(|spec| upstreams.iter().any(|u| u.spec == *spec))
        .map(|spec| spec.url.name)
        .collect();
    match set.as_slice() {
        [first, second, ..] => Err(ConfigError::new(
            *second,
            format!(
                "{first} and {second} are both set: a deployment uses one request server (Ombi or Seerr), so unset one of them; MoviePilot works beside either"
            ),
        )),
        _ => Ok(()),
    }
}
