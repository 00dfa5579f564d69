//! Aequitas' reference-group disparities inside the audit: every slice's groups against the
//! slice's reference group, from the audit's own confusion states (the exact cells the report's
//! rates come from; no second pass over the rows), by `fair_metrics::disparity`, which equals
//! Aequitas 1.1 rule for rule.
//!
//! The request's `disparity_reference` entries are checked once here ([`DisparitySpec::parse`]):
//! a rule word (`largest`, `min_metric` or `min`) for the slices no entry names, and
//! `SLICE=GROUP` entries naming a slice's reference group. A named group the slice does not have
//! is known only once the rows are read, and stops the audit naming the slice's groups.
//!
//! ```
//! use fair_audit::disparity::DisparitySpec;
//! let sensitive = vec!["race".to_string(), "sex".to_string()];
//! let entries = vec!["min".to_string(), "race & sex=b & f".to_string()];
//! let spec = DisparitySpec::parse(&entries, 0.8, 0.95, &sensitive)?;
//! assert_eq!(spec.reference_of("race & sex").1, "named");
//! assert_eq!(spec.reference_of("race").1, "min_metric");
//! assert!(DisparitySpec::parse(&["age=old".into()], 0.8, 0.95, &sensitive).is_err());
//! # Ok::<(), fair_audit::RequestError>(())
//! ```

use crate::error::AuditError;
use crate::model::AuditReport;
use crate::model::disparity::{
    CompositeParity, DisparitySettings, GroupDisparity, RateDisparity, SampleTest, SliceDisparities,
};
use crate::request::RequestError;
use fair_metrics::GroupConfusion;
use fair_metrics::disparity::{
    AttributeDisparities, DisparityOptions, DisparityRate, Reference, attribute_disparities,
};
use fair_metrics::state::ConfusionState;
use std::collections::BTreeMap;

/// The checked disparity options of a request.
#[derive(Debug, Clone, PartialEq)]
pub struct DisparitySpec {
    /// The rule of the slices no entry names ([`Reference::Largest`] or
    /// [`Reference::MinMetric`]).
    pub default: Reference,
    /// Slice name → its named reference group.
    pub named: BTreeMap<String, String>,
    /// τ, α (1 − the report's confidence) and Aequitas' cap of a division by zero.
    pub options: DisparityOptions,
}

