//! The Seerr write tools; `outcome` is what they answer with.

pub(super) mod issue;
mod outcome;
pub(super) mod request_create;
pub(super) mod request_decide;
