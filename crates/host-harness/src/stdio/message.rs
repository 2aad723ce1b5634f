//! Parsing one input message within a budget, and noticing keys given twice.
//!
//! `serde_json::Value` costs far more than the text it comes from: each of the 4 million zeros
//! of an 8 MB line is a 32-byte `Value` in a growing vector, and rmcp parses the line again into
//! its own types. So the parse counts every JSON value as it is read and stops at
//! [`MAX_MESSAGE_VALUES`], before the graph is built; what is held for one message is then
//! bounded by the line cap and the value budget together. Nesting is bounded by serde_json's
//! own recursion limit (128).
//!
//! A key given twice in one object makes a message ambiguous (serde_json keeps the last, rmcp's
//! typed parse refuses it and answers "method not found"). The parse keeps going and reports
//! the first such key with its path, so the answer can name it.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Most JSON values (objects, arrays, strings, numbers, booleans, nulls, each counting one) one
/// input message may hold.
pub const MAX_MESSAGE_VALUES: usize = 10_000;

/// Why a line was not read as a message.
#[derive(Debug)]
pub enum Refusal {
    /// Not JSON (or nested deeper than serde_json's recursion limit).
    Syntax(serde_json::Error),
    /// More than [`MAX_MESSAGE_VALUES`] values; reading stopped there.
    TooManyValues,
}

/// A key given twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// Where the object is: `""` for the message itself, else like `params.arguments` or
    /// `params.items[2]`.
    pub path: String,
    /// The key.
    pub key: String,
}

/// A message read within the budget.
#[derive(Debug)]
pub struct Parsed {
    /// The message (for a duplicated key, its last value).
    pub value: Value,
    /// The first key given twice, if any.
    pub duplicate: Option<Duplicate>,
}

/// Parses one message, counting values and looking for keys given twice.
///
/// # Errors
///
/// [`Refusal`] when the bytes are not one JSON value or hold too many values.
pub fn parse(bytes: &[u8]) -> Result<Parsed, Refusal> {
    let state = State::default();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Node {
        state: &state,
        path: &Path::Root,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    match value {
        Ok(value) => Ok(Parsed {
            value,
            duplicate: state.duplicate.into_inner(),
        }),
        Err(_) if state.values.get() > MAX_MESSAGE_VALUES => Err(Refusal::TooManyValues),
        Err(error) => Err(Refusal::Syntax(error)),
    }
}

#[derive(Default)]
struct State {
    values: Cell<usize>,
    duplicate: RefCell<Option<Duplicate>>,
}

impl State {
    fn count<E: serde::de::Error>(&self) -> Result<(), E> {
        let n = self.values.get() + 1;
        self.values.set(n);
        if n > MAX_MESSAGE_VALUES {
            return Err(E::custom("too many values"));
        }
        Ok(())
    }
}

/// Where a value sits, as a chain back to the root (built only when a duplicate is reported).
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Deserializes one value at `path`.
struct Node<'a> {
    state: &'a State,
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.state.count()?;
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number JSON cannot carry"))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.state.count()?;
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.state.count()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Node {
            state: self.state,
            path: &Path::Index(self.path, items.len()),
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.state.count()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Node {
                state: self.state,
                path: &Path::Key(self.path, &key),
            })?;
            if object.contains_key(&key) {
                let mut first = self.state.duplicate.borrow_mut();
                if first.is_none() {
                    *first = Some(Duplicate {
                        path: self.path.to_string(),
                        key: key.clone(),
                    });
                }
            }
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests;
