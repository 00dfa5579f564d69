//! Weighted binary confusion counts per group, accumulated in one pass, and the rates derived
//! from them.
//!
//! Counts come first and rates second: every rate of every group is a ratio of the four counts,
//! so one pass over the rows yields all of them (and the pooled "overall" counts are the sum of
//! the group counts, so they need no second pass either).

use crate::error::{MetricError, Result};
use crate::state::ExactSum;
use crate::summary::GroupSummary;
use crate::validate::{
    RowWeight, Unit, bad_weight, check_groups, check_len, check_nonempty, weight_ok,
};
use crate::zero_division::ZeroDivision;
use fair_data::Groups;

/// Weighted counts of a binary confusion matrix (positive = 1). Unweighted counts are plain row
/// counts stored as `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ConfusionCounts {
    /// True positives: label 1, prediction 1.
    pub tp: f64,
    /// False positives: label 0, prediction 1.
    pub fp: f64,
    /// True negatives: label 0, prediction 0.
    pub tn: f64,
    /// False negatives: label 1, prediction 0 (`fn` is a keyword).
    pub fn_: f64,
}

/// A rate derivable from [`ConfusionCounts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rate {
    /// P(ŷ = 1): (tp + fp) / total. Also called coverage or positive prediction rate.
    Selection,
    /// P(ŷ = 1 | y = 1): tp / (tp + fn). Recall.
    TruePositive,
    /// P(ŷ = 1 | y = 0): fp / (fp + tn).
    FalsePositive,
    /// P(ŷ = 0 | y = 0): tn / (fp + tn).
    TrueNegative,
    /// P(ŷ = 0 | y = 1): fn / (tp + fn).
    FalseNegative,
    /// P(y = 1 | ŷ = 1): tp / (tp + fp). Positive predictive value.
    Precision,
    /// P(ŷ = y): (tp + tn) / total.
    Accuracy,
    /// P(ŷ ≠ y): (fp + fn) / total.
    Error,
}

// The one spelling of each rate: report.json keys, `fairkit.metrics` names, `--fail-if`.
fair_core::string_enum!(Rate, "rate", {
    Selection => "selection_rate",
    TruePositive => "true_positive_rate",
    FalsePositive => "false_positive_rate",
    TrueNegative => "true_negative_rate",
    FalseNegative => "false_negative_rate",
    Precision => "precision",
    Accuracy => "accuracy",
    Error => "error_rate",
});

impl Rate {
    /// Every rate, in declaration order.
    pub const ALL: [Rate; 8] = [
        Rate::Selection,
        Rate::TruePositive,
        Rate::FalsePositive,
        Rate::TrueNegative,
        Rate::FalseNegative,
        Rate::Precision,
        Rate::Accuracy,
        Rate::Error,
    ];

    /// Human-readable name used in summaries and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Rate::Selection => "selection rate",
            Rate::TruePositive => "true positive rate",
            Rate::FalsePositive => "false positive rate",
            Rate::TrueNegative => "true negative rate",
            Rate::FalseNegative => "false negative rate",
            Rate::Precision => "precision",
            Rate::Accuracy => "accuracy",
            Rate::Error => "error rate",
        }
    }
}

impl ConfusionCounts {
    /// Total weight of all rows.
    pub fn total(&self) -> f64 {
        self.tp + self.fp + self.tn + self.fn_
    }
    /// Weight of label-1 rows.
    pub fn positives(&self) -> f64 {
        self.tp + self.fn_
    }
    /// Weight of label-0 rows.
    pub fn negatives(&self) -> f64 {
        self.fp + self.tn
    }
    /// Weight of rows predicted 1.
    pub fn predicted_positives(&self) -> f64 {
        self.tp + self.fp
    }
    /// Weight of rows predicted 0.
    pub fn predicted_negatives(&self) -> f64 {
        self.tn + self.fn_
    }

