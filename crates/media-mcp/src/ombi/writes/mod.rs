//! The write tools, all returning the `mutation` family.
//!
//! Every write: no automatic retry once the body was sent; a lost answer or a 500 is
//! `UNKNOWN_OUTCOME` and the catalogue adds a warning naming `reconcile_with`; results are
//! read by [`outcome`], the one place that interprets Ombi's result shapes.

mod common;
mod issue_comment;
mod issue_create;
mod issue_delete;
mod issue_status;
mod notification_preferences;
mod outcome;
mod request_approve;
mod request_availability;
mod request_create;
mod request_delete;
mod request_deny;
mod request_reprocess;
mod request_subscription;
mod retry_queue_remove;
mod settings_update;
mod tester_run;
mod user_preferences;
mod vote;

use crate::ombi::call::OmbiTool;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&OmbiTool] = &[
    &request_create::TOOL,
    &request_approve::TOOL,
    &request_deny::TOOL,
    &request_delete::TOOL,
    &request_availability::TOOL,
    &request_subscription::TOOL,
    &request_reprocess::TOOL,
    &retry_queue_remove::TOOL,
    &issue_create::TOOL,
    &issue_comment::TOOL,
    &issue_status::TOOL,
    &issue_delete::TOOL,
    &vote::TOOL,
    &user_preferences::TOOL,
    &notification_preferences::TOOL,
    &settings_update::TOOL,
    &tester_run::TOOL,
];

#[cfg(test)]
mod tests;
