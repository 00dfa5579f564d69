//! [`ConfusionState`]: per-group confusion statistics that merge exactly.

use super::codec::{Reader, Writer};
use super::exact_sum::{ExactSum, ExactSumParts};
use super::weighting::Weighting;
use crate::confusion::{ConfusionCounts, GroupConfusion, Rate};
use crate::error::{MetricError, Result};
use crate::validate::{bad_weight, check_group_code, check_groups, check_len, weight_ok};
use fair_data::Groups;
use std::collections::BTreeMap;

/// Cell order everywhere in this module: `2 * label + prediction`, i.e. tn, fp, fn, tp.
pub(crate) const CELLS: usize = 4;

/// Which cells hold a rate's numerator and which its denominator (masks over tn, fp, fn, tp).
pub(crate) fn rate_cells(rate: Rate) -> ([bool; CELLS], [bool; CELLS]) {
    const ALL: [bool; 4] = [true; 4];
    const POS: [bool; 4] = [false, false, true, true];
    const NEG: [bool; 4] = [true, true, false, false];
    const PRED_POS: [bool; 4] = [false, true, false, true];
    match rate {
        Rate::Selection => (PRED_POS, ALL),
        Rate::TruePositive => ([false, false, false, true], POS),
        Rate::FalsePositive => ([false, true, false, false], NEG),
        Rate::TrueNegative => ([true, false, false, false], NEG),
        Rate::FalseNegative => ([false, false, true, false], POS),
        Rate::Precision => ([false, false, false, true], PRED_POS),
        Rate::Accuracy => ([true, false, false, true], ALL),
        Rate::Error => ([false, true, true, false], ALL),
    }
}

/// One group's statistics: raw row counts per cell, and for weighted states the exact sums of
/// the weights and of their squares (the squares give Kish's effective sample size).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GroupCells {
    pub(crate) rows: [u64; CELLS],
    pub(crate) weight: [ExactSum; CELLS],
    pub(crate) weight_sq: [ExactSum; CELLS],
}

impl GroupCells {
    pub(crate) fn merge(&mut self, other: &GroupCells) {
        for c in 0..CELLS {
            self.rows[c] = self.rows[c].saturating_add(other.rows[c]);
            self.weight[c].merge(&other.weight[c]);
            self.weight_sq[c].merge(&other.weight_sq[c]);
        }
    }

    /// The (weighted) count of each cell; unweighted states count rows.
    pub(crate) fn counts(&self, weighted: bool) -> [f64; CELLS] {
        std::array::from_fn(|c| {
            if weighted {
                self.weight[c].value()
            } else {
                self.rows[c] as f64
            }
        })
    }

    /// Kish's effective sample size of the cells in `mask`: `(Σw)² / Σw²` (the row count when
    /// unweighted). Zero when the cells are empty.
    pub(crate) fn effective_n(&self, mask: [bool; CELLS], weighted: bool) -> f64 {
        if !weighted {
            return (0..CELLS)
                .filter(|&c| mask[c])
                .map(|c| self.rows[c] as f64)
                .sum();
        }
        let mut sum = ExactSum::default();
        let mut sum_sq = ExactSum::default();
        for c in (0..CELLS).filter(|&c| mask[c]) {
            sum.merge(&self.weight[c]);
            sum_sq.merge(&self.weight_sq[c]);
        }
        let (s, s2) = (sum.value(), sum_sq.value());
        if s2 > 0.0 {
            // (s / √s2)² instead of s² / s2: no overflow for large weights.
            (s / s2.sqrt()).powi(2)
        } else {
            0.0
        }
    }
}