    /// Numerator and denominator of `rate`.
    fn fraction(&self, rate: Rate) -> (f64, f64) {
        match rate {
            Rate::Selection => (self.predicted_positives(), self.total()),
            Rate::TruePositive => (self.tp, self.positives()),
            Rate::FalsePositive => (self.fp, self.negatives()),
            Rate::TrueNegative => (self.tn, self.negatives()),
            Rate::FalseNegative => (self.fn_, self.positives()),
            Rate::Precision => (self.tp, self.predicted_positives()),
            Rate::Accuracy => (self.tp + self.tn, self.total()),
            Rate::Error => (self.fp + self.fn_, self.total()),
        }
    }

    /// `rate`, or `None` when its denominator is zero.
    pub fn rate(&self, rate: Rate) -> Option<f64> {
        let (num, den) = self.fraction(rate);
        (den > 0.0).then(|| (num / den).clamp(0.0, 1.0))
    }

    /// `rate` resolved under a [`ZeroDivision`] policy; `group` names the counts in the error.
    ///
    /// # Errors
    /// [`MetricError::UndefinedRate`] for a zero denominator under [`ZeroDivision::Error`].
    pub fn rate_with(
        &self,
        rate: Rate,
        zero_division: ZeroDivision,
        group: &str,
    ) -> Result<Option<f64>> {
        let (num, den) = self.fraction(rate);
        zero_division.resolve(rate.name(), group, num, den)
    }

    /// Selection rate (None when there are no rows).
    pub fn selection_rate(&self) -> Option<f64> {
        self.rate(Rate::Selection)
    }
    /// True positive rate (None without positives).
    pub fn true_positive_rate(&self) -> Option<f64> {
        self.rate(Rate::TruePositive)
    }
    /// False positive rate (None without negatives).
    pub fn false_positive_rate(&self) -> Option<f64> {
        self.rate(Rate::FalsePositive)
    }
    /// True negative rate (None without negatives).
    pub fn true_negative_rate(&self) -> Option<f64> {
        self.rate(Rate::TrueNegative)
    }
    /// False negative rate (None without positives).
    pub fn false_negative_rate(&self) -> Option<f64> {
        self.rate(Rate::FalseNegative)
    }
    /// Precision (None without positive predictions).
    pub fn precision(&self) -> Option<f64> {
        self.rate(Rate::Precision)
    }
    /// Accuracy (None when there are no rows).
    pub fn accuracy(&self) -> Option<f64> {
        self.rate(Rate::Accuracy)
    }
    /// Error rate (None when there are no rows).
    pub fn error_rate(&self) -> Option<f64> {
        self.rate(Rate::Error)
    }

    fn add(&mut self, other: &ConfusionCounts) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.tn += other.tn;
        self.fn_ += other.fn_;
    }
}

/// Exactly rounded weight sums of every union of a group's four confusion cells, indexed by a
/// bit mask over the cells `[tn, fp, fn, tp]` (bit `2 * label + prediction`).
///
/// A weighted rate's numerator and denominator are unions of cells (a selection rate's
/// numerator is `fp ∪ tp`): read from here, each is the exact sum of its rows' weights rounded
/// once, so the rate does not depend on how the rows were split into cells, groups or batches
/// (`fp + tp` added from the rounded cells would round twice).
///
/// # Example
/// ```
/// use fair_metrics::GroupConfusion;
/// // fp holds weights 1 and 2^-53, tp 2^-53: fp rounds to 1, and 1 + 2^-53 rounds to 1 again
/// let e = 2f64.powi(-53);
/// let (g, _) = GroupConfusion::count_codes_exact_sums(&[0, 0, 1], &[1, 1, 1], &[0, 0, 0], 1, &[1.0, e, e])?;
/// let c = g[0].counts();
/// assert_eq!(c.fp + c.tp, 1.0); // the rounded cells added: rounded twice
/// assert_eq!(g[0].0[2 | 8], 1.0 + 2.0 * e); // fp ∪ tp summed exactly, rounded once
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSums(pub [f64; 16]);

impl CellSums {
    /// The sums of the cells' exact accumulators.
    pub(crate) fn from_exact(cells: &[ExactSum; 4]) -> Self {
        Self(std::array::from_fn(|mask| {
            let mut s = ExactSum::default();
            for (c, cell) in cells.iter().enumerate() {
                if mask >> c & 1 == 1 {
                    s.merge(cell);
                }
            }
            s.value()
        }))
    }

