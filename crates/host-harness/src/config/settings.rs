//! Validated settings: raw values checked once, each by its table entry, into [`Settings`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use media_mcp_wire::plugin_settings;
use media_mcp_wire::upstreams::{MOVIEPILOT, OMBI};

use super::deadline::host_call_timeout;
use super::front_door::FrontDoor;
use super::raw::{ConfigError, RawSettings};
use super::table::{self, Kind, passes_through};
use super::upstream::{EMPTY_USER_MESSAGE, Upstream, checked_user_name, upstream};
use crate::limits::moviepilot_first_byte_cap;

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
    /// Ombi, when `OMBI_URL` is set.
    pub ombi: Option<Upstream>,
    /// `OMBI_USER`.
    pub(crate) ombi_user: Option<String>,
    /// MoviePilot, when `MOVIEPILOT_URL` is set.
    pub moviepilot: Option<Upstream>,
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
        [&self.ombi, &self.moviepilot].into_iter().flatten()
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

    /// Validates raw values plus command-line overrides.
    ///
    /// # Errors
    ///
    /// The first invalid variable, by name.
    pub fn validate(raw: &RawSettings, flags: &Overrides) -> Result<Settings, ConfigError> {
        let ombi = upstream(raw, &OMBI)?;
        let mut moviepilot = upstream(raw, &MOVIEPILOT)?;
        let user_var = table::OMBI_USER.name;
        let ombi_user = match raw.get(user_var) {
            None if raw.is_given_empty(user_var) => {
                return Err(ConfigError::new(user_var, EMPTY_USER_MESSAGE));
            }
            None => None,
            Some(user) => Some(
                checked_user_name(user)
                    .map_err(|m| ConfigError::new(user_var, m))?
                    .to_owned(),
            ),
        };
        plugin_variables(raw)?;
        let read_only = raw.switch(&table::READ_ONLY)?;
        let pass_key_to_guest = flags.pass_key_to_guest || raw.switch(&table::PASS_KEY_TO_GUEST)?;
        let (call_timeout, longest_deadline_ms) = host_call_timeout(raw, moviepilot.is_some())?;
        // MoviePilot may take as long as the longest deadline the component gives its calls.
        if let Some(mp) = &mut moviepilot {
            mp.first_byte_cap = Some(moviepilot_first_byte_cap(
                longest_deadline_ms,
                call_timeout.as_secs(),
            ));
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
            ombi,
            ombi_user,
            moviepilot,
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
