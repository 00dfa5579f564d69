//! Gates on changes: `change(KEY)` and `p(KEY)` read a comparison of two audits
//! ([`crate::model::compare::Comparison`]: `fairkit compare`, `fairkit audit --against`), so a CI job
//! can fail a new model whose gap grew distinguishably:
//!
//! ```text
//! change(dp_difference) > 0.02 and p < 0.01
//! ```
//!
//! * `change(KEY)` is the gap after minus before, `p(KEY)` the p-value of "the gap did not
//!   change"; KEY is a count gap of the report ([`Key::COUNT`]) or a score gap
//!   ([`Key::SCORE`], when both audits have a score), in the report's
//!   definitions (fairlearn's names are not accepted here: a change is only measured one way).
//! * A bare `p` is the p-value of the one gap the conjunction's `change(…)` terms name.
//! * A comparison holds per slice and prediction source: a conjunction with change terms holds
//!   when all its comparisons hold in one slice (the gap grew by more than 0.02 *and* that
//!   growth is distinguishable there), and its outcomes name that slice. Plain keys in the same
//!   conjunction read the headline of the audit (the second one, for `fairkit compare`).

use super::{Comparison, FailIfError, evaluate_conjunction};
use crate::keys::Key;
use crate::model::ComparisonOutcome;
use crate::model::compare;
use std::collections::BTreeMap;

/// The bare p-value term.
pub const BARE_P: &str = "p";

const FUNCTIONS: [&str; 2] = ["change", "p"];

/// Whether `name` is a change function (`change`, `p`).
pub fn is_function(name: &str) -> bool {
    FUNCTIONS.contains(&name)
}

/// Whether a comparison key reads a change (`change(…)`, `p(…)` or a bare `p` before it is
/// resolved).
pub fn is_change_key(key: &str) -> bool {
    key == BARE_P || FUNCTIONS.iter().any(|f| key.starts_with(&format!("{f}(")))
}

/// The key of `function(gap)`, checking the gap.
///
/// # Errors
/// [`FailIfError::UnknownKey`] naming the gaps when `gap` is not a count or score gap key.
pub fn term(function: &str, gap: &str) -> Result<String, FailIfError> {
    if Key::parse(gap).is_none() {
        let known: Vec<&str> = Key::ALL.iter().map(|k| k.as_str()).collect();
        return Err(FailIfError::UnknownKey {
            key: format!("{function}({gap})"),
            known: known.join(", "),
            aliases: "none inside change(…) and p(…): a change is measured with the report's definitions; write the report key".into(),
        });
    }
    Ok(format!("{function}({gap})"))
}

/// Replaces a bare `p` in a conjunction by `p(KEY)` of the one gap its `change(…)` terms name.
///
/// # Errors
/// [`FailIfError::Expected`] when the conjunction names no gap, or several.
pub fn resolve_bare_p(text: &str, conjunction: &mut [Comparison]) -> Result<(), FailIfError> {
    if !conjunction.iter().any(|c| c.key == BARE_P) {
        return Ok(());
    }
    let mut gaps: Vec<&str> = conjunction
        .iter()
        .filter_map(|c| c.key.strip_prefix("change(")?.strip_suffix(')'))
        .collect();
    gaps.sort_unstable();
    gaps.dedup();
    let [gap] = gaps.as_slice() else {
        return Err(FailIfError::Expected {
            expr: text.to_string(),
            pos: 0,
            expected: "exactly one change(KEY) beside a bare p (or write p(KEY))",
            found: if gaps.is_empty() {
                "no change(…) in the same 'and' group".into()
            } else {
                format!("changes of {}", gaps.join(" and "))
            },
        });
    };
    let key = format!("p({gap})");
    for c in conjunction.iter_mut().filter(|c| c.key == BARE_P) {
        c.key.clone_from(&key);
    }
    Ok(())
}

/// `change(KEY)` / `p(KEY)` → value, or why it is undefined.
type ChangeValues = BTreeMap<String, Result<f64, String>>;

/// The change terms' values in one slice and prediction source of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRow {
    /// Where, e.g. "slice race" or "slice race at threshold 0.5".
    pub label: String,
    /// `change(KEY)` and `p(KEY)` of every count gap (`Err` with the reason when undefined).
    pub values: ChangeValues,
}