    /// The four cells.
    pub fn counts(&self) -> ConfusionCounts {
        ConfusionCounts {
            tn: self.0[1],
            fp: self.0[2],
            fn_: self.0[4],
            tp: self.0[8],
        }
    }

    /// Numerator and denominator of `rate`, each a union of cells summed exactly.
    pub(crate) fn fraction(&self, rate: Rate) -> (f64, f64) {
        const TN: usize = 1;
        const FP: usize = 2;
        const FN: usize = 4;
        const TP: usize = 8;
        const ALL: usize = 15;
        let (num, den) = match rate {
            Rate::Selection => (FP | TP, ALL),
            Rate::TruePositive => (TP, TP | FN),
            Rate::FalsePositive => (FP, FP | TN),
            Rate::TrueNegative => (TN, FP | TN),
            Rate::FalseNegative => (FN, TP | FN),
            Rate::Precision => (TP, TP | FP),
            Rate::Accuracy => (TP | TN, ALL),
            Rate::Error => (FP | FN, ALL),
        };
        (self.0[num], self.0[den])
    }
}

/// Overall and per-group confusion counts, built in one pass over the rows.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
/// let groups = Groups::from_labels(&["a", "a", "a", "b", "b", "b"]);
/// let gc = GroupConfusion::new(&[1, 1, 0, 1, 0, 0], &[1, 0, 0, 1, 1, 1], &groups, None)?;
/// let tpr = gc.summary(Rate::TruePositive, ZeroDivision::Error)?;
/// // a: 1 of 2 positives found; b: 1 of 1.
/// assert_eq!(tpr.by_group, vec![Some(0.5), Some(1.0)]);
/// assert!((tpr.difference - 0.5).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GroupConfusion {
    names: Vec<String>,
    by_group: Vec<ConfusionCounts>,
    overall: ConfusionCounts,
    /// Weighted with exact sums: every union of cells per group and pooled, which the rates
    /// are then read from (see [`CellSums`]).
    sums: Option<(Vec<CellSums>, CellSums)>,
}

impl GroupConfusion {
    /// Counts labels against predictions per group.
    ///
    /// `y_true` and `y_pred` must be 0/1 (1 = positive); `weights`, if given, finite and `>= 0`
    /// with a positive total.
    ///
    /// # Errors
    /// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`],
    /// [`MetricError::NonFinite`] / [`MetricError::NegativeWeight`] /
    /// [`MetricError::ZeroTotalWeight`] for bad weights, and [`MetricError::EmptyGroup`] for a
    /// declared group without rows or weight.
    pub fn new(
        y_true: &[usize],
        y_pred: &[usize],
        groups: &Groups,
        weights: Option<&[f64]>,
    ) -> Result<Self> {
        let n = y_true.len();
        check_nonempty("labels", n)?;
        check_len("predictions", n, y_pred.len())?;
        check_groups(groups, n)?;
        let cells = count_cells(y_true, y_pred, groups.codes(), groups.n_groups(), weights)?;
        let by_group = counts_from_cells(&cells, |g| groups.names()[g].clone())?;
        Self::from_counts(groups.names().to_vec(), by_group)
    }

    /// Counts per group code from **borrowed** codes, for callers whose codes live in someone
    /// else's buffer (a numpy array, an Arrow column): no [`Groups`] and no copy of the codes.
    /// Groups without rows get all-zero counts (combine with [`GroupConfusion::from_counts`]
    /// after dropping or naming them).
    ///
    /// # Errors
    /// As [`GroupConfusion::new`], plus [`MetricError::InvalidParameter`] for a code
    /// `>= n_groups` (the message names the row) and [`MetricError::WeightOverflow`] (the group is
    /// named by its code).
    ///
    /// # Example
    /// ```
    /// use fair_metrics::GroupConfusion;
    /// let counts = GroupConfusion::count_codes(&[1, 0, 1], &[1, 1, 0], &[0, 2, 2], 3, None)?;
    /// assert_eq!((counts[0].tp, counts[1].total(), counts[2].fp + counts[2].fn_), (1.0, 0.0, 2.0));
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn count_codes<C: GroupCode>(
        y_true: &[usize],
        y_pred: &[usize],
        codes: &[C],
        n_groups: usize,
        weights: Option<&[f64]>,
    ) -> Result<Vec<ConfusionCounts>> {
        let n = y_true.len();
        check_nonempty("labels", n)?;
        check_len("predictions", n, y_pred.len())?;
        check_len("groups", n, codes.len())?;
        // The code bound check happens inside the counting pass (one read of the rows).
        let cells = count_cells(y_true, y_pred, codes, n_groups, weights)?;
        counts_from_cells(&cells, |g| g.to_string())
    }