/// Exact, mergeable per-group confusion statistics: the sufficient statistics of every count-based
/// fairness metric (all confusion rates, their gaps, their confidence intervals and tests).
///
/// Groups are keyed by **name**, so states built from batches, files or cluster partitions whose
/// group codes differ still merge correctly. Unweighted cells are `u64` row counts; weighted cells
/// are exact, order-independent sums of the weights (and of their squares), so a state built on
/// one machine, from a stream, or merged from any partitioning of the rows in any order gives
/// **bit-identical** numbers. Memory is O(groups), whatever the number of rows.
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::state::ConfusionState;
/// use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
///
/// let (y, p) = ([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 0]);
/// let g = Groups::from_labels(&["a", "a", "b", "b", "a", "b"]);
///
/// // Two partitions, built separately (their group codes need not agree) and merged.
/// let mut left = ConfusionState::new();
/// left.update(&y[..2], &p[..2], &Groups::from_labels(&["a", "a"]), None)?;
/// let mut right = ConfusionState::new();
/// right.update(&y[2..], &p[2..], &Groups::from_labels(&["b", "b", "a", "b"]), None)?;
/// left.merge(&right)?;
///
/// let whole = GroupConfusion::new(&y, &p, &g, None)?;
/// assert_eq!(left.to_group_confusion()?, whole);
/// let sr = left.to_group_confusion()?.summary(Rate::Selection, ZeroDivision::Error)?;
/// assert_eq!(sr.by_group, vec![Some(2.0 / 3.0), Some(1.0 / 3.0)]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfusionState {
    /// `None` until the first non-empty update fixes whether the state is weighted.
    weighted: Weighting,
    groups: BTreeMap<String, GroupCells>,
}

