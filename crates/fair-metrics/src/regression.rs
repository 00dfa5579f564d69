//! Fairness of a numeric output (a predicted grade, a credit limit, a risk score read as a
//! number): per-group regression metrics and the gaps between groups, from a mergeable state of
//! exact sums.
//!
//! [`RegressionState`] keeps, per group, the row count and the exact sums (`bitrep`'s
//! superaccumulator, as [`ConfusionState`](crate::state::ConfusionState) does for weights) of
//! `w`, `w·y`, `w·ŷ`, `w·r`, `w·|r|`, `w·r²` and `w·y²`, with the residual `r = ŷ − y`
//! (prediction minus target: positive when the model over-predicts). Adding rows and merging
//! states commute, so one pass, a stream of batches or any partitioning give the same bits.
//! Each product is rounded once, as numpy and scikit-learn round it; the sums are exact.
//!
//! Per group ([`RegressionValues`]): count, weight, mean target, mean prediction, mean residual,
//! MAE, MSE, RMSE and R² (scikit-learn's `r2_score`: `1 − Σw r² / Σw (y − ȳ)²`, 1 for a constant
//! target predicted exactly and 0 for a constant target missed — its `force_finite` convention —
//! and undefined below two rows). `Σw (y − ȳ)²` is `Σw y² − ȳ·Σw y` from the exact sums; its
//! relative error is about `2⁻⁵² · ȳ² / var(y)`, below 1e-12 unless the target's spread is a
//! millionth of its level.
//!
//! Between groups ([`RegressionGap`]): fairlearn's `group_min`, `group_max`, `difference`
//! (max − min) and `ratio` (min / max, only for metrics that cannot be negative), both
//! `between_groups` and `to_overall`; [`RegressionSummary::bounded_group_loss`] is the largest
//! group loss (fairlearn's `BoundedGroupLoss` quantity).
//!
//! ```
//! use fair_metrics::regression::{RegressionMetric, RegressionState};
//! let mut s = RegressionState::new();
//! s.update(&[1.0, 2.0, 3.0, 4.0], &[1.5, 2.0, 2.0, 4.0], &["a", "a", "b", "b"], None)?;
//! let summary = s.summary()?;
//! let mae = summary.gap(RegressionMetric::MeanAbsoluteError)?;
//! assert_eq!(mae.by_group, vec![Some(0.25), Some(0.5)]);
//! assert_eq!(mae.difference, 0.25);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::error::{MetricError, Result};
use crate::score_sweep::StreamTotals;
use crate::state::ExactSum;
use crate::state::codec::{Reader, Writer};
use std::collections::BTreeMap;

const REGRESSION_MAGIC: &[u8; 4] = b"FKRS";
const REGRESSION_VERSION: u8 = 1;

/// The exact sums of one group's rows.
#[derive(Clone, Default, PartialEq)]
struct GroupSums {
    rows: u64,
    w: ExactSum,
    wy: ExactSum,
    wp: ExactSum,
    wr: ExactSum,
    wabs: ExactSum,
    wr2: ExactSum,
    wy2: ExactSum,
    // The second moments of the standard errors: Kish's effective size (Σw²), the
    // prediction's spread (Σw ŷ²) and the squared error's (Σw r⁴).
    w2: ExactSum,
    wp2: ExactSum,
    wr4: ExactSum,
}

impl GroupSums {
    fn add(&mut self, y: f64, p: f64, w: f64) {
        self.rows += 1;
        let t = row_terms(y, p, w);
        for (acc, term) in self.sums_mut().into_iter().zip(t) {
            acc.add(term);
        }
    }

    fn sums_mut(&mut self) -> [&mut ExactSum; SUMS] {
        [
            &mut self.w,
            &mut self.wy,
            &mut self.wp,
            &mut self.wr,
            &mut self.wabs,
            &mut self.wr2,
            &mut self.wy2,
            &mut self.w2,
            &mut self.wp2,
            &mut self.wr4,
        ]
    }

    fn merge(&mut self, o: &GroupSums) {
        self.rows += o.rows;
        let theirs = [
            &o.w, &o.wy, &o.wp, &o.wr, &o.wabs, &o.wr2, &o.wy2, &o.w2, &o.wp2, &o.wr4,
        ];
        for (a, b) in self.sums_mut().into_iter().zip(theirs) {
            a.merge(b);
        }
    }

    fn values(&self) -> RegressionValues {
        derive_values(
            self.rows,
            [
                self.w.value(),
                self.wy.value(),
                self.wp.value(),
                self.wr.value(),
                self.wabs.value(),
                self.wr2.value(),
                self.wy2.value(),
                self.w2.value(),
                self.wp2.value(),
                self.wr4.value(),
            ],
        )
    }
}