    /// [`count_codes`](Self::count_codes) with weights, every cell an **exact** sum of its
    /// weights rounded once (a superaccumulator, as [`ConfusionState`](crate::state::ConfusionState)
    /// keeps): the counts do not depend on the order of the rows, so they equal, bit for bit,
    /// the counts of a state built from any split of the same rows into batches, merged in any
    /// order. Memory: one slot per declared group, exact sums only for the groups that occur.
    ///
    /// # Errors
    /// As [`count_codes`](Self::count_codes).
    ///
    /// # Example
    /// ```
    /// use fair_metrics::GroupConfusion;
    /// // 0.1 + 0.2 + 0.3 summed naively in two orders differs in the last bit; exactly, not.
    /// let (y, p) = ([1, 1, 1], [1, 1, 1]);
    /// let a = GroupConfusion::count_codes_exact(&y, &p, &[0, 0, 0], 1, &[0.1, 0.2, 0.3])?;
    /// let b = GroupConfusion::count_codes_exact(&y, &p, &[0, 0, 0], 1, &[0.3, 0.2, 0.1])?;
    /// assert_eq!(a[0].tp.to_bits(), b[0].tp.to_bits());
    /// assert_eq!(a[0].tp, 0.6);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn count_codes_exact<C: GroupCode>(
        y_true: &[usize],
        y_pred: &[usize],
        codes: &[C],
        n_groups: usize,
        weights: &[f64],
    ) -> Result<Vec<ConfusionCounts>> {
        Self::count_codes_exact_pooled(y_true, y_pred, codes, n_groups, weights).map(|(c, _)| c)
    }

    /// [`count_codes_exact`](Self::count_codes_exact) and the counts of all rows pooled, each
    /// cell the exact sum of all its weights rounded once (equal, bit for bit, to the counts of
    /// the same rows as a single group; the sum of the groups' rounded counts can differ in
    /// the last bit). Pass both to [`from_counts_pooled`](Self::from_counts_pooled).
    ///
    /// # Errors
    /// As [`count_codes`](Self::count_codes).
    ///
    /// # Example
    /// ```
    /// use fair_metrics::GroupConfusion;
    /// let (y, p, w) = ([1, 1, 1], [1, 1, 1], [0.1, 0.2, 0.3]);
    /// let (_, grouped) = GroupConfusion::count_codes_exact_pooled(&y, &p, &[0, 1, 2], 3, &w)?;
    /// let (one, _) = GroupConfusion::count_codes_exact_pooled(&y, &p, &[0, 0, 0], 1, &w)?;
    /// assert_eq!(grouped.tp.to_bits(), one[0].tp.to_bits());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn count_codes_exact_pooled<C: GroupCode>(
        y_true: &[usize],
        y_pred: &[usize],
        codes: &[C],
        n_groups: usize,
        weights: &[f64],
    ) -> Result<(Vec<ConfusionCounts>, ConfusionCounts)> {
        let (groups, pooled) =
            Self::count_codes_exact_sums(y_true, y_pred, codes, n_groups, weights)?;
        Ok((
            groups.iter().map(CellSums::counts).collect(),
            pooled.counts(),
        ))
    }

    /// The exact sums of every union of cells per declared group (all zero for a group without
    /// rows) and of all rows pooled, for [`from_cell_sums`](Self::from_cell_sums).
    ///
    /// # Errors
    /// As [`count_codes`](Self::count_codes).
    ///
    /// # Example
    /// ```
    /// use fair_metrics::GroupConfusion;
    /// let (groups, pooled) = GroupConfusion::count_codes_exact_sums(&[1, 0], &[1, 1], &[0, 1], 2, &[0.1, 0.2])?;
    /// assert_eq!((groups[0].counts().tp, groups[1].counts().fp), (0.1, 0.2));
    /// assert_eq!(pooled.0[2 | 8], 0.30000000000000004); // fp ∪ tp
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn count_codes_exact_sums<C: GroupCode>(
        y_true: &[usize],
        y_pred: &[usize],
        codes: &[C],
        n_groups: usize,
        weights: &[f64],
    ) -> Result<(Vec<CellSums>, CellSums)> {
        let n = y_true.len();
        check_nonempty("labels", n)?;
        check_len("predictions", n, y_pred.len())?;
        check_len("groups", n, codes.len())?;
        check_len("sample weights", n, weights.len())?;
        const NONE: usize = usize::MAX;
        let mut slot_of = vec![NONE; n_groups];
        let mut sums: Vec<[ExactSum; 4]> = Vec::new();
        for i in 0..n {
            let (t, p, w) = (y_true[i], y_pred[i], weights[i]);
            if (t | p) > 1 || !weight_ok(w) {
                return Err(row_error(i, t, p, w));
            }
            let g = codes[i].index();
            let Some(slot) = slot_of.get_mut(g) else {
                return Err(code_error(i, g));
            };
            if *slot == NONE {
                *slot = sums.len();
                sums.push(Default::default());
            }
            sums[*slot][2 * t + p].add(w);
        }
        let groups: Vec<CellSums> = slot_of
            .iter()
            .map(|&s| match sums.get(s) {
                Some(cells) => CellSums::from_exact(cells),
                None => CellSums([0.0; 16]),
            })
            .collect();
        if let Some(g) = groups
            .iter()
            .position(|c| !c.0.iter().all(|v| v.is_finite()))
        {
            return Err(MetricError::WeightOverflow {
                group: g.to_string(),
            });
        }
        let mut pooled: [ExactSum; 4] = Default::default();
        for cells in &sums {
            for (p, c) in pooled.iter_mut().zip(cells) {
                p.merge(c);
            }
        }
        let pooled = CellSums::from_exact(&pooled);
        if !pooled.0.iter().all(|v| v.is_finite()) {
            return Err(MetricError::WeightOverflow {
                group: "all rows".to_string(),
            });
        }
        Ok((groups, pooled))
    }

    /// Wraps counts computed elsewhere (e.g. one class of a multi-class confusion matrix).
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`] when names and counts differ in length,
    /// [`MetricError::Empty`] for no groups, [`MetricError::InvalidParameter`] for a negative or
    /// non-finite count, [`MetricError::ZeroTotalWeight`] when all counts are zero, and
    /// [`MetricError::EmptyGroup`] for a group whose counts sum to zero.
    pub fn from_counts(names: Vec<String>, by_group: Vec<ConfusionCounts>) -> Result<Self> {
        Self::from_counts_pooled(names, by_group, None)
    }

    /// [`from_counts`](Self::from_counts) with the pooled counts given (`Some`) rather than
    /// added up from the groups': the exactly rounded pooled counts of
    /// [`count_codes_exact_pooled`](Self::count_codes_exact_pooled) or
    /// [`ConfusionState::pooled_counts`](crate::state::ConfusionState::pooled_counts), so the overall
    /// rate is the one the same rows give as a single group.
    ///
    /// # Errors
    /// As [`from_counts`](Self::from_counts), the checks applying to the given pooled counts.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::{ConfusionCounts, GroupConfusion};
    /// let g = |tp: f64| ConfusionCounts { tp, fp: 0.0, tn: 1.0, fn_: 0.0 };
    /// let pooled = ConfusionCounts { tp: 0.6, fp: 0.0, tn: 2.0, fn_: 0.0 };
    /// let gc = GroupConfusion::from_counts_pooled(vec!["a".into(), "b".into()], vec![g(0.1), g(0.5)], Some(pooled))?;
    /// assert_eq!(gc.overall().tp, 0.6);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn from_counts_pooled(
        names: Vec<String>,
        by_group: Vec<ConfusionCounts>,
        pooled: Option<ConfusionCounts>,
    ) -> Result<Self> {
        check_nonempty("groups", names.len())?;
        check_len("per-group counts", names.len(), by_group.len())?;
        let mut overall = ConfusionCounts::default();
        for c in &by_group {
            if [c.tp, c.fp, c.tn, c.fn_].iter().any(|v| !weight_ok(*v)) {
                return Err(MetricError::InvalidParameter {
                    name: "confusion count",
                    value: format!("{c:?}"),
                    expected: "finite counts >= 0",
                });
            }
            overall.add(c);
        }
        if let Some(p) = pooled {
            if [p.tp, p.fp, p.tn, p.fn_].iter().any(|v| !weight_ok(*v)) {
                return Err(MetricError::InvalidParameter {
                    name: "pooled confusion count",
                    value: format!("{p:?}"),
                    expected: "finite counts >= 0",
                });
            }
            overall = p;
        }
        if overall.total() <= 0.0 {
            return Err(MetricError::ZeroTotalWeight { what: "all rows" });
        }
        if let Some(g) = by_group.iter().position(|c| c.total() <= 0.0) {
            return Err(MetricError::EmptyGroup {
                group: names[g].clone(),
            });
        }
        Ok(Self {
            names,
            by_group,
            overall,
            sums: None,
        })
    }

    /// Groups from exact cell sums (weighted rows): each group's and the pooled rows' sums of
    /// every union of cells ([`count_codes_exact_sums`](Self::count_codes_exact_sums),
    /// [`ConfusionState::cell_sums`](crate::state::ConfusionState::cell_sums)). Every rate is
    /// then an exactly rounded numerator over an exactly rounded denominator, the same bits
    /// however the rows are grouped: the overall rate equals the rate of all rows as one group.
    ///
    /// # Errors
    /// As [`from_counts`](Self::from_counts).
    ///
    /// # Example
    /// ```
    /// use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
    /// let (y, p, w) = ([1, 0, 1], [1, 1, 0], [0.1, 0.2, 0.3]);
    /// let (g, pooled) = GroupConfusion::count_codes_exact_sums(&y, &p, &[0, 1, 1], 2, &w)?;
    /// let two = GroupConfusion::from_cell_sums(vec!["a".into(), "b".into()], g, pooled)?;
    /// let (g, pooled) = GroupConfusion::count_codes_exact_sums(&y, &p, &[0, 0, 0], 1, &w)?;
    /// let one = GroupConfusion::from_cell_sums(vec!["all".into()], g, pooled)?;
    /// let rate = |gc: &GroupConfusion| gc.summary(Rate::Selection, ZeroDivision::Zero).unwrap().overall;
    /// assert_eq!(rate(&two).to_bits(), rate(&one).to_bits());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn from_cell_sums(
        names: Vec<String>,
        by_group: Vec<CellSums>,
        pooled: CellSums,
    ) -> Result<Self> {
        let counts = by_group.iter().map(CellSums::counts).collect();
        let mut gc = Self::from_counts_pooled(names, counts, Some(pooled.counts()))?;
        if let Some(g) = by_group
            .iter()
            .position(|c| !c.0.iter().all(|v| v.is_finite()))
        {
            return Err(MetricError::WeightOverflow {
                group: gc.names[g].clone(),
            });
        }
        gc.sums = Some((by_group, pooled));
        Ok(gc)
    }

    /// Group names, indexed by group code.
    pub fn names(&self) -> &[String] {
        &self.names
    }
    /// Counts per group, indexed by group code.
    pub fn by_group(&self) -> &[ConfusionCounts] {
        &self.by_group
    }
    /// Counts of all rows pooled.
    pub fn overall(&self) -> &ConfusionCounts {
        &self.overall
    }
    /// Number of groups.
    pub fn n_groups(&self) -> usize {
        self.names.len()
    }
    /// The exact cell sums per group and pooled when built by
    /// [`from_cell_sums`](Self::from_cell_sums), else `None`.
    pub fn cell_sums(&self) -> Option<(&[CellSums], &CellSums)> {
        self.sums.as_ref().map(|(g, p)| (g.as_slice(), p))
    }

    /// One rate overall and per group, with its gaps.
    ///
    /// # Errors
    /// [`MetricError::UndefinedRate`] under [`ZeroDivision::Error`] when a group (checked first)
    /// or the pooled rows lack the rate's denominator; [`MetricError::UndefinedMetric`] under
    /// [`ZeroDivision::Skip`] when every group is skipped.
    pub fn summary(&self, rate: Rate, zero_division: ZeroDivision) -> Result<GroupSummary> {
        let resolve =
            |(num, den): (f64, f64), name: &str| zero_division.resolve(rate.name(), name, num, den);
        let (by_group, overall) = match &self.sums {
            None => (
                self.by_group
                    .iter()
                    .zip(&self.names)
                    .map(|(c, name)| c.rate_with(rate, zero_division, name))
                    .collect::<Result<Vec<_>>>()?,
                // The pooled denominator is the sum of the group denominators, so it is zero
                // only when every group's is; then Skip has skipped every group (reported
                // below by from_values).
                self.overall.rate_with(rate, zero_division, "overall")?,
            ),
            Some((groups, pooled)) => (
                groups
                    .iter()
                    .zip(&self.names)
                    .map(|(c, name)| resolve(c.fraction(rate), name))
                    .collect::<Result<Vec<_>>>()?,
                resolve(pooled.fraction(rate), "overall")?,
            ),
        };
        match overall {
            Some(o) => GroupSummary::from_values(rate.name(), self.names.clone(), o, by_group),
            None => Err(MetricError::UndefinedMetric {
                metric: rate.name(),
                reason: "no group has a defined value (all were skipped); use another ZeroDivision policy or other groups",
            }),
        }
    }

    /// The counts of one group, checked against the number of groups.
    pub(crate) fn group(&self, code: usize) -> Result<&ConfusionCounts> {
        crate::validate::check_group_code("group code", code, self.n_groups())?;
        Ok(&self.by_group[code])
    }
}

