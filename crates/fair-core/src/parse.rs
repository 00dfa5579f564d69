//! The error of every `FromStr` of a fairkit enum.

use thiserror::Error;

/// A string that names no variant of an enum; the message lists the accepted spellings.
///
/// # Examples
/// ```
/// use fair_core::{ParseEnumError, Termination};
/// let err = "done".parse::<Termination>().unwrap_err();
/// assert_eq!(err.what, "termination");
/// assert!(err.to_string().contains("\"converged\""));
/// ```
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown {what} {got:?}: expected one of {expected}")]
pub struct ParseEnumError {
    /// Which kind of value was parsed (e.g. `"termination"`, `"kernel"`).
    pub what: &'static str,
    /// The string that was given.
    pub got: String,
    /// The accepted spellings, quoted and comma separated.
    pub expected: String,
}

impl ParseEnumError {
    /// An error for `got`, listing `accepted` (each is quoted in the message).
    ///
    /// # Examples
    /// ```
    /// use fair_core::ParseEnumError;
    /// let e = ParseEnumError::new("kernel", "poly", &["linear", "rbf"]);
    /// assert_eq!(e.to_string(), r#"unknown kernel "poly": expected one of "linear", "rbf""#);
    /// ```
    pub fn new(what: &'static str, got: &str, accepted: &[&str]) -> Self {
        Self {
            what,
            got: got.to_string(),
            expected: accepted
                .iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