/// How many sums [`derive_values`] reads.
pub(crate) const SUMS: usize = 10;

/// The terms one row of target `y`, prediction `p` and weight `w` adds to the sums
/// `[w, w·y, w·ŷ, w·r, w·|r|, w·r², w·y², w², w·ŷ², w·r⁴]` (each product rounded once).
pub(crate) fn row_terms(y: f64, p: f64, w: f64) -> [f64; SUMS] {
    let r = p - y;
    [
        w,
        w * y,
        w * p,
        w * r,
        w * r.abs(),
        w * r * r,
        w * y * y,
        w * w,
        w * p * p,
        w * (r * r) * (r * r),
    ]
}

/// The metrics of `rows` rows from their sums (see [`row_terms`]).
pub(crate) fn derive_values(rows: u64, sums: [f64; SUMS]) -> RegressionValues {
    let [w, wy, wp, wr, wabs, wr2, wy2, w2, wp2, wr4] = sums;
    let mean = |s: f64| (w > 0.0).then(|| s / w);
    let mean_target = mean(wy);
    let mse = mean(wr2);
    let r2 = match mean_target {
        Some(ybar) if rows >= 2 => {
            let total = (wy2 - ybar * wy).max(0.0);
            Some(if total > 0.0 {
                1.0 - wr2 / total
            } else if wr2 == 0.0 {
                1.0
            } else {
                0.0
            })
        }
        _ => None,
    };
    // Kish's effective size; the standard error of a weighted mean of x is
    // √(var_w(x) / n_eff) with var_w(x) = E_w[x²] − E_w[x]² (0 below 0 from rounding).
    let effective_n = if w2 > 0.0 { w * w / w2 } else { 0.0 };
    let se = |second: Option<f64>, first: Option<f64>| match (second, first) {
        (Some(m2), Some(m1)) if effective_n > 0.0 => {
            Some(((m2 - m1 * m1).max(0.0) / effective_n).sqrt())
        }
        _ => None,
    };
    let mae = mean(wabs);
    let se_mse = se(mean(wr4), mse);
    let rmse = mse.map(f64::sqrt);
    let standard_errors = [
        se(mean(wy2), mean_target),
        se(mean(wp2), mean(wp)),
        se(mse, mean(wr)),
        // E|r|² = E r².
        se(mse, mae),
        se_mse,
        // The delta method: d√m = dm / (2√m); undefined at an exact fit.
        match (se_mse, rmse) {
            (Some(s), Some(root)) if root > 0.0 => Some(s / (2.0 * root)),
            _ => None,
        },
        // R²'s variance needs cross-moments of r² and y the sums do not keep.
        None,
    ];
    RegressionValues {
        count: rows,
        weight: w,
        effective_n,
        mean_target,
        mean_prediction: mean(wp),
        mean_residual: mean(wr),
        mean_absolute_error: mae,
        mean_squared_error: mse,
        root_mean_squared_error: rmse,
        r2,
        standard_errors,
    }
}

/// Per-group exact sums of a regression output; merge partitions with [`merge`](Self::merge).
#[derive(Clone, Default, PartialEq)]
pub struct RegressionState {
    groups: BTreeMap<String, GroupSums>,
}

