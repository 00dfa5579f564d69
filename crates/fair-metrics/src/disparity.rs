//! Reference-group disparities, Aequitas' model: every confusion rate of every group divided by
//! the same rate of a reference group, a parity determination within `[τ, 1/τ]` and a
//! significance test per disparity.
//!
//! This follows Aequitas 1.1 (`aequitas.group.Group.get_crosstabs`,
//! `aequitas.bias.Bias.get_disparity_*`, `aequitas.fairness.Fairness.get_group_value_fairness`)
//! rule for rule, so the numbers equal Aequitas' on the same rows (a differential test in the
//! Python suite checks it):
//!
//! * **Rates** ([`DisparityRate`]): ppr (the group's share of all predicted positives), pprev
//!   (selection rate), precision, fdr, for, fpr, fnr, tpr, tnr, npv; a rate whose denominator
//!   is zero is undefined (`None`, Aequitas' NaN).
//! * **Reference** ([`Reference`]), chosen per attribute: the largest group (Aequitas'
//!   `get_disparity_major_group`, its default; the first group in the attribute's group order
//!   on a tie, as pandas' `idxmax`), per rate the group with the smallest defined value
//!   (`get_disparity_min_metric`; first on a tie; when no group of the attribute has the rate
//!   defined, the first group), or a named group (`get_disparity_predefined_groups`).
//! * **Disparity**: value ÷ reference value. Undefined (`None`) when either is undefined or both
//!   are 0 (0/0 is NaN in Aequitas); a positive value over a zero reference (an infinite ratio)
//!   is [`DisparityOptions::fill_divbyzero`], 10 by default, as Aequitas caps it.
//! * **Parity**: `τ ≤ disparity ≤ 1/τ`, `None` when the disparity is undefined (Aequitas'
//!   `fair_eval`). The composite determinations ([`Composite`]) follow Aequitas' code: undefined
//!   when both inputs are undefined, else true only when both are true — so one undefined input
//!   and one true input give **false** (Aequitas' comment says "determined by the defined
//!   parity", its code does not; fairkit matches the code).
//! * **Significance** (Aequitas' `_get_statistical_significance`): for each rate, a two-sample
//!   t-test of the group's binary sample against the reference group's. The samples are
//!   Aequitas': ppr and pprev test the predicted-positive indicator over the group's rows;
//!   fpr, tnr, precision and fdr test "label 0" among the group's *predicted positives*; fnr,
//!   tpr, npv and for test "label 1" among its *predicted negatives* (so Aequitas'
//!   `fpr_significance` compares false discovery proportions, not false positive rates — kept,
//!   to match). Student's or Welch's t-test is chosen by Aequitas' pre-tests of equal variance
//!   (D'Agostino–Pearson normality for samples above 20 rows, then Levene (median-centred)
//!   against the reference where normality is rejected or the sample is small, Bartlett
//!   otherwise), at level 0.05 as Aequitas hard-codes it. The p-value is `None` where scipy's
//!   is NaN (an empty sample, two constant equal samples, Welch's test with a one-row sample);
//!   "significant" is `p < alpha`. The label and score tests Aequitas adds are
//!   [`GroupDisparities::label_value_significance`] and
//!   [`GroupDisparities::score_significance`], against the largest (or named) group, or for
//!   [`Reference::MinMetric`] against fpr's reference, as Aequitas does.
//!
//! Because the samples are binary, every statistic is computed in closed form from the
//! confusion counts (no rows are kept). Weights are read as frequency weights: a weighted
//! count of 2.5 is a sample of 2.5 rows, which is exactly Aequitas on rows replicated by
//! integer weights. Rates, disparities and parity do not change when all weights are scaled;
//! p-values do (more rows, more evidence), as they would with replicated rows.
//!
//! Differences from Aequitas, all deliberate: a named reference group that does not exist is a
//! typed error naming the attribute's groups (Aequitas raises a generic `ValueError`); Aequitas
//! writes significance by group *value* across attributes, so two attributes sharing a value
//! (`"unknown"`) overwrite each other's p-values there, not here; Aequitas' Bartlett pre-test
//! skips groups whose name is a single character of the reference group's name (`set(ref_group)`
//! on a string) and then fails with a `KeyError`; fairkit tests them.
//!
//! # Example
//! ```
//! use fair_data::Groups;
//! use fair_metrics::GroupConfusion;
//! use fair_metrics::disparity::{attribute_disparities, DisparityOptions, DisparityRate, Reference};
//!
//! let y_true = [1, 0, 0, 1, 0, 0, 1, 0];
//! let y_pred = [1, 1, 0, 1, 0, 0, 0, 0];
//! let groups = Groups::from_labels(&["a", "a", "a", "a", "a", "b", "b", "b"]);
//! let gc = GroupConfusion::new(&y_true, &y_pred, &groups, None)?;
//! let d = attribute_disparities("race", &gc, &Reference::Largest, &DisparityOptions::default())?;
//! let b = &d.groups[1];
//! let pprev = b.rate(DisparityRate::Pprev);
//! // a (5 rows) is the reference: pprev 3/5; b predicts no one positive: 0 ÷ 3/5 = 0.
//! assert_eq!(pprev.reference_group, "a");
//! assert_eq!((pprev.value, pprev.disparity, pprev.parity), (Some(0.0), Some(0.0), Some(false)));
//! // b has no predicted positives, so its precision is undefined, and so is the disparity.
//! assert_eq!(b.rate(DisparityRate::Precision).disparity, None);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::confusion::{CellSums, ConfusionCounts, GroupConfusion};
use crate::error::{MetricError, Result};
use statrs::function::beta::checked_beta_reg;
use statrs::function::erf::erfc;

