//! One call of a bridged tool, and the steps every MoviePilot exchange shares: the handshake
//! and discovery that refresh what the host cache holds, the policy check and `tools/call`.
//!
//! A [`BridgedCall`] is checked first against what is stored. It refreshes at most once, when
//! the stored knowledge cannot be trusted for this call ([`Attempt::Stale`]) or when MoviePilot
//! answers that its catalogue differs from the one the call was checked against
//! ([`Attempt::Changed`]); after a refresh nothing counts as stale again.

use super::client::Client;
use super::config::MoviePilotConfig;
use super::discovery::{Complete, Discovered, UpstreamTool, discover, full_schema};
use super::memo::{self, Index, Memo, Prepared, Refused};
use super::{contract_tool, policy, republish, result, schema, status};
use crate::contract::{Reply, ToolError};
use crate::prelude::*;
use crate::tool::{Problem, UnknownTool, parse_object};
use crate::upstream::Effect;
use core::fmt;
use media_mcp_wire::method;
use serde::de::{self, Deserializer as _, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

/// Most deadline anyone gets for one call, discovery included.
const MAX_CALL_MS: u64 = 900_000;

/// The whole-call deadline a call of `name` needs: its own deadline plus room for discovery.
pub(super) fn call_budget_ms(
    cfg: &MoviePilotConfig,
    name: &str,
    arguments: &str,
    default_ms: u64,
) -> u64 {
    let op = operation_id(arguments);
    match cfg.deadline_for(name, op.as_deref()) {
        Some(ms) => ms.saturating_add(default_ms).min(MAX_CALL_MS),
        None => default_ms,
    }
}

/// The `operation_id` of `arguments` (JSON text) when the text is an object and it is a
/// string, the last one counting as when the arguments are parsed; the other arguments are
/// skipped, not built.
fn operation_id(arguments: &str) -> Option<String> {
    /// Whether a key is `operation_id`.
    struct IsOperationId(bool);
    impl<'de> de::Deserialize<'de> for IsOperationId {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_str(KeyVisitor)
        }
    }
    struct KeyVisitor;
    impl Visitor<'_> for KeyVisitor {
        type Value = IsOperationId;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E: de::Error>(self, key: &str) -> Result<IsOperationId, E> {
            Ok(IsOperationId(key == "operation_id"))
        }
    }
    struct ArgumentsVisitor;
    impl<'de> Visitor<'de> for ArgumentsVisitor {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(IsOperationId(is)) = map.next_key()? {
                if is {
                    found = map.next_value::<Value>()?.as_str().map(str::to_owned);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    let mut reader = serde_json::Deserializer::from_str(arguments);
    let found = reader.deserialize_map(ArgumentsVisitor).ok()?;
    reader.end().ok()?;
    found
}

/// Handshake and discovery (completing the projected schemas `complete` names). The index and
/// the checking forms of the complete schemas found go to the host cache under a new
/// generation; the form of tool `called` is returned ready for its arguments.
///
/// # Errors
/// Protocol failures of the handshake or discovery.
pub(super) fn refresh(
    client: &Client<'_>,
    memo: &Memo<'_>,
    complete: Complete<'_>,
    called: Option<(&str, &Value)>,
) -> Result<(Index, Discovered, Option<Prepared>), ToolError> {
    let version = client.handshake()?;
    let found = discover(client, complete)?;
    let generation = memo.index().map_or(1, |i| i.generation.wrapping_add(1));
    let mut prepared = None;
    let mut index = Index::new(generation, version, &found);
    for (tool, indexed) in found.tools.iter().zip(&mut index.tools) {
        if tool.projected {
            continue;
        }
        // The argument naming the tool's operations, so a call reads its operation's entry alone.
        indexed.key = match called {
            Some((name, args)) if name == tool.name => {
                let ready = memo.prepare(generation, name, &tool.input_schema, args);
                let key = ready.form.key().map(str::to_owned);
                prepared = Some(ready);
                key
            }
            _ if memo.enabled() => memo
                .prepare(generation, &tool.name, &tool.input_schema, &Value::Null)
                .form
                .key()
                .map(str::to_owned),
            _ => continue,
        };
    }
    memo.put_index(&index);
    Ok((index, found, prepared))
}

/// Arguments as MoviePilot takes them: a JSON object, string-encoded fields decoded.
///
/// # Errors
/// `INVALID_ARGUMENT` when the text is not a JSON object.
fn parse_arguments(text: &str) -> Result<Value, ToolError> {
    parse_object(text).map(|mut a| {
        schema::decode_string_encoded(&mut a);
        Value::Object(a)
    })
}

/// Where the knowledge a round checks against comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Knowledge {
    /// The host cache: it may be out of date.
    Stored,
    /// Asked of MoviePilot in this call.
    Refreshed,
}

/// What the knowledge a round checked against lacks for this call; nothing was sent.
enum Lacking {
    /// It lists no such tool.
    Tool,
    /// The tool's checking form is not at hand (the host dropped it).
    Form,
    /// The branch of the operation the arguments name is not at hand (the host dropped it).
    Operation,
}

/// How one round ended.
enum Round {
    /// The call's answer.
    Answer(Reply),
    /// The knowledge could not be trusted; nothing was sent.
    Distrusted(Lacking),
    /// MoviePilot ran nothing and answered that its catalogue differs from the one the call
    /// was checked against: the form the call was checked with, and that answer.
    Changed(Prepared, Reply),
}

/// A call of bridged tool `name`: checked against the stored catalogue, refreshed at most once.
pub(super) struct BridgedCall<'a> {
    pub client: &'a Client<'a>,
    pub cfg: &'a MoviePilotConfig,
    pub memo: &'a Memo<'a>,
    pub name: &'a str,
    pub taken: &'a [&'a str],
    pub timeout_ms: u64,
}

