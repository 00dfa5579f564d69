//! `--fail-if`: a tiny expression language over the report's headline numbers, for CI gates.
//!
//! ```text
//! expr       := conjunction (("||" | "or") conjunction)*
//! conjunction:= comparison  (("&&" | "and") comparison)*
//! comparison := KEY OP NUMBER
//! OP         := ">" | ">=" | "<" | "<="
//! KEY        := a headline key of report.json, e.g. dp_difference, eo_ratio, ks_dp
//! ```
//! `and` binds tighter than `or`, as in every programming language. Example:
//! `dp_difference>0.1 || eo_ratio<0.8`. Keys are checked at parse time against the known
//! headline keys, so a typo fails before the (possibly long) audit starts.

use std::collections::BTreeMap;
use std::fmt;
use thiserror::Error;

/// Why a `--fail-if` expression was rejected.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FailIfError {
    /// Nothing to parse.
    #[error("the expression is empty; write e.g. \"dp_difference>0.1\"")]
    Empty,
    /// A character that starts no token.
    #[error("unexpected character '{ch}' at position {pos} in \"{expr}\"")]
    UnexpectedChar {
        /// The expression.
        expr: String,
        /// 0-based character position.
        pos: usize,
        /// The character.
        ch: char,
    },
    /// The parser wanted something else.
    #[error("expected {expected} at position {pos} in \"{expr}\", found {found}")]
    Expected {
        /// The expression.
        expr: String,
        /// 0-based character position.
        pos: usize,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// A number that does not parse or is not finite.
    #[error("'{text}' at position {pos} is not a finite number")]
    BadNumber {
        /// The text.
        text: String,
        /// 0-based character position.
        pos: usize,
    },
    /// A key that is not a headline key.
    #[error("unknown key '{key}'; the headline keys are: {known}")]
    UnknownKey {
        /// The key.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// A key the audit did not compute (e.g. `ks_dp` without `--score`).
    #[error("'{key}' was not computed by this audit ({reason})")]
    Unavailable {
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

impl Op {
    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Lt => a < b,
            Op::Le => a <= b,
        }
    }
    fn symbol(self) -> &'static str {
        match self {
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }
}

/// One `key op number` comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Headline key.
    pub key: String,
    /// Operator.
    pub op: Op,
    /// Right-hand side.
    pub value: f64,
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.key, self.op.symbol(), self.value)
    }
}

/// A parsed expression in disjunctive normal form: fails when any conjunction holds entirely.
#[derive(Debug, Clone, PartialEq)]
pub struct FailIf {
    /// The text as given.
    pub text: String,
    /// `or` of `and`s.
    pub disjuncts: Vec<Vec<Comparison>>,
}

/// The verdict of one comparison on one audit's headline numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparisonOutcome {
    /// The comparison, printed.
    pub comparison: String,
    /// The headline value it was evaluated on.
    pub actual: f64,
    /// Whether it held.
    pub holds: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Number(String),
    Op(Op),
    Or,
    And,
}

fn tokenize(expr: &str) -> Result<Vec<(usize, Token)>, FailIfError> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let two = |a: char, b: char| c == a && chars.get(i + 1) == Some(&b);
        let token = if two('|', '|') || two('&', '&') {
            i += 2;
            if c == '|' { Token::Or } else { Token::And }
        } else if c == '>' || c == '<' {
            let eq = chars.get(i + 1) == Some(&'=');
            i += if eq { 2 } else { 1 };
            Token::Op(match (c, eq) {
                ('>', false) => Op::Gt,
                ('>', true) => Op::Ge,
                ('<', false) => Op::Lt,
                _ => Op::Le,
            })
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match word.as_str() {
                "or" => Token::Or,
                "and" => Token::And,
                _ => Token::Ident(word),
            }
        } else if c.is_ascii_digit() || c == '.' || c == '-' || c == '+' {
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || ((chars[i] == '-' || chars[i] == '+') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            Token::Number(chars[start..i].iter().collect())
        } else {
            return Err(FailIfError::UnexpectedChar {
                expr: expr.to_string(),
                pos: i,
                ch: c,
            });
        };
        out.push((start, token));
    }
    Ok(out)
}

fn describe(token: Option<&(usize, Token)>) -> String {
    match token {
        None => "the end of the expression".into(),
        Some((_, Token::Ident(s))) => format!("'{s}'"),
        Some((_, Token::Number(s))) => format!("number '{s}'"),
        Some((_, Token::Op(op))) => format!("'{}'", op.symbol()),
        Some((_, Token::Or)) => "'or'".into(),
        Some((_, Token::And)) => "'and'".into(),
    }
}