fn bad(param: &'static str, value: impl ToString, expected: impl ToString) -> RequestError {
    RequestError {
        param,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

impl DisparitySpec {
    /// Checks the request's `disparity_reference` entries and `tau` against the audit's slices
    /// (each sensitive column, and with two or more their intersection, named by the columns
    /// joined with `" & "`); `confidence` sets α = 1 − confidence.
    ///
    /// # Errors
    /// [`RequestError`] naming `disparity_reference` (an unknown rule word, two rule words, a
    /// slice the audit does not have, a slice named twice, an empty group) or `tau` (outside
    /// (0, 1]).
    pub fn parse(
        entries: &[String],
        tau: f64,
        confidence: f64,
        sensitive: &[String],
    ) -> Result<Self, RequestError> {
        if !(tau > 0.0 && tau <= 1.0) {
            return Err(bad(
                "tau",
                tau,
                "a number in (0, 1]: parity holds for a disparity in [tau, 1/tau] (0.8: the four-fifths rule)",
            ));
        }
        let slices: Vec<String> = crate::compute::SliceDef::all(sensitive)
            .into_iter()
            .map(|s| s.name)
            .collect();
        let mut default: Option<Reference> = None;
        let mut named = BTreeMap::new();
        for entry in entries {
            match entry.split_once('=') {
                None => {
                    let rule = match entry.trim() {
                        "largest" | "majority" => Reference::Largest,
                        "min_metric" | "min" => Reference::MinMetric,
                        _ => {
                            return Err(bad(
                                "disparity_reference",
                                entry,
                                "largest, min_metric (min) or SLICE=GROUP, e.g. race=white",
                            ));
                        }
                    };
                    if default.as_ref().is_some_and(|d| *d != rule) {
                        return Err(bad(
                            "disparity_reference",
                            entry,
                            "one rule (largest or min_metric) for the slices no SLICE=GROUP entry names",
                        ));
                    }
                    default = Some(rule);
                }
                Some((slice, group)) => {
                    let slice = slice.trim();
                    if !slices.iter().any(|s| s == slice) {
                        return Err(bad(
                            "disparity_reference",
                            entry,
                            format!(
                                "SLICE=GROUP with a slice of this audit: {}",
                                slices.join(", ")
                            ),
                        ));
                    }
                    if group.is_empty() {
                        return Err(bad(
                            "disparity_reference",
                            entry,
                            "a group after '=', e.g. race=white",
                        ));
                    }
                    if named.insert(slice.to_string(), group.to_string()).is_some() {
                        return Err(bad(
                            "disparity_reference",
                            entry,
                            format!("one reference group per slice ({slice} is named twice)"),
                        ));
                    }
                }
            }
        }
        let options = DisparityOptions {
            tau,
            // 1 − 0.95 is 0.050000000000000044 in binary; rounded to 12 decimals the report
            // writes Aequitas' 0.05.
            alpha: ((1.0 - confidence) * 1e12).round() / 1e12,
            ..DisparityOptions::default()
        };
        Ok(Self {
            default: default.unwrap_or_default(),
            named,
            options,
        })
    }

    /// The reference of slice `name` and its word in the report (`largest`, `min_metric`,
    /// `named`).
    pub fn reference_of(&self, name: &str) -> (Reference, &'static str) {
        match self.named.get(name) {
            Some(group) => (Reference::Named(group.clone()), "named"),
            None => match self.default {
                Reference::MinMetric => (Reference::MinMetric, "min_metric"),
                _ => (Reference::Largest, "largest"),
            },
        }
    }

    /// `settings.disparity` of the report.
    pub fn settings(&self) -> DisparitySettings {
        let rule = match self.default {
            Reference::MinMetric => "min_metric",
            _ => "largest",
        };
        DisparitySettings {
            reference: std::iter::once(rule.to_string())
                .chain(self.named.iter().map(|(s, g)| format!("{s}={g}")))
                .collect(),
            tau: self.options.tau,
            alpha: self.options.alpha,
            fill_divbyzero: self.options.fill_divbyzero,
        }
    }
}

impl Default for DisparitySpec {
    /// Aequitas' defaults: the largest group, τ = 0.8, α = 0.05.
    fn default() -> Self {
        Self {
            default: Reference::Largest,
            named: BTreeMap::new(),
            options: DisparityOptions::default(),
        }
    }
}

/// The group confusion Aequitas' rates are read from: the exact weight sums of every union of
/// cells when weighted (as `fairkit.metrics.disparities` builds it), the integer counts
/// otherwise.
fn confusion(state: &ConfusionState) -> Result<GroupConfusion, fair_metrics::MetricError> {
    let gc = state.to_group_confusion()?;
    let Some(pooled) = state.pooled_cell_sums() else {
        return Ok(gc);
    };
    let sums = gc
        .names()
        .iter()
        .map(|n| {
            state
                .cell_sums(n)
                .ok_or(fair_metrics::MetricError::Empty { what: "group" })
        })
        .collect::<Result<Vec<_>, _>>()?;
    GroupConfusion::from_cell_sums(gc.names().to_vec(), sums, pooled)
}

/// The disparities of one slice's state.
///
/// # Errors
/// [`AuditError::Input`] naming `disparity_reference` when a named reference group is not
/// among the slice's groups; [`AuditError::Metric`] when the state cannot be read.
pub fn slice_disparities(
    slice: &str,
    state: &ConfusionState,
    spec: &DisparitySpec,
) -> Result<SliceDisparities, AuditError> {
    let metric = |source| AuditError::Metric {
        what: format!("disparities of {slice}"),
        source,
    };
    let gc = confusion(state).map_err(metric)?;
    let (reference, word) = spec.reference_of(slice);
    if let Reference::Named(group) = &reference
        && !gc.names().contains(group)
    {
        const SHOWN: usize = 20;
        let names = gc.names();
        let more = names.len().saturating_sub(SHOWN);
        return Err(AuditError::Input {
            name: "disparity_reference",
            reason: format!(
                "slice {slice:?} has no group {group:?}; its groups are {}{}",
                names[..names.len().min(SHOWN)].join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ),
        });
    }
    let d = attribute_disparities(slice, &gc, &reference, &spec.options).map_err(metric)?;
    Ok(to_model(d, word))
}

fn to_model(d: AttributeDisparities, word: &str) -> SliceDisparities {
    let test = |s: &fair_metrics::disparity::SampleSignificance| SampleTest {
        reference_group: s.reference_group.clone(),
        p_value: s.p_value,
        significant: s.significant,
    };
    SliceDisparities {
        reference: word.to_string(),
        predicted_positives: d.predicted_positives,
        total: d.total,
        groups: d
            .groups
            .iter()
            .map(|g| GroupDisparity {
                group: g.group.clone(),
                size: g.size,
                accuracy: g.accuracy,
                prevalence: g.prevalence,
                rates: DisparityRate::ALL
                    .iter()
                    .zip(&g.rates)
                    .map(|(rate, r)| {
                        (
                            rate.key().to_string(),
                            RateDisparity {
                                value: r.value,
                                reference_group: r.reference_group.clone(),
                                reference_value: r.reference_value,
                                disparity: r.disparity,
                                parity: r.parity,
                                p_value: r.p_value,
                                significant: r.significant,
                            },
                        )
                    })
                    .collect(),
                parity: CompositeParity {
                    type_i: g.composite.type_i,
                    type_ii: g.composite.type_ii,
                    equalized_odds: g.composite.equalized_odds,
                    unsupervised: g.composite.unsupervised,
                    supervised: g.composite.supervised,
                },
                label_value_significance: test(&g.label_value_significance),
                score_significance: test(&g.score_significance),
            })
            .collect(),
    }
}

/// Writes every slice's disparities into `report` (`confusion[source][slice]`, the states the
/// report's audits were built from, in their order) and `settings.disparity`.
///
/// # Errors
/// As [`slice_disparities`]; [`AuditError::Input`] when the states do not match the audits.
pub fn attach(
    report: &mut AuditReport,
    confusion: &[Vec<ConfusionState>],
    spec: &DisparitySpec,
) -> Result<(), AuditError> {
    if confusion.len() != report.audits.len()
        || confusion
            .iter()
            .zip(&report.audits)
            .any(|(c, a)| c.len() != a.slices.len())
    {
        return Err(AuditError::Input {
            name: "confusion states",
            reason: "one state per (prediction source, slice) of the report".into(),
        });
    }
    for (states, audit) in confusion.iter().zip(&mut report.audits) {
        for (state, slice) in states.iter().zip(&mut audit.slices) {
            slice.disparities = match slice_disparities(&slice.slice, state, spec) {
                Ok(d) => Some(d),
                // Counts the disparities cannot use (weights whose sums overflow a float): the
                // rest of the audit stands, and the slice is shown without disparities.
                Err(AuditError::Metric { .. }) => None,
                Err(e) => return Err(e),
            };
        }
    }
    report.settings.disparity = Some(spec.settings());
    Ok(())
}

/// The fail-if keys of the disparities: `{rate}_disparity` per rate, then `parity_failures`.
pub const GATE_KEYS: [&str; 11] = [
    "ppr_disparity",
    "pprev_disparity",
    "precision_disparity",
    "fdr_disparity",
    "for_disparity",
    "fpr_disparity",
    "fnr_disparity",
    "tpr_disparity",
    "tnr_disparity",
    "npv_disparity",
    "parity_failures",
];

/// The values of [`GATE_KEYS`] on `report`: `{rate}_disparity` is the worst disparity of that
/// rate over every group, slice and prediction source, folded below 1 (`min(d, 1/d)`), so
/// `fpr_disparity < 0.8` holds exactly when some group's FPR disparity is outside
/// `[0.8, 1.25]`, as the ratio keys (`dp_ratio < 0.8`) read; `parity_failures` counts the
/// (group, rate) parity determinations that are false at the report's τ. `Err` with the reason
/// when the report has no disparities or a rate's are all undefined.
pub fn gate_values(report: &AuditReport) -> Vec<(&'static str, Result<f64, String>)> {
    let slices: Vec<&SliceDisparities> = report
        .audits
        .iter()
        .flat_map(|a| &a.slices)
        .filter_map(|s| s.disparities.as_ref())
        .collect();
    let none = || {
        if report.regression.is_some() {
            "a classifier's disparity, and this audit is of a numeric target (--target)".to_string()
        } else {
            "this report has no disparities (written by a fairkit before them)".to_string()
        }
    };
    let mut out = Vec::with_capacity(GATE_KEYS.len());
    for (rate, key) in DisparityRate::ALL.iter().zip(GATE_KEYS) {
        let worst = slices
            .iter()
            .flat_map(|s| &s.groups)
            .filter_map(|g| g.rates.get(rate.key()).and_then(|r| r.disparity))
            .map(|d| d.min(1.0 / d))
            .reduce(f64::min);
        out.push((
            key,
            match (slices.is_empty(), worst) {
                (true, _) => Err(none()),
                (false, Some(v)) => Ok(v),
                (false, None) => Err(format!(
                    "the {} disparity is undefined in every group (a zero denominator or a 0/0 ratio; see disparities in report.json)",
                    rate.key()
                )),
            },
        ));
    }
    let failures = slices
        .iter()
        .flat_map(|s| &s.groups)
        .flat_map(|g| g.rates.values())
        .filter(|r| r.parity == Some(false))
        .count();
    out.push((
        "parity_failures",
        if slices.is_empty() {
            Err(none())
        } else {
            Ok(failures as f64)
        },
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fair_data::Groups;

    fn sensitive() -> Vec<String> {
        vec!["race".into(), "sex".into()]
    }

    #[test]
    fn entries_are_checked_once_with_the_option_named() {
        let ok = DisparitySpec::parse(&["race=b".into(), "largest".into()], 0.8, 0.9, &sensitive())
            .unwrap();
        assert_eq!(ok.reference_of("sex"), (Reference::Largest, "largest"));
        assert_eq!(ok.options.alpha.to_bits(), 0.1f64.to_bits());
        assert_eq!(ok.settings().reference, ["largest", "race=b"]);
        for (entries, tau, param) in [
            (vec!["biggest"], 0.8, "disparity_reference"),
            (vec!["largest", "min"], 0.8, "disparity_reference"),
            (vec!["race=a", "race=b"], 0.8, "disparity_reference"),
            (vec!["race="], 0.8, "disparity_reference"),
            (vec!["age=old"], 0.8, "disparity_reference"),
            (vec![], 1.25, "tau"),
            (vec![], 0.0, "tau"),
        ] {
            let entries: Vec<String> = entries.into_iter().map(String::from).collect();
            let e = DisparitySpec::parse(&entries, tau, 0.95, &sensitive()).unwrap_err();
            assert_eq!(e.param, param, "{entries:?} {tau}: {e}");
        }
    }

    #[test]
    fn weighted_states_give_fair_metrics_numbers_and_an_unknown_group_is_named() {
        let y = [1, 0, 1, 1, 0, 0, 1, 0];
        let p = [1, 1, 0, 1, 0, 1, 1, 0];
        let w = [0.5, 1.5, 2.0, 0.25, 1.0, 3.0, 0.75, 1.25];
        let g = Groups::from_labels(&["a", "a", "a", "b", "b", "b", "c", "c"]);
        let mut state = ConfusionState::new();
        state.update(&y, &p, &g, Some(&w)).unwrap();
        let spec = DisparitySpec::parse(&["min".into()], 0.8, 0.95, &["g".into()]).unwrap();
        let got = slice_disparities("g", &state, &spec).unwrap();
        let codes: Vec<usize> = g.codes().to_vec();
        let (sums, pooled) = GroupConfusion::count_codes_exact_sums(&y, &p, &codes, 3, &w).unwrap();
        let gc = GroupConfusion::from_cell_sums(g.names().to_vec(), sums, pooled).unwrap();
        let want = attribute_disparities("g", &gc, &Reference::MinMetric, &spec.options).unwrap();
        assert_eq!(got, to_model(want, "min_metric"));
        let named = DisparitySpec::parse(&["g=z".into()], 0.8, 0.95, &["g".into()]).unwrap();
        let e = slice_disparities("g", &state, &named)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("disparity_reference")
                && e.contains("no group \"z\"; its groups are a, b, c"),
            "{e}"
        );
    }
}
