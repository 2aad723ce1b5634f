//! Raw values by variable name, from the environment and a config file, before validation;
//! the error that names a variable; the wrapper that keeps a secret out of `Debug`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use media_mcp_wire::settings::switch;

use super::table::{Kind, VARIABLES, Variable, is_recognised};

/// A configuration problem, naming the variable (or `--config`) it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable, flag or file the problem is about.
    pub variable: String,
    /// What is wrong; never contains a secret value.
    pub message: String,
}

impl ConfigError {
    pub(super) fn new(variable: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            variable: variable.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// A secret value; `Debug` and `Display` print a placeholder.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself, for the one place that needs it (header injection, guest env).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// `text` without one trailing `\n` or `\r\n`.
fn strip_line_end(text: &str) -> &str {
    text.strip_suffix('\n')
        .map_or(text, |t| t.strip_suffix('\r').unwrap_or(t))
}

/// Raw values by variable name, before validation.
#[derive(Debug, Default, Clone)]
pub struct RawSettings {
    values: BTreeMap<String, String>,
    /// Variables given with an empty value (and no value in a higher layer).
    empty: BTreeSet<String>,
}

impl RawSettings {
    /// Keeps the recognised variables and the pass-through prefixes from `env`, plus the
    /// locations the default cache directory is derived from (`XDG_CACHE_HOME`, `HOME`).
    pub fn from_env<I, K, V>(env: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut raw = RawSettings::default();
        for (name, value) in env {
            let name = name.into();
            if is_recognised(&name) || name == "XDG_CACHE_HOME" || name == "HOME" {
                raw.set(name, value.into());
            }
        }
        raw
    }

    /// Parses a config file's text; keys are variable names, values strings, numbers or booleans.
    ///
    /// # Errors
    ///
    /// A syntax error, a nested value, or an unknown key (a likely typo).
    pub(crate) fn from_file_text(
        text: &str,
        json: bool,
        origin: &str,
    ) -> Result<Self, ConfigError> {
        let err = |message: String| ConfigError::new(origin, message);
        let table: BTreeMap<String, serde_json::Value> = if json {
            serde_json::from_str(text)
                .map_err(|e| err(format!("not a JSON object of settings: {e}")))?
        } else {
            let table: toml::Table =
                toml::from_str(text).map_err(|e| err(format!("not valid TOML: {e}")))?;
            let value = serde_json::to_value(table).map_err(|e| err(e.to_string()))?;
            serde_json::from_value(value).map_err(|e| err(e.to_string()))?
        };
        let mut raw = RawSettings::default();
        for (key, value) in table {
            if !is_recognised(&key) {
                return Err(err(format!(
                    "unknown setting {key} (see --help for the variables)"
                )));
            }
            let value = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Bool(b) => if b { "1" } else { "0" }.to_owned(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err(err(format!("{key} must be a string, number or boolean"))),
            };
            raw.set(key, value);
        }
        Ok(raw)
    }

    /// Reads a config file from disk; see [`RawSettings::from_file_text`].
    ///
    /// # Errors
    ///
    /// The file cannot be read or parsed.
    pub(crate) fn from_file(path: &Path) -> Result<Self, ConfigError> {
        let origin = format!("--config {}", path.display());
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(&origin, format!("cannot read: {e}")))?;
        let json = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
        Self::from_file_text(&text, json, &origin)
    }

    /// Sets a value; an empty one removes the variable (and is remembered as given empty).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        if value.is_empty() {
            self.values.remove(&name);
            self.empty.insert(name);
        } else {
            self.empty.remove(&name);
            self.values.insert(name, value);
        }
    }

    /// Values of `self` win over those of `lower`; a value in `lower` fills one that is empty
    /// in `self`.
    pub fn over(mut self, lower: RawSettings) -> Self {
        for (name, value) in lower.values {
            self.empty.remove(&name);
            self.values.entry(name).or_insert(value);
        }
        for name in lower.empty {
            if !self.values.contains_key(&name) {
                self.empty.insert(name);
            }
        }
        self
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub(super) fn is_given_empty(&self, name: &str) -> bool {
        self.empty.contains(name)
    }

    /// Every value given, by name.
    pub(super) fn values(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Replaces each secret's file variable (`OMBI_API_KEY_FILE`) by the secret itself, read
    /// with `read` from the file it names: without one trailing `\n` or `\r\n` (what
    /// `echo KEY > file` adds), otherwise unchanged; an empty file counts as an empty value.
    /// Every secret is read this way, so none reaches the component or the pass-through under
    /// its file variable's name.
    ///
    /// # Errors
    ///
    /// Both a secret and its file variable are set (naming both), or the file cannot be read
    /// or is not UTF-8 (naming the file variable and the path, never the content).
    pub(super) fn with_secret_files(
        mut self,
        read: impl Fn(&Path) -> std::io::Result<Vec<u8>>,
    ) -> Result<Self, ConfigError> {
        for secret in VARIABLES.iter().filter(|v| v.secret) {
            let Some(file_var) = secret.file_variable() else {
                continue;
            };
            self.empty.remove(&file_var);
            let Some(path) = self.values.remove(&file_var) else {
                continue;
            };
            if self.values.contains_key(secret.name) {
                return Err(ConfigError::new(
                    format!("{} and {file_var}", secret.name),
                    "both are set: set the secret or the file that holds it, not both",
                ));
            }
            let bytes = read(Path::new(&path)).map_err(|e| {
                ConfigError::new(&file_var, format!("cannot read the file {path} ({e})"))
            })?;
            let text = String::from_utf8(bytes).map_err(|_| {
                ConfigError::new(&file_var, format!("the file {path} is not UTF-8 text"))
            })?;
            self.set(secret.name, strip_line_end(&text));
        }
        Ok(self)
    }

    /// A number variable's value, or its table default when unset.
    ///
    /// # Errors
    ///
    /// Not a whole number within the variable's bounds.
    pub(super) fn number(&self, var: &Variable) -> Result<u64, ConfigError> {
        let Kind::Number { default, .. } = var.kind else {
            unreachable!("{} is not a number in the table", var.name)
        };
        self.number_or(var, default)
    }

    /// A number variable's value, or `default` when unset (for defaults that depend on other
    /// settings).
    ///
    /// # Errors
    ///
    /// Not a whole number within the variable's bounds.
    pub(super) fn number_or(&self, var: &Variable, default: u64) -> Result<u64, ConfigError> {
        let Kind::Number { min, max, .. } = var.kind else {
            unreachable!("{} is not a number in the table", var.name)
        };
        let Some(text) = self.get(var.name) else {
            return Ok(default);
        };
        match text.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(ConfigError::new(
                var.name,
                format!("must be a whole number from {min} to {max}"),
            )),
        }
    }

    /// A switch; unset is off.
    ///
    /// # Errors
    ///
    /// Not one of the switch words.
    pub(super) fn switch(&self, var: &Variable) -> Result<bool, ConfigError> {
        match self.get(var.name) {
            None => Ok(false),
            Some(v) => switch(v).ok_or_else(|| {
                ConfigError::new(var.name, "must be 1/0, true/false, yes/no or on/off")
            }),
        }
    }
}