/// The rows gates read of a comparison: one per slice and prediction source.
pub fn rows(c: &compare::Comparison) -> Vec<ChangeRow> {
    let values_of = |s: &compare::SliceChange| {
        let mut values = BTreeMap::new();
        for g in &s.gaps {
            let why = || {
                g.undefined_reason
                    .clone()
                    .unwrap_or_else(|| "undefined in this slice".into())
            };
            values.insert(format!("change({})", g.key), g.change.ok_or_else(why));
            values.insert(format!("p({})", g.key), g.p_value.ok_or_else(why));
        }
        values
    };
    let count = c
        .changes
        .iter()
        .map(|s| {
            let at = s
                .threshold
                .map_or(String::new(), |t| format!(" at threshold {t}"));
            let label = format!("slice {}{at}", s.slice);
            (
                s.slice.clone(),
                ChangeRow {
                    label,
                    values: values_of(s),
                },
            )
        })
        .collect();
    let scores = c
        .score_changes
        .iter()
        .map(|s| (s.slice.clone(), values_of(s)))
        .collect();
    with_score_rows(count, scores)
}

/// Adds each slice's score-gap changes to every count row of the same slice (a score gap has no
/// prediction source, so one conjunction can mix it with count gaps of that slice); a slice
/// with score changes and no count row gets its own row.
fn with_score_rows(
    mut rows: Vec<(String, ChangeRow)>,
    scores: Vec<(String, ChangeValues)>,
) -> Vec<ChangeRow> {
    for (slice, values) in scores {
        let mut found = false;
        for (_, row) in rows.iter_mut().filter(|(s, _)| *s == slice) {
            row.values.extend(values.clone());
            found = true;
        }
        if !found {
            let label = format!("slice {slice} (score gaps)");
            rows.push((slice, ChangeRow { label, values }));
        }
    }
    rows.into_iter().map(|(_, r)| r).collect()
}

/// A conjunction with change terms over the comparison's rows: holds when it holds in one row.
/// The outcomes are that row's (or, when none holds, those of the row where most comparisons
/// hold, the first of equals), each change term naming the row.
pub(super) fn evaluate_rows(
    conjunction: &[Comparison],
    headline: &BTreeMap<String, Result<f64, String>>,
    changes: Option<&[ChangeRow]>,
) -> Result<(bool, Vec<ComparisonOutcome>), FailIfError> {
    let first_change = conjunction
        .iter()
        .find(|c| is_change_key(&c.key))
        .map_or_else(String::new, |c| c.key.clone());
    let Some(rows) = changes else {
        return Err(FailIfError::Unavailable {
            key: first_change,
            reason: "a change needs two audits: `fairkit compare BEFORE AFTER --fail-if …`, `fairkit audit --against COLUMN`, or AuditResult.compare(other, fail_if=…)".into(),
        });
    };
    let mut best: Option<(usize, Vec<ComparisonOutcome>)> = None;
    let mut undefined: Option<FailIfError> = None;
    for row in rows {
        match evaluate_conjunction(conjunction, headline, Some(row)) {
            Ok((holds, outcomes)) => {
                let outcomes = labelled(outcomes, conjunction, &row.label);
                if holds {
                    return Ok((true, outcomes));
                }
                let n = outcomes.iter().filter(|o| o.holds).count();
                if best.as_ref().is_none_or(|(m, _)| n > *m) {
                    best = Some((n, outcomes));
                }
            }
            Err(FailIfError::Unavailable { key, reason }) if is_change_key(&key) => {
                undefined.get_or_insert(FailIfError::Unavailable {
                    key,
                    reason: format!("{} ({reason})", row.label),
                });
            }
            Err(e) => return Err(e),
        }
    }
    match best {
        Some((_, outcomes)) => Ok((false, outcomes)),
        None => Err(undefined.unwrap_or(FailIfError::Unavailable {
            key: first_change,
            reason: "the comparison has no slice".into(),
        })),
    }
}