/// One of the rates Aequitas reports a disparity for, in Aequitas' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisparityRate {
    /// The group's share of all predicted positives: pp / k, k = predicted positives of all rows.
    Ppr,
    /// Predicted prevalence (selection rate): pp / group size.
    Pprev,
    /// tp / (tp + fp).
    Precision,
    /// False discovery rate: fp / (tp + fp).
    Fdr,
    /// False omission rate: fn / (fn + tn).
    For,
    /// False positive rate: fp / (fp + tn).
    Fpr,
    /// False negative rate: fn / (fn + tp).
    Fnr,
    /// True positive rate: tp / (tp + fn).
    Tpr,
    /// True negative rate: tn / (tn + fp).
    Tnr,
    /// Negative predictive value: tn / (tn + fn).
    Npv,
}

// Bits of the cell masks of [`CellSums`]: [tn, fp, fn, tp].
const TN: usize = 1;
const FP: usize = 2;
const FN: usize = 4;
const TP: usize = 8;
const ALL: usize = 15;

/// Which binary sample Aequitas' significance test draws for a rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SampleBase {
    /// The predicted-positive indicator over all of the group's rows.
    Score,
    /// The label over all rows.
    Label,
    /// "label 0" among predicted positives.
    FalsePositive,
    /// "label 1" among predicted negatives.
    FalseNegative,
}

impl SampleBase {
    /// (rows, ones) masks of the sample.
    fn masks(self) -> (usize, usize) {
        match self {
            SampleBase::Score => (ALL, FP | TP),
            SampleBase::Label => (ALL, TP | FN),
            SampleBase::FalsePositive => (FP | TP, FP),
            SampleBase::FalseNegative => (FN | TN, FN),
        }
    }
}

impl DisparityRate {
    /// The ten rates in Aequitas' order (`Bias.all_group_metrics`).
    pub const ALL: [DisparityRate; 10] = [
        DisparityRate::Ppr,
        DisparityRate::Pprev,
        DisparityRate::Precision,
        DisparityRate::Fdr,
        DisparityRate::For,
        DisparityRate::Fpr,
        DisparityRate::Fnr,
        DisparityRate::Tpr,
        DisparityRate::Tnr,
        DisparityRate::Npv,
    ];