impl ConfusionState {
    /// An empty state (no rows, no groups).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one batch of rows.
    ///
    /// `y_true` and `y_pred` are 0/1 (1 = positive), `groups` gives each row's group (codes local
    /// to this batch; names are what count), `weights` if given are finite and `>= 0`. An empty
    /// batch is a no-op. Row numbers in errors are 0-based positions **within the batch**.
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`] for a label or
    /// prediction other than 0/1, [`MetricError::NonFinite`] / [`MetricError::NegativeWeight`] for
    /// a bad weight, and [`MetricError::InvalidParameter`] when a weighted batch is added to an
    /// unweighted state or vice versa. On error the state is unchanged.
    pub fn update(
        &mut self,
        y_true: &[usize],
        y_pred: &[usize],
        groups: &Groups,
        weights: Option<&[f64]>,
    ) -> Result<()> {
        check_groups(groups, y_true.len())?;
        self.update_coded(y_true, y_pred, groups.codes(), groups.names(), weights)
    }

    /// [`update`](Self::update) with each row's group as a code into `names`, so a caller that
    /// keeps one dictionary of group names across batches (the audit's decoder) passes it
    /// without building a [`Groups`] per batch.
    ///
    /// # Errors
    /// As [`update`](Self::update), plus [`MetricError::InvalidParameter`] for a code that is
    /// not below `names.len()`. On error the state is unchanged.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::state::ConfusionState;
    /// let names = vec!["a".to_string(), "b".to_string()];
    /// let mut s = ConfusionState::new();
    /// s.update_coded(&[1, 0, 1], &[1, 1, 0], &[0, 1, 1], &names, None)?;
    /// assert_eq!(s.group_names(), names);
    /// assert!(s.update_coded(&[1], &[1], &[2], &names, None).is_err());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn update_coded(
        &mut self,
        y_true: &[usize],
        y_pred: &[usize],
        codes: &[usize],
        names: &[String],
        weights: Option<&[f64]>,
    ) -> Result<()> {
        let n = y_true.len();
        check_len("predictions", n, y_pred.len())?;
        check_len("groups", n, codes.len())?;
        if let Some(w) = weights {
            check_len("sample weights", n, w.len())?;
        }
        if n == 0 {
            return Ok(());
        }
        let weighted = weights.is_some();
        self.weighted.check(weighted)?;
        // A batch touches at most n groups. With many more declared groups than rows (an ID
        // column passed as a group: 100,000 groups, batches of a few thousand rows), a slot per
        // declared group would be allocated and zeroed per batch; count into a table of the
        // groups present instead. The exact weight sums (about 2 kB a group) are kept only for
        // a weighted batch.
        let dense = names.len() <= n;
        let mut slot_of = if dense {
            Vec::new()
        } else {
            vec![u32::MAX; names.len()]
        };
        let mut present: Vec<usize> = Vec::new();
        let slots = if dense { names.len() } else { 0 };
        let mut rows = vec![[0_u64; CELLS]; slots];
        let mut sums = vec![GroupCells::default(); if weighted { slots } else { 0 }];
        for i in 0..n {
            let (y, p, code) = (y_true[i], y_pred[i], codes[i]);
            if y > 1 {
                return Err(label_error("labels", i, y));
            }
            if p > 1 {
                return Err(label_error("predictions", i, p));
            }
            check_group_code("group code", code, names.len())?;
            let slot = if dense {
                code
            } else if slot_of[code] == u32::MAX {
                slot_of[code] = present.len() as u32;
                present.push(code);
                rows.push([0; CELLS]);
                if weighted {
                    sums.push(GroupCells::default());
                }
                rows.len() - 1
            } else {
                slot_of[code] as usize
            };
            let cell = 2 * y + p;
            rows[slot][cell] += 1;
            if let Some(w) = weights {
                let w = w[i];
                if !weight_ok(w) {
                    return Err(bad_weight(i, w));
                }
                sums[slot].weight[cell].add(w);
                sums[slot].weight_sq[cell].add(w * w);
            }
        }
        self.weighted.set(weighted);
        for (slot, counts) in rows.iter().enumerate() {
            if counts.iter().all(|&r| r == 0) {
                continue;
            }
            let name = &names[if dense { slot } else { present[slot] }];
            let group = match self.groups.get_mut(name) {
                Some(g) => g,
                None => self.groups.entry(name.clone()).or_default(),
            };
            for (total, &r) in group.rows.iter_mut().zip(counts) {
                *total = total.saturating_add(r);
            }
            if let Some(s) = sums.get(slot) {
                for c in 0..CELLS {
                    group.weight[c].merge(&s.weight[c]);
                    group.weight_sq[c].merge(&s.weight_sq[c]);
                }
            }
        }
        Ok(())
    }

    /// Adds `rows` rows of one cell at once — group `group`, label `label` and prediction
    /// `pred` (0/1) — counted elsewhere (e.g. by a Spark SQL aggregate), with the exact sums of
    /// their weights and of their weights' `f64` squares (`w * w`, as [`update`](Self::update)
    /// adds them) when weighted. The state is the one [`update`](Self::update) builds from those
    /// rows, byte for byte.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::{ConfusionState, ExactSumParts};
    ///
    /// let mut by_rows = ConfusionState::new();
    /// by_rows.update(&[1, 1], &[0, 0], &Groups::from_labels(&["a", "a"]), Some(&[0.5, 0.25]))?;
    /// let (mut w, mut sq) = (ExactSumParts::new(), ExactSumParts::new());
    /// w.add_scaled(3, -2)?; // 0.5 + 0.25 = 3 × 2^-2
    /// sq.add_scaled(5, -4)?; // 0.25 + 0.0625 = 5 × 2^-4
    /// let mut by_cells = ConfusionState::new();
    /// by_cells.add_cell("a", 1, 0, 2, Some((&w, &sq)))?;
    /// assert_eq!(by_cells.to_bytes(), by_rows.to_bytes());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::LabelOutOfRange`] for a label or prediction other than 0/1,
    /// [`MetricError::InvalidParameter`] for `rows == 0` or when weighted cells meet an
    /// unweighted state or vice versa. On error the state is unchanged.
    pub fn add_cell(
        &mut self,
        group: &str,
        label: usize,
        pred: usize,
        rows: u64,
        weights: Option<(&ExactSumParts, &ExactSumParts)>,
    ) -> Result<()> {
        if label > 1 {
            return Err(label_error("labels", 0, label));
        }
        if pred > 1 {
            return Err(label_error("predictions", 0, pred));
        }
        if rows == 0 {
            return Err(MetricError::InvalidParameter {
                name: "rows",
                value: "0".into(),
                expected: "at least one row per cell added",
            });
        }
        self.weighted.check(weights.is_some())?;
        self.weighted.set(weights.is_some());
        let cell = 2 * label + pred;
        let mut add = GroupCells::default();
        add.rows[cell] = rows;
        if let Some((w, sq)) = weights {
            add.weight[cell] = ExactSum::from_parts(w, rows);
            add.weight_sq[cell] = ExactSum::from_parts(sq, rows);
        }
        self.groups
            .entry(group.to_string())
            .or_default()
            .merge(&add);
        Ok(())
    }

    /// Adds another state's rows to this one. Merging is associative and commutative, and the
    /// result is bit-identical to one state built from all the rows.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when one state is weighted and the other is not.
    pub fn merge(&mut self, other: &ConfusionState) -> Result<()> {
        let Some(weighted) = other.weighted.known() else {
            return Ok(());
        };
        self.weighted.check(weighted)?;
        self.weighted.set(weighted);
        for (name, cells) in &other.groups {
            self.groups.entry(name.clone()).or_default().merge(cells);
        }
        Ok(())
    }

    /// The same rows under coarser groups: every group renamed by `name_of`, groups that get the
    /// same name merged. Exact like [`merge`](Self::merge) — the state is what updating with the
    /// renamed groups would have built — so a front end that keeps only the finest groups (the
    /// intersection of several sensitive columns) derives each column's state from it.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::ConfusionState;
    ///
    /// let mut finest = ConfusionState::new();
    /// let g = Groups::from_labels(&["a|x", "a|y", "b|x"]);
    /// finest.update(&[1, 0, 1], &[1, 1, 0], &g, None)?;
    /// let by_first = finest.regroup(|name| name[..1].to_string());
    /// assert_eq!(by_first.group_names(), vec!["a", "b"]);
    /// assert_eq!(by_first.rows("a"), Some(2));
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn regroup(&self, name_of: impl Fn(&str) -> String) -> ConfusionState {
        let mut out = ConfusionState {
            weighted: self.weighted,
            groups: BTreeMap::new(),
        };
        for (name, cells) in &self.groups {
            out.groups.entry(name_of(name)).or_default().merge(cells);
        }
        out
    }

    /// An unweighted state from each group's row counts `[tn, fp, fn, tp]` (what a report's
    /// per-group counts hold), so a saved audit can be compared with another. A group with no
    /// rows is left out, as [`update`](Self::update) would never add it.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::state::ConfusionState;
    /// let s = ConfusionState::from_row_counts([("a".to_string(), [3, 1, 0, 2]), ("b".to_string(), [0; 4])]);
    /// assert_eq!(s.group_names(), vec!["a"]);
    /// assert_eq!(s.rows("a"), Some(6));
    /// ```
    pub fn from_row_counts(groups: impl IntoIterator<Item = (String, [u64; 4])>) -> Self {
        let mut out = ConfusionState::new();
        for (name, rows) in groups {
            if rows.iter().any(|&r| r > 0) {
                out.weighted.set(false);
                out.groups.entry(name).or_default().merge(&GroupCells {
                    rows,
                    ..GroupCells::default()
                });
            }
        }
        out
    }

    /// The same state restricted to the groups `keep` accepts (exact: their cells unchanged).
    /// The audit uses it to keep groups smaller than its minimum size out of a gap while
    /// still reporting their rates.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::ConfusionState;
    ///
    /// let mut s = ConfusionState::new();
    /// s.update(&[1, 0, 1], &[1, 1, 0], &Groups::from_labels(&["a", "a", "b"]), None)?;
    /// assert_eq!(s.retain_groups(|g| g != "b").group_names(), vec!["a"]);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn retain_groups(&self, keep: impl Fn(&str) -> bool) -> ConfusionState {
        ConfusionState {
            weighted: self.weighted,
            groups: self
                .groups
                .iter()
                .filter(|(name, _)| keep(name))
                .map(|(name, cells)| (name.clone(), cells.clone()))
                .collect(),
        }
    }

    /// Rows (unweighted) of `group` in `rate`'s denominator — all rows for the selection rate,
    /// the positive rows for the TPR, the negative rows for the FPR — `None` for an unknown
    /// group. The number a minimum group size is checked against.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::{Rate, state::ConfusionState};
    ///
    /// let mut s = ConfusionState::new();
    /// s.update(&[1, 0, 1], &[1, 1, 0], &Groups::from_labels(&["a", "a", "a"]), None)?;
    /// assert_eq!(s.denominator_rows("a", Rate::TruePositive), Some(2));
    /// assert_eq!(s.denominator_rows("a", Rate::FalsePositive), Some(1));
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn denominator_rows(&self, group: &str, rate: Rate) -> Option<u64> {
        let mask = rate_cells(rate).1;
        self.groups.get(group).map(|c| {
            (0..CELLS)
                .filter(|&k| mask[k])
                .fold(0u64, |a, k| a.saturating_add(c.rows[k]))
        })
    }

    /// Whether the state holds weighted rows (`false` for an empty state).
    pub fn is_weighted(&self) -> bool {
        self.weighted.is_weighted()
    }

    /// Whether no row has been added.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Group names, sorted (the order of every per-group output of this state).
    pub fn group_names(&self) -> Vec<String> {
        self.groups.keys().cloned().collect()
    }

    /// Number of rows of `group` (unweighted), `None` for an unknown group.
    pub fn rows(&self, group: &str) -> Option<u64> {
        self.groups
            .get(group)
            .map(|c| c.rows.iter().fold(0u64, |a, &r| a.saturating_add(r)))
    }

    /// Total number of rows.
    pub fn total_rows(&self) -> u64 {
        self.groups
            .values()
            .flat_map(|c| c.rows)
            // Saturating like `merge`: decoded row counts may sum past u64::MAX.
            .fold(0, u64::saturating_add)
    }

    /// The confusion counts of `group` — row counts, or weighted the exact weight sums rounded
    /// once — `None` for an unknown group. The counts [`to_group_confusion`](Self::to_group_confusion)
    /// holds for that group, for a caller that orders or labels the groups itself.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::ConfusionState;
    ///
    /// let mut s = ConfusionState::new();
    /// s.update(&[1, 0, 1], &[1, 1, 0], &Groups::from_labels(&["a", "a", "b"]), Some(&[0.5, 2.0, 1.0]))?;
    /// let a = s.group_counts("a").unwrap();
    /// assert_eq!((a.tp, a.fp, a.tn, a.fn_), (0.5, 2.0, 0.0, 0.0));
    /// assert!(s.group_counts("c").is_none());
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn group_counts(&self, group: &str) -> Option<ConfusionCounts> {
        let weighted = self.is_weighted();
        self.groups.get(group).map(|cells| {
            let [tn, fp, fn_, tp] = cells.counts(weighted);
            ConfusionCounts { tp, fp, tn, fn_ }
        })
    }

    /// A weighted state's exact sums of every union of `group`'s cells
    /// ([`CellSums`](crate::CellSums)); `None` for an unknown group or an unweighted state.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::ConfusionState;
    /// let mut s = ConfusionState::new();
    /// s.update(&[0, 1], &[1, 1], &Groups::from_labels(&["a", "a"]), Some(&[0.1, 0.2]))?;
    /// assert_eq!(s.cell_sums("a").unwrap().0[2 | 8], 0.1 + 0.2); // fp ∪ tp
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn cell_sums(&self, group: &str) -> Option<crate::CellSums> {
        if !self.is_weighted() {
            return None;
        }
        self.groups
            .get(group)
            .map(|cells| crate::CellSums::from_exact(&cells.weight))
    }

    /// [`cell_sums`](Self::cell_sums) of all rows pooled: what one group holding every row
    /// would give, whatever the grouping. `None` for an empty or unweighted state.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::state::ConfusionState;
    /// let mut s = ConfusionState::new();
    /// s.update(&[1, 1], &[1, 1], &Groups::from_labels(&["a", "b"]), Some(&[0.1, 0.2]))?;
    /// assert_eq!(s.pooled_cell_sums().unwrap().counts().tp, 0.1 + 0.2);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn pooled_cell_sums(&self) -> Option<crate::CellSums> {
        if !self.is_weighted() || self.groups.is_empty() {
            return None;
        }
        let mut pooled = GroupCells::default();
        for cells in self.groups.values() {
            pooled.merge(cells);
        }
        Some(crate::CellSums::from_exact(&pooled.weight))
    }

    /// Kish's effective sample size `(Σw)² / Σw²` of `group`'s rows in `rate`'s denominator (the
    /// plain row count when unweighted); `None` for an unknown group.
    pub fn effective_n(&self, group: &str, rate: Rate) -> Option<f64> {
        let weighted = self.is_weighted();
        self.groups
            .get(group)
            .map(|c| c.effective_n(rate_cells(rate).1, weighted))
    }

    /// The counts as a [`GroupConfusion`] (groups in sorted-name order), so every rate, summary
    /// and parity function applies unchanged.
    ///
    /// # Errors
    /// [`MetricError::Empty`] for an empty state, [`MetricError::WeightOverflow`] when a group's
    /// weights sum beyond the `f64` range, and the errors of [`GroupConfusion::from_counts`]
    /// (e.g. [`MetricError::EmptyGroup`] for a group whose rows all weigh 0).
    pub fn to_group_confusion(&self) -> Result<GroupConfusion> {
        if self.groups.is_empty() {
            return Err(MetricError::Empty { what: "state" });
        }
        let weighted = self.is_weighted();
        let mut by_group = Vec::with_capacity(self.groups.len());
        for (name, cells) in &self.groups {
            let [tn, fp, fn_, tp] = cells.counts(weighted);
            if ![tn, fp, fn_, tp].iter().all(|v| v.is_finite()) {
                return Err(MetricError::WeightOverflow {
                    group: name.clone(),
                });
            }
            by_group.push(ConfusionCounts { tp, fp, tn, fn_ });
        }
        GroupConfusion::from_counts(self.group_names(), by_group)
    }

    /// The groups and their cells, in sorted-name order (for the inference routines).
    pub(crate) fn cells(&self) -> impl Iterator<Item = (&String, &GroupCells)> {
        self.groups.iter()
    }

    /// A compact, versioned, canonical binary encoding: equal states give equal bytes. For
    /// shipping partition states between processes (e.g. Spark executors and the driver).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(b"FKCS", 1);
        self.weighted.encode(&mut w);
        w.u64(self.groups.len() as u64);
        for (name, cells) in &self.groups {
            w.str(name);
            for &r in &cells.rows {
                w.u64(r);
            }
            if self.is_weighted() {
                for s in cells.weight.iter().chain(&cells.weight_sq) {
                    w.bytes(&s.to_bytes());
                }
            }
        }
        w.finish()
    }

    /// Decodes [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`MetricError::Decode`] for bytes that are not a state of this version (wrong magic,
    /// truncated, trailing bytes, corrupt sums).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, b"FKCS", 1, "confusion state")?;
        let weighted = Weighting::decode(&mut r)?;
        let n = r.len()?;
        let mut groups = BTreeMap::new();
        for _ in 0..n {
            let name = r.str()?;
            let mut cells = GroupCells::default();
            for c in 0..CELLS {
                cells.rows[c] = r.u64()?;
            }
            if weighted.is_weighted() {
                for c in 0..CELLS {
                    cells.weight[c] = r.exact_sum()?;
                }
                for c in 0..CELLS {
                    cells.weight_sq[c] = r.exact_sum()?;
                }
            }
            if groups.insert(name.clone(), cells).is_some() {
                return Err(r.error(format!("group {name:?} appears twice")));
            }
        }
        r.finish()?;
        Ok(Self { weighted, groups })
    }
}

fn label_error(what: &'static str, row: usize, label: usize) -> MetricError {
    MetricError::LabelOutOfRange {
        what,
        row,
        label,
        n_classes: 2,
    }
}