impl BridgedCall<'_> {
    /// The call's answer for `arguments` (JSON text): one round against what is stored, and
    /// when that cannot be trusted or MoviePilot says its catalogue changed, one refresh and
    /// one round against it.
    ///
    /// # Errors
    /// [`UnknownTool`] when MoviePilot, asked in this call, offers no such tool.
    pub(super) fn run(&self, arguments: &str) -> Result<Reply, UnknownTool> {
        let parsed = parse_arguments(arguments);
        let mut refused = None;
        if let Some(index) = self.memo.index() {
            match self.round(&index, None, &parsed, Knowledge::Stored, None) {
                Round::Answer(answer) => return Ok(answer),
                Round::Changed(form, answer) => refused = Some((form, answer)),
                Round::Distrusted(_) => {}
            }
        }
        let args = parsed.as_ref().unwrap_or(&Value::Null);
        let (index, ready) = match refresh(
            self.client,
            self.memo,
            Complete::Only(self.name),
            Some((self.name, args)),
        ) {
            Ok((index, _, ready)) => (index, ready),
            // MoviePilot's refusal of the stored round is the answer it gave.
            Err(e) => return Ok(refused.map_or_else(|| Reply::failure(e), |(_, r)| r)),
        };
        match self.round(&index, ready, &parsed, Knowledge::Refreshed, refused) {
            Round::Answer(answer) | Round::Changed(_, answer) => Ok(answer),
            Round::Distrusted(why) => self.untrusted(why),
        }
    }

    /// One round: the tool looked up in `index`, the arguments checked against its form
    /// (`ready`, or the one stored, or its full schema read now), the policy checked and
    /// `tools/call` sent, unless the form is the one MoviePilot already `refused` in this call.
    fn round(
        &self,
        index: &Index,
        ready: Option<Prepared>,
        parsed: &Result<Value, ToolError>,
        knowledge: Knowledge,
        refused: Option<(Prepared, Reply)>,
    ) -> Round {
        let Some(tool) = index.tool(self.name, self.taken) else {
            return Round::Distrusted(Lacking::Tool);
        };
        let args = match parsed {
            Ok(args) => args,
            Err(e) => return Round::Answer(Reply::failure(e.clone())),
        };
        let stored = || {
            let key = tool.key.as_deref();
            self.memo.prepared(index.generation, self.name, key, args)
        };
        let form = match ready.or_else(stored) {
            Some(form) => form,
            None if tool.projected => match full_schema(self.client, self.name) {
                Ok(full) => self.memo.prepare(index.generation, self.name, &full, args),
                Err(e) => return Round::Answer(Reply::failure(e)),
            },
            None => return Round::Distrusted(Lacking::Form),
        };
        if tool.key.is_none()
            && let Some(key) = form.form.key()
        {
            self.memo.learn_key(index.generation, self.name, key);
        }
        if let Some((before, answer)) = refused
            && before.checks_as(&form)
        {
            // The same contract as before: MoviePilot's refusal stands, nothing is sent again.
            return Round::Answer(answer);
        }
        match memo::check(self.name, &form, args) {
            Ok(()) => {}
            // The checks accept whatever MoviePilot accepts, so a refusal costs no request.
            Err(Refused::Invalid(e)) => return Round::Answer(Reply::failure(e)),
            Err(Refused::Missing) => return Round::Distrusted(Lacking::Operation),
        }
        if knowledge == Knowledge::Stored {
            self.client.resume(&index.version);
        }
        let deadline_ms = deadline(self.cfg, self.name, args, self.timeout_ms);
        match send(self.client, self.cfg, self.name, args, deadline_ms) {
            (answer, true) => Round::Changed(form, answer),
            (answer, false) => Round::Answer(answer),
        }
    }

    /// The answer when even what MoviePilot said in this call fails the call.
    fn untrusted(&self, why: Lacking) -> Result<Reply, UnknownTool> {
        let name = self.name;
        let mismatch = |what: &str| {
            Ok(Reply::failure(ToolError::schema_mismatch(format!(
                "MoviePilot's schema of `{name}` {what}"
            ))))
        };
        match why {
            Lacking::Tool => Err(UnknownTool(name.to_owned())),
            Lacking::Form => mismatch("could not be read"),
            Lacking::Operation => mismatch("lost an operation while it was read"),
        }
    }
}

