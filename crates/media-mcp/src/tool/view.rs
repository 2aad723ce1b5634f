//! An argument that selects which operation a tool runs, as a table of [`View`]s: each value
//! with its description, the result families it answers with and its handler, as rmcp's
//! `ToolRoute` pairs a tool's metadata with its handler. The argument's schema property
//! ([`Views::property`]) and the dispatch ([`Views::select`]) both come from the table, so a
//! value cannot be offered without code, and an unknown value runs no view's code.

use super::args::Args;
use crate::contract::ToolError;
use crate::prelude::*;
use serde_json::{Value, json};

/// One value of a selector argument.
pub struct View<H> {
    /// The value, as the schema's `enum` lists it.
    pub name: &'static str,
    /// What the value selects, in the selector's description ([`Prose`]); empty under
    /// [`Prose::Whole`].
    pub description: &'static str,
    /// The result families it answers with.
    pub families: &'static [&'static str],
    /// The code it runs (`H` is the tool's own view handler type).
    pub handler: H,
}

impl<H> View<H> {
    /// A view without a description of its own, for a selector described as a whole
    /// ([`Prose::Whole`]).
    pub const fn undescribed(
        name: &'static str,
        families: &'static [&'static str],
        handler: H,
    ) -> Self {
        View {
            name,
            description: "",
            families,
            handler,
        }
    }
}

/// How a view's name and description are written in a [`Prose::Joined`] description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gloss {
    /// `name: description`.
    Colon,
    /// `name (description)`, or the bare name when the description is empty.
    Paren,
    /// `name description`: the name begins the phrase.
    Space,
    /// The description alone.
    Bare,
}

impl Gloss {
    fn write(self, name: &str, description: &str) -> String {
        match self {
            Gloss::Colon => format!("{name}: {description}"),
            Gloss::Paren if description.is_empty() => name.to_owned(),
            Gloss::Paren => format!("{name} ({description})"),
            Gloss::Space => format!("{name} {description}"),
            Gloss::Bare => description.to_owned(),
        }
    }
}

/// How the selector's description is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prose {
    /// `intro`, then each view as `gloss` says, separated by `sep` (`last` before the last
    /// one), then `end`.
    Joined {
        intro: &'static str,
        gloss: Gloss,
        sep: &'static str,
        last: &'static str,
        end: &'static str,
    },
    /// The selector's own text, for prose that groups views or does not name them; the views'
    /// descriptions are then empty.
    Whole(&'static str),
}

impl Prose {
    /// `name: description; name: description.`
    pub const GLOSSARY: Prose = Prose::Joined {
        intro: "",
        gloss: Gloss::Colon,
        sep: "; ",
        last: "; ",
        end: ".",
    };
}

/// A selector argument (`field`) and its views, in schema order.
pub struct Views<H: 'static> {
    /// The argument's name.
    pub field: &'static str,
    /// The view an absent argument selects (the schema's `default`).
    pub default: Option<&'static str>,
    /// How the argument's description is written.
    pub prose: Prose,
    /// The views, in the order the schema's `enum` lists them.
    pub views: &'static [View<H>],
}

impl<H: 'static> Views<H> {
    /// The views' names, in table order.
    pub fn names(&self) -> Vec<&'static str> {
        self.views.iter().map(|v| v.name).collect()
    }

    /// The argument's description, written from the table as [`Prose`] says.
    pub fn description(&self) -> String {
        match self.prose {
            Prose::Whole(text) => {
                debug_assert!(
                    self.views.iter().all(|v| v.description.is_empty()),
                    "{}: a view description that Prose::Whole does not publish",
                    self.field
                );
                text.to_owned()
            }
            Prose::Joined {
                intro,
                gloss,
                sep,
                last,
                end,
            } => {
                let mut out = intro.to_owned();
                for (i, view) in self.views.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if i + 1 == self.views.len() { last } else { sep });
                    }
                    out.push_str(&gloss.write(view.name, view.description));
                }
                out.push_str(end);
                out
            }
        }
    }

    /// The argument's schema property: `enum` (the names in table order), `default` when
    /// there is one, and `description`.
    pub fn property(&self) -> Value {
        let mut property = json!({"enum": self.names(), "description": self.description()});
        if let Some(default) = self.default {
            property["default"] = json!(default);
        }
        property
    }

    /// The view named `name`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the field when no view has that name.
    pub fn get(&self, name: &str) -> Result<&View<H>, ToolError> {
        self.views.iter().find(|v| v.name == name).ok_or_else(|| {
            ToolError::invalid_argument(self.field, format!("unknown {} {name:?}", self.field))
        })
    }

    /// The view `args` select (the schema's `default` fills in an absent argument).
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when the argument is absent (schema and table disagree);
    /// `INVALID_ARGUMENT` naming the field when no view has its value.
    pub fn select(&self, args: &Args) -> Result<&View<H>, ToolError> {
        self.get(args.str(self.field)?)
    }
}

/// A [`Views`] table as the registry and tests see it, whatever its handler type.
pub trait ViewTable: Sync {
    /// The selector argument's name.
    fn field(&self) -> &'static str;
    /// The view names, in table order.
    fn names(&self) -> Vec<&'static str>;
    /// The selector's schema property as the table writes it.
    fn property(&self) -> Value;
    /// The result families view `name` answers with.
    fn families(&self, name: &str) -> Option<&'static [&'static str]>;
}

impl<H: Sync + 'static> ViewTable for Views<H> {
    fn field(&self) -> &'static str {
        self.field
    }

    fn names(&self) -> Vec<&'static str> {
        Views::names(self)
    }

    fn property(&self) -> Value {
        Views::property(self)
    }

    fn families(&self, name: &str) -> Option<&'static [&'static str]> {
        self.get(name).ok().map(|v| v.families)
    }
}

#[cfg(test)]
mod tests;