    /// Aequitas' column name (`"ppr"`, …, `"for"`); the disparity column is `{key}_disparity`.
    pub fn key(self) -> &'static str {
        match self {
            DisparityRate::Ppr => "ppr",
            DisparityRate::Pprev => "pprev",
            DisparityRate::Precision => "precision",
            DisparityRate::Fdr => "fdr",
            DisparityRate::For => "for",
            DisparityRate::Fpr => "fpr",
            DisparityRate::Fnr => "fnr",
            DisparityRate::Tpr => "tpr",
            DisparityRate::Tnr => "tnr",
            DisparityRate::Npv => "npv",
        }
    }

    /// Aequitas' name of the parity determination (`"Statistical Parity"`, `"FPR Parity"`, …).
    pub fn parity_name(self) -> &'static str {
        match self {
            DisparityRate::Ppr => "Statistical Parity",
            DisparityRate::Pprev => "Impact Parity",
            DisparityRate::Precision => "Precision Parity",
            DisparityRate::Fdr => "FDR Parity",
            DisparityRate::For => "FOR Parity",
            DisparityRate::Fpr => "FPR Parity",
            DisparityRate::Fnr => "FNR Parity",
            DisparityRate::Tpr => "TPR Parity",
            DisparityRate::Tnr => "TNR Parity",
            DisparityRate::Npv => "NPV Parity",
        }
    }

    /// Numerator and denominator masks; ppr's denominator is all rows' predicted positives.
    fn masks(self) -> (usize, usize) {
        match self {
            DisparityRate::Ppr => (FP | TP, FP | TP),
            DisparityRate::Pprev => (FP | TP, ALL),
            DisparityRate::Precision => (TP, TP | FP),
            DisparityRate::Fdr => (FP, TP | FP),
            DisparityRate::For => (FN, FN | TN),
            DisparityRate::Fpr => (FP, FP | TN),
            DisparityRate::Fnr => (FN, FN | TP),
            DisparityRate::Tpr => (TP, TP | FN),
            DisparityRate::Tnr => (TN, TN | FP),
            DisparityRate::Npv => (TN, TN | FN),
        }
    }

    fn sample_base(self) -> SampleBase {
        match self {
            DisparityRate::Ppr | DisparityRate::Pprev => SampleBase::Score,
            DisparityRate::Fpr
            | DisparityRate::Tnr
            | DisparityRate::Precision
            | DisparityRate::Fdr => SampleBase::FalsePositive,
            DisparityRate::Fnr | DisparityRate::Tpr | DisparityRate::Npv | DisparityRate::For => {
                SampleBase::FalseNegative
            }
        }
    }
}

/// How an attribute's reference group is chosen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Reference {
    /// The group with the largest (weighted) size; Aequitas' default ("majority").
    #[default]
    Largest,
    /// Per rate, the group with the smallest defined value (Aequitas' "min_metric").
    MinMetric,
    /// This group (Aequitas' predefined reference groups).
    Named(String),
}

/// Thresholds of the determinations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DisparityOptions {
    /// Parity holds when `tau ≤ disparity ≤ 1/tau`; in `(0, 1]`, 0.8 by default (the
    /// four-fifths rule).
    pub tau: f64,
    /// The disparity reported for a positive value over a zero reference (Aequitas'
    /// `fill_divbyzero`, 10 by default): finite and positive.
    pub fill_divbyzero: f64,
    /// A disparity is significant when its p-value is below `alpha`; in `(0, 1)`, 0.05 by default.
    pub alpha: f64,
}

impl Default for DisparityOptions {
    fn default() -> Self {
        Self {
            tau: 0.8,
            fill_divbyzero: 10.0,
            alpha: 0.05,
        }
    }
}

impl DisparityOptions {
    /// Checks the ranges.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] naming the option out of range.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::disparity::DisparityOptions;
    /// assert!(DisparityOptions { tau: 1.25, ..Default::default() }.validate().is_err());
    /// assert!(DisparityOptions::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        let bad = |name, value: f64, expected| {
            Err(MetricError::InvalidParameter {
                name,
                value: value.to_string(),
                expected,
            })
        };
        if !(self.tau > 0.0 && self.tau <= 1.0) {
            return bad(
                "tau",
                self.tau,
                "a number in (0, 1] (e.g. 0.8 for the four-fifths rule)",
            );
        }
        if !(self.fill_divbyzero.is_finite() && self.fill_divbyzero > 0.0) {
            return bad("fill_divbyzero", self.fill_divbyzero, "a finite number > 0");
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return bad("alpha", self.alpha, "a number in (0, 1)");
        }
        Ok(())
    }
}