/// The status and contract tools, answered from a discovery made in this call (a MoviePilot
/// tool of the same name is called instead).
///
/// # Errors
/// [`UnknownTool`] for the contract tool when no listed schema is abridged: it is not listed then.
pub(super) fn own_tool(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    name: &str,
    arguments: &str,
    taken: &[&str],
    timeout_ms: u64,
) -> Result<Reply, UnknownTool> {
    let catalogue = match client
        .handshake()
        .and_then(|_| discover(client, Complete::Only(name)))
    {
        Err(e) => return Ok(Reply::failure(e)),
        Ok(c) => c,
    };
    let (kept, problems) = split(catalogue, taken);
    Ok(match kept.iter().find(|t| t.name == name) {
        Some(tool) => {
            let args = match parse_arguments(arguments) {
                Ok(args) => args,
                Err(e) => return Ok(Reply::failure(e)),
            };
            match schema::check(&tool.input_schema, &args) {
                Ok(()) => {
                    let deadline_ms = deadline(cfg, name, &args, timeout_ms);
                    send(client, cfg, name, &args, deadline_ms).0
                }
                Err(e) => Reply::failure(e),
            }
        }
        None if name == status::TOOL.name => status::reply(kept.len(), &problems),
        // Listed only beside an abridged schema (see the backend's listing).
        None if !kept.iter().any(|t| t.projected) => return Err(UnknownTool(name.to_owned())),
        None => contract_tool::reply(client, &kept, arguments),
    })
}

/// Usable tools and the problems found, collisions with `taken` first.
pub(super) fn split(catalogue: Discovered, taken: &[&str]) -> (Vec<UpstreamTool>, Vec<Problem>) {
    let (clashing, kept): (Vec<_>, Vec<_>) = catalogue
        .tools
        .into_iter()
        .partition(|t| taken.contains(&t.name.as_str()));
    let names: Vec<String> = clashing.into_iter().map(|t| t.name).collect();
    let mut problems: Vec<Problem> = republish::collision_problem(&names).into_iter().collect();
    problems.extend(catalogue.problems.into_iter().map(Problem::Upstream));
    (kept, problems)
}

/// The deadline of one `tools/call` of `name` with `args`.
fn deadline(cfg: &MoviePilotConfig, name: &str, args: &Value, default_ms: u64) -> u64 {
    let op = args.get("operation_id").and_then(Value::as_str);
    cfg.deadline_for(name, op).unwrap_or(default_ms)
}

/// The parameters of `tools/call`.
#[derive(serde::Serialize)]
struct CallParams<'a> {
    name: &'a str,
    arguments: &'a Value,
}

/// Checks the policy, sends `tools/call` and reads the answer; also says whether the answer proves MoviePilot
/// ran nothing because its catalogue differs from the one the call was checked against.
fn send(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    name: &str,
    args: &Value,
    deadline_ms: u64,
) -> (Reply, bool) {
    let map = args.as_object().expect("object");
    if let Err(e) = policy::check(name, map, &cfg.policy) {
        return (Reply::failure(e), false);
    }
    let read = policy::call_is_read(name, map);
    let effect = if read { Effect::Read } else { Effect::Write };
    let params = CallParams {
        name,
        arguments: args,
    };
    let (reply, changed) =
        match client.request(method::TOOLS_CALL, &params, effect, Some(deadline_ms)) {
            Ok(result) => result::interpret(name, &result, !read),
            Err(e) => (Reply::failure(e), false),
        };
    (
        reply.advise_unknown_outcome("the call", result::RECONCILE),
        changed,
    )
}

#[cfg(test)]
mod tests;
