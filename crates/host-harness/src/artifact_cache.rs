//! Compiled-component cache: `Component::serialize` output in `<cache dir>/<key>.cwasm`, so a
//! second start loads machine code (~0.3 ms) instead of compiling with Cranelift (~0.2-3 s).
//! Next to it, the **listing cache** (`<key>.tools.json`): the tools the component's
//! `list-tools` returned, stored as MCP `Tool` objects after a first line with the component's
//! SHA-256, the number of tools, the SHA-256 of the tools' text and whether every output schema
//! is object-rooted, so a start does not instantiate the component and compose
//! every output schema again (about 7 ms of a 13 ms start, measured in BENCHMARKS.md), and a warm
//! `serve` can parse the tools while it answers `initialize`. A listing is stored only when
//! `list-tools` attempted no outgoing request: then it depends on nothing but the component and
//! its environment, which is exactly what the key covers. A listing that fetched something
//! (MoviePilot's tools are discovered over HTTP) is never cached.
//!
//! The `.cwasm` key is a SHA-256 over the component bytes, the wasmtime version and the
//! engine's compatibility hash (its compile-relevant configuration), so a changed component, a
//! wasmtime upgrade or different engine settings never load a stale artifact. A file that fails
//! to deserialize anyway is recompiled and replaced.
//!
//! The listing key covers the component file's identity instead of its bytes (device, inode,
//! size, modification and status-change times: any write to the file changes its status-change
//! time, which no system call sets back), so a warm start finds its listing without reading and
//! hashing the component first. The listing also records the component's SHA-256; whoever loads
//! the component afterwards compares it ([`ComponentDigest::matches`]) and refuses a component
//! that differs, so a listing is never served for other bytes than it was made from.
//!
//! Files are written to a temporary name and renamed into place, so concurrent starts never see
//! half a file.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use rmcp::model::Tool;
use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

/// Where the component came from, for the start-up log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provenance {
    /// Loaded from a cached `.cwasm`.
    Cached,
    /// Compiled, and stored in the cache.
    CompiledAndCached,
    /// Compiled; no cache (disabled or unwritable).
    Compiled,
}

impl Provenance {
    /// How the component was loaded, for the start line: whether the compiled-artifact cache
    /// in `dir` was used (`from the compiled-artifact cache in DIR`), filled, or not used.
    pub fn describe(self, dir: Option<&Path>) -> String {
        let shown = dir.map_or_else(String::new, |d| d.display().to_string());
        match (self, dir) {
            (Provenance::Cached, _) => format!("from the compiled-artifact cache in {shown}"),
            (Provenance::CompiledAndCached, _) => {
                format!("compiled, and stored in the compiled-artifact cache in {shown}")
            }
            (Provenance::Compiled, None) => {
                "compiled (the compiled-artifact cache is off)".to_owned()
            }
            (Provenance::Compiled, Some(_)) => {
                format!(
                    "compiled in memory (the compiled-artifact cache in {shown} is not writable)"
                )
            }
        }
    }
}

/// Logs, once per process, that the cache directory `dir` cannot be written: the harness
/// then compiles in memory and caches no listing; a read-only directory holding the compiled
/// components (baked into an image by `host-harness precompile`) is still read.
pub fn warn_unwritable(dir: &Path, error: &anyhow::Error) {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        crate::log_warn!(
            "cannot write the cache directory {}: {error:#}; running without storing compiled components or listings",
            dir.display()
        );
    }
}

/// Adapts a byte-oriented SHA-256 to `std::hash::Hasher`, to digest wasmtime's
/// `precompile_compatibility_hash` (which is only `impl Hash`) deterministically.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        0 // never used: the digest is read with `finalize`
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// SHA-256 of the component bytes: computed once per start, shared by both cache keys.
pub fn component_digest(wasm: &[u8]) -> [u8; 32] {
    Sha256::digest(wasm).into()
}

/// `digest` in lower-case hex (cache keys use its first 20 bytes).
fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cache file name for the component whose [`component_digest`] this is, compiled by
/// `engine`.
pub fn cache_key(engine: &Engine, component_digest: &[u8; 32]) -> String {
    let mut hasher = ShaHasher(Sha256::new());
    hasher.write(b"media-mcp host-harness cwasm v1\0");
    hasher.write(env!("CARGO_PKG_VERSION").as_bytes());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.write(component_digest);
    hex(&hasher.0.finalize()[..20])
}

