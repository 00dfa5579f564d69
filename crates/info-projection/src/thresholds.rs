//! Hard decisions that keep a group-fairness constraint: randomized group thresholds fitted by
//! a linear program on each group's ROC hull.
//!
//! The projected probabilities `h(x)` meet the constraints *in expectation*; their argmax does
//! not (on Adult, equalized odds fitted at α = 0.01 gives an argmax gap of 0.07 where the soft
//! rates are at 0.02). For two classes, every decision rule of the form "predict 1 when the
//! score clears the group's threshold", and every mixture of such rules, has per-group
//! `(true positives, false positives)` in the convex hull of the group's threshold points. The
//! most accurate mixture whose rates meet the constraint is therefore one linear program over the
//! hull vertices (Hardt, Price & Srebro, "Equality of Opportunity in Supervised Learning",
//! NeurIPS 2016, solved exactly here instead of on a grid): variables are the vertex weights
//! of each group, the objective is the expected accuracy on the fitting rows, and the rates
//! are linear in the weights. The solution mixes at most a few thresholds per group; a row is
//! predicted positive with probability `q_s(score) = Σ_{v: score ≥ t_v} w_v` and
//! [`GroupThresholds::predict`] draws the decision with a seeded ChaCha8 stream (one draw per
//! row, in row order): same seed, same labels. Rows away from the thresholds are deterministic.
//!
//! Labels may be soft (`positives[i] ∈ [0, 1]`, e.g. the base model's `P(Y=1│x)` when no labels
//! are given): a row then counts `y` as a positive and `1 − y` as a negative.

use crate::error::{InfoProjectionError as E, Result, invalid};
use crate::params::Constraint;
use fair_data::Groups;
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, microlp,
    variable,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A rate of hard decisions, measured per group.
///
/// # Examples
/// ```
/// use info_projection::HardRate;
/// // The rate names of the metrics binding (`fairkit.metrics`).
/// assert_eq!(HardRate::TruePositive.to_string(), "true_positive_rate");
/// assert_eq!("selection_rate".parse::<HardRate>()?, HardRate::Selection);
/// assert_eq!(HardRate::NAMES, ["selection_rate", "true_positive_rate", "false_positive_rate", "accuracy"]);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HardRate {
    /// `P(Ŷ=1│S=s)`: demographic (statistical) parity.
    Selection,
    /// `P(Ŷ=1│Y=1,S=s)`: equal opportunity.
    TruePositive,
    /// `P(Ŷ=1│Y=0,S=s)`: false-positive-rate parity.
    FalsePositive,
    /// `P(Ŷ=Y│S=s)`: overall accuracy equality.
    Accuracy,
}

/// One constrained quantity: a rate, or its complement `1 − rate` (e.g. the false-negative rate
/// is the complement of the true-positive rate). Complements matter only for a relative bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RateTerm {
    /// Which rate.
    pub rate: HardRate,
    /// Constrain `1 − rate` instead of the rate.
    pub complement: bool,
}

impl RateTerm {
    const fn plain(rate: HardRate) -> Self {
        Self {
            rate,
            complement: false,
        }
    }

    const fn complement(rate: HardRate) -> Self {
        Self {
            rate,
            complement: true,
        }
    }

    /// The terms of a FairProjection constraint for two classes (Table 2 of the paper, with
    /// `c, c' ∈ {0, 1}`): statistical parity bounds `P(Ŷ=c'│S)` for both `c'`; equalized odds
    /// every `P(Ŷ=c'│Y=c,S)`; the diagonal variant `P(Ŷ=1│Y=1,S)` and `P(Ŷ=0│Y=0,S)`; overall
    /// accuracy `P(Ŷ=Y│S)`.
    ///
    /// ```
    /// use info_projection::{Constraint, HardRate, RateTerm};
    /// let terms = RateTerm::for_constraint(Constraint::StatisticalParity);
    /// assert!(terms.iter().all(|t| t.rate == HardRate::Selection));
    /// assert_eq!(terms.len(), 2); // P(Ŷ=1|S) and P(Ŷ=0|S)
    /// ```
    pub fn for_constraint(constraint: Constraint) -> Vec<Self> {
        use HardRate::*;
        match constraint {
            Constraint::StatisticalParity => {
                vec![Self::plain(Selection), Self::complement(Selection)]
            }
            Constraint::EqualizedOdds => vec![
                Self::plain(TruePositive),
                Self::complement(TruePositive),
                Self::plain(FalsePositive),
                Self::complement(FalsePositive),
            ],
            Constraint::EqualizedOddsDiagonal => {
                vec![Self::plain(TruePositive), Self::complement(FalsePositive)]
            }
            Constraint::OverallAccuracy => vec![Self::plain(Accuracy)],
            Constraint::EqualOpportunity => {
                vec![Self::plain(TruePositive), Self::complement(TruePositive)]
            }
            Constraint::FalsePositiveParity => {
                vec![Self::plain(FalsePositive), Self::complement(FalsePositive)]
            }
        }
    }
}

