//! Multi-class, multi-group metrics: per-class one-vs-rest rates per group, and FairProjection's
//! MEO (eq. 117) and statistical parity (eq. 118).
//!
//! Both are maxima over classes and over *pairs* of groups. For MEO the pair maximising
//! `|ΔTPR| + |ΔFPR|` is not in general the pair with the largest TPR range plus the pair with the
//! largest FPR range, so the sum is evaluated pair by pair.
//!
//! FairProjection's published code scales these (by nc/ns, and only the FPR term for MEO, by an
//! operator-precedence slip); the functions here follow the paper's formulas, not the code.

use crate::confusion::{ConfusionCounts, GroupConfusion, Rate};
use crate::error::{MetricError, Result};
use crate::pairwise::GroupPair;
use crate::summary::GroupSummary;
use crate::validate::{
    RowWeight, Unit, bad_weight, check_groups, check_len, check_nonempty, weight_ok,
};
use crate::zero_division::ZeroDivision;
use fair_data::Groups;
use nalgebra::DMatrix;

/// The largest gap of a multi-class parity metric, and where it occurs.
#[derive(Debug, Clone, PartialEq)]
pub struct MulticlassGap {
    /// Which metric ("multi-class equalized odds (MEO)" or "multi-class statistical parity").
    pub metric: &'static str,
    /// The max over classes and group pairs.
    pub value: f64,
    /// The class attaining `value`.
    pub class: usize,
    /// The pair of groups attaining `value` (`(0, 0)` with a single group).
    pub pair: GroupPair,
    /// Per class, the max over group pairs; `None` when every pair was skipped.
    pub per_class: Vec<Option<f64>>,
}

/// Weighted `n_classes × n_classes` confusion matrix (rows = true class, columns = predicted)
/// per group, built in one pass.
#[derive(Debug, Clone, PartialEq)]
pub struct MulticlassConfusion {
    n_classes: usize,
    names: Vec<String>,
    /// Flat `[group][true][pred]`.
    cells: Vec<f64>,
    /// Total weight per group.
    totals: Vec<f64>,
}

/// Largest dense confusion storage accepted (`n_groups × n_classes²` cells, 1 GiB of `f64`), so a
/// mistyped class count fails with an error instead of an allocation abort.
const MAX_CELLS: usize = 1 << 27;

fn check_n_classes(n_classes: usize) -> Result<()> {
    if n_classes >= 2 {
        Ok(())
    } else {
        Err(MetricError::InvalidParameter {
            name: "n_classes",
            value: n_classes.to_string(),
            expected: "at least 2 classes",
        })
    }
}

fn check_cells(n_classes: usize, n_groups: usize) -> Result<()> {
    match n_classes
        .checked_mul(n_classes)
        .and_then(|c| c.checked_mul(n_groups))
    {
        Some(cells) if cells <= MAX_CELLS => Ok(()),
        _ => Err(MetricError::InvalidParameter {
            name: "n_classes",
            value: format!("{n_classes} (with {n_groups} groups)"),
            expected: "n_groups × n_classes² <= 2^27 dense confusion cells",
        }),
    }
}