/// The one pass with or without weights (checked for length here, for values in the pass).
/// A per-row group code of any integer width (a pandas categorical's `int8` codes are read as
/// they are, without widening the column first). A negative code is out of range.
pub trait GroupCode: Copy {
    /// The code as an index (`usize::MAX` for a negative one, which no group has).
    fn index(self) -> usize;
}

macro_rules! group_code {
    ($($t:ty),*) => {$(
        impl GroupCode for $t {
            #[inline]
            fn index(self) -> usize {
                usize::try_from(self).unwrap_or(usize::MAX)
            }
        }
    )*};
}
group_code!(usize, u8, u16, u32, u64, i8, i16, i32, i64);

fn count_cells<C: GroupCode>(
    y_true: &[usize],
    y_pred: &[usize],
    codes: &[C],
    n_groups: usize,
    weights: Option<&[f64]>,
) -> Result<Vec<[f64; 4]>> {
    match weights {
        None => accumulate(y_true, y_pred, codes, n_groups, Unit),
        Some(w) => {
            check_len("sample weights", y_true.len(), w.len())?;
            accumulate(y_true, y_pred, codes, n_groups, w)
        }
    }
}

/// Cells (tn, fp, fn, tp) as counts. Finite weights can still sum past `f64::MAX`: that is a
/// [`MetricError::WeightOverflow`] naming the group (`name(code)`), not a NaN later on.
fn counts_from_cells(
    cells: &[[f64; 4]],
    name: impl Fn(usize) -> String,
) -> Result<Vec<ConfusionCounts>> {
    if let Some(g) = cells.iter().position(|c| c.iter().any(|v| !v.is_finite())) {
        return Err(MetricError::WeightOverflow { group: name(g) });
    }
    Ok(cells
        .iter()
        .map(|c| ConfusionCounts {
            tn: c[0],
            fp: c[1],
            fn_: c[2],
            tp: c[3],
        })
        .collect())
}