/// How far apart a group's rate may be from the others.
///
/// # Examples
/// ```
/// use info_projection::RateBound;
/// // `Display`: `relative(alpha)` or `difference(eps)`.
/// assert_eq!(RateBound::Difference(0.05).to_string(), "difference(0.05)");
/// assert_eq!("relative( 0.01 )".parse::<RateBound>()?, RateBound::Relative(0.01));
/// assert!("difference".parse::<RateBound>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RateBound {
    /// `|r_s / r − 1| ≤ α` for every group `s`, where `r` is the rate on all rows: the relative
    /// tolerance FairProjection is fitted with.
    Relative(f64),
    /// `max_s r_s − min_s r_s ≤ ε`: the difference bound of fairlearn's `*_difference` metrics
    /// and reductions.
    Difference(f64),
}

impl RateBound {
    fn check(self) -> Result<Self> {
        let (name, v) = match self {
            Self::Relative(a) => ("bound (relative)", a),
            Self::Difference(e) => ("bound (difference)", e),
        };
        if !(v.is_finite() && v >= 0.0) {
            return Err(invalid(name, v, "a finite number >= 0"));
        }
        Ok(self)
    }
}

/// Expected rates of the fitted rule on its fitting rows, per group (`NaN` where undefined:
/// a group without positives has no true-positive rate).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRates {
    /// `P(Ŷ=1│S=s)`.
    pub selection: Vec<f64>,
    /// `P(Ŷ=1│Y=1,S=s)`.
    pub true_positive: Vec<f64>,
    /// `P(Ŷ=1│Y=0,S=s)`.
    pub false_positive: Vec<f64>,
    /// `P(Ŷ=Y│S=s)`.
    pub accuracy: Vec<f64>,
}

/// A randomized threshold rule per group, fitted to be the most accurate rule of its kind whose
/// rates meet the constraint on the fitting rows.
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use info_projection::{GroupThresholds, HardRate, RateBound, RateTerm};
///
/// // Group "b" scores lower than "a" for the same labels.
/// let scores = [0.9, 0.8, 0.6, 0.3, 0.7, 0.5, 0.4, 0.1];
/// let labels = [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
/// let groups = Groups::from_labels(&["a", "a", "a", "a", "b", "b", "b", "b"]);
/// let terms = [RateTerm { rate: HardRate::Selection, complement: false }];
/// let rule = GroupThresholds::fit(&scores, &labels, &groups, &terms, RateBound::Difference(0.0))?;
/// let rates = rule.fitted_rates();
/// assert!((rates.selection[0] - rates.selection[1]).abs() < 1e-9); // parity, exactly
/// assert!((rule.fitted_accuracy() - 1.0).abs() < 1e-9);              // and nothing lost here
/// let labels_out = rule.predict(&scores, &groups, 7)?;
/// assert_eq!(labels_out, rule.predict(&scores, &groups, 7)?);        // same seed, same labels
/// # Ok::<(), info_projection::InfoProjectionError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GroupThresholds {
    /// Per group: thresholds in increasing order and the probability of a positive decision
    /// for a score at or above each threshold and below the next.
    steps: Vec<Steps>,
    rates: GroupRates,
    accuracy: f64,
}

#[derive(Debug, Clone, PartialEq)]
struct Steps {
    thresholds: Vec<f64>,
    cumulative: Vec<f64>,
}

impl Steps {
    fn probability(&self, score: f64) -> f64 {
        // Number of thresholds at or below the score.
        let k = self.thresholds.partition_point(|&t| t <= score);
        if k == 0 { 0.0 } else { self.cumulative[k - 1] }
    }
}

/// One point of a group's threshold curve: counts above the threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cut {
    /// Predict 1 when `score >= threshold` (`+∞`: nobody).
    threshold: f64,
    tp: f64,
    fp: f64,
}