/// One rate of one group against its reference.
#[derive(Debug, Clone, PartialEq)]
pub struct RateDisparity {
    /// The group's rate (`None`: zero denominator).
    pub value: Option<f64>,
    /// The reference group's name (Aequitas' `{rate}_ref_group_value` column).
    pub reference_group: String,
    /// The reference group's rate.
    pub reference_value: Option<f64>,
    /// value ÷ reference value (see the module docs for the undefined and capped cases).
    pub disparity: Option<f64>,
    /// `tau ≤ disparity ≤ 1/tau`; `None` when the disparity is undefined.
    pub parity: Option<bool>,
    /// The t-test's p-value against the reference group (`None` where scipy's is NaN).
    pub p_value: Option<f64>,
    /// `p_value < alpha`; `None` with the p-value.
    pub significant: Option<bool>,
}

/// Aequitas' composite determinations of one group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Composite {
    /// FDR and FPR parity (`TypeI Parity`).
    pub type_i: Option<bool>,
    /// FOR and FNR parity (`TypeII Parity`).
    pub type_ii: Option<bool>,
    /// FPR and TPR parity (`Equalized Odds`).
    pub equalized_odds: Option<bool>,
    /// Statistical and Impact parity (`Unsupervised Fairness`).
    pub unsupervised: Option<bool>,
    /// TypeI and TypeII parity (`Supervised Fairness`).
    pub supervised: Option<bool>,
}

/// A significance test of a sample that has no disparity column (label, score).
#[derive(Debug, Clone, PartialEq)]
pub struct SampleSignificance {
    /// The group tested against.
    pub reference_group: String,
    /// The p-value (`None` where scipy's is NaN).
    pub p_value: Option<f64>,
    /// `p_value < alpha`.
    pub significant: Option<bool>,
}

/// Everything about one group of one attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDisparities {
    /// The group's name.
    pub group: String,
    /// Its confusion counts (weighted).
    pub counts: ConfusionCounts,
    /// Its size (total weight).
    pub size: f64,
    /// (tp + tn) / size.
    pub accuracy: Option<f64>,
    /// Prevalence: (tp + fn) / size.
    pub prevalence: Option<f64>,
    /// The ten rates, in [`DisparityRate::ALL`] order.
    pub rates: Vec<RateDisparity>,
    /// The composite determinations.
    pub composite: Composite,
    /// Aequitas' `label_value_significance`: the label's mean against the reference.
    pub label_value_significance: SampleSignificance,
    /// Aequitas' `score_significance`: the predicted-positive share against the reference.
    pub score_significance: SampleSignificance,
}

impl GroupDisparities {
    /// The entry of one rate.
    pub fn rate(&self, rate: DisparityRate) -> &RateDisparity {
        let k = DisparityRate::ALL
            .iter()
            .position(|r| *r == rate)
            .unwrap_or_default();
        &self.rates[k]
    }
}

/// All groups of one attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeDisparities {
    /// The attribute (sensitive feature) name.
    pub attribute: String,
    /// Predicted positives of all rows (Aequitas' `k`, ppr's denominator).
    pub predicted_positives: f64,
    /// Total weight of all rows (Aequitas' `total_entities`).
    pub total: f64,
    /// One entry per group, in the confusion's group order.
    pub groups: Vec<GroupDisparities>,
}

/// The sums of every union of cells of each group and of all rows, exact when the confusion
/// was built from exact sums, else added from the counts (exact for integer counts).
fn cell_sums(gc: &GroupConfusion) -> (Vec<CellSums>, CellSums) {
    if let Some((g, pooled)) = gc.cell_sums() {
        return (g.to_vec(), *pooled);
    }
    let of = |c: &ConfusionCounts| {
        let cells = [c.tn, c.fp, c.fn_, c.tp];
        CellSums(std::array::from_fn(|mask| {
            (0..4)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| cells[b])
                .sum()
        }))
    };
    (gc.by_group().iter().map(of).collect(), of(gc.overall()))
}

fn ratio(num: f64, den: f64) -> Option<f64> {
    (den > 0.0).then(|| num / den)
}

fn rate_value(s: &CellSums, pooled: &CellSums, rate: DisparityRate) -> Option<f64> {
    let (num, den) = rate.masks();
    let den = if rate == DisparityRate::Ppr {
        pooled.0[den]
    } else {
        s.0[den]
    };
    ratio(s.0[num], den)
}

