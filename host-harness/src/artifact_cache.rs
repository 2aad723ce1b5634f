//! Compiled-component cache: `Component::serialize` output in `<cache dir>/<key>.cwasm`, so a
//! second start loads machine code (~0.3 ms) instead of compiling with Cranelift (~0.2-3 s).
//!
//! The key is a SHA-256 over the component bytes, the wasmtime version and the engine's
//! compatibility hash (its compile-relevant configuration), so a changed component, a wasmtime
//! upgrade or different engine settings never load a stale artifact. A file that fails to
//! deserialize anyway is recompiled and replaced. Files are written to a temporary name and
//! renamed into place, so concurrent starts never see half a file.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
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

/// The cache file name for `wasm` compiled by `engine`.
pub fn cache_key(engine: &Engine, wasm: &[u8]) -> String {
    let mut hasher = ShaHasher(Sha256::new());
    hasher.write(b"media-mcp host-harness cwasm v1\0");
    hasher.write(env!("CARGO_PKG_VERSION").as_bytes());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.write(&Sha256::digest(wasm));
    let digest = hasher.0.finalize();
    digest.iter().take(20).map(|b| format!("{b:02x}")).collect()
}

/// Loads `wasm` as a component, through the cache in `cache_dir` when given.
///
/// # Errors
///
/// Only when the component itself does not compile; cache problems are logged and bypassed.
pub fn load_component(
    engine: &Engine,
    wasm: &[u8],
    cache_dir: Option<&Path>,
) -> anyhow::Result<(Component, Provenance)> {
    let Some(dir) = cache_dir else {
        return Ok((compile(engine, wasm)?, Provenance::Compiled));
    };
    let path = dir.join(format!("{}.cwasm", cache_key(engine, wasm)));
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
            crate::log_warn!(
                "cannot write the component cache in {}: {error:#}",
                dir.display()
            );
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
    create_private_dir(dir)?;
    let bytes = component.serialize()?;
    let tmp: PathBuf = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("cwasm"),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
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
