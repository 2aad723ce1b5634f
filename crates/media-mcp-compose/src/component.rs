//! `component CORE OUT`: the componentization wasm-component-ld does after linking, for a core
//! module linked with `--skip-wit-component` (and optimized by `wasm-opt` in between). The
//! world, the imports' and exports' names and the string encoding all come from the
//! `component-type:*` custom sections wit-bindgen embeds in the module.

use std::path::Path;

use anyhow::{Context as _, bail};
use wasmparser::{Parser, Payload};

/// The prefix of the custom sections wit-bindgen embeds (one per `generate!`d world).
const COMPONENT_TYPE: &str = "component-type";

/// Writes the component made of the core module at `core` to `out`; returns the sizes of the
/// module and of the component.
pub(crate) fn encode(core: &Path, out: &Path) -> anyhow::Result<(usize, usize)> {
    let module = std::fs::read(core).with_context(|| format!("reading {}", core.display()))?;
    let sections =
        component_type_sections(&module).with_context(|| format!("parsing {}", core.display()))?;
    // Without them the encoder would make a component of an empty world, which exports
    // nothing: a step that dropped custom sections (an optimizer's flag) must fail here.
    if sections == 0 {
        bail!(
            "{} has no `{COMPONENT_TYPE}` custom section (stripped, or not a wit-bindgen module)",
            core.display()
        );
    }
    let component = wit_component::ComponentEncoder::default()
        .validate(true)
        .module(&module)
        .with_context(|| format!("decoding the component type of {}", core.display()))?
        .encode()
        .with_context(|| format!("encoding {} as a component", core.display()))?;
    std::fs::write(out, &component).with_context(|| format!("writing {}", out.display()))?;
    Ok((module.len(), component.len()))
}

/// How many `component-type*` custom sections a core module has; an error when it is a
/// component already or not wasm at all.
fn component_type_sections(module: &[u8]) -> anyhow::Result<usize> {
    let mut count = 0;
    for payload in Parser::new(0).parse_all(module) {
        match payload? {
            Payload::Version { encoding, .. } if encoding != wasmparser::Encoding::Module => {
                bail!("not a core module (already a component?)");
            }
            Payload::CustomSection(section) if section.name().starts_with(COMPONENT_TYPE) => {
                count += 1;
            }
            _ => {}
        }
    }
    Ok(count)
}