impl FailIf {
    /// Parses `text`, checking every key against `known_keys`.
    ///
    /// # Errors
    /// A [`FailIfError`] saying where the expression goes wrong.
    ///
    /// # Examples
    /// ```ignore
    /// let f = FailIf::parse("dp_difference > 0.1 or eo_ratio < 0.8", &["dp_difference", "eo_ratio"])?;
    /// assert_eq!(f.disjuncts.len(), 2);
    /// ```
    pub fn parse(text: &str, known_keys: &[&str]) -> Result<Self, FailIfError> {
        let tokens = tokenize(text)?;
        if tokens.is_empty() {
            return Err(FailIfError::Empty);
        }
        let end = text.chars().count();
        let expected = |k: usize, what: &'static str| FailIfError::Expected {
            expr: text.to_string(),
            pos: tokens.get(k).map_or(end, |t| t.0),
            expected: what,
            found: describe(tokens.get(k)),
        };
        let mut disjuncts = vec![Vec::new()];
        let mut k = 0;
        loop {
            let key = match tokens.get(k) {
                Some((_, Token::Ident(key))) => key.clone(),
                _ => return Err(expected(k, "a headline key such as dp_difference")),
            };
            if !known_keys.contains(&key.as_str()) {
                return Err(FailIfError::UnknownKey {
                    key,
                    known: known_keys.join(", "),
                });
            }
            let op = match tokens.get(k + 1) {
                Some((_, Token::Op(op))) => *op,
                _ => return Err(expected(k + 1, "a comparison (>, >=, <, <=)")),
            };
            let value = match tokens.get(k + 2) {
                Some((pos, Token::Number(s))) => match s.parse::<f64>() {
                    Ok(v) if v.is_finite() => v,
                    _ => {
                        return Err(FailIfError::BadNumber {
                            text: s.clone(),
                            pos: *pos,
                        });
                    }
                },
                _ => return Err(expected(k + 2, "a number")),
            };
            disjuncts
                .last_mut()
                .expect("disjuncts starts non-empty and only grows")
                .push(Comparison { key, op, value });
            k += 3;
            match tokens.get(k) {
                None => break,
                Some((_, Token::Or)) => disjuncts.push(Vec::new()),
                Some((_, Token::And)) => {}
                Some(_) => return Err(expected(k, "'or', 'and', '||', '&&' or the end")),
            }
            k += 1;
        }
        Ok(Self {
            text: text.to_string(),
            disjuncts,
        })
    }

    /// Evaluates the expression on headline numbers (`None` = not computed, with the reason).
    ///
    /// Returns whether the gate fails, and the outcome of every comparison.
    ///
    /// # Errors
    /// [`FailIfError::Unavailable`] when a key the expression uses was not computed.
    pub fn evaluate(
        &self,
        headline: &BTreeMap<String, Result<f64, String>>,
    ) -> Result<(bool, Vec<ComparisonOutcome>), FailIfError> {
        let mut outcomes = Vec::new();
        let mut fails = false;
        for conjunction in &self.disjuncts {
            let mut all = true;
            for c in conjunction {
                let actual = match headline.get(&c.key) {
                    Some(Ok(v)) => *v,
                    Some(Err(reason)) => {
                        return Err(FailIfError::Unavailable {
                            key: c.key.clone(),
                            reason: reason.clone(),
                        });
                    }
                    None => {
                        return Err(FailIfError::Unavailable {
                            key: c.key.clone(),
                            reason: "no audit produced it".into(),
                        });
                    }
                };
                let holds = c.op.holds(actual, c.value);
                all &= holds;
                outcomes.push(ComparisonOutcome {
                    comparison: c.to_string(),
                    actual,
                    holds,
                });
            }
            fails |= all;
        }
        Ok((fails, outcomes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: [&str; 3] = ["dp_difference", "eo_ratio", "ks_dp"];

    fn headline(pairs: &[(&str, f64)]) -> BTreeMap<String, Result<f64, String>> {
        pairs.iter().map(|(k, v)| (k.to_string(), Ok(*v))).collect()
    }

    #[test]
    fn parses_and_evaluates_with_and_binding_tighter_than_or() {
        let f =
            FailIf::parse("dp_difference>0.1 || eo_ratio <= 0.8 and ks_dp>=0.2", &KEYS).unwrap();
        assert_eq!(f.disjuncts.len(), 2);
        assert_eq!(f.disjuncts[1].len(), 2);
        let h = headline(&[("dp_difference", 0.05), ("eo_ratio", 0.7), ("ks_dp", 0.1)]);
        assert!(!f.evaluate(&h).unwrap().0);
        let h = headline(&[("dp_difference", 0.05), ("eo_ratio", 0.7), ("ks_dp", 0.3)]);
        assert!(f.evaluate(&h).unwrap().0);
        let h = headline(&[("dp_difference", 0.15), ("eo_ratio", 0.9), ("ks_dp", 0.0)]);
        assert!(f.evaluate(&h).unwrap().0);
    }

    #[test]
    fn numbers_accept_exponents_and_signs() {
        let f = FailIf::parse("dp_difference > 1e-2", &KEYS).unwrap();
        assert!((f.disjuncts[0][0].value - 0.01).abs() < 1e-15);
        let f = FailIf::parse("eo_ratio<-0.5", &KEYS).unwrap();
        assert!((f.disjuncts[0][0].value + 0.5).abs() < 1e-15);
    }

    #[test]
    fn typed_errors() {
        assert_eq!(FailIf::parse("  ", &KEYS), Err(FailIfError::Empty));
        assert!(matches!(
            FailIf::parse("dp_diff>0.1", &KEYS),
            Err(FailIfError::UnknownKey { .. })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference=0.1", &KEYS),
            Err(FailIfError::UnexpectedChar {
                pos: 13,
                ch: '=',
                ..
            })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference>", &KEYS),
            Err(FailIfError::Expected {
                pos: 14,
                expected: "a number",
                ..
            })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference 0.1", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference>0.1 eo_ratio<1", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference>0.1.2", &KEYS),
            Err(FailIfError::BadNumber { .. })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference>inf", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
        assert!(matches!(
            FailIf::parse("dp_difference>0.1 or", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
    }

    #[test]
    fn unavailable_key_is_an_error_not_a_pass() {
        let f = FailIf::parse("ks_dp>0.1", &KEYS).unwrap();
        let mut h = BTreeMap::new();
        h.insert("ks_dp".to_string(), Err("no --score".to_string()));
        assert!(matches!(
            f.evaluate(&h),
            Err(FailIfError::Unavailable { .. })
        ));
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_text(s in "\\PC{0,40}") {
            let _ = FailIf::parse(&s, &KEYS);
        }
    }
}