impl std::fmt::Debug for RegressionState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegressionState")
            .field("groups", &self.groups.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl RegressionState {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds rows: targets `y`, predictions `pred`, the group of each row, and optional weights
    /// (finite, `>= 0`). The batch is checked whole before any row is added.
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`], [`MetricError::NonFinite`] for a NaN or infinite target,
    /// prediction or weight, [`MetricError::NegativeWeight`].
    pub fn update<G: AsRef<str>>(
        &mut self,
        y: &[f64],
        pred: &[f64],
        groups: &[G],
        weights: Option<&[f64]>,
    ) -> Result<()> {
        crate::validate::check_len("sensitive_features", y.len(), groups.len())?;
        self.check_rows(y, pred, weights)?;
        // Rows are summed per distinct name of the batch, then merged in by name once.
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        let codes: Vec<usize> = groups
            .iter()
            .map(|g| {
                let next = index.len();
                *index.entry(g.as_ref()).or_insert(next)
            })
            .collect();
        let mut names = vec![String::new(); index.len()];
        for (name, &code) in &index {
            names[code] = (*name).to_string();
        }
        self.add_coded(y, pred, &codes, &names, weights);
        Ok(())
    }

    /// [`update`](Self::update) with each row's group as a code into `names` (the fast path for
    /// many rows: one lookup per group, not per row). Codes must be below `names.len()`.
    ///
    /// # Errors
    /// As [`update`](Self::update), and [`MetricError::InvalidParameter`] for a code out of
    /// range.
    pub fn update_coded(
        &mut self,
        y: &[f64],
        pred: &[f64],
        codes: &[usize],
        names: &[String],
        weights: Option<&[f64]>,
    ) -> Result<()> {
        if let Some(&c) = codes.iter().find(|&&c| c >= names.len()) {
            return Err(MetricError::InvalidParameter {
                name: "group code",
                value: c.to_string(),
                expected: "a code below the number of group names",
            });
        }
        crate::validate::check_len("sensitive_features", y.len(), codes.len())?;
        self.check_rows(y, pred, weights)?;
        self.add_coded(y, pred, codes, names, weights);
        Ok(())
    }

    fn check_rows(&self, y: &[f64], pred: &[f64], weights: Option<&[f64]>) -> Result<()> {
        crate::validate::check_len("y_pred", y.len(), pred.len())?;
        if let Some(w) = weights {
            crate::validate::check_len("sample_weight", y.len(), w.len())?;
        }
        for (what, values) in [("y_true", y), ("y_pred", pred)] {
            if let Some((row, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(MetricError::NonFinite { what, row, value });
            }
        }
        if let Some(w) = weights {
            for (row, &value) in w.iter().enumerate() {
                if !value.is_finite() {
                    return Err(MetricError::NonFinite {
                        what: "sample_weight",
                        row,
                        value,
                    });
                }
                if value < 0.0 {
                    return Err(MetricError::NegativeWeight { row, value });
                }
            }
        }
        Ok(())
    }

    fn add_coded(
        &mut self,
        y: &[f64],
        pred: &[f64],
        codes: &[usize],
        names: &[String],
        weights: Option<&[f64]>,
    ) {
        let mut sums = vec![GroupSums::default(); names.len()];
        for (i, &c) in codes.iter().enumerate() {
            sums[c].add(y[i], pred[i], weights.map_or(1.0, |w| w[i]));
        }
        for (name, s) in names.iter().zip(&sums) {
            if s.rows > 0 {
                self.groups.entry(name.clone()).or_default().merge(s);
            }
        }
    }

    /// Adds every row of `other` (any order of merges gives the same state).
    pub fn merge(&mut self, other: &RegressionState) {
        for (name, sums) in &other.groups {
            self.groups.entry(name.clone()).or_default().merge(sums);
        }
    }

    /// The state with each group renamed by `name_of` and groups of the same new name merged
    /// (a sensitive column's values from the finest groups of several columns).
    pub fn regroup(&self, name_of: impl Fn(&str) -> String) -> RegressionState {
        let mut out = RegressionState::new();
        for (name, sums) in &self.groups {
            out.groups.entry(name_of(name)).or_default().merge(sums);
        }
        out
    }

    /// The groups whose name `keep` accepts (a `--by` window's groups).
    pub fn retain(&self, keep: impl Fn(&str) -> bool) -> RegressionState {
        RegressionState {
            groups: self
                .groups
                .iter()
                .filter(|(n, _)| keep(n))
                .map(|(n, s)| (n.clone(), s.clone()))
                .collect(),
        }
    }

    /// The rows of each group, in name order.
    pub fn rows(&self) -> Vec<(String, u64)> {
        self.groups
            .iter()
            .map(|(n, s)| (n.clone(), s.rows))
            .collect()
    }

    /// Group names in sorted order.
    pub fn names(&self) -> Vec<String> {
        self.groups.keys().cloned().collect()
    }

    /// A compact, versioned, canonical binary encoding (magic `FKRS`, version 1): per group, in
    /// name order, the name, the row count and the exact sums. Equal states give equal bytes,
    /// so partition states can cross between processes (Spark executors and the driver) and be
    /// compared byte for byte.
    ///
    /// ```
    /// use fair_metrics::regression::RegressionState;
    /// let mut s = RegressionState::new();
    /// s.update(&[1.0, 2.0], &[1.5, 2.0], &["a", "b"], Some(&[0.5, 2.0]))?;
    /// let back = RegressionState::from_bytes(&s.to_bytes())?;
    /// assert_eq!(back, s);
    /// assert!(RegressionState::from_bytes(&s.to_bytes()[..9]).is_err());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(REGRESSION_MAGIC, REGRESSION_VERSION);
        w.u64(self.groups.len() as u64);
        for (name, sums) in &self.groups {
            w.str(name);
            w.u64(sums.rows);
            let all = [
                &sums.w, &sums.wy, &sums.wp, &sums.wr, &sums.wabs, &sums.wr2, &sums.wy2, &sums.w2,
                &sums.wp2, &sums.wr4,
            ];
            for s in all {
                w.bytes(&s.to_bytes());
            }
        }
        w.finish()
    }

    /// Decodes [`to_bytes`](Self::to_bytes), checking every field: never a panic, never an
    /// allocation sized by a decoded count beyond the bytes given.
    ///
    /// # Errors
    /// [`MetricError::Decode`] naming the offset and the reason: wrong magic or version,
    /// truncated or trailing bytes, a name that is not UTF-8, a corrupt exact sum, a group
    /// without rows or named twice, names out of order.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(
            bytes,
            REGRESSION_MAGIC,
            REGRESSION_VERSION,
            "regression state",
        )?;
        let n = r.len()?;
        let mut groups = BTreeMap::new();
        let mut previous: Option<String> = None;
        for _ in 0..n {
            let name = r.str()?;
            let rows = r.u64()?;
            if rows == 0 {
                return Err(r.error(format!("group {name:?} has no rows")));
            }
            let mut sums = GroupSums {
                rows,
                ..GroupSums::default()
            };
            for acc in sums.sums_mut() {
                *acc = r.exact_sum()?;
            }
            // The encoding is canonical: groups in strictly increasing name order.
            if previous.as_ref().is_some_and(|p| *p >= name) {
                return Err(r.error(format!(
                    "group {name:?} out of order or named twice (canonical bytes list groups \
                     in increasing name order)"
                )));
            }
            previous = Some(name.clone());
            groups.insert(name, sums);
        }
        r.finish()?;
        Ok(Self { groups })
    }

    /// The row counts and exact weight sums of the groups as the totals of a prediction sweep
    /// ([`crate::distribution::sweep_segment`]): group `names[i]` is stream
    /// [`stream_of(i, 0)`](crate::score_sweep::stream_of) (its predictions kept as a score is,
    /// under label 0). A group not in the state counts no rows. The sums are the exact sums
    /// of `w` and `w²` the state keeps, so these totals equal the ones counted row by row.
    ///
    /// ```
    /// use fair_metrics::regression::RegressionState;
    /// let mut s = RegressionState::new();
    /// s.update(&[1.0, 2.0, 3.0], &[1.0, 2.0, 2.0], &["b", "a", "b"], None)?;
    /// let t = s.stream_totals(&["a".to_string(), "b".to_string()], false);
    /// assert_eq!((t.rows(0), t.rows(2)), (1, 2));
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn stream_totals(&self, names: &[String], weighted: bool) -> StreamTotals {
        let mut t = StreamTotals::new(weighted);
        for (i, name) in names.iter().enumerate() {
            let stream = crate::score_sweep::stream_of(i, 0);
            match self.groups.get(name) {
                Some(g) if weighted => t.add_exact(stream, g.rows, &g.w, &g.w2),
                Some(g) => t.add_rows(stream, g.rows),
                None => t.add_rows(stream, 0),
            }
        }
        t
    }

    /// The metrics per group and on all rows pooled.
    ///
    /// # Errors
    /// [`MetricError::Empty`] without rows, [`MetricError::ZeroTotalWeight`] when every weight
    /// is 0.
    pub fn summary(&self) -> Result<RegressionSummary> {
        let mut all = GroupSums::default();
        for sums in self.groups.values() {
            all.merge(sums);
        }
        if all.rows == 0 {
            return Err(MetricError::Empty { what: "y_true" });
        }
        let overall = all.values();
        if overall.weight <= 0.0 {
            return Err(MetricError::ZeroTotalWeight { what: "all rows" });
        }
        Ok(RegressionSummary {
            names: self.names(),
            by_group: self.groups.values().map(GroupSums::values).collect(),
            overall,
        })
    }
}