/// The one pass: per-group weighted cells indexed `[2 * label + prediction]`, with the 0/1 and
/// weight checks fused in so the rows are read once.
fn accumulate<W: RowWeight, C: GroupCode>(
    y_true: &[usize],
    y_pred: &[usize],
    codes: &[C],
    n_groups: usize,
    weights: W,
) -> Result<Vec<[f64; 4]>> {
    let mut cells = vec![[0.0_f64; 4]; n_groups];
    for (i, ((&t, &p), &g)) in y_true.iter().zip(y_pred).zip(codes).enumerate() {
        let g = g.index();
        let w = weights.at(i);
        // One branch for the label and weight checks keeps the loop tight; the cold path says
        // which failed. The group code is checked by the same indexing that counts the row.
        if (t | p) > 1 || !weight_ok(w) {
            return Err(row_error(i, t, p, w));
        }
        match cells.get_mut(g) {
            Some(cell) => cell[2 * t + p] += w,
            None => return Err(code_error(i, g)),
        }
    }
    Ok(cells)
}

/// A group code at or above the number of declared groups (only reachable through
/// [`GroupConfusion::count_codes`]: a [`Groups`] never holds one).
#[cold]
fn code_error(row: usize, code: usize) -> MetricError {
    MetricError::InvalidParameter {
        name: "group code",
        value: format!("{code} at row {row}"),
        expected: "a group code below the number of declared groups",
    }
}