/// Per-group sums of the fitting rows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct GroupSums {
    n: f64,
    pos: f64,
}

impl GroupSums {
    fn neg(&self) -> f64 {
        self.n - self.pos
    }
}

/// Weights below this are dropped from the rule (LP round-off).
const WEIGHT_ZERO: f64 = 1e-12;

impl GroupThresholds {
    /// Fits the rule: `scores` (higher means more likely positive; typically `h_1(x)`),
    /// `positives` (the label, 0 or 1, or a soft label in `[0, 1]`), one group per row, the
    /// constrained terms and their bound.
    ///
    /// # Errors
    /// [`InfoProjectionError::Empty`](crate::InfoProjectionError::Empty) without rows or terms,
    /// `LengthMismatch`, `NonFinite` scores, `InvalidParameter` for a label outside `[0, 1]` or
    /// a negative bound, `TooFewGroups`, `EmptyGroup` for a declared group without rows, and
    /// [`InfoProjectionError::Lp`](crate::InfoProjectionError::Lp) if the LP solver fails (the
    /// program is always feasible: every group predicting nobody positive meets every bound).
    pub fn fit(
        scores: &[f64],
        positives: &[f64],
        groups: &Groups,
        terms: &[RateTerm],
        bound: RateBound,
    ) -> Result<Self> {
        let bound = bound.check()?;
        check_rows(scores, groups, "scores")?;
        if positives.len() != scores.len() {
            return Err(E::LengthMismatch {
                what: "labels (positives)",
                expected: scores.len(),
                got: positives.len(),
            });
        }
        if let Some(row) = positives
            .iter()
            .position(|y| !(y.is_finite() && (0.0..=1.0).contains(y)))
        {
            return Err(invalid(
                "labels (positives)",
                format!("{} at row {row}", positives[row]),
                "a label 0 or 1 (or a probability in [0, 1])",
            ));
        }
        if terms.is_empty() {
            return Err(E::Empty {
                what: "the constrained rates",
            });
        }
        let a = groups.n_groups();
        if a < 2 {
            return Err(E::TooFewGroups { n_groups: a });
        }
        let (cuts, sums) = group_cuts(scores, positives, groups)?;
        let hulls: Vec<Vec<Cut>> = cuts.iter().map(|c| convex_hull(c)).collect();
        let weights = solve(&hulls, &sums, terms, bound)?;
        Ok(Self::from_solution(&hulls, &sums, &weights))
    }

    fn from_solution(hulls: &[Vec<Cut>], sums: &[GroupSums], weights: &[Vec<f64>]) -> Self {
        let total: f64 = sums.iter().map(|s| s.n).sum();
        let mut steps = Vec::with_capacity(hulls.len());
        let mut rates = GroupRates {
            selection: Vec::new(),
            true_positive: Vec::new(),
            false_positive: Vec::new(),
            accuracy: Vec::new(),
        };
        let mut correct = 0.0;
        for ((hull, s), w) in hulls.iter().zip(sums).zip(weights) {
            let mut kept: Vec<(f64, f64)> = hull
                .iter()
                .zip(w)
                .filter(|&(c, &w)| w > WEIGHT_ZERO && c.threshold.is_finite())
                .map(|(c, &w)| (c.threshold, w))
                .collect();
            kept.sort_by(|x, y| x.0.total_cmp(&y.0));
            let sum_w: f64 = w.iter().filter(|&&x| x > WEIGHT_ZERO).sum();
            // Descending thresholds accumulate: a score clears every threshold below it.
            let mut cumulative = vec![0.0; kept.len()];
            let mut acc = 0.0;
            for (k, &(_, wk)) in kept.iter().enumerate() {
                acc += wk / sum_w;
                cumulative[k] = acc.min(1.0);
            }
            steps.push(Steps {
                thresholds: kept.iter().map(|x| x.0).collect(),
                cumulative,
            });
            let tp: f64 = hull.iter().zip(w).map(|(c, &w)| c.tp * w).sum::<f64>() / sum_w;
            let fp: f64 = hull.iter().zip(w).map(|(c, &w)| c.fp * w).sum::<f64>() / sum_w;
            let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { f64::NAN };
            rates.selection.push(ratio(tp + fp, s.n));
            rates.true_positive.push(ratio(tp, s.pos));
            rates.false_positive.push(ratio(fp, s.neg()));
            rates.accuracy.push(ratio(tp + s.neg() - fp, s.n));
            correct += tp + s.neg() - fp;
        }
        Self {
            steps,
            rates,
            accuracy: correct / total,
        }
    }