/// Aequitas' disparity: NaN propagates, 0/0 is NaN, x/0 is capped at `fill`.
fn disparity_of(value: Option<f64>, reference: Option<f64>, fill: f64) -> Option<f64> {
    let d = value? / reference?;
    if d.is_nan() {
        None
    } else if d.is_infinite() {
        Some(fill)
    } else {
        Some(d)
    }
}

fn parity_of(disparity: Option<f64>, tau: f64) -> Option<bool> {
    disparity.map(|d| tau <= d && d <= 1.0 / tau)
}

/// Aequitas' `high_level_pair_eval`: undefined when both are, else both must be true.
fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    if a.is_none() && b.is_none() {
        None
    } else {
        Some(a == Some(true) && b == Some(true))
    }
}

/// Disparities of every group of one attribute against its reference group.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for options out of range (see
/// [`DisparityOptions::validate`]), [`MetricError::UnknownReferenceGroup`] for a
/// [`Reference::Named`] group the attribute does not have.
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::GroupConfusion;
/// use fair_metrics::disparity::{attribute_disparities, DisparityOptions, DisparityRate, Reference};
/// let groups = Groups::from_labels(&["m", "m", "f", "f"]);
/// let gc = GroupConfusion::new(&[1, 0, 1, 0], &[1, 1, 1, 0], &groups, None)?;
/// let opts = DisparityOptions::default();
/// let d = attribute_disparities("sex", &gc, &Reference::Named("m".into()), &opts)?;
/// let f = d.groups.iter().find(|g| g.group == "f").unwrap();
/// // fpr: f 0/1, m 1/1 → 0; pprev: f 1/2, m 2/2 → 0.5, outside [0.8, 1.25].
/// assert_eq!(f.rate(DisparityRate::Fpr).disparity, Some(0.0));
/// assert_eq!(f.rate(DisparityRate::Pprev).parity, Some(false));
/// assert!(attribute_disparities("sex", &gc, &Reference::Named("x".into()), &opts).is_err());
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn attribute_disparities(
    attribute: &str,
    confusion: &GroupConfusion,
    reference: &Reference,
    options: &DisparityOptions,
) -> Result<AttributeDisparities> {
    options.validate()?;
    let names = confusion.names();
    let (sums, pooled) = cell_sums(confusion);
    let values: Vec<Vec<Option<f64>>> = sums
        .iter()
        .map(|s| {
            DisparityRate::ALL
                .iter()
                .map(|&r| rate_value(s, &pooled, r))
                .collect()
        })
        .collect();
    let sizes: Vec<f64> = sums.iter().map(|s| s.0[ALL]).collect();
    // The largest group: the first on a tie, as pandas' idxmax.
    let largest = sizes
        .iter()
        .enumerate()
        .fold(0, |best, (g, &s)| if s > sizes[best] { g } else { best });
    let fixed = match reference {
        Reference::Largest => Some(largest),
        Reference::Named(name) => Some(names.iter().position(|n| n == name).ok_or_else(|| {
            MetricError::UnknownReferenceGroup {
                attribute: attribute.to_string(),
                group: name.clone(),
                available: names.join(", "),
            }
        })?),
        Reference::MinMetric => None,
    };
    // Reference group per rate.
    let refs: Vec<usize> = (0..DisparityRate::ALL.len())
        .map(|k| {
            fixed.unwrap_or_else(|| {
                // The smallest defined value, first on a tie (pandas' idxmin skips NaN); with
                // no defined value, Aequitas falls back to the attribute's first row.
                let mut best: Option<usize> = None;
                for (g, v) in values.iter().enumerate() {
                    if let Some(x) = v[k]
                        && best.is_none_or(|b| values[b][k].is_some_and(|y| x < y))
                    {
                        best = Some(g);
                    }
                }
                best.unwrap_or(0)
            })
        })
        .collect();
    // Aequitas tests label and score against the largest / named group, or with min_metric
    // against fpr's reference (`label_score_ref='fpr'`).
    let fpr_k = 5;
    debug_assert_eq!(DisparityRate::ALL[fpr_k], DisparityRate::Fpr);
    let label_score_ref = fixed.unwrap_or(refs[fpr_k]);
    let sample = |g: usize, base: SampleBase| {
        let (rows, ones) = base.masks();
        Binary {
            n: sums[g].0[rows],
            ones: sums[g].0[ones],
        }
    };
    let n_groups = names.len();
    // p-values of every group for (base, reference group), computed once per pair.
    let mut cache: Vec<PValueCache> = Vec::new();
    let mut p_values = |base: SampleBase, r: usize| -> Vec<Option<f64>> {
        if let Some((_, p)) = cache.iter().find(|(key, _)| *key == (base, r)) {
            return p.clone();
        }
        let samples: Vec<Binary> = (0..n_groups).map(|g| sample(g, base)).collect();
        let p = significance(&samples, r);
        cache.push(((base, r), p.clone()));
        p
    };
    let significant = |p: Option<f64>| p.map(|p| p < options.alpha);
    let rate_p: Vec<Vec<Option<f64>>> = DisparityRate::ALL
        .iter()
        .zip(&refs)
        .map(|(rate, &r)| p_values(rate.sample_base(), r))
        .collect();
    let label_p = p_values(SampleBase::Label, label_score_ref);
    let score_p = p_values(SampleBase::Score, label_score_ref);
    let groups = (0..n_groups)
        .map(|g| {
            let rates: Vec<RateDisparity> = (0..DisparityRate::ALL.len())
                .map(|k| {
                    let r = refs[k];
                    let disparity =
                        disparity_of(values[g][k], values[r][k], options.fill_divbyzero);
                    RateDisparity {
                        value: values[g][k],
                        reference_group: names[r].clone(),
                        reference_value: values[r][k],
                        disparity,
                        parity: parity_of(disparity, options.tau),
                        p_value: rate_p[k][g],
                        significant: significant(rate_p[k][g]),
                    }
                })
                .collect();
            let parity = |rate: DisparityRate| {
                rates[DisparityRate::ALL
                    .iter()
                    .position(|x| *x == rate)
                    .unwrap_or_default()]
                .parity
            };
            let type_i = both(parity(DisparityRate::Fdr), parity(DisparityRate::Fpr));
            let type_ii = both(parity(DisparityRate::For), parity(DisparityRate::Fnr));
            let composite = Composite {
                type_i,
                type_ii,
                equalized_odds: both(parity(DisparityRate::Fpr), parity(DisparityRate::Tpr)),
                unsupervised: both(parity(DisparityRate::Ppr), parity(DisparityRate::Pprev)),
                supervised: both(type_i, type_ii),
            };
            let s = &sums[g];
            GroupDisparities {
                group: names[g].clone(),
                counts: s.counts(),
                size: s.0[ALL],
                accuracy: ratio(s.0[TP | TN], s.0[ALL]),
                prevalence: ratio(s.0[TP | FN], s.0[ALL]),
                rates,
                composite,
                label_value_significance: SampleSignificance {
                    reference_group: names[label_score_ref].clone(),
                    p_value: label_p[g],
                    significant: significant(label_p[g]),
                },
                score_significance: SampleSignificance {
                    reference_group: names[label_score_ref].clone(),
                    p_value: score_p[g],
                    significant: significant(score_p[g]),
                },
            }
        })
        .collect();
    Ok(AttributeDisparities {
        attribute: attribute.to_string(),
        predicted_positives: pooled.0[FP | TP],
        total: pooled.0[ALL],
        groups,
    })
}

