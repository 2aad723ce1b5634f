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

use crate::ombi::OmbiTool;
use crate::tool::Access;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&OmbiTool] = &[
    &WRITE_REQUEST_CREATE,
    &WRITE_REQUEST_APPROVE,
    &WRITE_REQUEST_DENY,
    &WRITE_REQUEST_DELETE,
    &WRITE_REQUEST_AVAILABILITY,
    &WRITE_REQUEST_SUBSCRIPTION,
    &WRITE_REQUEST_REPROCESS,
    &WRITE_RETRY_QUEUE_REMOVE,
    &WRITE_ISSUE_CREATE,
    &WRITE_ISSUE_COMMENT,
    &WRITE_ISSUE_STATUS,
    &WRITE_ISSUE_DELETE,
    &WRITE_VOTE,
    &WRITE_USER_PREFERENCES,
    &WRITE_NOTIFICATION_PREFERENCES,
    &WRITE_SETTINGS_UPDATE,
    &WRITE_TESTER_RUN,
];

/// A write tool's spec (every write returns `mutation`).
macro_rules! write_tool {
    ($id:ident, $name:literal, $title:literal, $module:ident, $reconcile:literal, $description:expr) => {
        static $id: OmbiTool = OmbiTool {
            name: $name,
            title: $title,
            description: $description,
            access: Access::Write,
            families: &["mutation"],
            input_schema: $module::input_schema,
            handler: $module::run,
            reconcile_with: Some($reconcile),
        };
    };
}

write_tool!(
    WRITE_REQUEST_CREATE,
    "write_request_create",
    "Request media",
    request_create,
    "read_requests",
    "Ask Ombi for a movie, TV show (all or chosen seasons/episodes), album or a whole TMDB movie collection. Take ids from read_search or read_media. Acting as a user applies that user's permissions, quotas and approval rules; with no user set, the API key acts as Ombi's administrator and the request is approved and sent to Radarr/Sonarr/Lidarr at once. Re-requesting something already requested is refused."
);
write_tool!(
    WRITE_REQUEST_APPROVE,
    "write_request_approve",
    "Approve a request",
    request_approve,
    "read_requests",
    "Approve a pending movie, TV (child) or album request so Ombi sends it to Radarr/Sonarr/Lidarr. Needs an administrator or power user. Take request ids from read_requests."
);
write_tool!(
    WRITE_REQUEST_DENY,
    "write_request_deny",
    "Deny a request",
    request_deny,
    "read_requests",
    "Deny a movie, TV (child) or album request with a reason shown to the requester. Needs an administrator or power user."
);
write_tool!(
    WRITE_REQUEST_DELETE,
    "write_request_delete",
    "Delete a request",
    request_delete,
    "read_requests",
    "Delete a movie, TV show (parent, with all its children), TV child or album request from Ombi. Users may delete their own requests; others need an administrator or power user. Deleting a show's last child request also deletes the show's request."
);
write_tool!(
    WRITE_REQUEST_AVAILABILITY,
    "write_request_availability",
    "Mark a request (un)available",
    request_availability,
    "read_requests",
    "Mark a movie, TV (child) or album request as available (notifies the requester) or unavailable. Needs an administrator or power user."
);
write_tool!(
    WRITE_REQUEST_SUBSCRIPTION,
    "write_request_subscription",
    "Follow a request",
    request_subscription,
    "read_requests",
    "Subscribe the acting user to notifications about a movie or TV (child) request, or unsubscribe. Ombi does not confirm that the request exists."
);
write_tool!(
    WRITE_REQUEST_REPROCESS,
    "write_request_reprocess",
    "Re-send a request",
    request_reprocess,
    "read_requests",
    "Send an approved movie or TV (child) request to Radarr/Sonarr again, for example after a failed send. Needs an administrator or power user."
);
write_tool!(
    WRITE_RETRY_QUEUE_REMOVE,
    "write_retry_queue_remove",
    "Drop a failed send from the retry queue",
    retry_queue_remove,
    "read_requests",
    "Remove one entry from Ombi's retry queue of failed sends, by its queue id from read_requests (view retry_queue). Needs an administrator."
);
write_tool!(
    WRITE_ISSUE_CREATE,
    "write_issue_create",
    "Report an issue",
    issue_create,
    "read_issues",
    "Report a problem with a movie, TV show or album (wrong audio, missing subtitles...) in Ombi. Take the category id from read_reference (issue_categories). The acting user is the reporter; Ombi notifies administrators."
);
write_tool!(
    WRITE_ISSUE_COMMENT,
    "write_issue_comment",
    "Comment on an issue",
    issue_comment,
    "read_issues",
    "Add a comment to an issue (needs a user to act as), or delete a comment (administrators and power users)."
);
write_tool!(
    WRITE_ISSUE_STATUS,
    "write_issue_status",
    "Change an issue's status",
    issue_status,
    "read_issues",
    "Set an issue to pending, in progress or resolved. To delete an issue use write_issue_delete."
);
write_tool!(
    WRITE_ISSUE_DELETE,
    "write_issue_delete",
    "Delete an issue",
    issue_delete,
    "read_issues",
    "Delete an issue and all its comments for good (administrators and power users). Ombi notifies about the deletion."
);
write_tool!(
    WRITE_VOTE,
    "write_vote",
    "Vote on a request",
    vote,
    "read_votes",
    "Vote a movie, TV (child) or album request up or down as the acting user, replacing that user's earlier vote. Enough upvotes make Ombi approve the request and send it to Radarr/Sonarr/Lidarr."
);
write_tool!(
    WRITE_USER_PREFERENCES,
    "write_user_preferences",
    "Set my language or streaming country",
    user_preferences,
    "read_users",
    "Set the acting user's interface language and/or streaming country in Ombi. Needs a user to act as; refused with the bare API key."
);
write_tool!(
    WRITE_NOTIFICATION_PREFERENCES,
    "write_notification_preferences",
    "Set a user's notification address",
    notification_preferences,
    "read_users",
    "Set or clear where one user receives notifications from one service (Discord, Telegram, Pushover...). Editing other users needs an administrator or power user to act as."
);
write_tool!(
    WRITE_SETTINGS_UPDATE,
    "write_settings_update",
    "Change Ombi settings",
    settings_update,
    "read_settings",
    "Change writable, non-secret fields of one Ombi settings section (as listed by read_settings), keeping every other field as it is. Pass the revision from read_settings so a concurrent change is refused instead of overwritten. Needs an administrator."
);
write_tool!(
    WRITE_TESTER_RUN,
    "write_tester_run",
    "Test an integration",
    tester_run,
    "read_logs",
    "Test a configured notification service, Radarr/Sonarr/Lidarr or media server with its saved settings; notification tests send a real test message. Needs an administrator."
);

#[cfg(test)]
mod tests;