    /// Number of groups the rule was fitted for.
    pub fn n_groups(&self) -> usize {
        self.steps.len()
    }

    /// Expected rates of the rule on the fitting rows, per group.
    pub fn fitted_rates(&self) -> &GroupRates {
        &self.rates
    }

    /// Expected accuracy of the rule on the fitting rows (against the given labels).
    pub fn fitted_accuracy(&self) -> f64 {
        self.accuracy
    }

    /// The thresholds of group `g` in increasing order, each with the probability of a positive
    /// decision for scores from it up to the next one (`None` for an unknown group).
    pub fn group_rule(&self, g: usize) -> Option<Vec<(f64, f64)>> {
        self.steps.get(g).map(|s| {
            s.thresholds
                .iter()
                .copied()
                .zip(s.cumulative.iter().copied())
                .collect()
        })
    }

    /// `P(Ŷ=1)` of every row under the rule.
    ///
    /// # Errors
    /// `Empty`, `LengthMismatch`, `NonFinite` scores, and `GroupMismatch` when `groups` has
    /// another number of groups than at fitting time.
    pub fn positive_probability(&self, scores: &[f64], groups: &Groups) -> Result<Vec<f64>> {
        check_rows(scores, groups, "scores")?;
        if groups.n_groups() != self.steps.len() {
            return Err(E::GroupMismatch {
                reason: format!(
                    "the rule was fitted for {} groups, got {}",
                    self.steps.len(),
                    groups.n_groups()
                ),
            });
        }
        Ok(scores
            .iter()
            .zip(groups.codes())
            .map(|(&s, &g)| self.steps[g].probability(s))
            .collect())
    }

    /// Hard decisions (0/1): row `i` is 1 when the `i`-th uniform draw of
    /// `ChaCha8Rng::seed_from_u64(seed)` is below its [`positive_probability`](Self::positive_probability).
    ///
    /// # Errors
    /// As [`positive_probability`](Self::positive_probability).
    pub fn predict(&self, scores: &[f64], groups: &Groups, seed: u64) -> Result<Vec<usize>> {
        let q = self.positive_probability(scores, groups)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Ok(q.iter()
            .map(|&p| {
                let u: f64 = rng.random();
                usize::from(u < p)
            })
            .collect())
    }

    /// The rule as bytes (little-endian; see [`from_bytes`](Self::from_bytes)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(BYTES_MAGIC);
        push_u64(&mut out, self.steps.len() as u64);
        push_f64(&mut out, self.accuracy);
        for (g, s) in self.steps.iter().enumerate() {
            push_u64(&mut out, s.thresholds.len() as u64);
            for (t, c) in s.thresholds.iter().zip(&s.cumulative) {
                push_f64(&mut out, *t);
                push_f64(&mut out, *c);
            }
            for v in [
                &self.rates.selection,
                &self.rates.true_positive,
                &self.rates.false_positive,
                &self.rates.accuracy,
            ] {
                push_f64(&mut out, v[g]);
            }
        }
        out
    }

    /// Restores a rule saved by [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`InfoProjectionError::Decode`](crate::InfoProjectionError::Decode) for bytes that are
    /// not such a rule (wrong header, truncated, thresholds out of order, probabilities outside
    /// `[0, 1]`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(BYTES_MAGIC.len())? != BYTES_MAGIC {
            return Err(decode("not a saved group-threshold rule (bad header)"));
        }
        let a = r.count()?;
        let accuracy = r.f64()?;
        let mut steps = Vec::new();
        let mut rates = GroupRates {
            selection: Vec::new(),
            true_positive: Vec::new(),
            false_positive: Vec::new(),
            accuracy: Vec::new(),
        };
        for _ in 0..a {
            let k = r.count()?;
            let mut thresholds = Vec::new();
            let mut cumulative = Vec::new();
            for _ in 0..k {
                thresholds.push(r.f64()?);
                cumulative.push(r.f64()?);
            }
            let ordered = thresholds.windows(2).all(|w| w[0] <= w[1]);
            let finite = thresholds.iter().all(|t| t.is_finite());
            let probabilities = cumulative.iter().all(|c| (0.0..=1.0).contains(c));
            if !(ordered && finite && probabilities) {
                return Err(decode("a group's thresholds or probabilities are invalid"));
            }
            steps.push(Steps {
                thresholds,
                cumulative,
            });
            rates.selection.push(r.f64()?);
            rates.true_positive.push(r.f64()?);
            rates.false_positive.push(r.f64()?);
            rates.accuracy.push(r.f64()?);
        }
        if r.at != bytes.len() {
            return Err(decode("trailing bytes after the rule"));
        }
        Ok(Self {
            steps,
            rates,
            accuracy,
        })
    }
}

