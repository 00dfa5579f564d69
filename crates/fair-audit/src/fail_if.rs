//! `--fail-if`: a tiny expression language over a report's headline numbers, for CI gates, shared
//! by every front end (`fairkit audit --fail-if`, and `fairkit._core.check_report` in Python).
//!
//! ```text
//! expr       := conjunction (("||" | "or") conjunction)*
//! conjunction:= comparison  (("&&" | "and") comparison)*
//! comparison := KEY OP NUMBER
//! OP         := ">" | ">=" | "<" | "<="
//! KEY        := a headline key of report.json (dp_difference, eo_ratio, ks_dp, …; see
//!               known_keys), one of fairlearn's names for it (see ALIASES), or a disparity
//!               key: {rate}_disparity (fpr_disparity, …: the worst disparity folded below 1)
//!               or parity_failures (crate::disparity::gate_values)
//! ```
//! `and` binds tighter than `or`, as in every programming language. Example:
//! `dp_difference>0.1 || eo_ratio<0.8`. Keys are checked at parse time against the known
//! headline keys, so a typo fails before the (possibly long) audit starts.
//!
//! # One vocabulary
//! The report's keys ([`Key`](crate::keys::Key)) are the canonical names.
//! fairlearn's names are accepted as aliases ([`ALIASES`], the only table of them) where
//! fairlearn's definition is the report key's: a gate on `demographic_parity_difference`
//! evaluates the report's `dp_difference`. A key is always the report's headline: the worst
//! value over the slices (each sensitive column and their intersection, which is fairlearn's
//! value with all sensitive columns) and over the thresholds.
//!
//! Two conventions differ, and an alias then refuses to answer rather than show the report's
//! number under fairlearn's name ([`FailIfError::Unavailable`], naming the group):
//! * a group whose rate has an empty denominator (no positives for the true positive rate, no
//!   negatives for the false positive rate): the report skips it, fairlearn counts its rate as 0;
//! * a ratio whose rate is 0 in every group of a slice: the report's ratio is 1, fairlearn's 0/0
//!   is NaN.
//!
//! The canonical key always evaluates the report's value.
//!
//! # Example
//! ```
//! use fair_audit::fail_if::{self, FailIf};
//! use fair_audit::model::{Columns, InputInfo};
//! use fair_audit::{ReportSpec, SliceDef, Stats, build_report};
//! use fair_data::Groups;
//! use fair_metrics::ci::RateCiMethod;
//! use fair_metrics::state::ConfusionState;
//!
//! // Parse first (a typo fails before the audit runs) …
//! let gates = fail_if::parse_all(&[
//!     "dp_difference > 0.5".to_string(),
//!     "demographic_parity_difference > 0.5 or eo_ratio < 0.6".to_string(),
//! ])?;
//! assert!(FailIf::parse("dp_diff > 0.1", &fail_if::known_keys()).is_err());
//!
//! // … audit (group a: selection rate 2/3, TPR 1/1; group b: 1/3 and 1/2) …
//! let mut state = ConfusionState::new();
//! let g = Groups::from_labels(&["a", "a", "b", "b", "a", "b"]);
//! state.update(&[1, 0, 1, 1, 0, 0], &[1, 0, 0, 1, 1, 0], &g, None).expect("valid rows");
//! let columns = vec!["group".to_string()];
//! let spec = ReportSpec {
//!     input: InputInfo {
//!         file: "example".into(),
//!         format: "csv".into(),
//!         rows: 6,
//!         columns: Columns {
//!             label: "y".into(),
//!             prediction: Some("p".into()),
//!             score: None,
//!             sensitive: columns.clone(),
//!             weight: None,
//!         },
//!         positive_label: "1".into(),
//!         negative_label: Some("0".into()),
//!     },
//!     slices: SliceDef::all(&columns),
//!     stats: Stats { confidence: 0.95, method: RateCiMethod::Wilson, resamples: 200, seed: 0, min_group_size: 0 },
//!     thresholds: vec![],
//!     interval: None,
//!     weighted: false,
//! };
//! let (mut report, _charts) = build_report(&spec, &[vec![state]], None)?;
//!
//! // … then gate: 2/3 − 1/3 is not above 0.5, but the TPR ratio 0.5 is below 0.6.
//! fail_if::apply(&mut report, &gates)?;
//! assert!(!report.fail_if[0].failed);
//! assert!(report.fail_if[1].failed);
//! assert_eq!(report.fail_if[1].comparisons[1].actual, 0.5);
//! assert_eq!(report.fail_if[1].comparisons[0].comparison, "demographic_parity_difference > 0.5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::keys::Key;
use crate::model::{AuditReport, ComparisonOutcome, FailIfOutcome, ReportError};
use std::collections::BTreeMap;
use std::fmt;
use thiserror::Error;