fn labelled(
    outcomes: Vec<ComparisonOutcome>,
    conjunction: &[Comparison],
    label: &str,
) -> Vec<ComparisonOutcome> {
    outcomes
        .into_iter()
        .zip(conjunction)
        .map(|(mut o, c)| {
            if is_change_key(&c.key) {
                o.comparison = format!("{} [{label}]", o.comparison);
            }
            o
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::FailIf;
    use super::*;

    fn row(label: &str, change: f64, p: f64) -> ChangeRow {
        let mut values = BTreeMap::new();
        values.insert("change(dp_difference)".to_string(), Ok(change));
        values.insert("p(dp_difference)".to_string(), Ok(p));
        values.insert(
            "change(eo_difference)".to_string(),
            Err("no positives in group b".to_string()),
        );
        values.insert(
            "p(eo_difference)".to_string(),
            Err("no positives in group b".to_string()),
        );
        ChangeRow {
            label: label.into(),
            values,
        }
    }

    fn headline() -> BTreeMap<String, Result<f64, String>> {
        [("dp_difference".to_string(), Ok(0.3))]
            .into_iter()
            .collect()
    }

    const KEYS: [&str; 1] = ["dp_difference"];

    #[test]
    fn bare_p_binds_to_the_one_change_of_its_conjunction() {
        let f = FailIf::parse("change(dp_difference) > 0.02 and p < 0.01", &KEYS).unwrap();
        assert_eq!(f.disjuncts[0][1].key, "p(dp_difference)");
        assert!(f.uses_changes());
        assert!(
            !FailIf::parse("dp_difference > 0.1", &KEYS)
                .unwrap()
                .uses_changes()
        );
        for bad in [
            "p < 0.01",
            "dp_difference > 0.1 and p < 0.01",
            "change(dp_difference) > 0 and change(eo_ratio) < 0 and p < 0.05",
        ] {
            assert!(
                matches!(FailIf::parse(bad, &KEYS), Err(FailIfError::Expected { .. })),
                "{bad}"
            );
        }
        // p binds per conjunction: each side of an `or` has its own change.
        let f = FailIf::parse(
            "change(dp_difference) > 0 and p < 0.05 or change(eo_ratio) < 0 and p < 0.05",
            &KEYS,
        )
        .unwrap();
        assert_eq!(f.disjuncts[1][1].key, "p(eo_ratio)");
    }

    #[test]
    fn change_terms_take_report_gap_keys_only() {
        assert!(FailIf::parse("change(ks_dp) > 0 and p < 0.05", &KEYS).is_ok());
        for bad in [
            "change(ks_probe) > 0",
            "change(demographic_parity_difference) > 0",
            "p(dp_diff) < 0.1",
        ] {
            let e = FailIf::parse(bad, &KEYS).unwrap_err();
            assert!(matches!(e, FailIfError::UnknownKey { .. }), "{bad}: {e}");
        }
        assert!(matches!(
            FailIf::parse("change dp_difference > 0", &KEYS),
            Err(FailIfError::UnknownKey { .. })
        ));
        assert!(matches!(
            FailIf::parse("change(dp_difference > 0", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
        assert!(matches!(
            FailIf::parse("change() > 0", &KEYS),
            Err(FailIfError::Expected { .. })
        ));
    }

    #[test]
    fn a_conjunction_holds_when_all_its_terms_hold_in_one_slice() {
        let f = FailIf::parse("change(dp_difference) > 0.02 and p < 0.01", &KEYS).unwrap();
        // Slice a: a large change that is noise; slice b: a small distinguishable one. No
        // single slice has both, so the gate passes.
        let rows = [row("slice a", 0.10, 0.2), row("slice b", 0.01, 0.001)];
        let (failed, outcomes) = f
            .evaluate_with_changes(&headline(), Some(rows.as_slice()))
            .unwrap();
        assert!(!failed);
        assert_eq!(outcomes.len(), 2);
        assert_eq!(
            outcomes[0].comparison,
            "change(dp_difference) > 0.02 [slice a]"
        );
        // A third slice with both fails it, and the outcome names that slice.
        let rows = [
            row("slice a", 0.10, 0.2),
            row("slice b", 0.01, 0.001),
            row("slice c", 0.05, 0.004),
        ];
        let (failed, outcomes) = f
            .evaluate_with_changes(&headline(), Some(rows.as_slice()))
            .unwrap();
        assert!(failed);
        assert_eq!(outcomes[1].comparison, "p(dp_difference) < 0.01 [slice c]");
        assert!((outcomes[1].actual - 0.004).abs() < 1e-15);
    }

    #[test]
    fn plain_keys_mix_with_changes_and_changes_need_a_comparison() {
        let f = FailIf::parse("dp_difference > 0.25 and change(dp_difference) > 0", &KEYS).unwrap();
        let rows = [row("slice a", 0.1, 0.5)];
        let (failed, outcomes) = f
            .evaluate_with_changes(&headline(), Some(rows.as_slice()))
            .unwrap();
        assert!(failed);
        assert_eq!(outcomes[0].comparison, "dp_difference > 0.25");
        let e = f.evaluate(&headline()).unwrap_err();
        assert!(e.to_string().contains("needs two audits"), "{e}");
    }

    #[test]
    fn a_change_undefined_everywhere_is_an_error_not_a_pass() {
        let f = FailIf::parse("change(eo_difference) > 0", &["eo_difference"]).unwrap();
        let rows = [row("slice a", 0.1, 0.5)];
        let e = f
            .evaluate_with_changes(&headline(), Some(rows.as_slice()))
            .unwrap_err();
        assert!(
            e.to_string().contains("slice a (no positives in group b)"),
            "{e}"
        );
    }
}