/// What identifies the component file without reading it: device, inode, size, and the
/// modification and status-change times to the nanosecond. `None` where the platform or the
/// file does not say.
pub fn file_identity(path: &Path) -> Option<[u64; 7]> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let m = std::fs::metadata(path).ok()?;
        let signed = |v: i64| v as u64;
        Some([
            m.dev(),
            m.ino(),
            m.size(),
            signed(m.mtime()),
            signed(m.mtime_nsec()),
            signed(m.ctime()),
            signed(m.ctime_nsec()),
        ])
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The listing cache key: the harness version, the component file's [`file_identity`] and the
/// guest's whole environment (names and values, in order), so any change to either lists
/// afresh. Values enter only through SHA-256; the file name reveals nothing about them.
pub fn listing_key(file_identity: &[u64; 7], guest_env: &[(String, String)]) -> String {
    let mut hasher = Sha256::new();
    // The version names what the harness adds to a listed tool (its view link, `_meta.ui`).
    hasher.update(b"media-mcp host-harness listing v4\0");
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update(b"\0");
    for part in file_identity {
        hasher.update(part.to_le_bytes());
    }
    for (name, value) in guest_env {
        // Length-prefixed, so no two environments hash the same byte stream.
        for part in [name, value] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
    }
    hex(&hasher.finalize()[..20])
}

fn listing_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.tools.json"))
}

/// The SHA-256 of the component a listing was made from (hex in the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComponentDigest(pub [u8; 32]);

impl ComponentDigest {
    /// Whether `wasm` is the component this digest was taken of.
    pub fn matches(&self, wasm: &[u8]) -> bool {
        component_digest(wasm) == self.0
    }
}

/// A cached listing as read from its file: the component it was made from and how many tools it
/// holds (its first line), and the tools as MCP `Tool` objects in JSON, parsed by [`tools`]
/// (a warm `serve` parses them while it answers `initialize`).
///
/// [`tools`]: CachedListing::tools
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedListing {
    /// SHA-256 of the component that listed the tools.
    pub component: ComponentDigest,
    /// How many tools the listing holds.
    pub count: usize,
    tools: Vec<u8>,
    /// SHA-256 of `tools` as written, and whether every tool's `outputSchema` (if any) has
    /// `"type": "object"` at its root (files written before these were recorded have neither).
    written: Option<([u8; 32], bool)>,
}

impl CachedListing {
    /// The tools, in the component's order.
    ///
    /// # Errors
    ///
    /// The file's tools are not a JSON array of as many MCP tools as its first line says.
    pub fn tools(&self) -> anyhow::Result<Vec<Tool>> {
        let tools: Vec<Tool> =
            serde_json::from_slice(&self.tools).context("the listed tools are not MCP tools")?;
        anyhow::ensure!(
            tools.len() == self.count,
            "the listing holds {} tools, not {}",
            tools.len(),
            self.count
        );
        Ok(tools)
    }

    /// The tools' JSON text, as the file holds it (`None` when it is not UTF-8).
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.tools).ok()
    }

    /// Whether `text` (this listing's [`text`](Self::text)) can answer `tools/list` before it is
    /// parsed: it is the text that was written (its SHA-256 matches), on one line, and rmcp
    /// would send it unchanged to a peer of any protocol version (it drops an `outputSchema`
    /// whose root type is not `"object"` for peers older than 2026-07-28).
    pub fn vouches_for(&self, text: &str) -> bool {
        self.written.is_some_and(|(digest, object_outputs)| {
            object_outputs && component_digest(text.as_bytes()) == digest && !holds_line_break(text)
        })
    }
}

/// Whether `text` holds a line break (it could not be written as one line of stdio MCP).
/// Searching the bytes for each one takes about 18 µs for the 137 KB listing; `str::contains`
/// with both characters as the pattern took 134 µs.
pub(crate) fn holds_line_break(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.contains(&b'\n') || bytes.contains(&b'\r')
}

/// A tool list's header fields after the count: the SHA-256 of its JSON text (hex) and
/// whether every output schema is object-rooted.
fn written_fields(text: &[u8], tools: &[Tool]) -> String {
    let object_outputs = tools.iter().all(|tool| {
        tool.output_schema
            .as_ref()
            .is_none_or(|schema| schema.get("type").and_then(|t| t.as_str()) == Some("object"))
    });
    let digest = hex(&component_digest(text));
    format!(
        "{digest} {}",
        if object_outputs {
            OBJECT_OUTPUTS
        } else {
            "other-outputs"
        }
    )
}

const OBJECT_OUTPUTS: &str = "object-outputs";