/// One group's (or all rows') regression metrics; `None` where undefined (zero weight; R²
/// below two rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegressionValues {
    /// Rows.
    pub count: u64,
    /// Sum of the weights (the row count without weights).
    pub weight: f64,
    /// Kish's effective sample size `(Σw)² / Σw²` (the row count without weights).
    pub effective_n: f64,
    /// Weighted mean of the target.
    pub mean_target: Option<f64>,
    /// Weighted mean of the prediction.
    pub mean_prediction: Option<f64>,
    /// Weighted mean of prediction − target.
    pub mean_residual: Option<f64>,
    /// Weighted mean absolute error.
    pub mean_absolute_error: Option<f64>,
    /// Weighted mean squared error.
    pub mean_squared_error: Option<f64>,
    /// Square root of the MSE.
    pub root_mean_squared_error: Option<f64>,
    /// Coefficient of determination (scikit-learn's `r2_score` conventions).
    pub r2: Option<f64>,
    /// The normal-approximation standard error of each metric, indexed as
    /// [`RegressionMetric::ALL`]: `√(var_w(x) / n_eff)` of the mean of the row quantity `x`
    /// (target, prediction, residual, |residual|, squared residual), the delta method for the
    /// RMSE, and `None` for R² (its variance needs cross-moments the state does not keep) and
    /// wherever the metric is undefined.
    pub standard_errors: [Option<f64>; 7],
}

