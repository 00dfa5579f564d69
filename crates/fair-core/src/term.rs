//! The nested call form of data-carrying values, e.g. `subset(group("race", "Black"), label(true))`.
//!
//! # Grammar
//!
//! ```text
//! term   = ws ( call | word | string ) ws
//! call   = word ws "(" ws [ term ( "," term )* ] ")"        nesting ≤ MAX_DEPTH calls
//! word   = one or more characters other than whitespace and  ( ) , " \ =
//!          (names and numbers: `true`, `0.5`, `-1e-3`, `positive`)
//! string = '"' ( any character but " and \  |  escape )* '"'
//! escape = \" | \\ | \n | \r | \t | \u{1 to 6 hex digits}   (a Unicode scalar value)
//! ws     = Unicode whitespace
//! ```
//!
//! [`quote`] writes the string form that [`unquote`] (and the reader) read back exactly: it
//! escapes `"`, `\`, newline, carriage return and tab by name and every other control character
//! as `\u{…}`; everything else (commas, parentheses, unicode, the empty string) is written as is.
//! A syntax error is a [`SyntaxError`] naming what was expected and the byte offset where it
//! was not found; no input makes the reader panic.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The deepest nesting of calls [`Term`]'s `FromStr` accepts (deeper input is a
/// [`SyntaxError`], so no input can exhaust the stack).
///
/// # Examples
/// ```
/// use fair_core::{Term, term::MAX_DEPTH};
/// let deep = "f(".repeat(MAX_DEPTH) + &")".repeat(MAX_DEPTH);
/// assert!(deep.parse::<Term>().is_ok());
/// let deeper = "f(".repeat(MAX_DEPTH + 1) + &")".repeat(MAX_DEPTH + 1);
/// assert!(deeper.parse::<Term>().unwrap_err().to_string().contains("nesting"));
/// ```
pub const MAX_DEPTH: usize = 64;

/// One value of the call form: a bare word, a quoted string or a call with arguments.
///
/// `Display` writes the canonical text (`name(a, b)` with `", "` between arguments, strings
/// through [`quote`]); `FromStr` reads any text of the grammar (see the [module](self) docs),
/// so `t.to_string().parse() == Ok(t)` for every term whose words and call names are words of
/// the grammar (non-empty, no whitespace or `( ) , " \ =`).
///
/// # Examples
/// ```
/// use fair_core::Term;
/// let t: Term = r#" subset( group("race", "Black, \"Hispanic\""), label(true) ) "#.parse()?;
/// let (name, args) = t.as_call().unwrap();
/// assert_eq!(name, "subset");
/// let (_, group) = args[0].as_call().unwrap();
/// assert_eq!(group[1], Term::Str(r#"Black, "Hispanic""#.into()));
/// assert_eq!(args[1].as_call().unwrap().1[0].as_word(), Some("true"));
/// assert_eq!(t.to_string(), r#"subset(group("race", "Black, \"Hispanic\""), label(true))"#);
/// # Ok::<(), fair_core::SyntaxError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Term {
    /// A bare word or number, e.g. `true`, `0.5`, `positive`.
    Word(String),
    /// A double-quoted string, unescaped (any text, possibly empty).
    Str(String),
    /// `name(args…)`; `name()` has no arguments.
    Call {
        /// The call's name (a word).
        name: String,
        /// The arguments, in order.
        args: Vec<Term>,
    },
}

impl Term {
    /// The name and arguments of a call; `None` for a word or a string.
    ///
    /// # Examples
    /// ```
    /// use fair_core::Term;
    /// let t: Term = "all()".parse()?;
    /// assert_eq!(t.as_call(), Some(("all", &[][..])));
    /// assert_eq!(Term::Word("all".into()).as_call(), None);
    /// # Ok::<(), fair_core::SyntaxError>(())
    /// ```
    pub fn as_call(&self) -> Option<(&str, &[Term])> {
        match self {
            Term::Call { name, args } => Some((name, args)),
            _ => None,
        }
    }

