//! What an Ombi tool handler gets: the call's upstream, Ombi's settings, the principal and the
//! whole-call deadline, from which it makes its [`Ombi`] client.

use super::client::Ombi;
use super::config::OmbiConfig;
use crate::contract::{Reply, ToolError};
use crate::tool::{Args, ToolSpec};
use crate::upstream::Upstream;

/// Everything an Ombi handler may use during one call.
pub(crate) struct Call<'a> {
    /// Outbound HTTP.
    pub upstream: &'a dyn Upstream,
    /// Ombi's settings.
    pub config: &'a OmbiConfig,
    /// The user the host wants the call to act as.
    pub principal: Option<&'a str>,
    /// The whole-call deadline in milliseconds.
    pub deadline_ms: u64,
}

impl Call<'_> {
    /// An Ombi client acting as the call's principal.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for a principal that cannot be sent as a header.
    pub fn ombi(&self) -> Result<Ombi<'_>, ToolError> {
        Ombi::new(self.upstream, self.config, self.principal, self.deadline_ms)
    }
}

/// An Ombi tool handler: validated arguments in, a reply out.
pub(crate) type Handler = fn(&Call<'_>, &Args) -> Result<Reply, ToolError>;

/// One Ombi tool.
pub(crate) type OmbiTool = ToolSpec<Handler>;
