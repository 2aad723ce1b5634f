//! The variable tables of docs/reference/configuration.md, rendered from [`VARIABLES`]. Each
//! section's table stands between `<!-- variables:KEY -->` and `<!-- /variables -->` (KEY from
//! [`Section::key`]); the prose around them is written by hand.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::variables::{Kind, Section, VARIABLES, Variable};

/// The line that closes a generated block.
pub const END_MARKER: &str = "<!-- /variables -->";

/// The line that opens `section`'s block.
pub fn start_marker(section: Section) -> String {
    format!("<!-- variables:{} -->", section.key())
}

/// The values a kind takes, as the reference's `values` column says them.
pub fn values(kind: Kind) -> String {
    match kind {
        Kind::Url => "URL".to_string(),
        Kind::Secret => "secret".to_string(),
        Kind::Switch => "switch (`1`/`0`)".to_string(),
        Kind::Number { min, max, default } => format!("{min}–{max}, default {default}"),
        Kind::Choice(words) => {
            let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
            format!("one of {}", words.join(", "))
        }
        Kind::List => "comma list".to_string(),
        Kind::Path => "path".to_string(),
        Kind::Text => "text".to_string(),
    }
}

/// A variable's `values` cell: its kind's values, and for a secret the file variable that
/// may hold it instead.
pub fn values_cell(v: &Variable) -> String {
    let mut cell = values(v.kind);
    if let Some(file) = v.file_variable() {
        if v.kind != Kind::Secret {
            cell.push_str(", secret");
        }
        cell.push_str(&format!("; or a file: `{file}`"));
    }
    cell
}

fn row(v: &Variable) -> String {
    format!("| `{}` | {} | {} |\n", v.name, values_cell(v), v.doc)
}

/// `section`'s table: a header and one row per variable, in `--help` order.
pub fn table(section: Section) -> String {
    let mut out = String::from("| variable | values | meaning |\n|---|---|---|\n");
    for v in VARIABLES.iter().filter(|v| v.section == section) {
        out.push_str(&row(v));
    }
    out
}

/// `section`'s whole block, markers included (each on its own line, a blank line between
/// them and the table), ending in a line break.
pub fn block(section: Section) -> String {
    format!(
        "{}\n\n{}\n{END_MARKER}\n",
        start_marker(section),
        table(section)
    )
}

/// `text` (the reference) with every section's block replaced by what the table says.
///
/// # Errors
///
/// A section whose markers are missing, or unclosed.
pub fn update(text: &str) -> Result<String, String> {
    let mut text = text.to_string();
    for section in Section::ALL {
        let start = start_marker(section);
        let from = text
            .find(&format!("{start}\n"))
            .ok_or_else(|| format!("no line `{start}`"))?;
        let end = text[from..]
            .find(&format!("{END_MARKER}\n"))
            .ok_or_else(|| format!("`{start}` is not closed by `{END_MARKER}`"))?;
        let to = from + end + END_MARKER.len() + 1;
        text.replace_range(from..to, &block(section));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_say_each_kind() {
        assert_eq!(values(Kind::Url), "URL");
        assert_eq!(values(Kind::Switch), "switch (`1`/`0`)");
        let number = Kind::Number {
            min: 1,
            max: 600,
            default: 60,
        };
        assert_eq!(values(number), "1–600, default 60");
        assert_eq!(values(Kind::Choice(&["a", "b"])), "one of `a`, `b`");
        assert_eq!(values(Kind::List), "comma list");
    }

    #[test]
    fn a_secret_s_cell_names_its_file_variable() {
        use crate::variables::{HTTP_TOKENS, OMBI_API_KEY, OMBI_URL};
        assert_eq!(
            values_cell(&OMBI_API_KEY),
            "secret; or a file: `OMBI_API_KEY_FILE`"
        );
        assert_eq!(
            values_cell(&HTTP_TOKENS),
            "text, secret; or a file: `MEDIA_MCP_HTTP_TOKENS_FILE`"
        );
        assert_eq!(values_cell(&OMBI_URL), "URL");
    }

    #[test]
    fn a_block_lists_its_section_in_table_order() {
        let block = block(Section::ToolSelection);
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines[0], "<!-- variables:tool-selection -->");
        assert_eq!(lines[1], "");
        assert_eq!(lines[2], "| variable | values | meaning |");
        assert!(lines[4].starts_with("| `MEDIA_MCP_READ_ONLY` | switch (`1`/`0`) | `1`: list"));
        assert!(lines[5].starts_with("| `MEDIA_MCP_TOOLS` | comma list | "));
        assert!(lines[6].starts_with("| `MEDIA_MCP_TOOLS_DENY` | comma list | "));
        assert_eq!(lines[7], "");
        assert_eq!(lines[8], END_MARKER);
        assert_eq!(lines.len(), 9);
    }

    #[test]
    fn update_replaces_every_block_and_keeps_the_prose() {
        let mut doc = String::from("# Title\n");
        for section in Section::ALL {
            doc.push_str(&format!(
                "\nProse.\n\n{}\n| stale |\n{END_MARKER}\n",
                start_marker(section)
            ));
        }
        let updated = update(&doc).unwrap();
        assert!(!updated.contains("stale"));
        assert_eq!(updated.matches("\nProse.\n").count(), Section::ALL.len());
        for section in Section::ALL {
            assert!(updated.contains(&block(section)));
        }
        assert_eq!(update(&updated).unwrap(), updated);
    }

    #[test]
    fn missing_or_unclosed_markers_are_errors() {
        assert!(update("# nothing").is_err());
        let unclosed = format!("{}\n| x |\n", start_marker(Section::Upstreams));
        assert!(update(&unclosed).is_err());
    }

    #[test]
    fn every_variable_has_a_one_line_doc_without_a_cell_break() {
        for v in VARIABLES {
            assert!(!v.doc.is_empty(), "{}", v.name);
            assert!(!v.doc.contains('\n') && !v.doc.contains('|'), "{}", v.name);
        }
    }
}