    /// The text of a bare word; `None` for a string or a call.
    ///
    /// # Examples
    /// ```
    /// use fair_core::Term;
    /// assert_eq!("0.5".parse::<Term>()?.as_word(), Some("0.5"));
    /// assert_eq!(r#""0.5""#.parse::<Term>()?.as_word(), None);
    /// # Ok::<(), fair_core::SyntaxError>(())
    /// ```
    pub fn as_word(&self) -> Option<&str> {
        match self {
            Term::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The text of a quoted string or of a bare word (where a name is expected, both are
    /// accepted: `mask(steering)` reads as `mask("steering")`); `None` for a call.
    ///
    /// # Examples
    /// ```
    /// use fair_core::Term;
    /// assert_eq!(r#""a b""#.parse::<Term>()?.as_text(), Some("a b"));
    /// assert_eq!("ab".parse::<Term>()?.as_text(), Some("ab"));
    /// assert_eq!("f()".parse::<Term>()?.as_text(), None);
    /// # Ok::<(), fair_core::SyntaxError>(())
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Term::Word(w) | Term::Str(w) => Some(w),
            Term::Call { .. } => None,
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Word(w) => f.write_str(w),
            Term::Str(s) => f.write_str(&quote(s)),
            Term::Call { name, args } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl FromStr for Term {
    type Err = SyntaxError;

    /// Reads one term; whitespace around it is allowed, anything else after it is an error.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut r = Reader { s, pos: 0 };
        let t = r.term(0)?;
        r.skip_ws();
        if r.pos < s.len() {
            return Err(r.error("end of input after the value"));
        }
        Ok(t)
    }
}

/// A text that is not of the call-form grammar: what was expected, at which byte offset, and
/// what was found there.
///
/// # Examples
/// ```
/// use fair_core::{SyntaxError, Term};
/// let e = "label(true".parse::<Term>().unwrap_err();
/// assert_eq!(e.at, 10);
/// assert_eq!(e.to_string(), "expected ',' or ')' at byte 10, found end of input");
/// let e = r#"mask("x)"#.parse::<Term>().unwrap_err();
/// assert!(e.expected.contains("closing '\"'"), "{e}");
/// ```
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("expected {expected} at byte {at}, found {found}")]
pub struct SyntaxError {
    /// Byte offset into the input where `expected` was not found.
    pub at: usize,
    /// What the reader expected there.
    pub expected: String,
    /// What it found: the character (quoted) or `end of input`.
    pub found: String,
}

/// Why a text is not a value of a type read in the call form: a [`SyntaxError`] (with its
/// byte offset), or a well-formed [`Term`] of the wrong shape (unknown name, wrong number of
/// arguments, an argument of the wrong kind). The message names the problem and lists the
/// accepted forms. The `FromStr` error of the data-carrying values that nest (game-opt's
/// `Filter`, `Subset`, `Atom`, `Rate`), as [`ParseEnumError`](crate::ParseEnumError) is that
/// of the unit enums.
///
/// # Examples
/// ```
/// use fair_core::{ParseTermError, Term};
/// // A toy `FromStr`: `flag(true)` or `flag(false)`.
/// fn flag(s: &str) -> Result<bool, ParseTermError> {
///     let t: Term = s.parse().map_err(|e| ParseTermError::syntax("flag", e))?;
///     match t.as_call() {
///         Some(("flag", [arg])) if arg.as_word() == Some("true") => Ok(true),
///         Some(("flag", [arg])) if arg.as_word() == Some("false") => Ok(false),
///         _ => Err(ParseTermError::form("flag", &t, "not a flag", "flag(true) or flag(false)")),
///     }
/// }
/// assert_eq!(flag(" flag( true )"), Ok(true));
/// assert_eq!(
///     flag("flag(maybe)").unwrap_err().to_string(),
///     "bad flag `flag(maybe)`: not a flag; expected flag(true) or flag(false)"
/// );
/// let e = flag("flag(true").unwrap_err();
/// assert!(matches!(e, ParseTermError::Syntax { .. }));
/// assert_eq!(e.to_string(), "cannot read flag: expected ',' or ')' at byte 9, found end of input");
/// ```
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseTermError {
    /// The text is not of the call-form grammar.
    #[error("cannot read {what}: {source}")]
    Syntax {
        /// What was parsed (e.g. `"rate"`).
        what: &'static str,
        /// Where and what.
        #[source]
        source: SyntaxError,
    },
    /// A well-formed value that is not a form of `what`.
    #[error("bad {what} `{got}`: {problem}; expected {expected}")]
    Form {
        /// What was expected at that place (e.g. `"filter"`, `"prediction"`).
        what: &'static str,
        /// The offending part, in canonical text (its [`Term`]'s `Display`).
        got: String,
        /// What is wrong with it (e.g. ``unknown name `recall` ``).
        problem: String,
        /// The accepted forms.
        expected: String,
    },
}

impl ParseTermError {
    /// A [`ParseTermError::Syntax`] for a text read as `what`.
    ///
    /// # Examples
    /// ```
    /// use fair_core::{ParseTermError, Term};
    /// let e = ParseTermError::syntax("rate", "f(".parse::<Term>().unwrap_err());
    /// assert_eq!(e.to_string(), "cannot read rate: expected a value (a word, a quoted string or a call) at byte 2, found end of input");
    /// ```
    pub fn syntax(what: &'static str, source: SyntaxError) -> Self {
        Self::Syntax { what, source }
    }

    /// A [`ParseTermError::Form`]: `got` is not a `what` because of `problem`; `expected` lists
    /// the accepted forms.
    ///
    /// # Examples
    /// ```
    /// use fair_core::{ParseTermError, Term};
    /// let e = ParseTermError::form("subset", &Term::Word("x".into()), "a bare word, not a call", "all()");
    /// assert_eq!(e.to_string(), "bad subset `x`: a bare word, not a call; expected all()");
    /// ```
    pub fn form(
        what: &'static str,
        got: &Term,
        problem: impl Into<String>,
        expected: impl Into<String>,
    ) -> Self {
        Self::Form {
            what,
            got: got.to_string(),
            problem: problem.into(),
            expected: expected.into(),
        }
    }
}

/// The string form of `s`: double-quoted, with `"` and `\` escaped, newline, carriage return and
/// tab written `\n`, `\r`, `\t`, other control characters `\u{…}` (lower-case hex), everything
/// else as is. [`unquote`] is its exact inverse.
///
/// # Examples
/// ```
/// use fair_core::{quote, unquote};
/// assert_eq!(quote(r#"a "b", \c"#), r#""a \"b\", \\c""#);
/// assert_eq!(quote("tab\there\u{7}"), r#""tab\there\u{7}""#);
/// assert_eq!(quote(""), r#""""#);
/// assert_eq!(unquote(&quote("é (x, y)")).as_deref(), Ok("é (x, y)"));
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Reads one quoted string (exactly: no whitespace around it) and returns its text; accepts
/// every escape of the grammar and raw characters (even control characters) between the quotes.
///
/// # Examples
/// ```
/// use fair_core::unquote;
/// assert_eq!(unquote(r#""a\u{e9}\"""#).as_deref(), Ok("aé\""));
/// let e = unquote(r#""a\qb""#).unwrap_err();
/// assert_eq!(e.at, 3);
/// assert!(unquote("abc").is_err());
/// assert!(unquote(r#""a" "#).is_err());
/// ```
pub fn unquote(s: &str) -> Result<String, SyntaxError> {
    let mut r = Reader { s, pos: 0 };
    let text = r.string()?;
    if r.pos < s.len() {
        return Err(r.error("end of input after the string"));
    }
    Ok(text)
}

/// Whether `c` may appear in a bare word.
fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '(' | ')' | ',' | '"' | '\\' | '=')
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos..).and_then(|rest| rest.chars().next())
    }

    fn bump(&mut self, c: char) {
        self.pos += c.len_utf8();
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.bump(c);
        }
    }

    fn error(&self, expected: impl Into<String>) -> SyntaxError {
        SyntaxError {
            at: self.pos,
            expected: expected.into(),
            found: match self.peek() {
                None => "end of input".into(),
                Some(c) => format!("{c:?}"),
            },
        }
    }

    fn term(&mut self, depth: usize) -> Result<Term, SyntaxError> {
        self.skip_ws();
        match self.peek() {
            Some('"') => {
                let s = self.string()?;
                self.skip_ws();
                Ok(Term::Str(s))
            }
            Some(c) if is_word_char(c) => {
                let start = self.pos;
                while let Some(c) = self.peek().filter(|&c| is_word_char(c)) {
                    self.bump(c);
                }
                let word = self.s[start..self.pos].to_string();
                self.skip_ws();
                if self.peek() != Some('(') {
                    return Ok(Term::Word(word));
                }
                if depth >= MAX_DEPTH {
                    return Err(self.error(format!("no nesting deeper than {MAX_DEPTH} calls")));
                }
                self.bump('(');
                let args = self.args(depth + 1)?;
                self.skip_ws();
                Ok(Term::Call { name: word, args })
            }
            _ => Err(self.error("a value (a word, a quoted string or a call)")),
        }
    }

    /// The arguments after `(`, through the closing `)`.
    fn args(&mut self, depth: usize) -> Result<Vec<Term>, SyntaxError> {
        let mut args = Vec::new();
        self.skip_ws();
        if self.peek() == Some(')') {
            self.bump(')');
            return Ok(args);
        }
        loop {
            args.push(self.term(depth)?);
            match self.peek() {
                Some(',') => self.bump(','),
                Some(')') => {
                    self.bump(')');
                    return Ok(args);
                }
                _ => return Err(self.error("',' or ')'")),
            }
        }
    }

    /// A quoted string starting at `pos`.
    fn string(&mut self) -> Result<String, SyntaxError> {
        let open = self.pos;
        if self.peek() != Some('"') {
            return Err(self.error("'\"' (a quoted string)"));
        }
        self.bump('"');
        let mut out = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(self.error(format!("closing '\"' (string opened at byte {open})")));
                }
                Some('"') => {
                    self.bump('"');
                    return Ok(out);
                }
                Some('\\') => {
                    self.bump('\\');
                    out.push(self.escape()?);
                }
                Some(c) => {
                    self.bump(c);
                    out.push(c);
                }
            }
        }
    }

    /// The character of the escape after a `\`.
    fn escape(&mut self) -> Result<char, SyntaxError> {
        let c = match self.peek() {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('u') => return self.unicode_escape(),
            _ => return Err(self.error(r#"an escape (\" \\ \n \r \t or \u{hex})"#)),
        };
        self.pos += 1; // the escape letter is ASCII
        Ok(c)
    }

    /// The character of `\u{hex}`, from the `u`.
    fn unicode_escape(&mut self) -> Result<char, SyntaxError> {
        self.bump('u');
        if self.peek() != Some('{') {
            return Err(self.error(r"'{' after \u"));
        }
        self.bump('{');
        let start = self.pos;
        while let Some(c) = self.peek().filter(char::is_ascii_hexdigit) {
            if self.pos - start == 6 {
                return Err(self.error("'}' (at most 6 hex digits)"));
            }
            self.bump(c);
        }
        if self.pos == start {
            return Err(self.error(r"a hex digit in \u{…}"));
        }
        let digits = &self.s[start..self.pos];
        if self.peek() != Some('}') {
            return Err(self.error(r"'}' closing \u{…}"));
        }
        let c = u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| SyntaxError {
                at: start,
                expected: "a Unicode scalar value (not a surrogate, at most 10ffff)".into(),
                found: format!("{digits:?}"),
            })?;
        self.bump('}');
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_calls_words_and_strings() {
        let t: Term = r#"f( a ,g("x\ty"),h ( ) , "" )"#.parse().unwrap();
        assert_eq!(
            t,
            Term::Call {
                name: "f".into(),
                args: vec![
                    Term::Word("a".into()),
                    Term::Call {
                        name: "g".into(),
                        args: vec![Term::Str("x\ty".into())]
                    },
                    Term::Call {
                        name: "h".into(),
                        args: vec![]
                    },
                    Term::Str(String::new()),
                ]
            }
        );
        assert_eq!(t.to_string(), r#"f(a, g("x\ty"), h(), "")"#);
    }

    #[test]
    fn errors_name_the_position() {
        let cases: [(&str, usize, &str); 12] = [
            ("", 0, "a value"),
            ("   ", 3, "a value"),
            ("f(a,)", 4, "a value"),
            ("f(a b)", 4, "',' or ')'"),
            ("f(a", 3, "',' or ')'"),
            ("f(a))", 4, "end of input"),
            ("a b", 2, "end of input"),
            (r#""abc"#, 4, "closing '\"' (string opened at byte 0)"),
            (r#""\x""#, 2, "an escape"),
            (r#""\u{110000}""#, 4, "a Unicode scalar value"),
            (r#""\u{1234567}""#, 10, "at most 6 hex digits"),
            (r#""\u{d800}""#, 4, "a Unicode scalar value"),
        ];
        for (s, at, expected) in cases {
            let e = s.parse::<Term>().unwrap_err();
            assert_eq!(e.at, at, "{s}: {e}");
            assert!(e.expected.contains(expected), "{s}: {e}");
        }
    }

    #[test]
    fn every_escape_reads() {
        assert_eq!(
            unquote(r#""\"\\\n\r\t\u{0}\u{10FFFF}é""#).as_deref(),
            Ok("\"\\\n\r\t\0\u{10ffff}é")
        );
        assert!(unquote(r#""\u{}""#).is_err());
        assert!(unquote(r#""\u12""#).is_err());
        assert!(unquote(r#""\u{12""#).is_err());
        assert!(unquote("\"\\").is_err());
    }
}