/// The cached listing under `key`, if there is a readable one. Its first line is the
/// component's SHA-256 (hex), the number of tools and (in files written since they were added)
/// the tools' SHA-256 and `object-outputs` or `other-outputs`; the rest is the tools as JSON.
pub fn load_listing(dir: &Path, key: &str) -> Option<CachedListing> {
    let path = listing_path(dir, key);
    let mut text = std::fs::read(&path).ok()?;
    let header = text.iter().position(|b| *b == b'\n').and_then(|end| {
        let line = std::str::from_utf8(&text[..end]).ok()?;
        let mut fields = line.split(' ');
        let (digest, count) = (unhex(fields.next()?)?, fields.next()?.parse().ok()?);
        let written = match (fields.next(), fields.next(), fields.next()) {
            (None, ..) => None,
            (Some(text), Some(outputs), None) => Some((unhex(text)?, outputs == OBJECT_OUTPUTS)),
            _ => return None,
        };
        Some((end, digest, count, written))
    });
    let Some((end, digest, count, written)) = header else {
        crate::log_warn!("ignoring unusable listing cache file {}", path.display());
        return None;
    };
    text.drain(..=end);
    Some(CachedListing {
        component: ComponentDigest(digest),
        count,
        tools: text,
        written,
    })
}

/// Removes the listing under `key` (one that no longer matches its component, or is damaged).
pub fn remove_listing(dir: &Path, key: &str) {
    let _ = std::fs::remove_file(listing_path(dir, key));
}

/// Stores `tools`, listed by the component whose [`component_digest`] is `component`, as the
/// listing under `key` (written aside, then renamed into place).
///
/// # Errors
///
/// The directory or file cannot be written.
pub fn store_listing(
    dir: &Path,
    key: &str,
    component: &[u8; 32],
    tools: &[Tool],
) -> anyhow::Result<()> {
    let digest = hex(component);
    let text = serde_json::to_vec(tools)?;
    let written = written_fields(&text, tools);
    let mut file = format!("{digest} {} {written}\n", tools.len()).into_bytes();
    file.extend_from_slice(&text);
    write_atomically(dir, &listing_path(dir, key), &file)
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Loads `wasm` (whose [`component_digest`] is `digest`) as a component, through the cache in
/// `cache_dir` when given.
///
/// # Errors
///
/// Only when the component itself does not compile; cache problems are logged and bypassed.
pub fn load_component(
    engine: &Engine,
    wasm: &[u8],
    digest: &[u8; 32],
    cache_dir: Option<&Path>,
) -> anyhow::Result<(Component, Provenance)> {
    let Some(dir) = cache_dir else {
        return Ok((compile(engine, wasm)?, Provenance::Compiled));
    };
    let path = dir.join(format!("{}.cwasm", cache_key(engine, digest)));
    if path.is_file() {
        match deserialize(engine, &path) {
            Ok(component) => return Ok((component, Provenance::Cached)),
            Err(error) => {
                crate::log_warn!("ignoring unusable cache file {}: {error:#}", path.display())
            }
        }
    }
    let component = compile(engine, wasm)?;
    match store(&component, dir, &path) {
        Ok(()) => Ok((component, Provenance::CompiledAndCached)),
        Err(error) => {
            warn_unwritable(dir, &error);
            Ok((component, Provenance::Compiled))
        }
    }
}

fn compile(engine: &Engine, wasm: &[u8]) -> anyhow::Result<Component> {
    Ok(Component::new(engine, wasm)?)
}

fn deserialize(engine: &Engine, path: &Path) -> anyhow::Result<Component> {
    // SAFETY: deserializing trusts the file to be wasmtime output. We only read files this
    // code wrote (named by a hash of their inputs, in the user's own cache directory) and
    // wasmtime still checks the header and engine compatibility before use.
    #[expect(
        unsafe_code,
        reason = "Component::deserialize_file is unsafe; the cache holds only our own output"
    )]
    let component = unsafe { Component::deserialize_file(engine, path) }?;
    Ok(component)
}

fn store(component: &Component, dir: &Path, path: &Path) -> anyhow::Result<()> {
    write_atomically(dir, path, &component.serialize()?)
}

/// Writes `bytes` to a temporary name in `dir` and renames it to `path`, so concurrent starts
/// never read half a file.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    create_private_dir(dir)?;
    let tmp: PathBuf = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("cache"),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}

/// Makes the directory and the `.cwasm` under `key` readable by every user: a cache baked
/// into an image at build time is read by whatever user the container runs as. Compiled code
/// holds nothing secret; listings, which reflect the environment, are not shared.
///
/// # Errors
///
/// The permissions cannot be set.
pub fn share(dir: &Path, key: &str) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let path = dir.join(format!("{key}.cwasm"));
        for (path, mode) in [(dir, 0o755), (path.as_path(), 0o644)] {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
                .with_context(|| format!("making {} readable", path.display()))?;
        }
    }
    #[cfg(not(unix))]
    let _ = (dir, key);
    Ok(())
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))
}

#[cfg(test)]
mod tests;