impl RegressionValues {
    /// The value of one metric.
    pub fn get(&self, metric: RegressionMetric) -> Option<f64> {
        metric.of(self)
    }

    /// The standard error of one metric (see [`standard_errors`](Self::standard_errors)).
    pub fn standard_error(&self, metric: RegressionMetric) -> Option<f64> {
        let i = RegressionMetric::ALL
            .iter()
            .position(|&m| m == metric)
            .unwrap_or(0);
        self.standard_errors[i]
    }
}

/// A per-group regression metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegressionMetric {
    /// Weighted mean of the target.
    MeanTarget,
    /// Weighted mean of the prediction.
    MeanPrediction,
    /// Weighted mean of prediction − target.
    MeanResidual,
    /// Mean absolute error.
    MeanAbsoluteError,
    /// Mean squared error.
    MeanSquaredError,
    /// Root mean squared error.
    RootMeanSquaredError,
    /// R².
    R2,
}

impl RegressionMetric {
    /// Every metric, in report order.
    pub const ALL: [RegressionMetric; 7] = [
        Self::MeanTarget,
        Self::MeanPrediction,
        Self::MeanResidual,
        Self::MeanAbsoluteError,
        Self::MeanSquaredError,
        Self::RootMeanSquaredError,
        Self::R2,
    ];

    /// scikit-learn's name where it has one (`mean_absolute_error`, `r2_score`, …).
    pub fn name(self) -> &'static str {
        match self {
            Self::MeanTarget => "mean_target",
            Self::MeanPrediction => "mean_prediction",
            Self::MeanResidual => "mean_residual",
            Self::MeanAbsoluteError => "mean_absolute_error",
            Self::MeanSquaredError => "mean_squared_error",
            Self::RootMeanSquaredError => "root_mean_squared_error",
            Self::R2 => "r2_score",
        }
    }

    /// Whether the metric is never negative (only those have a ratio).
    pub fn is_non_negative(self) -> bool {
        matches!(
            self,
            Self::MeanAbsoluteError | Self::MeanSquaredError | Self::RootMeanSquaredError
        )
    }

    fn of(self, v: &RegressionValues) -> Option<f64> {
        match self {
            Self::MeanTarget => v.mean_target,
            Self::MeanPrediction => v.mean_prediction,
            Self::MeanResidual => v.mean_residual,
            Self::MeanAbsoluteError => v.mean_absolute_error,
            Self::MeanSquaredError => v.mean_squared_error,
            Self::RootMeanSquaredError => v.root_mean_squared_error,
            Self::R2 => v.r2,
        }
    }
}

impl std::str::FromStr for RegressionMetric {
    type Err = MetricError;

    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| MetricError::InvalidParameter {
                name: "metric",
                value: s.to_string(),
                expected: "one of mean_target, mean_prediction, mean_residual, \
                           mean_absolute_error, mean_squared_error, root_mean_squared_error, \
                           r2_score",
            })
    }
}

/// The per-group metrics of a [`RegressionState`].
#[derive(Debug, Clone, PartialEq)]
pub struct RegressionSummary {
    /// Group names, sorted.
    pub names: Vec<String>,
    /// The metrics of each group, in `names` order.
    pub by_group: Vec<RegressionValues>,
    /// The metrics on all rows pooled.
    pub overall: RegressionValues,
}

/// One metric per group and the gaps between groups (fairlearn's semantics).
#[derive(Debug, Clone, PartialEq)]
pub struct RegressionGap {
    /// Which metric.
    pub metric: RegressionMetric,
    /// The metric on all rows.
    pub overall: Option<f64>,
    /// The metric per group (`None`: undefined there, left out of the gaps).
    pub by_group: Vec<Option<f64>>,
    /// Smallest defined group value.
    pub group_min: f64,
    /// Largest defined group value.
    pub group_max: f64,
    /// `group_max − group_min`.
    pub difference: f64,
    /// `group_min / group_max` for a metric that cannot be negative (1 when both are 0);
    /// `None` for signed metrics, where a ratio has no meaning.
    pub ratio: Option<f64>,
    /// `max_g |x_g − overall|` (`None` when the overall value is undefined).
    pub difference_to_overall: Option<f64>,
    /// `min_g min(x_g / overall, overall / x_g)` for a metric that cannot be negative.
    pub ratio_to_overall: Option<f64>,
}