pub mod change;

pub use crate::keys::{ALIASES, Alias, alias};

/// Every canonical key: the headline keys (count gaps, score keys, regression keys), then the
/// disparity keys ([`crate::disparity::GATE_KEYS`]) and the inferred attributes' bound keys
/// ([`crate::inferred::GATE_KEYS`]).
pub fn known_keys() -> Vec<&'static str> {
    Key::ALL
        .iter()
        .map(|k| k.as_str())
        .chain(crate::disparity::GATE_KEYS)
        .chain(crate::inferred::GATE_KEYS)
        .collect()
}

/// The canonical key `name` stands for among `known_keys`: itself, or an alias's key.
pub fn canonical<'k>(name: &str, known_keys: &[&'k str]) -> Option<&'k str> {
    let key = alias(name).map_or(name, |a| a.key.as_str());
    known_keys.iter().copied().find(|k| *k == key)
}

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
    /// A key that is neither a headline key nor one of fairlearn's names for one.
    #[error(
        "unknown key '{key}'; the headline keys are: {known}; fairlearn's names are accepted as aliases: {aliases}"
    )]
    UnknownKey {
        /// The key.
        key: String,
        /// The known keys, comma-separated.
        known: String,
        /// The aliases of the known keys, as `name = key`, comma-separated.
        aliases: String,
    },
    /// A key the audit did not compute (e.g. `ks_dp` without `--score`).
    #[error("'{key}' was not computed by this audit ({reason})")]
    Unavailable {
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
    /// The text given as a report is not a schema-v1 fairkit audit report.
    #[error("not a fairkit audit report (schema fairkit-audit, version 1): {0}")]
    BadReport(#[from] ReportError),
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
    /// Whether `a op b` holds.
    pub fn holds(self, a: f64, b: f64) -> bool {
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
    /// The key as written: a headline key or one of its aliases.
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

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Number(String),
    Op(Op),
    Or,
    And,
    Open,
    Close,
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
        let token = if c == '(' || c == ')' {
            i += 1;
            if c == '(' { Token::Open } else { Token::Close }
        } else if two('|', '|') || two('&', '&') {
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
        Some((_, Token::Open)) => "'('".into(),
        Some((_, Token::Close)) => "')'".into(),
    }
}

impl FailIf {
    /// Parses `text`, checking every key against `known_keys` (a key, or an alias of one of
    /// them: [`ALIASES`]).
    ///
    /// # Errors
    /// A [`FailIfError`] saying where the expression goes wrong.
    ///
    /// # Examples
    /// ```
    /// use fair_audit::fail_if::FailIf;
    /// let known = ["dp_difference", "eo_ratio"];
    /// let f = FailIf::parse("dp_difference > 0.1 or equal_opportunity_ratio < 0.8", &known)?;
    /// assert_eq!(f.disjuncts.len(), 2);
    /// # Ok::<(), fair_audit::fail_if::FailIfError>(())
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
                Some((_, Token::Ident(f)))
                    if change::is_function(f)
                        && matches!(tokens.get(k + 1), Some((_, Token::Open))) =>
                {
                    let gap = match tokens.get(k + 2) {
                        Some((_, Token::Ident(g))) => g.clone(),
                        _ => return Err(expected(k + 2, "a count-gap key such as dp_difference")),
                    };
                    if !matches!(tokens.get(k + 3), Some((_, Token::Close))) {
                        return Err(expected(k + 3, "')'"));
                    }
                    k += 3;
                    change::term(f, &gap)?
                }
                Some((_, Token::Ident(key))) if key == change::BARE_P => key.clone(),
                Some((_, Token::Ident(key))) => {
                    if canonical(key, known_keys).is_none() {
                        return Err(unknown_key(key.clone(), known_keys));
                    }
                    key.clone()
                }
                _ => return Err(expected(k, "a headline key such as dp_difference")),
            };
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
        for conjunction in &mut disjuncts {
            change::resolve_bare_p(text, conjunction)?;
        }
        Ok(Self {
            text: text.to_string(),
            disjuncts,
        })
    }

    /// Evaluates the expression on headline numbers by the names it uses (`Err` = not
    /// available, with the reason): the map [`gate_values`] or [`gate_values_json`] returns.
    ///
    /// Returns whether the gate fails, and the outcome of every comparison.
    ///
    /// # Errors
    /// [`FailIfError::Unavailable`] when a key the expression uses was not computed.
    pub fn evaluate(
        &self,
        headline: &BTreeMap<String, Result<f64, String>>,
    ) -> Result<(bool, Vec<ComparisonOutcome>), FailIfError> {
        self.evaluate_with_changes(headline, None)
    }

    /// [`FailIf::evaluate`] with the changes of a comparison: a conjunction using `change(…)`
    /// or `p(…)` holds when it holds in one slice of `changes` (all its terms read from the
    /// same slice and prediction source), and its outcomes name that slice.
    ///
    /// # Errors
    /// [`FailIfError::Unavailable`] when a key is not available, or a change term is used
    /// without a comparison (`changes` is `None`) or is undefined in every slice.
    pub fn evaluate_with_changes(
        &self,
        headline: &BTreeMap<String, Result<f64, String>>,
        changes: Option<&[change::ChangeRow]>,
    ) -> Result<(bool, Vec<ComparisonOutcome>), FailIfError> {
        let mut outcomes = Vec::new();
        let mut fails = false;
        for conjunction in &self.disjuncts {
            let (holds, mut outs) = if conjunction.iter().any(|c| change::is_change_key(&c.key)) {
                change::evaluate_rows(conjunction, headline, changes)?
            } else {
                evaluate_conjunction(conjunction, headline, None)?
            };
            fails |= holds;
            outcomes.append(&mut outs);
        }
        Ok((fails, outcomes))
    }

    /// Whether any comparison reads a change (`change(…)`, `p(…)`): such a gate needs a
    /// comparison (`fairkit compare`, or `fairkit audit --against`).
    pub fn uses_changes(&self) -> bool {
        self.disjuncts
            .iter()
            .flatten()
            .any(|c| change::is_change_key(&c.key))
    }
}