/// [`attribute_disparities`] of several attributes (one confusion and one reference each), the
/// rows of Aequitas' disparity frame attribute after attribute.
///
/// # Errors
/// As [`attribute_disparities`], for the first attribute that fails.
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::GroupConfusion;
/// use fair_metrics::disparity::{disparities, DisparityOptions, Reference};
/// let (y, p) = ([1, 0, 1, 0], [1, 1, 0, 0]);
/// let sex = GroupConfusion::new(&y, &p, &Groups::from_labels(&["f", "f", "m", "m"]), None)?;
/// let age = GroupConfusion::new(&y, &p, &Groups::from_labels(&["o", "y", "o", "y"]), None)?;
/// let d = disparities(
///     &[("sex", &sex, Reference::Largest), ("age", &age, Reference::MinMetric)],
///     &DisparityOptions::default(),
/// )?;
/// assert_eq!((d.len(), d[1].groups.len()), (2, 2));
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn disparities(
    attributes: &[(&str, &GroupConfusion, Reference)],
    options: &DisparityOptions,
) -> Result<Vec<AttributeDisparities>> {
    attributes
        .iter()
        .map(|(name, gc, reference)| attribute_disparities(name, gc, reference, options))
        .collect()
}

/// p-values of every group, keyed by (sample kind, reference group).
type PValueCache = ((SampleBase, usize), Vec<Option<f64>>);