const BYTES_MAGIC: &[u8] = b"fairkit-group-thresholds-v1";

fn push_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn push_f64(out: &mut Vec<u8>, v: f64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn decode(reason: &str) -> E {
    E::Decode {
        reason: reason.into(),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| decode("truncated group-threshold rule"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn word(&mut self) -> Result<[u8; 8]> {
        let mut w = [0u8; 8];
        w.copy_from_slice(self.take(8)?);
        Ok(w)
    }

    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.word()?))
    }

    /// A count that must fit in the remaining bytes (at least 8 bytes per item).
    fn count(&mut self) -> Result<usize> {
        let v = u64::from_le_bytes(self.word()?);
        let left = (self.bytes.len() - self.at) as u64;
        if v > left / 8 {
            return Err(decode("a count exceeds the remaining bytes"));
        }
        Ok(v as usize)
    }
}

fn check_rows(scores: &[f64], groups: &Groups, what: &'static str) -> Result<()> {
    if scores.is_empty() {
        return Err(E::Empty { what });
    }
    if groups.len() != scores.len() {
        return Err(E::LengthMismatch {
            what: "groups",
            expected: scores.len(),
            got: groups.len(),
        });
    }
    if let Some(row) = scores.iter().position(|s| !s.is_finite()) {
        return Err(E::NonFinite {
            what,
            row,
            col: 0,
            value: scores[row],
        });
    }
    Ok(())
}

/// Each group's threshold points, from "nobody" (`+∞`) down to "everybody", and its sums.
fn group_cuts(
    scores: &[f64],
    positives: &[f64],
    groups: &Groups,
) -> Result<(Vec<Vec<Cut>>, Vec<GroupSums>)> {
    let a = groups.n_groups();
    let mut rows: Vec<Vec<(f64, f64)>> = vec![Vec::new(); a];
    let mut sums = vec![GroupSums::default(); a];
    for ((&s, &y), &g) in scores.iter().zip(positives).zip(groups.codes()) {
        rows[g].push((s, y));
        sums[g].n += 1.0;
        sums[g].pos += y;
    }
    let mut cuts = Vec::with_capacity(a);
    for (g, mut r) in rows.into_iter().enumerate() {
        if r.is_empty() {
            return Err(E::EmptyGroup {
                group: groups.names()[g].clone(),
            });
        }
        r.sort_by(|x, y| y.0.total_cmp(&x.0));
        let mut c = vec![Cut {
            threshold: f64::INFINITY,
            tp: 0.0,
            fp: 0.0,
        }];
        let (mut tp, mut fp) = (0.0, 0.0);
        let mut i = 0;
        while i < r.len() {
            let t = r[i].0;
            // Rows tied at one score are decided together: one threshold takes them all.
            while i < r.len() && r[i].0.total_cmp(&t).is_eq() {
                tp += r[i].1;
                fp += 1.0 - r[i].1;
                i += 1;
            }
            c.push(Cut {
                threshold: t,
                tp,
                fp,
            });
        }
        cuts.push(c);
    }
    Ok((cuts, sums))
}