fn safe_ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else if a > 0.0 {
        0.0
    } else {
        1.0
    }
}

impl RegressionSummary {
    /// One metric's per-group values and gaps.
    ///
    /// # Errors
    /// [`MetricError::UndefinedMetric`] when no group has a defined value.
    pub fn gap(&self, metric: RegressionMetric) -> Result<RegressionGap> {
        let by_group: Vec<Option<f64>> = self.by_group.iter().map(|v| metric.of(v)).collect();
        let overall = metric.of(&self.overall);
        let defined: Vec<f64> = by_group.iter().flatten().copied().collect();
        let Some(&first) = defined.first() else {
            return Err(MetricError::UndefinedMetric {
                metric: metric.name(),
                reason: "no group has a defined value (R² needs two rows and a positive weight)",
            });
        };
        let (lo, hi) = defined
            .iter()
            .fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let ratios = metric.is_non_negative();
        Ok(RegressionGap {
            metric,
            overall,
            group_min: lo,
            group_max: hi,
            difference: hi - lo,
            ratio: ratios.then(|| safe_ratio(lo, hi)),
            difference_to_overall: overall
                .map(|o| defined.iter().map(|v| (v - o).abs()).fold(0.0, f64::max)),
            ratio_to_overall: overall.filter(|_| ratios).map(|o| {
                defined
                    .iter()
                    .map(|&v| safe_ratio(v, o).min(safe_ratio(o, v)))
                    .fold(1.0, f64::min)
            }),
            by_group,
        })
    }

