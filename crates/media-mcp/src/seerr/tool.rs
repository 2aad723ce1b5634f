//! What a Seerr tool is made of: its handler (a client acting as the call's user, validated
//! arguments in, a reply out) and the refusal of what Seerr cannot honour.

use super::client::Seerr;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::tool::{Args, ToolSpec};

/// A Seerr tool handler.
pub(crate) type Handler = fn(&Seerr<'_>, &Args) -> Result<Reply, ToolError>;

/// One Seerr tool.
pub(crate) type SeerrTool = ToolSpec<Handler>;

/// `UNSUPPORTED_CAPABILITY` naming `field`: Seerr cannot honour it, so nothing is sent.
pub fn unsupported(field: &str, message: &str) -> ToolError {
    ToolError {
        field: Some(field.to_owned()),
        ..ToolError::new(ErrorCode::UnsupportedCapability, message)
    }
}

/// The refusal of anything musical, naming `field`.
pub fn no_music(field: &str) -> ToolError {
    unsupported(field, "Seerr has no music: it requests movies and TV shows")
}