/// A binary sample: `n` rows (weighted), `ones` of them 1.
#[derive(Debug, Clone, Copy)]
struct Binary {
    n: f64,
    ones: f64,
}

impl Binary {
    fn mean(self) -> f64 {
        self.ones / self.n
    }
    /// Sum of squared deviations from the mean.
    fn ss(self) -> f64 {
        self.ones * (self.n - self.ones) / self.n
    }
    /// Sample variance (ddof 1).
    fn var(self) -> f64 {
        self.ss() / (self.n - 1.0)
    }
}

/// The level of Aequitas' equal-variance pre-tests (hard-coded 5e-2 in
/// `_get_statistical_significance`, whatever the caller's alpha).
const PRETEST_ALPHA: f64 = 0.05;

/// Aequitas' `_calculate_significance` for one sample kind: the p-value of every group against
/// group `r`.
fn significance(samples: &[Binary], r: usize) -> Vec<Option<f64>> {
    let equal_var = equal_variance(samples, r);
    samples
        .iter()
        .zip(&equal_var)
        .map(|(s, &eq)| {
            let p = t_test(samples[r], *s, eq);
            (!p.is_nan()).then_some(p)
        })
        .collect()
}

/// Aequitas' `_check_equal_variance`, in its order: groups in order; a group that is small
/// (≤ 20 rows) or rejects normality gets Levene against the reference — and if that group is
/// the reference itself, every group gets Levene and the pass ends; the rest get Bartlett.
fn equal_variance(samples: &[Binary], r: usize) -> Vec<bool> {
    let mut eq: Vec<Option<bool>> = vec![None; samples.len()];
    eq[r] = Some(true);
    let levene_eq = |g: usize| levene(samples[r], samples[g]) >= PRETEST_ALPHA;
    for (g, s) in samples.iter().enumerate() {
        let normality_p = if s.n > 20.0 {
            normaltest(*s)
        } else {
            f64::INFINITY
        };
        if normality_p < PRETEST_ALPHA || s.n <= 20.0 {
            if g == r {
                return (0..samples.len()).map(levene_eq).collect();
            }
            eq[g] = Some(levene_eq(g));
        }
    }
    (0..samples.len())
        .map(|g| eq[g].unwrap_or_else(|| bartlett(samples[r], samples[g]) >= PRETEST_ALPHA))
        .collect()
}

/// Two-sided p-value of Student's t with `df` degrees of freedom (`t` may be infinite).
fn t_two_sided(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    checked_beta_reg(df / 2.0, 0.5, df / (df + t * t)).unwrap_or(f64::NAN)
}

/// scipy's `ttest_ind(a, b, equal_var=…)` p-value on binary samples (NaN where scipy's is).
fn t_test(a: Binary, b: Binary, equal_var: bool) -> f64 {
    if a.n <= 0.0 || b.n <= 0.0 {
        return f64::NAN;
    }
    let (df, denom) = if equal_var {
        let df = a.n + b.n - 2.0;
        let svar = (a.ss() + b.ss()) / df;
        (df, (svar * (1.0 / a.n + 1.0 / b.n)).sqrt())
    } else {
        let (va, vb) = (a.var() / a.n, b.var() / b.n);
        let df = (va + vb).powi(2) / (va * va / (a.n - 1.0) + vb * vb / (b.n - 1.0));
        // scipy: an undefined df means both variances are zero; any df then gives the same p.
        (if df.is_nan() { 1.0 } else { df }, (va + vb).sqrt())
    };
    t_two_sided((a.mean() - b.mean()) / denom, df)
}

