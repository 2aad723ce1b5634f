//! A configuration problem found while reading the environment: the variable at fault and what
//! is wrong with it. Code decides by the variable, people read `"{variable} {message}"`.

use crate::prelude::*;
use core::fmt;

/// One variable the plugin could not use as given (its value is never part of the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The environment variable at fault.
    pub variable: &'static str,
    /// What is wrong, said after the variable's name.
    pub message: String,
}

impl ConfigProblem {
    /// `variable` could not be used: `message`.
    pub fn new(variable: &'static str, message: impl Into<String>) -> Self {
        Self {
            variable,
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.variable, self.message)
    }
}
