//! What the configuration table says about one variable: its name, help, who reads it and
//! the kind of value it takes.

/// Who reads a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The harness only; never passed to the component.
    Host,
    /// The component, which gets it unchanged (the harness may check it at start too).
    Guest,
    /// The harness, which hands the component its checked form (an upstream's URL, the user;
    /// a key only in pass-key mode).
    Both,
}

/// The kind of value a variable takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An http(s) URL.
    Url,
    /// A credential: never echoed, never logged.
    Secret,
    /// 1/0, true/false, yes/no or on/off; unset is off.
    Switch,
    /// A whole number within bounds.
    Number {
        /// Smallest value accepted.
        min: u64,
        /// Largest value accepted.
        max: u64,
        /// The value when unset.
        default: u64,
    },
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// A comma list.
    List,
    /// A file or directory.
    Path,
    /// Text with its own grammar, stated in the help.
    Text,
}

/// One recognised configuration variable.
#[derive(Debug)]
pub struct Variable {
    /// Environment variable (and config-file key) name.
    pub name: &'static str,
    /// One-line description for `--help`; a number's bounds and default are added from `kind`.
    pub help: &'static str,
    /// Who reads it.
    pub scope: Scope,
    /// What values it takes.
    pub kind: Kind,
}

impl Variable {
    /// The `--help` description: the help text and, for a number, its bounds and default.
    pub fn described(&self) -> String {
        match self.kind {
            Kind::Number { min, max, default } => {
                format!("{} [{min}-{max}, default {default}]", self.help)
            }
            Kind::Choice(words) => format!("{} [{}]", self.help, words.join(" | ")),
            _ => self.help.to_owned(),
        }
    }
}