impl MulticlassConfusion {
    /// Counts labels against predictions per group; both must be in `0..n_classes`.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for `n_classes < 2` (or so large that
    /// `n_groups × n_classes²` exceeds 2^27 cells), [`MetricError::Empty`],
    /// [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`], bad weights, and
    /// [`MetricError::EmptyGroup`].
    pub fn new(
        y_true: &[usize],
        y_pred: &[usize],
        n_classes: usize,
        groups: &Groups,
        weights: Option<&[f64]>,
    ) -> Result<Self> {
        check_n_classes(n_classes)?;
        check_cells(n_classes, groups.n_groups())?;
        let n = y_true.len();
        check_nonempty("labels", n)?;
        check_len("predictions", n, y_pred.len())?;
        check_groups(groups, n)?;
        let cells = match weights {
            None => accumulate(y_true, y_pred, n_classes, groups, Unit)?,
            Some(w) => {
                check_len("sample weights", n, w.len())?;
                accumulate(y_true, y_pred, n_classes, groups, w)?
            }
        };
        let cc = n_classes * n_classes;
        let totals: Vec<f64> = cells.chunks_exact(cc).map(|c| c.iter().sum()).collect();
        check_totals(&totals, groups.names())?;
        Ok(Self {
            n_classes,
            names: groups.names().to_vec(),
            cells,
            totals,
        })
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Group names, indexed by group code.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The confusion matrix of one group (rows = true class, columns = predicted class).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for an unknown group code.
    pub fn matrix(&self, group: usize) -> Result<DMatrix<f64>> {
        crate::validate::check_group_code("group", group, self.names.len())?;
        let c = self.n_classes;
        let block = &self.cells[group * c * c..(group + 1) * c * c];
        Ok(DMatrix::from_row_slice(c, c, block))
    }

    fn cell(&self, group: usize, t: usize, p: usize) -> f64 {
        let c = self.n_classes;
        self.cells[(group * c + t) * c + p]
    }

    /// One-vs-rest binary counts of `class` per group (positive = `class`), ready for
    /// [`GroupConfusion::summary`] (e.g. the per-class TPR and FPR of every group).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for `class >= n_classes`.
    pub fn one_vs_rest(&self, class: usize) -> Result<GroupConfusion> {
        if class >= self.n_classes {
            return Err(MetricError::InvalidParameter {
                name: "class",
                value: class.to_string(),
                expected: "a class below n_classes",
            });
        }
        let c = self.n_classes;
        let by_group = (0..self.names.len())
            .map(|g| {
                let tp = self.cell(g, class, class);
                let label_pos: f64 = (0..c).map(|p| self.cell(g, class, p)).sum();
                let pred_pos: f64 = (0..c).map(|t| self.cell(g, t, class)).sum();
                // Clamped at 0: differences of sums can dip below zero by rounding.
                let fn_ = (label_pos - tp).max(0.0);
                let fp = (pred_pos - tp).max(0.0);
                let tn = (self.totals[g] - label_pos - fp).max(0.0);
                ConfusionCounts { tp, fp, tn, fn_ }
            })
            .collect();
        GroupConfusion::from_counts(self.names.clone(), by_group)
    }

    /// Multi-class accuracy overall and per group.
    ///
    /// # Errors
    /// None in practice (totals are positive by construction); kept fallible so that no public
    /// path can panic.
    pub fn accuracy(&self) -> Result<GroupSummary> {
        let c = self.n_classes;
        let correct: Vec<f64> = (0..self.names.len())
            .map(|g| (0..c).map(|k| self.cell(g, k, k)).sum())
            .collect();
        let total: f64 = self.totals.iter().sum();
        let overall = (correct.iter().sum::<f64>() / total).clamp(0.0, 1.0);
        let by_group = correct
            .iter()
            .zip(&self.totals)
            .map(|(k, t)| Some((k / t).clamp(0.0, 1.0)))
            .collect();
        GroupSummary::from_values(
            "multi-class accuracy",
            self.names.clone(),
            overall,
            by_group,
        )
    }

    /// FairProjection MEO (eq. 117):
    /// `max_i max_{s1,s2} (|TPR_i(s1) − TPR_i(s2)| + |FPR_i(s1) − FPR_i(s2)|) / 2`, with
    /// `TPR_i(s) = P(Ŷ=i | Y=i, S=s)` and `FPR_i(s) = P(Ŷ=i | Y≠i, S=s)`.
    ///
    /// A group without rows of class `i` has no `TPR_i`, one with only class-`i` rows has no
    /// `FPR_i`; `zero_division` decides (under `Skip`, every (class, pair) term that needs a
    /// missing rate is left out). With one group the value is 0.
    ///
    /// # Errors
    /// [`MetricError::UndefinedRate`] under `Error`; [`MetricError::UndefinedMetric`] when
    /// `Skip` leaves no term.
    pub fn equalized_odds(&self, zero_division: ZeroDivision) -> Result<MulticlassGap> {
        let mut per_class_rates = Vec::with_capacity(self.n_classes);
        for class in 0..self.n_classes {
            let ovr = self.one_vs_rest(class)?;
            let rates = |rate: Rate| {
                ovr.by_group()
                    .iter()
                    .zip(&self.names)
                    .map(|(c, name)| c.rate_with(rate, zero_division, name))
                    .collect::<Result<Vec<_>>>()
            };
            per_class_rates.push([rates(Rate::TruePositive)?, rates(Rate::FalsePositive)?]);
        }
        self.max_over_pairs("multi-class equalized odds (MEO)", |class, a, b| {
            let [tpr, fpr] = &per_class_rates[class];
            match (tpr[a], tpr[b], fpr[a], fpr[b]) {
                (Some(ta), Some(tb), Some(fa), Some(fb)) => {
                    Some(0.5 * ((ta - tb).abs() + (fa - fb).abs()))
                }
                _ => None,
            }
        })
    }

    /// FairProjection statistical parity (eq. 118):
    /// `max_i max_{s1,s2} |P(Ŷ=i | S=s1) − P(Ŷ=i | S=s2)|`. Defined for every non-empty group.
    pub fn statistical_parity(&self) -> Result<MulticlassGap> {
        let c = self.n_classes;
        let rates: Vec<Vec<f64>> = (0..c)
            .map(|class| {
                (0..self.names.len())
                    .map(|g| {
                        let pred: f64 = (0..c).map(|t| self.cell(g, t, class)).sum();
                        (pred / self.totals[g]).clamp(0.0, 1.0)
                    })
                    .collect()
            })
            .collect();
        self.max_over_pairs("multi-class statistical parity", |class, a, b| {
            Some((rates[class][a] - rates[class][b]).abs())
        })
    }

    /// Max of `term(class, a, b)` over classes and pairs `a < b`; `None` terms are skipped.
    fn max_over_pairs(
        &self,
        metric: &'static str,
        term: impl Fn(usize, usize, usize) -> Option<f64>,
    ) -> Result<MulticlassGap> {
        let g = self.names.len();
        let mut best: Option<(f64, usize, GroupPair)> = None;
        let mut per_class = Vec::with_capacity(self.n_classes);
        for class in 0..self.n_classes {
            let mut class_max: Option<f64> = None;
            for a in 0..g {
                for b in a + 1..g {
                    let Some(v) = term(class, a, b) else { continue };
                    class_max = Some(class_max.map_or(v, |m| m.max(v)));
                    if best.is_none_or(|(m, _, _)| v > m) {
                        best = Some((
                            v,
                            class,
                            GroupPair {
                                first: a,
                                second: b,
                            },
                        ));
                    }
                }
            }
            per_class.push(if g == 1 { Some(0.0) } else { class_max });
        }
        match best {
            Some((value, class, pair)) => Ok(MulticlassGap {
                metric,
                value,
                class,
                pair,
                per_class,
            }),
            None if g == 1 => Ok(MulticlassGap {
                metric,
                value: 0.0,
                class: 0,
                pair: GroupPair::default(),
                per_class,
            }),
            None => Err(MetricError::UndefinedMetric {
                metric,
                reason: "every (class, group pair) term needs a skipped rate; use ZeroDivision::Zero or merge groups",
            }),
        }
    }
}

fn check_totals(totals: &[f64], names: &[String]) -> Result<()> {
    if totals.iter().sum::<f64>() <= 0.0 {
        return Err(MetricError::ZeroTotalWeight { what: "all rows" });
    }
    match totals.iter().position(|&t| t <= 0.0) {
        Some(g) => Err(MetricError::EmptyGroup {
            group: names[g].clone(),
        }),
        None => Ok(()),
    }
}

fn accumulate<W: RowWeight>(
    y_true: &[usize],
    y_pred: &[usize],
    n_classes: usize,
    groups: &Groups,
    weights: W,
) -> Result<Vec<f64>> {
    let c = n_classes;
    let mut cells = vec![0.0_f64; groups.n_groups() * c * c];
    for (i, ((&t, &p), &g)) in y_true.iter().zip(y_pred).zip(groups.codes()).enumerate() {
        let w = weights.at(i);
        if t >= c || p >= c || !weight_ok(w) {
            return Err(row_error(i, t, p, c, w));
        }
        cells[(g * c + t) * c + p] += w;
    }
    Ok(cells)
}

#[cold]
fn row_error(row: usize, t: usize, p: usize, n_classes: usize, w: f64) -> MetricError {
    if t >= n_classes {
        MetricError::LabelOutOfRange {
            what: "labels",
            row,
            label: t,
            n_classes,
        }
    } else if p >= n_classes {
        MetricError::LabelOutOfRange {
            what: "predictions",
            row,
            label: p,
            n_classes,
        }
    } else {
        bad_weight(row, w)
    }
}

/// MEO (eq. 117) from labels and predictions in `0..n_classes`.
///
/// # Errors
/// As [`MulticlassConfusion::new`] and [`MulticlassConfusion::equalized_odds`].
pub fn multiclass_equalized_odds(
    y_true: &[usize],
    y_pred: &[usize],
    n_classes: usize,
    groups: &Groups,
    weights: Option<&[f64]>,
    zero_division: ZeroDivision,
) -> Result<MulticlassGap> {
    MulticlassConfusion::new(y_true, y_pred, n_classes, groups, weights)?
        .equalized_odds(zero_division)
}

/// Statistical parity (eq. 118) from predictions in `0..n_classes` (labels are not needed).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for `n_classes < 2`, [`MetricError::Empty`],
/// [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`], bad weights,
/// [`MetricError::EmptyGroup`].
pub fn multiclass_statistical_parity(
    y_pred: &[usize],
    n_classes: usize,
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<MulticlassGap> {
    // Predictions double as labels: SP reads only the predicted-class margins, and this keeps one
    // validated accumulation path. Checked first so an error names the predictions.
    check_n_classes(n_classes)?;
    crate::validate::check_classes("predictions", y_pred, n_classes)?;
    MulticlassConfusion::new(y_pred, y_pred, n_classes, groups, weights)?.statistical_parity()
}

/// Multi-class accuracy overall and per group.
///
/// # Errors
/// As [`MulticlassConfusion::new`].
pub fn multiclass_accuracy(
    y_true: &[usize],
    y_pred: &[usize],
    n_classes: usize,
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<GroupSummary> {
    MulticlassConfusion::new(y_true, y_pred, n_classes, groups, weights)?.accuracy()
}
