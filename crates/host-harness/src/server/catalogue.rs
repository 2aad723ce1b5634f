//! The tool list the server answers with: the [`Catalogue`] converted from the component's
//! `list-tools` (or read from the listing cache), and the [`CatalogueSlot`] that holds it, which
//! a warm `serve` fills while it already answers `initialize`. A `tools/list` that arrives
//! before the cached listing is parsed is answered from its text, when the listing vouches
//! for that text and the transport writes it ([`CatalogueSlot::listings`]).

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use anyhow::Context as _;
use rmcp::model::{JsonObject, RequestId, Tool, ToolAnnotations};
use serde_json::Value;

use crate::tool::ListedTool;

/// The tool list, converted once from the component's `list-tools`.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    /// `tools` as JSON: a cached listing's own text, or serialized on first use.
    text: OnceLock<Option<Arc<str>>>,
}

impl Catalogue {
    /// Converts the component's tool records.
    ///
    /// # Errors
    ///
    /// A schema or annotations field that is not a JSON object, or a duplicate name: a
    /// component bug worth failing start-up for.
    pub fn from_specs(specs: Vec<ListedTool>) -> anyhow::Result<Catalogue> {
        let tools = specs
            .iter()
            .map(|spec| {
                to_tool(spec).with_context(|| {
                    format!("the component listed an invalid tool {:?}", spec.name)
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Catalogue::from_tools(tools)
    }

    /// A catalogue of `tools` (a cached listing's).
    ///
    /// # Errors
    ///
    /// A duplicate name.
    pub fn from_tools(tools: Vec<Tool>) -> anyhow::Result<Catalogue> {
        let mut by_name = HashMap::with_capacity(tools.len());
        for (i, tool) in tools.iter().enumerate() {
            anyhow::ensure!(
                by_name.insert(tool.name.to_string(), i).is_none(),
                "the component listed tool {:?} twice",
                tool.name
            );
        }
        Ok(Catalogue {
            tools,
            by_name,
            text: OnceLock::new(),
        })
    }

    /// A catalogue of `tools`, parsed from `text` (a cached listing's), which it answers
    /// `tools/list` with.
    ///
    /// # Errors
    ///
    /// A duplicate name.
    pub fn from_listing(tools: Vec<Tool>, text: Arc<str>) -> anyhow::Result<Catalogue> {
        let catalogue = Catalogue::from_tools(tools)?;
        let _ = catalogue.text.set(Some(text));
        Ok(catalogue)
    }

    /// `tools` as JSON text, when they are this catalogue's tools exactly (rmcp may have
    /// changed a copy for an older protocol version).
    pub fn text_of(&self, tools: &[Tool]) -> Option<Arc<str>> {
        if tools != self.tools.as_slice() {
            return None;
        }
        self.text
            .get_or_init(|| serde_json::to_string(&self.tools).ok().map(Arc::from))
            .clone()
    }

    /// All tools, in the component's order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// One tool by name.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// Whether a call of `name` may become a job: its output schema admits a job handle.
    pub fn can_become_job(&self, name: &str) -> bool {
        self.get(name)
            .and_then(|t| t.output_schema.as_ref())
            .and_then(|schema| schema.get("$defs"))
            .and_then(|defs| defs.get(media_mcp_wire::job::FAMILY))
            .is_some()
    }

    /// Whether any tool may become a job.
    pub fn has_jobs(&self) -> bool {
        self.tools.iter().any(|t| self.can_become_job(&t.name))
    }

    /// This catalogue with `extra` after its own tools.
    ///
    /// # Errors
    ///
    /// An invalid record, or a name the catalogue already has.
    pub fn with_added(&self, extra: &[ListedTool]) -> anyhow::Result<Catalogue> {
        let mut tools = self.tools.clone();
        for spec in extra {
            tools.push(to_tool(spec)?);
        }
        Catalogue::from_tools(tools)
    }

    /// Whether `name` may change upstream state: listed without `readOnlyHint: true`.
    pub fn is_write(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) != Some(true))
    }
}

fn to_tool(spec: &ListedTool) -> anyhow::Result<Tool> {
    let object = |field: &str, text: &str| -> anyhow::Result<JsonObject> {
        match serde_json::from_str(text).with_context(|| format!("{field} is not JSON"))? {
            Value::Object(map) => Ok(map),
            _ => anyhow::bail!("{field} is not a JSON object"),
        }
    };
    let input = object("input-schema", &spec.input_schema)?;
    let output = object("output-schema", &spec.output_schema)?;
    let annotations: ToolAnnotations =
        serde_json::from_value(Value::Object(object("annotations", &spec.annotations)?))
            .context("annotations are not MCP tool annotations")?;
    let mut tool = Tool::new(spec.name.clone(), spec.description.clone(), Arc::new(input))
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(annotations);
    if !spec.title.is_empty() {
        tool = tool.with_title(spec.title.clone());
    }
    super::apps::link_view(&mut tool);
    Ok(tool)
}

/// Where the server finds its catalogue: the one listed at start-up (possibly still being read
/// from the listing cache, [`CatalogueSlot::pending`]), replaced by a later listing
/// ([`CatalogueSlot::replace`]).
#[derive(Debug, Clone)]
pub struct CatalogueSlot {
    start_up: Arc<OnceLock<Arc<Catalogue>>>,
    listed: tokio::sync::watch::Receiver<bool>,
    replaced: Arc<RwLock<Option<Arc<Catalogue>>>>,
    unparsed: Arc<Unparsed>,
}

/// The start-up listing's text while it is being parsed, and the `tools/list` requests whose
/// answers carry no tools because the transport writes that text in their place.
#[derive(Debug, Default)]
struct Unparsed {
    text: Option<Arc<str>>,
    /// Set once a transport that writes the text has asked for it.
    written: AtomicBool,
    promised: Mutex<Vec<RequestId>>,
}

impl CatalogueSlot {
    /// A slot holding `catalogue`.
    pub fn ready(catalogue: Arc<Catalogue>) -> CatalogueSlot {
        let (_sender, listed) = tokio::sync::watch::channel(true);
        CatalogueSlot {
            start_up: Arc::new(OnceLock::from(catalogue)),
            listed,
            replaced: Arc::default(),
            unparsed: Arc::default(),
        }
    }

    /// A slot filled by `listing` once it finishes (run as a task of its own); until then
    /// [`get`](CatalogueSlot::get) waits for it, and `tools/list` may be answered with
    /// `unparsed`, the text `listing` parses, when given.
    pub fn pending(
        listing: impl Future<Output = Catalogue> + Send + 'static,
        unparsed: Option<Arc<str>>,
    ) -> CatalogueSlot {
        let (sender, listed) = tokio::sync::watch::channel(false);
        let start_up = Arc::new(OnceLock::new());
        let filled = Arc::clone(&start_up);
        tokio::spawn(async move {
            let _ = filled.set(Arc::new(listing.await));
            let _ = sender.send(true);
        });
        CatalogueSlot {
            start_up,
            listed,
            replaced: Arc::default(),
            unparsed: Arc::new(Unparsed {
                text: unparsed,
                ..Unparsed::default()
            }),
        }
    }

    /// Where a transport finds tool lists as JSON text; from then on a `tools/list` that
    /// arrives before the start-up listing is parsed may be answered without tools
    /// ([`answer_unparsed`](CatalogueSlot::answer_unparsed)), and that transport writes them.
    pub fn listings(&self) -> Arc<dyn crate::stdio::ListingText> {
        self.unparsed.written.store(true, Ordering::Release);
        Arc::new(self.clone())
    }

    /// Whether the answer to the `tools/list` request `id` goes out without tools, for the
    /// transport to write the start-up listing's text in their place: only while that listing
    /// is still being parsed, and once a transport has asked for [`listings`](Self::listings).
    pub fn answer_unparsed(&self, id: &RequestId) -> bool {
        let unparsed = &self.unparsed;
        let early = unparsed.text.is_some()
            && unparsed.written.load(Ordering::Acquire)
            && self.start_up.get().is_none();
        if early {
            lock(&unparsed.promised).push(id.clone());
        }
        early
    }

    /// The catalogue, once the start-up listing is there.
    pub async fn get(&self) -> Arc<Catalogue> {
        let mut listed = self.listed.clone();
        // An error means the listing task ended without a catalogue: `now` then has none.
        let _ = listed.wait_for(|done| *done).await;
        self.now()
    }

    /// The catalogue as it is now: empty while the start-up listing is still being read (for
    /// callers that cannot wait; the server's request handlers use [`get`](CatalogueSlot::get)).
    pub fn now(&self) -> Arc<Catalogue> {
        let replaced = self
            .replaced
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        replaced
            .or_else(|| self.start_up.get().cloned())
            .unwrap_or_default()
    }

    /// Replaces the catalogue with a later listing.
    pub fn replace(&self, catalogue: Catalogue) {
        *self
            .replaced
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(catalogue));
    }
}

impl crate::stdio::ListingText for CatalogueSlot {
    fn listing_text(&self, id: &RequestId, tools: &[Tool]) -> Option<Arc<str>> {
        if tools.is_empty()
            && let Some(text) = self.unparsed.take(id)
        {
            return Some(text);
        }
        self.now().text_of(tools)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Unparsed {
    /// The text, when the answer to `id` was promised it (each promise is kept once).
    fn take(&self, id: &RequestId) -> Option<Arc<str>> {
        let mut promised = lock(&self.promised);
        let at = promised.iter().position(|promised| promised == id)?;
        promised.swap_remove(at);
        self.text.clone()
    }
}