#[cold]
fn row_error(row: usize, t: usize, p: usize, w: f64) -> MetricError {
    if t > 1 {
        MetricError::LabelOutOfRange {
            what: "labels",
            row,
            label: t,
            n_classes: 2,
        }
    } else if p > 1 {
        MetricError::LabelOutOfRange {
            what: "predictions",
            row,
            label: p,
            n_classes: 2,
        }
    } else {
        bad_weight(row, w)
    }
}

#[cfg(test)]
mod exact_count_tests {
    use super::*;
    use crate::state::ConfusionState;

    #[test]
    fn exact_counts_equal_a_merged_state_and_check_rows() {
        let y = [1, 0, 1, 1, 0, 0, 1];
        let p = [1, 1, 0, 1, 0, 1, 1];
        let codes = [0_i64, 2, 2, 0, 0, 2, 2];
        let w = [0.1, 0.7, 1e-17, 0.2, 3.3, 1e16, 0.3];
        let counts = GroupConfusion::count_codes_exact(&y, &p, &codes, 3, &w).unwrap();
        assert_eq!(counts[1], ConfusionCounts::default());
        // The same rows in two batches, merged the other way round.
        let names: Vec<String> = ["g0", "g1", "g2"].map(String::from).to_vec();
        let codes_u: Vec<usize> = codes.iter().map(|&c| c as usize).collect();
        let (mut a, mut b) = (ConfusionState::new(), ConfusionState::new());
        a.update_coded(&y[..3], &p[..3], &codes_u[..3], &names, Some(&w[..3]))
            .unwrap();
        b.update_coded(&y[3..], &p[3..], &codes_u[3..], &names, Some(&w[3..]))
            .unwrap();
        b.merge(&a).unwrap();
        let merged = b.to_group_confusion().unwrap();
        for (k, g) in [(0, 0), (1, 2)] {
            let (x, y) = (merged.by_group()[k], counts[g]);
            for (u, v) in [(x.tp, y.tp), (x.fp, y.fp), (x.tn, y.tn), (x.fn_, y.fn_)] {
                assert_eq!(u.to_bits(), v.to_bits());
            }
        }
        assert!(GroupConfusion::count_codes_exact(&[2], &[0], &[0_i64], 1, &[1.0]).is_err());
        assert!(GroupConfusion::count_codes_exact(&[1], &[0], &[1_i64], 1, &[1.0]).is_err());
        assert!(GroupConfusion::count_codes_exact(&[1], &[0], &[0_i64], 1, &[-1.0]).is_err());
        assert!(GroupConfusion::count_codes_exact(&[1], &[0], &[0_i64], 1, &[f64::NAN]).is_err());
    }
}