/// Vertices of the convex hull of the threshold points (Andrew's monotone chain). The points
/// come sorted by `(fp, tp)` (both only grow as the threshold falls), so no sort is needed.
/// Every mixture of threshold rules has its `(fp, tp)` in this hull, and every point of the
/// hull is a mixture of its vertices.
fn convex_hull(points: &[Cut]) -> Vec<Cut> {
    if points.len() <= 2 {
        return points.to_vec();
    }
    let cross =
        |o: &Cut, a: &Cut, b: &Cut| (a.fp - o.fp) * (b.tp - o.tp) - (a.tp - o.tp) * (b.fp - o.fp);
    let mut lower: Vec<Cut> = Vec::new();
    for p in points {
        while lower.len() >= 2 && cross(&lower[lower.len() - 2], &lower[lower.len() - 1], p) <= 0.0
        {
            lower.pop();
        }
        lower.push(*p);
    }
    let mut upper: Vec<Cut> = Vec::new();
    for p in points.iter().rev() {
        while upper.len() >= 2 && cross(&upper[upper.len() - 2], &upper[upper.len() - 1], p) <= 0.0
        {
            upper.pop();
        }
        upper.push(*p);
    }
    // Each chain ends where the other starts.
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The LP: per group, weights on its hull vertices summing to 1; maximise expected accuracy;
/// every term within the bound. Counts are scaled by the number of rows for conditioning.
fn solve(
    hulls: &[Vec<Cut>],
    sums: &[GroupSums],
    terms: &[RateTerm],
    bound: RateBound,
) -> Result<Vec<Vec<f64>>> {
    let total: f64 = sums.iter().map(|s| s.n).sum();
    let mut vars = ProblemVariables::new();
    let w: Vec<Vec<Variable>> = hulls
        .iter()
        .map(|h| {
            h.iter()
                .map(|_| vars.add(variable().min(0.0).max(1.0)))
                .collect()
        })
        .collect();
    // Free levels of the difference bound, one per term.
    let levels: Vec<Variable> = match bound {
        RateBound::Difference(_) => terms.iter().map(|_| vars.add(variable())).collect(),
        RateBound::Relative(_) => Vec::new(),
    };
    // tp_s and fp_s as fractions of all rows.
    let tp: Vec<Expression> = hulls
        .iter()
        .zip(&w)
        .map(|(h, ws)| linear(h.iter().map(|c| c.tp / total), ws))
        .collect();
    let fp: Vec<Expression> = hulls
        .iter()
        .zip(&w)
        .map(|(h, ws)| linear(h.iter().map(|c| c.fp / total), ws))
        .collect();
    let mut objective = Expression::with_capacity(2 * hulls.len());
    for (t, f) in tp.iter().zip(&fp) {
        objective += t.clone() - f.clone();
    }
    let mut model = vars.maximise(objective).using(microlp);
    for ws in &w {
        model = model.with(linear(ws.iter().map(|_| 1.0), ws).eq(1.0));
    }
    let pos_all: f64 = sums.iter().map(|s| s.pos).sum::<f64>() / total;
    let neg_all = 1.0 - pos_all;
    for (k, term) in terms.iter().enumerate() {
        // Rate of group s as (numerator expression) / denominator, and on all rows.
        let group_rate = |s: usize| -> Option<(Expression, f64)> {
            let share = sums[s].n / total;
            let pos = sums[s].pos / total;
            let neg = sums[s].neg() / total;
            match term.rate {
                HardRate::Selection => Some((tp[s].clone() + fp[s].clone(), share)),
                HardRate::TruePositive => (pos > 0.0).then(|| (tp[s].clone(), pos)),
                HardRate::FalsePositive => (neg > 0.0).then(|| (fp[s].clone(), neg)),
                HardRate::Accuracy => Some((tp[s].clone() - fp[s].clone() + neg, share)),
            }
        };
        let overall: Option<(Expression, f64)> = match term.rate {
            HardRate::Selection => Some((sum_all(&tp) + sum_all(&fp), 1.0)),
            HardRate::TruePositive => (pos_all > 0.0).then(|| (sum_all(&tp), pos_all)),
            HardRate::FalsePositive => (neg_all > 0.0).then(|| (sum_all(&fp), neg_all)),
            HardRate::Accuracy => Some((sum_all(&tp) - sum_all(&fp) + neg_all, 1.0)),
        };
        let Some((all_num, all_den)) = overall else {
            continue;
        };
        for s in 0..hulls.len() {
            let Some((num, den)) = group_rate(s) else {
                continue;
            };
            // r_s = num / den; r = all_num / all_den.
            let r_s = num * (1.0 / den);
            let r = all_num.clone() * (1.0 / all_den);
            match bound {
                RateBound::Difference(eps) => {
                    model = model.with(r_s.clone().geq(levels[k]));
                    model = model.with(r_s.leq(levels[k] + eps));
                }
                RateBound::Relative(alpha) => {
                    // |r_s − r| ≤ α·r, or ≤ α·(1 − r) for the complement 1 − r.
                    let scale = if term.complement {
                        (1.0 - r.clone()) * alpha
                    } else {
                        r.clone() * alpha
                    };
                    model = model.with((r_s.clone() - r.clone()).leq(scale.clone()));
                    model = model.with((r - r_s).leq(scale));
                }
            }
        }
    }
    match model.solve() {
        Ok(sol) => Ok(w
            .iter()
            .map(|ws| {
                ws.iter()
                    .map(|v| {
                        let x = sol.value(*v);
                        if x.is_finite() && x > WEIGHT_ZERO {
                            x
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect()),
        Err(ResolutionError::Infeasible) => Err(E::Lp {
            reason: "the threshold program is infeasible (it should not be: predicting nobody \
                     positive in every group meets every bound); please report this input"
                .into(),
        }),
        Err(e) => Err(E::Lp {
            reason: e.to_string(),
        }),
    }
}

fn linear(coefs: impl Iterator<Item = f64>, vars: &[Variable]) -> Expression {
    let mut e = Expression::with_capacity(vars.len());
    for (c, v) in coefs.zip(vars) {
        e.add_mul(c, *v);
    }
    e
}

fn sum_all(parts: &[Expression]) -> Expression {
    let mut e = Expression::with_capacity(parts.len());
    for p in parts {
        e += p.clone();
    }
    e
}

// `Display`/`FromStr` with the rate names of the metrics binding (`selection_rate`, …).
fair_core::string_enum!(HardRate, "hard rate", {
    Selection => "selection_rate",
    TruePositive => "true_positive_rate",
    FalsePositive => "false_positive_rate",
    Accuracy => "accuracy",
});

/// `Display`: `relative(alpha)` or `difference(eps)`, the number in Rust's shortest round-trip
/// form, so `FromStr` gives the same bound back (it parses; the fit validates). `difference` is
/// the bound the Python binding's `difference_bound` argument sets.
impl std::fmt::Display for RateBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            RateBound::Relative(a) => write!(f, "relative({a})"),
            RateBound::Difference(e) => write!(f, "difference({e})"),
        }
    }
}

impl std::str::FromStr for RateBound {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the name and the number).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || {
            fair_core::ParseEnumError::new("rate bound", s, &["relative(alpha)", "difference(eps)"])
        };
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let value = match args.as_slice() {
            &[v] => v.parse::<f64>().map_err(|_| error())?,
            _ => return Err(error()),
        };
        match name {
            "relative" => Ok(RateBound::Relative(value)),
            "difference" => Ok(RateBound::Difference(value)),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(labels: &[&str]) -> Groups {
        Groups::from_labels(labels)
    }

    #[test]
    fn hull_keeps_the_corners_and_drops_interior_points() {
        let pts: Vec<Cut> = [(0.0, 0.0), (0.0, 1.0), (1.0, 1.5), (1.0, 2.0), (2.0, 2.0)]
            .iter()
            .map(|&(fp, tp)| Cut {
                threshold: tp,
                tp,
                fp,
            })
            .collect();
        let h = convex_hull(&pts);
        let corners: Vec<(f64, f64)> = h.iter().map(|c| (c.fp, c.tp)).collect();
        assert!(corners.contains(&(0.0, 0.0)));
        assert!(corners.contains(&(0.0, 1.0)));
        assert!(corners.contains(&(1.0, 2.0)));
        assert!(corners.contains(&(2.0, 2.0)));
        assert!(!corners.contains(&(1.0, 1.5)));
    }

    /// Hand-computed: two groups of four; group "a" is separable at 0.7, group "b" has its
    /// positives at 0.5 and 0.45. Demographic parity with difference 0: both groups select
    /// exactly half, which the thresholds 0.7 and 0.45 achieve with accuracy 1.
    #[test]
    fn demographic_parity_hand_case() {
        let scores = [0.9, 0.8, 0.6, 0.3, 0.5, 0.45, 0.2, 0.1];
        let labels = [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        let g = groups(&["a", "a", "a", "a", "b", "b", "b", "b"]);
        let terms = RateTerm::for_constraint(Constraint::StatisticalParity);
        let rule =
            GroupThresholds::fit(&scores, &labels, &g, &terms, RateBound::Difference(0.0)).unwrap();
        assert!((rule.fitted_accuracy() - 1.0).abs() < 1e-9);
        let q = rule.positive_probability(&scores, &g).unwrap();
        let expect = [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        for (a, b) in q.iter().zip(expect) {
            assert!((a - b).abs() < 1e-9, "{q:?}");
        }
    }

    /// Hand-computed: group "a" has base rate 1/2 and a perfect score, group "b" base rate 1/4.
    /// Exact parity forces a common selection rate r; accuracy is maximal at r = 1/4 or 1/2 …
    /// here: selecting r in a costs |r − 1/2|·4 errors, in b |r − 1/4|·4; the sum is minimal
    /// (1 error out of 8) anywhere in [1/4, 1/2], so accuracy 7/8.
    #[test]
    fn parity_costs_what_it_must() {
        let scores = [0.9, 0.8, 0.2, 0.1, 0.9, 0.3, 0.2, 0.1];
        let labels = [1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let g = groups(&["a", "a", "a", "a", "b", "b", "b", "b"]);
        let terms = [RateTerm::plain(HardRate::Selection)];
        let rule =
            GroupThresholds::fit(&scores, &labels, &g, &terms, RateBound::Difference(0.0)).unwrap();
        assert!((rule.fitted_accuracy() - 7.0 / 8.0).abs() < 1e-9);
        let r = &rule.fitted_rates().selection;
        assert!((r[0] - r[1]).abs() < 1e-9);
        // Loose enough, the bound does not bind: the unconstrained optimum (accuracy 1).
        let free =
            GroupThresholds::fit(&scores, &labels, &g, &terms, RateBound::Difference(1.0)).unwrap();
        assert!((free.fitted_accuracy() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn equalized_odds_rates_meet_the_bound() {
        let scores = [0.9, 0.7, 0.6, 0.4, 0.3, 0.8, 0.5, 0.35, 0.2, 0.1];
        let labels = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0];
        let g = groups(&["a", "a", "a", "a", "a", "b", "b", "b", "b", "b"]);
        let terms = RateTerm::for_constraint(Constraint::EqualizedOdds);
        for eps in [0.0, 0.05, 0.2] {
            let rule =
                GroupThresholds::fit(&scores, &labels, &g, &terms, RateBound::Difference(eps))
                    .unwrap();
            let r = rule.fitted_rates();
            assert!((r.true_positive[0] - r.true_positive[1]).abs() <= eps + 1e-9);
            assert!((r.false_positive[0] - r.false_positive[1]).abs() <= eps + 1e-9);
            // The rates the rule reports are the ones its probabilities give.
            let q = rule.positive_probability(&scores, &g).unwrap();
            let tpr_a: f64 = [0, 1, 3].iter().map(|&i| q[i]).sum::<f64>() / 3.0;
            assert!((tpr_a - r.true_positive[0]).abs() < 1e-9);
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let g = groups(&["a", "b"]);
        let t = [RateTerm::plain(HardRate::Selection)];
        let d = RateBound::Difference(0.1);
        assert!(matches!(
            GroupThresholds::fit(&[], &[], &groups(&[]), &t, d),
            Err(E::Empty { .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(&[0.1, f64::NAN], &[0.0, 1.0], &g, &t, d),
            Err(E::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(&[0.1, 0.2], &[0.0, 2.0], &g, &t, d),
            Err(E::InvalidParameter { .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(&[0.1, 0.2], &[0.0], &g, &t, d),
            Err(E::LengthMismatch { .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(
                &[0.1, 0.2],
                &[0.0, 1.0],
                &g,
                &t,
                RateBound::Difference(-1.0)
            ),
            Err(E::InvalidParameter { .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(&[0.1, 0.2], &[0.0, 1.0], &groups(&["a", "a"]), &t, d),
            Err(E::TooFewGroups { .. })
        ));
        assert!(matches!(
            GroupThresholds::fit(&[0.1, 0.2], &[0.0, 1.0], &g, &[], d),
            Err(E::Empty { .. })
        ));
        let rule = GroupThresholds::fit(&[0.1, 0.2], &[0.0, 1.0], &g, &t, d).unwrap();
        assert!(matches!(
            rule.positive_probability(&[0.1, 0.2, 0.3], &groups(&["a", "b", "c"])),
            Err(E::GroupMismatch { .. })
        ));
        assert!(GroupThresholds::from_bytes(b"nonsense").is_err());
        let bytes = rule.to_bytes();
        assert!(GroupThresholds::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        // (NaN rates: compare the bytes, not the values.)
        assert_eq!(
            GroupThresholds::from_bytes(&bytes).unwrap().to_bytes(),
            bytes
        );
    }
}