    /// The largest group loss — mean absolute error (`squared = false`) or mean squared error —
    /// and the group that has it (the first in name order on ties): the quantity fairlearn's
    /// `BoundedGroupLoss` bounds.
    ///
    /// # Errors
    /// [`MetricError::UndefinedMetric`] when no group has weight.
    pub fn bounded_group_loss(&self, squared: bool) -> Result<(String, f64)> {
        let metric = if squared {
            RegressionMetric::MeanSquaredError
        } else {
            RegressionMetric::MeanAbsoluteError
        };
        let gap = self.gap(metric)?;
        let (i, v) = gap
            .by_group
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, v)))
            .fold((usize::MAX, f64::MIN), |best, (i, v)| {
                if v > best.1 { (i, v) } else { best }
            });
        Ok((self.names[i].clone(), v))
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // hand-computed values, exact in binary floating point
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn state(y: &[f64], p: &[f64], g: &[&str], w: Option<&[f64]>) -> RegressionState {
        let mut s = RegressionState::new();
        s.update(y, p, g, w).unwrap();
        s
    }

    #[test]
    fn standard_errors_by_hand_and_kish_size() {
        // y = 1, 2, 3, ŷ = 2, 2, 2: r = 1, 0, −1. Mean target 2, var 2/3, n 3: se √(2/9).
        // |r| = 1, 0, 1: MAE 2/3, var 1/3·2 − 4/9 = 2/9: se √(2/27). r² = 1, 0, 1: the same.
        let s = state(&[1.0, 2.0, 3.0], &[2.0, 2.0, 2.0], &["a", "a", "a"], None);
        let v = s.summary().unwrap().by_group[0];
        assert_eq!(v.effective_n, 3.0);
        let se = |m| v.standard_error(m).unwrap();
        assert!((se(RegressionMetric::MeanTarget) - (2.0_f64 / 9.0).sqrt()).abs() < 1e-15);
        assert_eq!(se(RegressionMetric::MeanPrediction), 0.0);
        assert!((se(RegressionMetric::MeanResidual) - (2.0_f64 / 9.0).sqrt()).abs() < 1e-15);
        assert!((se(RegressionMetric::MeanAbsoluteError) - (2.0_f64 / 27.0).sqrt()).abs() < 1e-15);
        assert!((se(RegressionMetric::MeanSquaredError) - (2.0_f64 / 27.0).sqrt()).abs() < 1e-15);
        // RMSE = √(2/3): se = se_MSE / (2 RMSE).
        let rmse_se = (2.0_f64 / 27.0).sqrt() / (2.0 * (2.0_f64 / 3.0).sqrt());
        assert!((se(RegressionMetric::RootMeanSquaredError) - rmse_se).abs() < 1e-15);
        assert_eq!(v.standard_error(RegressionMetric::R2), None);
        // Weights 1, 1, 2: Kish n = 16 / 6.
        let w = state(
            &[1.0, 2.0, 3.0],
            &[2.0, 2.0, 2.0],
            &["a", "a", "a"],
            Some(&[1.0, 1.0, 2.0]),
        );
        assert!((w.summary().unwrap().by_group[0].effective_n - 16.0 / 6.0).abs() < 1e-15);
        // Regrouping merges sums exactly.
        let two = state(&[1.0, 2.0, 3.0], &[2.0, 2.0, 2.0], &["a", "b", "a"], None);
        let merged = two.regroup(|_| "a".to_string());
        assert_eq!(merged.summary().unwrap(), s.summary().unwrap());
        assert_eq!(two.rows(), vec![("a".to_string(), 2), ("b".to_string(), 1)]);
    }

    #[test]
    fn hand_computed_two_groups() {
        // a: y = 1, 2, 3, ŷ = 2, 2, 2 → r = 1, 0, −1; b: y = 0, 4, ŷ = 1, 1 → r = 1, −3.
        let s = state(
            &[1.0, 2.0, 3.0, 0.0, 4.0],
            &[2.0, 2.0, 2.0, 1.0, 1.0],
            &["a", "a", "a", "b", "b"],
            None,
        );
        let m = s.summary().unwrap();
        let a = m.by_group[0];
        assert_eq!(a.count, 3);
        assert_eq!(a.mean_target, Some(2.0));
        assert_eq!(a.mean_residual, Some(0.0));
        assert_eq!(a.mean_absolute_error, Some(2.0 / 3.0));
        assert_eq!(a.mean_squared_error, Some(2.0 / 3.0));
        // R²: Σ r² = 2, Σ (y − 2)² = 2 → 0.
        assert_eq!(a.r2, Some(0.0));
        let b = m.by_group[1];
        assert_eq!(b.mean_residual, Some(-1.0));
        assert_eq!(b.mean_absolute_error, Some(2.0));
        assert_eq!(b.mean_squared_error, Some(5.0));
        // Σ r² = 10, Σ (y − 2)² = 8 → 1 − 10/8.
        assert_eq!(b.r2, Some(-0.25));
        let mae = m.gap(RegressionMetric::MeanAbsoluteError).unwrap();
        assert_eq!(mae.difference, 2.0 - 2.0 / 3.0);
        assert_eq!(mae.ratio, Some((2.0 / 3.0) / 2.0));
        assert_eq!(mae.overall, Some(6.0 / 5.0));
        let res = m.gap(RegressionMetric::MeanResidual).unwrap();
        assert_eq!(res.ratio, None);
        assert_eq!(res.difference, 1.0);
        assert_eq!(m.bounded_group_loss(true).unwrap(), ("b".to_string(), 5.0));
    }

    #[test]
    fn weights_count_like_duplicated_rows() {
        let w = state(&[1.0, 5.0], &[2.0, 3.0], &["g", "g"], Some(&[3.0, 1.0]));
        let d = state(
            &[1.0, 1.0, 1.0, 5.0],
            &[2.0, 2.0, 2.0, 3.0],
            &["g", "g", "g", "g"],
            None,
        );
        let (a, b) = (w.summary().unwrap(), d.summary().unwrap());
        assert_eq!(
            a.by_group[0].mean_squared_error,
            b.by_group[0].mean_squared_error
        );
        assert_eq!(a.by_group[0].r2, b.by_group[0].r2);
    }

    #[test]
    fn constant_targets_and_single_rows_follow_scikit_learn() {
        let s = state(
            &[3.0, 3.0, 3.0, 3.0, 7.0],
            &[3.0, 3.0, 2.0, 4.0, 1.0],
            &["exact", "exact", "missed", "missed", "one"],
            None,
        );
        let m = s.summary().unwrap();
        assert_eq!(m.by_group[0].r2, Some(1.0));
        assert_eq!(m.by_group[1].r2, Some(0.0));
        assert_eq!(m.by_group[2].r2, None);
        // The single-row group is left out of R²'s gaps, not of the others.
        assert_eq!(m.gap(RegressionMetric::R2).unwrap().group_min, 0.0);
        assert_eq!(
            m.gap(RegressionMetric::MeanAbsoluteError)
                .unwrap()
                .group_max,
            6.0
        );
    }

    #[test]
    fn bad_inputs_are_named() {
        let mut s = RegressionState::new();
        let e = s
            .update(&[1.0, f64::NAN], &[1.0, 1.0], &["a", "a"], None)
            .unwrap_err();
        assert!(e.to_string().contains("y_true") && e.to_string().contains("row 1"));
        let e = s
            .update(&[1.0], &[f64::INFINITY], &["a"], None)
            .unwrap_err();
        assert!(e.to_string().contains("y_pred"));
        let e = s.update(&[1.0], &[1.0], &["a"], Some(&[-1.0])).unwrap_err();
        assert!(matches!(e, MetricError::NegativeWeight { .. }));
        let e = s.update(&[1.0], &[1.0, 2.0], &["a"], None).unwrap_err();
        assert!(matches!(e, MetricError::LengthMismatch { .. }));
        // Nothing of a refused batch was added.
        assert!(matches!(s.summary(), Err(MetricError::Empty { .. })));
        s.update(&[1.0], &[1.0], &["a"], Some(&[0.0])).unwrap();
        assert!(matches!(
            s.summary(),
            Err(MetricError::ZeroTotalWeight { .. })
        ));
        assert!("rmse".parse::<RegressionMetric>().is_err());
        assert_eq!(
            "r2_score".parse::<RegressionMetric>().unwrap(),
            RegressionMetric::R2
        );
    }

    #[test]
    fn corrupted_bytes_are_typed_errors() {
        let s = state(&[1.0, 2.0, 3.0], &[2.0, 2.0, 2.0], &["a", "b", "a"], None);
        let bytes = s.to_bytes();
        assert_eq!(RegressionState::from_bytes(&bytes).unwrap(), s);
        let decode = |b: &[u8]| RegressionState::from_bytes(b).unwrap_err().to_string();
        assert!(decode(b"FKCS\x01").contains("magic"));
        let mut v = bytes.clone();
        v[4] = 9;
        assert!(decode(&v).contains("version 9"));
        for cut in 0..bytes.len() {
            assert!(
                RegressionState::from_bytes(&bytes[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode(&long).contains("trailing"));
        // A forged group count larger than the bytes.
        let mut forged = bytes.clone();
        forged[5..13].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&forged).contains("exceeds"));
        // Group "a" written twice: not canonical.
        let twice = RegressionState::from_bytes(&bytes).unwrap();
        let one = twice.retain(|n| n == "a").to_bytes();
        let body = &one[13..];
        let mut dup = b"FKRS\x01".to_vec();
        dup.extend_from_slice(&2_u64.to_le_bytes());
        dup.extend_from_slice(body);
        dup.extend_from_slice(body);
        assert!(decode(&dup).contains("named twice"));
        // A group with no rows.
        let mut empty = one.clone();
        empty[22..30].copy_from_slice(&0_u64.to_le_bytes());
        assert!(decode(&empty).contains("no rows"), "{}", decode(&empty));
    }

    proptest! {
        /// Any split of the rows into partitions, merged in any order, gives the one-pass state
        /// and the same summary to the bit.
        #[test]
        fn merged_partitions_equal_one_pass(
            rows in proptest::collection::vec(
                (-1e3..1e3f64, -1e3..1e3f64, 0..3usize, 0.0..5.0f64), 1..60),
            cut in 0..60usize,
            weighted: bool,
        ) {
            let names = ["a", "b", "c"];
            let y: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let p: Vec<f64> = rows.iter().map(|r| r.1).collect();
            let g: Vec<&str> = rows.iter().map(|r| names[r.2]).collect();
            let w: Vec<f64> = rows.iter().map(|r| r.3).collect();
            let w = weighted.then_some(w.as_slice());
            let whole = state(&y, &p, &g, w);
            let k = cut.min(rows.len());
            let mut left = state(&y[..k], &p[..k], &g[..k], w.map(|w| &w[..k]));
            let right = state(&y[k..], &p[k..], &g[k..], w.map(|w| &w[k..]));
            // The parts cross as bytes, as they do between Spark executors and the driver.
            let right = RegressionState::from_bytes(&right.to_bytes()).unwrap();
            left = RegressionState::from_bytes(&left.to_bytes()).unwrap();
            let mut reversed = right.clone();
            reversed.merge(&left);
            left.merge(&right);
            prop_assert!(left == whole);
            prop_assert!(reversed == whole);
            prop_assert_eq!(left.to_bytes(), whole.to_bytes());
            prop_assert_eq!(reversed.to_bytes(), whole.to_bytes());
            match (whole.summary(), left.summary()) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                _ => prop_assert!(false, "one pass and the merge disagree on definedness"),
            }
        }
    }
}