/// One conjunction on `headline` (and a comparison's slice `row` for change terms): whether
/// every comparison holds, and each one's outcome.
fn evaluate_conjunction(
    conjunction: &[Comparison],
    headline: &BTreeMap<String, Result<f64, String>>,
    row: Option<&change::ChangeRow>,
) -> Result<(bool, Vec<ComparisonOutcome>), FailIfError> {
    let mut outcomes = Vec::new();
    let mut all = true;
    for c in conjunction {
        let source = match row {
            Some(r) if change::is_change_key(&c.key) => &r.values,
            _ => headline,
        };
        let actual = match source.get(&c.key) {
            Some(Ok(v)) => *v,
            Some(Err(reason)) => {
                return Err(FailIfError::Unavailable {
                    key: c.key.clone(),
                    reason: reason.clone(),
                });
            }
            None => {
                let score_change = row.is_some()
                    && Key::SCORE
                        .iter()
                        .any(|k| c.key.ends_with(&format!("({k})")));
                return Err(FailIfError::Unavailable {
                    key: c.key.clone(),
                    reason: if score_change {
                        "a score gap's change needs both audits run with --score (score= in Python)"
                            .into()
                    } else {
                        "no audit produced it".into()
                    },
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
    Ok((all, outcomes))
}

fn unknown_key(key: String, known_keys: &[&str]) -> FailIfError {
    let aliases: Vec<String> = ALIASES
        .iter()
        .filter(|a| known_keys.contains(&a.key.as_str()))
        .map(|a| format!("{} = {}", a.name, a.key))
        .collect();
    FailIfError::UnknownKey {
        key,
        known: known_keys.join(", "),
        aliases: if aliases.is_empty() {
            "none for these keys".into()
        } else {
            aliases.join(", ")
        },
    }
}

/// Parses every expression against all headline keys ([`known_keys`]) and their aliases.
///
/// # Errors
/// The first expression's [`FailIfError`].
pub fn parse_all(expressions: &[String]) -> Result<Vec<FailIf>, FailIfError> {
    let known = known_keys();
    expressions
        .iter()
        .map(|e| FailIf::parse(e, &known))
        .collect()
}

/// What the gates read of a report.
struct GateView<'r>(&'r AuditReport);

impl GateView<'_> {
    fn values(&self) -> BTreeMap<String, Result<f64, String>> {
        let mut out: BTreeMap<String, Result<f64, String>> = BTreeMap::new();
        let r = self.0;
        for key in Key::SCORE {
            let reason = if r.score_metrics.is_none() {
                "it needs a score column (--score)"
            } else if key == Key::Psp && r.settings.interval.is_none() {
                "it needs an interval (--interval)"
            } else {
                "undefined on this data (see the notes in report.json)"
            };
            out.insert(key.to_string(), Err(reason.to_string()));
        }
        for key in Key::COUNT {
            out.insert(
                key.to_string(),
                Err("undefined on this data (see undefined_reason in report.json)".into()),
            );
        }
        let regression_keys: Vec<&str> = Key::REGRESSION.iter().map(|k| k.as_str()).collect();
        let ranking_keys: Vec<&str> = Key::RANKING.iter().map(|k| k.as_str()).collect();
        for key in Key::ALL {
            if r.ranking.is_some() || key.is_ranking() {
                let reason = match (r.ranking.is_some(), key.is_ranking()) {
                    (true, false) => format!(
                        "not a ranking audit's number: the ratios of a ranking audit (--query) are {}",
                        ranking_keys.join(", ")
                    ),
                    (false, true) => {
                        "it needs a ranking audit (--query q with --rank r or --score s)".into()
                    }
                    _ => "undefined on this data (e.g. without --relevance, or one group)".into(),
                };
                out.insert(key.to_string(), Err(reason));
                continue;
            }
            let reason = match (r.regression.is_some(), key.is_regression()) {
                (true, false) => format!(
                    "a classifier's gap, and this audit is of a numeric target (--target): its gaps are {}",
                    regression_keys.join(", ")
                ),
                (false, true) => "it needs a numeric target (--target y --pred y_hat)".into(),
                (true, true) => {
                    "undefined on this data (see undefined_reason in report.json)".into()
                }
                (false, false) => continue,
            };
            out.insert(key.to_string(), Err(reason));
        }
        for (k, h) in &r.headline {
            out.insert(k.to_string(), Ok(h.value));
        }
        for (k, v) in crate::disparity::gate_values(r) {
            out.insert(k.to_string(), v);
        }
        for (k, v) in crate::inferred::gate_values(r) {
            out.insert(k.to_string(), v);
        }
        for a in &ALIASES {
            let value = match out.get(a.key.as_str()) {
                Some(Ok(v)) => self.convention_differs(a).map_or(Ok(*v), Err),
                Some(Err(reason)) => Err(reason.clone()),
                None => Err("no audit produced it".into()),
            };
            out.insert(a.name.to_string(), value);
        }
        out
    }

    /// Why fairlearn's value of `a` may differ from the report's on this report, if it may.
    fn convention_differs(&self, a: &Alias) -> Option<String> {
        let ratio = a.key.is_ratio();
        for audit in &self.0.audits {
            let at = audit
                .threshold
                .map_or(String::new(), |t| format!(" at threshold {t}"));
            for slice in &audit.slices {
                for &rate in a.rates {
                    let values = slice
                        .groups
                        .iter()
                        .map(|g| (g, g.rates.get(rate).and_then(|v| v.as_ref())));
                    if let Some((g, _)) = values.clone().find(|(_, v)| v.is_none()) {
                        return Some(format!(
                            "fairlearn's {} counts the {rate} of group '{}' of slice '{}'{at}, which is undefined (empty denominator), as 0, while the report's {} skips that group; gate on {} for the report's value",
                            a.name, g.group, slice.slice, a.key, a.key
                        ));
                    }
                    if ratio
                        && values
                            .clone()
                            .all(|(_, v)| v.is_some_and(|v| v.value == 0.0))
                    {
                        return Some(format!(
                            "the {rate} is 0 in every group of slice '{}'{at}: fairlearn's {} is 0/0 (NaN) there, the report's {} is 1; gate on {} for the report's value",
                            slice.slice, a.name, a.key, a.key
                        ));
                    }
                }
            }
        }
        None
    }
}

/// The values gates read from `report`, by every name they may use: each headline key (`Err`
/// with the reason when it was not computed) and each alias of [`ALIASES`] (`Err` when
/// fairlearn's convention differs on this report).
pub fn gate_values(report: &AuditReport) -> BTreeMap<String, Result<f64, String>> {
    GateView(report).values()
}

/// [`gate_values`] of a report.json text (schema `fairkit-audit`, version 1).
///
/// # Errors
/// [`FailIfError::BadReport`] when the text is not such a report.
pub fn gate_values_json(
    report_json: &str,
) -> Result<BTreeMap<String, Result<f64, String>>, FailIfError> {
    Ok(gate_values(&AuditReport::from_json(report_json)?))
}

/// Evaluates every gate on `values` (from [`gate_values`] or [`gate_values_json`]).
///
/// # Errors
/// [`FailIfError::Unavailable`] when a gate uses a value that is not available.
pub fn evaluate_all(
    gates: &[FailIf],
    values: &BTreeMap<String, Result<f64, String>>,
) -> Result<Vec<FailIfOutcome>, FailIfError> {
    evaluate_all_with_changes(gates, values, None)
}

/// [`evaluate_all`] with a comparison's changes for `change(…)` / `p(…)` terms
/// ([`change::rows`]).
///
/// # Errors
/// [`FailIfError::Unavailable`] when a gate uses a value that is not available.
pub fn evaluate_all_with_changes(
    gates: &[FailIf],
    values: &BTreeMap<String, Result<f64, String>>,
    changes: Option<&[change::ChangeRow]>,
) -> Result<Vec<FailIfOutcome>, FailIfError> {
    gates
        .iter()
        .map(|gate| {
            let (failed, comparisons) = gate.evaluate_with_changes(values, changes)?;
            Ok(FailIfOutcome {
                expression: gate.text.clone(),
                failed,
                comparisons,
            })
        })
        .collect()
}

/// Evaluates `gates` on `report` and appends their verdicts to `report.fail_if`: the whole
/// `--fail-if` step of an audit. Change terms read the report's paired comparison
/// (`fairkit audit --against`).
///
/// # Errors
/// [`FailIfError::Unavailable`] when a gate uses a value the audit did not compute (e.g. `ks_dp`
/// without a score column, or a change without a comparison) or an alias whose fairlearn value
/// differs on this data; the report is then left unchanged.
pub fn apply(report: &mut AuditReport, gates: &[FailIf]) -> Result<(), FailIfError> {
    let rows = report.comparison.as_ref().map(change::rows);
    let outcomes = evaluate_all_with_changes(gates, &gate_values(report), rows.as_deref())?;
    report.fail_if.extend(outcomes);
    Ok(())
}

/// Parses `expressions` and evaluates them on a report.json text: the `--fail-if` step for a
/// report already written (Python's `check_report`). Change terms read its `comparison` (a
/// paired audit).
///
/// # Errors
/// [`FailIfError`]: a bad expression, a report that is not schema v1, or an unavailable value.
pub fn check_json(
    report_json: &str,
    expressions: &[String],
) -> Result<Vec<FailIfOutcome>, FailIfError> {
    let gates = parse_all(expressions)?;
    let report = AuditReport::from_json(report_json)?;
    let rows = report.comparison.as_ref().map(change::rows);
    evaluate_all_with_changes(&gates, &gate_values(&report), rows.as_deref())
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

    #[test]
    fn aliases_parse_to_their_report_key_and_name_what_was_written() {
        for a in &ALIASES {
            assert!(
                KEYS_ALL().contains(&a.key.as_str()),
                "{} maps to unknown {}",
                a.name,
                a.key
            );
            assert!(!KEYS_ALL().contains(&a.name), "{} is a report key", a.name);
            let f = FailIf::parse(&format!("{} > 0.1", a.name), &KEYS_ALL()).unwrap();
            assert_eq!(f.disjuncts[0][0].key, a.name);
            assert_eq!(canonical(a.name, &KEYS_ALL()), Some(a.key.as_str()));
        }
        // An alias of a key outside `known_keys` is unknown too.
        assert!(matches!(
            FailIf::parse("equalized_odds_ratio>0.1", &KEYS),
            Err(FailIfError::UnknownKey { .. })
        ));
    }

    #[test]
    fn unknown_key_lists_keys_and_aliases() {
        let e = FailIf::parse("dp_diff>0.1", &KEYS_ALL())
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown key 'dp_diff'"), "{e}");
        assert!(e.contains("dp_difference, dp_ratio"), "{e}");
        assert!(
            e.contains("demographic_parity_difference = dp_difference"),
            "{e}"
        );
        let e = FailIf::parse("x>0.1", &["ks_dp"]).unwrap_err().to_string();
        assert!(e.contains("none for these keys"), "{e}");
    }

    #[allow(non_snake_case)]
    fn KEYS_ALL() -> Vec<&'static str> {
        known_keys()
    }

    fn report(labels: &[usize], preds: &[usize], groups: &[&str]) -> AuditReport {
        use crate::{ReportSpec, build_report};
        use fair_metrics::state::ConfusionState;
        let mut state = ConfusionState::new();
        let g = fair_data::Groups::from_labels(groups);
        state.update(labels, preds, &g, None).unwrap();
        let stats = crate::Stats {
            resamples: 200,
            min_group_size: 0,
            ..crate::Stats::default()
        };
        let spec = ReportSpec::binary("test", "y", "p", "group", labels.len() as u64, stats);
        build_report(&spec, &[vec![state]], None).unwrap().0
    }

    fn verdicts(r: &AuditReport, exprs: &[&str]) -> Result<Vec<bool>, FailIfError> {
        let exprs: Vec<String> = exprs.iter().map(|e| e.to_string()).collect();
        let gates = parse_all(&exprs)?;
        let mut r = r.clone();
        apply(&mut r, &gates)?;
        Ok(r.fail_if.iter().map(|f| f.failed).collect())
    }

    #[test]
    fn aliases_give_the_report_keys_answer() {
        // a: selection 3/4, TPR 2/2, FPR 1/2; b: selection 1/4, TPR 1/2, FPR 0/2.
        let r = report(
            &[1, 1, 0, 0, 1, 1, 0, 0],
            &[1, 1, 1, 0, 1, 0, 0, 0],
            &["a", "a", "a", "a", "b", "b", "b", "b"],
        );
        let values = gate_values(&r);
        for a in &ALIASES {
            assert_eq!(values[a.name], values[a.key.as_str()], "{}", a.name);
            assert!(values[a.key.as_str()].is_ok(), "{}", a.key);
        }
        assert_eq!(values["dp_difference"], Ok(0.5));
        assert_eq!(values["eo_ratio"], Ok(0.5));
        assert_eq!(
            verdicts(
                &r,
                &[
                    "demographic_parity_difference > 0.49",
                    "dp_difference > 0.49",
                    "equal_opportunity_ratio >= 0.6",
                    "eq_odds_difference >= 0.5 and equalized_odds_difference >= 0.5",
                ]
            )
            .unwrap(),
            [true, true, false, true]
        );
        // The same numbers from the report's JSON.
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(gate_values_json(&json).unwrap(), values);
        let outcomes = check_json(&json, &["selection_rate_difference > 0.49".into()]).unwrap();
        assert!(outcomes[0].failed);
        assert_eq!(
            outcomes[0].comparisons[0].actual.to_bits(),
            0.5f64.to_bits()
        );
        assert_eq!(
            outcomes[0].comparisons[0].comparison,
            "selection_rate_difference > 0.49"
        );
    }

    #[test]
    fn an_alias_refuses_where_fairlearns_convention_differs() {
        // Group c has no positives: the report skips its TPR, fairlearn counts it as 0.
        let r = report(
            &[1, 1, 0, 0, 1, 0, 0, 0],
            &[1, 0, 1, 0, 1, 0, 1, 0],
            &["a", "a", "a", "b", "b", "b", "c", "c"],
        );
        let values = gate_values(&r);
        assert!(values["eo_difference"].is_ok());
        assert!(values["eq_odds_ratio"].is_ok());
        assert!(values["demographic_parity_difference"].is_ok());
        for name in [
            "equal_opportunity_difference",
            "true_positive_rate_ratio",
            "equalized_odds_difference",
        ] {
            let e = verdicts(&r, &[&format!("{name} > 0.1")]).unwrap_err();
            let text = e.to_string();
            assert!(matches!(e, FailIfError::Unavailable { .. }), "{text}");
            assert!(
                text.contains("group 'c'") && text.contains("gate on e"),
                "{text}"
            );
        }
        // The canonical key gates on the report's value.
        assert!(verdicts(&r, &["eo_difference >= 0"]).unwrap()[0]);

        // No one selected: the report's dp_ratio is 1, fairlearn's 0/0 NaN.
        let r = report(&[1, 0, 1, 0], &[0, 0, 0, 0], &["a", "a", "b", "b"]);
        assert_eq!(gate_values(&r)["dp_ratio"], Ok(1.0));
        let e = verdicts(&r, &["demographic_parity_ratio < 0.8"]).unwrap_err();
        assert!(e.to_string().contains("0/0"), "{e}");
        assert_eq!(verdicts(&r, &["dp_ratio < 0.8"]).unwrap(), [false]);
        assert_eq!(
            verdicts(&r, &["demographic_parity_difference > 0"]).unwrap(),
            [false]
        );
    }

    #[test]
    fn score_keys_without_scores_and_bad_reports_are_errors() {
        let r = report(&[1, 0, 1, 0], &[1, 0, 0, 0], &["a", "a", "b", "b"]);
        let e = verdicts(&r, &["ks_dp > 0.1"]).unwrap_err().to_string();
        assert!(e.contains("ks_dp") && e.contains("--score"), "{e}");
        assert!(matches!(
            gate_values_json("{\"schema\": 1}"),
            Err(FailIfError::BadReport(_))
        ));
        let json = serde_json::to_string(&r)
            .unwrap()
            .replace("\"schema_version\":1", "\"schema_version\":2");
        assert!(matches!(
            gate_values_json(&json),
            Err(FailIfError::BadReport(_))
        ));
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_text(s in "\\PC{0,40}") {
            let _ = FailIf::parse(&s, &KEYS);
        }
    }
}
