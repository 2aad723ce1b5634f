//! Guided workflows as MCP prompts (`prompts/list`, `prompts/get`).
//!
//! A prompt only words a request to the model: each names the tools it uses, and each workflow
//! is reachable without prompts by asking the same in plain words (docs/guide/apps.md). The
//! tools stay the source of truth: a prompt never states a fact about the library.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value, json};

/// Longest argument value, in characters.
pub const MAX_ARGUMENT_CHARS: usize = 200;

/// One argument of a prompt (always a string, as MCP prompt arguments are).
#[derive(Debug)]
pub struct Argument {
    /// Its name.
    pub name: &'static str,
    /// What to give.
    pub description: &'static str,
    /// Whether `prompts/get` needs it.
    pub required: bool,
    /// The values it may take (`None`: any text).
    pub choices: Option<&'static [&'static str]>,
}

/// One prompt.
#[derive(Debug)]
pub struct Prompt {
    /// Its name.
    pub name: &'static str,
    /// Its title, for people.
    pub title: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its arguments.
    pub arguments: &'static [Argument],
    /// The user message, from the checked arguments.
    render: fn(&Given<'_>) -> String,
}

/// The checked arguments of one `prompts/get`.
pub struct Given<'a>(Vec<(&'static str, &'a str)>);

impl Given<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

const MEDIA_CHOICES: &[&str] = &["movie", "tv", "album"];

/// Every prompt.
pub static PROMPTS: &[Prompt] = &[
    Prompt {
        name: "request_title",
        title: "Request a title",
        description: "Find a film, show or album, show the matching titles, and request the one the user means once they say which.",
        arguments: &[
            Argument {
                name: "title",
                description: "The title as the user says it (a film, show or album).",
                required: true,
                choices: None,
            },
            Argument {
                name: "media",
                description: "movie, tv or album, when known.",
                required: false,
                choices: Some(MEDIA_CHOICES),
            },
        ],
        render: request_title,
    },
    Prompt {
        name: "whats_new",
        title: "What is new",
        description: "What the media servers added recently, and which of the user's requests became available.",
        arguments: &[],
        render: whats_new,
    },
    Prompt {
        name: "why_not_available",
        title: "Why isn't it available yet?",
        description: "The state of the user's request for a title (standard and 4K apart) and, where MoviePilot is connected, its subscription and downloads.",
        arguments: &[Argument {
            name: "title",
            description: "The requested title as the user says it.",
            required: true,
            choices: None,
        }],
        render: why_not_available,
    },
];

fn request_title(given: &Given<'_>) -> String {
    let title = given.get("title").unwrap_or_default();
    let media = match given.get("media") {
        Some(m) => format!(" with media {m:?}"),
        None => String::new(),
    };
    format!(
        "I want to request {title:?}. Search for it with read_search{media}. Show me the \
         matching titles (title, year, kind, and whether each is already available or \
         requested, exactly as the results say) and ask which one I mean; do not request \
         anything before I answer. Then request that one with write_request_create, using the \
         id the result carries for it (tmdb for movies and TV, musicbrainz for albums), and \
         tell me the outcome as the tool reports it. If write_request_create is not \
         available to me, say so instead."
    )
}

fn whats_new(_given: &Given<'_>) -> String {
    "What is new? With read_library, list what the media servers added recently \
     (recently_added_movies and recently_added_tv_grouped). Then, with read_requests \
     (status available, for movies and for TV), find which of my requests are now \
     available, and say which of the new titles were my requests. Report only what the \
     tools return; if a tool is not available to me, say which and go on with the rest."
        .to_owned()
}

fn why_not_available(given: &Given<'_>) -> String {
    let title = given.get("title").unwrap_or_default();
    format!(
        "Why isn't {title:?} available yet? Find my request for it with read_requests (view \
         search, query {title:?}; movies and TV) and tell me its state as the result says it: \
         approved, denied (with the reason) or available, for the standard and the 4K \
         request separately. If MoviePilot tools are available, also look up its \
         subscription and downloads for this title there. Do not guess dates or causes the \
         tools do not report."
    )
}

/// The prompt called `name`.
pub fn prompt(name: &str) -> Option<&'static Prompt> {
    PROMPTS.iter().find(|p| p.name == name)
}

/// The `prompts/list` result (no caching hints: the transports add them for modern peers).
pub fn list() -> Value {
    let prompts: Vec<Value> = PROMPTS
        .iter()
        .map(|p| {
            let arguments: Vec<Value> = p
                .arguments
                .iter()
                .map(|a| {
                    json!({"name": a.name, "description": a.description, "required": a.required})
                })
                .collect();
            json!({
                "name": p.name,
                "title": p.title,
                "description": p.description,
                "arguments": arguments,
            })
        })
        .collect();
    json!({ "prompts": prompts })
}

/// Why a `prompts/get` cannot be answered: JSON-RPC -32602 with this message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

/// The `prompts/get` result of `params` (`name`, `arguments`).
///
/// # Errors
///
/// An unknown prompt, an unknown, missing or ill-formed argument: the message names it.
pub fn get(params: &Map<String, Value>) -> Result<Value, Refused> {
    let Some(Value::String(name)) = params.get("name") else {
        return Err(Refused(
            "params.name must be the prompt's name (a string)".to_owned(),
        ));
    };
    let Some(prompt) = prompt(name) else {
        let shown: String = name.chars().filter(|c| !c.is_control()).take(64).collect();
        return Err(Refused(format!(
            "unknown prompt {shown:?} (prompts/list names this server's prompts)"
        )));
    };
    let empty = Map::new();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(a)) => a,
        Some(_) => {
            return Err(Refused(
                "params.arguments must be an object of strings".to_owned(),
            ));
        }
    };
    let given = check(prompt, arguments)?;
    Ok(json!({
        "description": prompt.description,
        "messages": [{
            "role": "user",
            "content": {"type": "text", "text": (prompt.render)(&given)},
        }],
    }))
}

fn check<'a>(prompt: &Prompt, arguments: &'a Map<String, Value>) -> Result<Given<'a>, Refused> {
    if let Some(unknown) = arguments
        .keys()
        .find(|k| !prompt.arguments.iter().any(|a| a.name == k.as_str()))
    {
        let shown: String = unknown
            .chars()
            .filter(|c| !c.is_control())
            .take(64)
            .collect();
        return Err(Refused(format!(
            "{shown} is not an argument of prompt {}",
            prompt.name
        )));
    }
    let mut given = Vec::new();
    for argument in prompt.arguments {
        let name = argument.name;
        let value = match arguments.get(name) {
            None | Some(Value::Null) => {
                if argument.required {
                    return Err(Refused(format!(
                        "{name} is required by prompt {}",
                        prompt.name
                    )));
                }
                continue;
            }
            Some(Value::String(v)) => v.trim(),
            Some(_) => return Err(Refused(format!("{name} must be a string"))),
        };
        if value.is_empty() {
            if argument.required {
                return Err(Refused(format!("{name} must not be empty")));
            }
            continue;
        }
        if value.chars().count() > MAX_ARGUMENT_CHARS || value.chars().any(char::is_control) {
            return Err(Refused(format!(
                "{name} must be at most {MAX_ARGUMENT_CHARS} characters on one line"
            )));
        }
        if let Some(choices) = argument.choices
            && !choices.contains(&value)
        {
            return Err(Refused(format!(
                "{name} must be one of {}",
                choices.join(", ")
            )));
        }
        given.push((name, value));
    }
    Ok(Given(given))
}
