//! docs/reference/configuration.md's variable tables are what `variables::reference` renders
//! from the table. `MEDIA_MCP_UPDATE_DOCS=1` rewrites the file instead of failing.

use media_mcp_wire::reference::{block, update};
use media_mcp_wire::variables::Section;

const REFERENCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/reference/configuration.md"
);

#[test]
fn the_configuration_reference_tables_are_generated_from_the_variables() {
    let text = std::fs::read_to_string(REFERENCE).expect("read the configuration reference");
    let wanted = update(&text).unwrap_or_else(|e| panic!("{REFERENCE}: {e}"));
    if wanted == text {
        return;
    }
    if std::env::var_os("MEDIA_MCP_UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(REFERENCE, &wanted).expect("write the configuration reference");
        return;
    }
    let stale: Vec<String> = Section::ALL
        .into_iter()
        .map(block)
        .filter(|b| !text.contains(b.as_str()))
        .collect();
    panic!(
        "{REFERENCE} is stale: run with MEDIA_MCP_UPDATE_DOCS=1, or replace these blocks:\n\n{}",
        stale.join("\n")
    );
}
