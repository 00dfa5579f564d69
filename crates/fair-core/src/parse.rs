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

/// Implements `Display`, `FromStr` (with [`ParseEnumError`]) and `as_str`/`NAMES` for an enum of
/// unit variants, once, in the crate that owns it. Each variant has one `Display` name (the
/// spelling the front ends use, e.g. Python's `"cross_entropy"`) and may accept aliases.
///
/// # Examples
/// ```
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// pub enum Divergence { Kl, CrossEntropy }
/// fair_core::string_enum!(Divergence, "divergence", {
///     Kl => "kl" | "kullback_leibler",
///     CrossEntropy => "cross_entropy",
/// });
/// assert_eq!(Divergence::CrossEntropy.to_string(), "cross_entropy");
/// assert_eq!("kullback_leibler".parse::<Divergence>(), Ok(Divergence::Kl));
/// assert_eq!(Divergence::NAMES, ["kl", "cross_entropy"]);
/// let err = "ce".parse::<Divergence>().unwrap_err();
/// assert_eq!(err.to_string(), r#"unknown divergence "ce": expected one of "kl", "kullback_leibler", "cross_entropy""#);
/// ```
#[macro_export]
macro_rules! string_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal $(| $alias:literal)*),+ $(,)? }) => {
        impl $ty {
            /// The `Display` names of the variants, in declaration order (aliases excluded).
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The `Display` name (accepted by `FromStr`).
            pub const fn as_str(&self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::ParseEnumError;

            /// Parses a `Display` name or an alias; the error lists every accepted spelling.
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                match s {
                    $($name $(| $alias)* => Ok($ty::$variant),)+
                    _ => Err($crate::ParseEnumError::new(
                        $what,
                        s,
                        &[$($name $(, $alias)*),+],
                    )),
                }
            }
        }
    };
}

/// Splits the call form `name(a, b, …)` of a data-carrying enum's `Display` into the name and
/// its trimmed, comma-separated arguments (`name()` gives no arguments); `None` when `s` is not
/// of that form. Spaces are allowed around the whole string, the name and each argument. The
/// caller parses the arguments and builds its error (a [`ParseEnumError`] listing the forms).
///
/// # Examples
/// ```
/// use fair_core::split_call;
/// assert_eq!(split_call(" box( -1, 0.25 ) "), Some(("box", vec!["-1", "0.25"])));
/// assert_eq!(split_call("ball()"), Some(("ball", vec![])));
/// assert_eq!(split_call("whole"), None);
/// assert_eq!(split_call("ball(1"), None);
/// assert_eq!(split_call("(1)"), None);
/// ```
pub fn split_call(s: &str) -> Option<(&str, Vec<&str>)> {
    let (name, rest) = s.trim().split_once('(')?;
    let inner = rest.strip_suffix(')')?;
    let name = name.trim();
    if name.is_empty() || inner.contains(['(', ')']) {
        return None;
    }
    let args = if inner.trim().is_empty() {
        Vec::new()
    } else {
        inner.split(',').map(str::trim).collect()
    };
    Some((name, args))
}