/// scipy's `levene(a, b, center='median')` p-value on binary samples.
fn levene(a: Binary, b: Binary) -> f64 {
    if a.n <= 0.0 || b.n <= 0.0 {
        return f64::NAN;
    }
    // |x - median| is binary again (or the constant ½ when the median is ½).
    let deviations = |s: Binary| -> (f64, f64) {
        let (mean, ss) = if 2.0 * s.ones > s.n {
            let c = Binary {
                n: s.n,
                ones: s.n - s.ones,
            };
            (c.mean(), c.ss())
        } else if 2.0 * s.ones < s.n {
            (s.mean(), s.ss())
        } else {
            (0.5, 0.0)
        };
        (mean, ss)
    };
    let ((za, ssa), (zb, ssb)) = (deviations(a), deviations(b));
    let n = a.n + b.n;
    let z = (a.n * za + b.n * zb) / n;
    let numer = (n - 2.0) * (a.n * (za - z).powi(2) + b.n * (zb - z).powi(2));
    let w = numer / (ssa + ssb);
    // F(1, d).sf(w) = P(|t_d| > √w).
    t_two_sided(w.sqrt(), n - 2.0)
}

/// scipy's `bartlett(a, b)` p-value on binary samples.
fn bartlett(a: Binary, b: Binary) -> f64 {
    let n = a.n + b.n;
    let spsq = (a.ss() + b.ss()) / (n - 2.0);
    let numer = (n - 2.0) * spsq.ln() - ((a.n - 1.0) * a.var().ln() + (b.n - 1.0) * b.var().ln());
    let denom = 1.0 + (1.0 / (a.n - 1.0) + 1.0 / (b.n - 1.0) - 1.0 / (n - 2.0)) / 3.0;
    let t = numer / denom;
    if t.is_nan() {
        f64::NAN
    } else if t <= 0.0 {
        1.0
    } else {
        // χ²₁ survival function.
        erfc((t / 2.0).sqrt())
    }
}

/// scipy's `normaltest` (D'Agostino–Pearson K²) p-value of a binary sample of more than 20 rows;
/// NaN for a constant sample, as scipy's skewness is then undefined.
fn normaltest(s: Binary) -> f64 {
    let (n, p) = (s.n, s.mean());
    let pq = p * (1.0 - p);
    if pq <= 0.0 || pq.is_nan() {
        return f64::NAN;
    }
    // Biased skewness and Pearson kurtosis of a Bernoulli(p) sample.
    let skew = (1.0 - 2.0 * p) / pq.sqrt();
    let kurt = 1.0 / pq - 3.0;
    // skewtest.
    let y = skew * (((n + 1.0) * (n + 3.0)) / (6.0 * (n - 2.0))).sqrt();
    let beta2 = 3.0 * (n * n + 27.0 * n - 70.0) * (n + 1.0) * (n + 3.0)
        / ((n - 2.0) * (n + 5.0) * (n + 7.0) * (n + 9.0));
    let w2 = -1.0 + (2.0 * (beta2 - 1.0)).sqrt();
    let delta = 1.0 / (0.5 * w2.ln()).sqrt();
    let alpha = (2.0 / (w2 - 1.0)).sqrt();
    let y = if y == 0.0 { 1.0 } else { y };
    let zs = delta * (y / alpha + ((y / alpha).powi(2) + 1.0).sqrt()).ln();
    // kurtosistest.
    let e = 3.0 * (n - 1.0) / (n + 1.0);
    let varb2 = 24.0 * n * (n - 2.0) * (n - 3.0) / ((n + 1.0) * (n + 1.0) * (n + 3.0) * (n + 5.0));
    let x = (kurt - e) / varb2.sqrt();
    let sqrtbeta1 = 6.0 * (n * n - 5.0 * n + 2.0) / ((n + 7.0) * (n + 9.0))
        * ((6.0 * (n + 3.0) * (n + 5.0)) / (n * (n - 2.0) * (n - 3.0))).sqrt();
    let a =
        6.0 + 8.0 / sqrtbeta1 * (2.0 / sqrtbeta1 + (1.0 + 4.0 / (sqrtbeta1 * sqrtbeta1)).sqrt());
    let term1 = 1.0 - 2.0 / (9.0 * a);
    let denom = 1.0 + x * (2.0 / (a - 4.0)).sqrt();
    if denom == 0.0 {
        return f64::NAN;
    }
    let term2 = denom.signum() * ((1.0 - 2.0 / a) / denom.abs()).powf(1.0 / 3.0);
    let zk = (term1 - term2) / (2.0 / (9.0 * a)).sqrt();
    // χ²₂ survival function.
    (-(zs * zs + zk * zk) / 2.0).exp()
}

#[cfg(test)]
mod tests;
