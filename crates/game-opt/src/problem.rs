//! The problem: examples plus rate constraints, compiled into per-row linear forms.

use crate::error::{GameOptError, Result};
use crate::model::{Model, Row};
use crate::rates::{Atom, Constraint, Filter, Prediction, Subset};
use fair_data::{Dataset, Groups};
use nalgebra::DMatrix;
use std::collections::BTreeMap;

/// Rows to learn from or evaluate on: features, binary labels, sensitive attributes, named masks
/// and (optionally) a baseline model's predictions.
///
/// Features are stored row-major (each row contiguous), labels as `y ∈ {0, 1}` with 1 positive.
///
/// # Examples
/// ```
/// use game_opt::Examples;
/// use fair_data::Groups;
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(4, 1, &[-1.0, -0.5, 0.5, 1.0]);
/// let ex = Examples::new(&x, &[0, 0, 1, 1])?
///     .with_attribute("g", Groups::from_labels(&["a", "b", "a", "b"]))?
///     .with_baseline(&[0, 1, 1, 1])?;
/// assert_eq!((ex.n_rows(), ex.n_features()), (4, 1));
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Examples {
    x: Vec<f64>,
    /// The same features in compressed sparse rows (non-zeros only, in column order): scoring
    /// and gradients touch ~13 of Adult's 122 one-hot columns instead of all of them.
    nz_ptr: Vec<usize>,
    nz_col: Vec<u32>,
    nz_val: Vec<f64>,
    n: usize,
    d: usize,
    y: Vec<bool>,
    attributes: Vec<(String, Groups)>,
    masks: Vec<(String, Vec<bool>)>,
    baseline: Option<Vec<bool>>,
    /// Row weights rescaled to mean 1 (`None`: every row counts once).
    weights: Option<Vec<f64>>,
}

/// Compressed sparse rows of a row-major `n × d` matrix (`d` must fit in `u32`, as any
/// feature count here does).
fn compress_rows(data: &[f64], n: usize, d: usize) -> (Vec<usize>, Vec<u32>, Vec<f64>) {
    let mut ptr = Vec::with_capacity(n + 1);
    let (mut cols, mut vals) = (Vec::new(), Vec::new());
    ptr.push(0);
    for i in 0..n {
        for (j, &v) in data[i * d..(i + 1) * d].iter().enumerate() {
            if v != 0.0 {
                cols.push(u32::try_from(j).unwrap_or(u32::MAX));
                vals.push(v);
            }
        }
        ptr.push(cols.len());
    }
    (ptr, cols, vals)
}

impl Examples {
    /// Features (`n × d`) and labels (0/1).
    ///
    /// # Errors
    /// [`GameOptError::Empty`] for no rows, [`GameOptError::LengthMismatch`] when `y` does not
    /// have one label per row, [`GameOptError::NonBinaryLabel`], [`GameOptError::NonFinite`].
    pub fn new(x: &DMatrix<f64>, y: &[usize]) -> Result<Self> {
        let (n, d) = x.shape();
        if n == 0 {
            return Err(GameOptError::Empty { what: "examples" });
        }
        if y.len() != n {
            return Err(GameOptError::LengthMismatch {
                what: "labels",
                expected: n,
                got: y.len(),
            });
        }
        if let Some((row, &label)) = y.iter().enumerate().find(|(_, l)| **l > 1) {
            return Err(GameOptError::NonBinaryLabel { row, label });
        }
        let mut data = Vec::with_capacity(n * d);
        for i in 0..n {
            for j in 0..d {
                let v = x[(i, j)];
                if !v.is_finite() {
                    return Err(GameOptError::NonFinite {
                        what: "features",
                        index: i * d + j,
                        value: v,
                    });
                }
                data.push(v);
            }
        }
        let (nz_ptr, nz_col, nz_val) = compress_rows(&data, n, d);
        Ok(Self {
            x: data,
            nz_ptr,
            nz_col,
            nz_val,
            n,
            d,
            y: y.iter().map(|&l| l == 1).collect(),
            attributes: Vec::new(),
            masks: Vec::new(),
            baseline: None,
            weights: None,
        })
    }

    /// From a binary [`Dataset`] (class 1 positive), with all its sensitive attributes.
    ///
    /// # Errors
    /// [`GameOptError::InvalidParam`] when the dataset has more than two classes; as
    /// [`Examples::new`].
    pub fn from_dataset(data: &Dataset) -> Result<Self> {
        if data.n_classes() != 2 {
            return Err(GameOptError::InvalidParam {
                name: "dataset classes",
                value: data.n_classes().to_string(),
                expected: "a binary dataset (2 classes, class 1 positive)",
            });
        }
        let mut ex = Self::new(data.x(), data.y())?;
        for attr in data.sensitive() {
            ex = ex.with_attribute(&attr.name, attr.groups.clone())?;
        }
        Ok(ex)
    }

    /// Adds (or replaces) a sensitive attribute.
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`] unless it has one group per row.
    pub fn with_attribute(mut self, name: &str, groups: Groups) -> Result<Self> {
        if groups.len() != self.n {
            return Err(GameOptError::LengthMismatch {
                what: "sensitive attribute",
                expected: self.n,
                got: groups.len(),
            });
        }
        self.attributes.retain(|(a, _)| a != name);
        self.attributes.push((name.to_string(), groups));
        Ok(self)
    }

    /// Adds (or replaces) a named row mask, usable in subsets as [`Subset::mask`].
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`] unless it has one entry per row.
    pub fn with_mask(mut self, name: &str, mask: Vec<bool>) -> Result<Self> {
        if mask.len() != self.n {
            return Err(GameOptError::LengthMismatch {
                what: "mask",
                expected: self.n,
                got: mask.len(),
            });
        }
        self.masks.retain(|(a, _)| a != name);
        self.masks.push((name.to_string(), mask));
        Ok(self)
    }

    /// Sets the baseline model's predictions `h` (0/1), needed by churn, win and loss rates.
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`], [`GameOptError::NonBinaryLabel`].
    pub fn with_baseline(mut self, predictions: &[usize]) -> Result<Self> {
        if predictions.len() != self.n {
            return Err(GameOptError::LengthMismatch {
                what: "baseline predictions",
                expected: self.n,
                got: predictions.len(),
            });
        }
        if let Some((row, &label)) = predictions.iter().enumerate().find(|(_, l)| **l > 1) {
            return Err(GameOptError::NonBinaryLabel { row, label });
        }
        self.baseline = Some(predictions.iter().map(|&p| p == 1).collect());
        Ok(self)
    }

    /// Weights the rows (scikit-learn's `sample_weight`): the error and every rate count row `r`
    /// `weights[r]` times. Stored rescaled to mean 1 (only ratios matter). Rates of a subset with
    /// zero total weight are undefined ([`GameOptError::EmptySubset`] when compiled).
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`]; [`GameOptError::NonFinite`] for a negative, NaN or
    /// infinite weight; [`GameOptError::InvalidParam`] when all weights are 0.
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Examples, Problem};
    /// use nalgebra::DMatrix;
    /// let x = DMatrix::from_row_slice(4, 1, &[-1.0, -0.5, 0.5, 1.0]);
    /// let ex = Examples::new(&x, &[0, 1, 0, 1])?.with_weights(&[3.0, 1.0, 1.0, 3.0])?;
    /// let p = Problem::unconstrained(ex)?;
    /// // Rows 1 and 2 are wrong: weight 2 of 8.
    /// assert!((p.evaluate_scores(&[-1.0, -1.0, 1.0, 1.0])?.error - 0.25).abs() < 1e-12);
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    pub fn with_weights(mut self, weights: &[f64]) -> Result<Self> {
        if weights.len() != self.n {
            return Err(GameOptError::LengthMismatch {
                what: "row weights",
                expected: self.n,
                got: weights.len(),
            });
        }
        if let Some((index, &value)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
        {
            return Err(GameOptError::NonFinite {
                what: "row weights (finite and >= 0 expected)",
                index,
                value,
            });
        }
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(GameOptError::InvalidParam {
                name: "row weights",
                value: total.to_string(),
                expected: "a positive, finite total",
            });
        }
        let scale = self.n as f64 / total;
        self.weights = Some(weights.iter().map(|w| w * scale).collect());
        Ok(self)
    }

    /// The row weights (rescaled to mean 1), if set.
    pub fn weights(&self) -> Option<&[f64]> {
        self.weights.as_deref()
    }

    /// Weight of row `r` (1 without weights).
    #[inline]
    pub(crate) fn weight(&self, r: usize) -> f64 {
        self.weights.as_ref().map_or(1.0, |w| w[r])
    }

    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.n
    }
    /// Number of features.
    pub fn n_features(&self) -> usize {
        self.d
    }
    /// Row `i`'s features (`None` when `i ≥ n_rows()`).
    pub fn row(&self, i: usize) -> Option<&[f64]> {
        (i < self.n).then(|| self.row_at(i))
    }
    #[inline]
    pub(crate) fn row_at(&self, i: usize) -> &[f64] {
        &self.x[i * self.d..(i + 1) * self.d]
    }
    /// Row `i` as dense features plus its non-zeros.
    #[inline]
    pub(crate) fn row_view(&self, i: usize) -> Row<'_> {
        let (lo, hi) = (self.nz_ptr[i], self.nz_ptr[i + 1]);
        Row {
            dense: self.row_at(i),
            cols: &self.nz_col[lo..hi],
            vals: &self.nz_val[lo..hi],
        }
    }
    /// Labels (`true` = positive).
    pub fn labels(&self) -> &[bool] {
        &self.y
    }
    /// Labels as class indices 0/1.
    pub fn label_indices(&self) -> Vec<usize> {
        self.y.iter().map(|&b| usize::from(b)).collect()
    }
    /// The baseline's predictions, if set.
    pub fn baseline(&self) -> Option<&[bool]> {
        self.baseline.as_deref()
    }
    /// A sensitive attribute's groups.
    ///
    /// # Errors
    /// [`GameOptError::UnknownAttribute`].
    pub fn attribute(&self, name: &str) -> Result<&Groups> {
        self.attributes
            .iter()
            .find(|(a, _)| a == name)
            .map(|(_, g)| g)
            .ok_or_else(|| GameOptError::UnknownAttribute {
                attribute: name.into(),
                available: self.attributes.iter().map(|(a, _)| a.clone()).collect(),
            })
    }

    /// Scores of every row under `model`.
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`] when the model's input size differs.
    pub fn scores<M: Model>(&self, model: &M) -> Result<Vec<f64>> {
        check_model(model, self.d)?;
        Ok((0..self.n)
            .map(|i| model.score_row(self.row_view(i)))
            .collect())
    }

    /// The membership mask of a subset.
    ///
    /// # Errors
    /// Unknown attribute, group or mask; [`GameOptError::MissingBaseline`] (constraint index
    /// `constraint`) for baseline filters without a baseline.
    pub fn resolve(&self, subset: &Subset, constraint: usize) -> Result<Vec<bool>> {
        let mut mask = vec![true; self.n];
        for f in subset.filters() {
            match f {
                Filter::Group { attribute, group } => {
                    let g = self.attribute(attribute)?;
                    let code = g.names().iter().position(|nm| nm == group).ok_or_else(|| {
                        GameOptError::UnknownGroup {
                            attribute: attribute.clone(),
                            group: group.clone(),
                            available: g.names().to_vec(),
                        }
                    })?;
                    for (m, &c) in mask.iter_mut().zip(g.codes()) {
                        *m &= c == code;
                    }
                }
                Filter::Label(b) => {
                    for (m, &y) in mask.iter_mut().zip(&self.y) {
                        *m &= y == *b;
                    }
                }
                Filter::Baseline(b) => {
                    let h = self
                        .baseline
                        .as_ref()
                        .ok_or(GameOptError::MissingBaseline { constraint })?;
                    for (m, &hv) in mask.iter_mut().zip(h) {
                        *m &= hv == *b;
                    }
                }
                Filter::BaselineCorrect(b) => {
                    let h = self
                        .baseline
                        .as_ref()
                        .ok_or(GameOptError::MissingBaseline { constraint })?;
                    for ((m, &hv), &y) in mask.iter_mut().zip(h).zip(&self.y) {
                        *m &= (hv == y) == *b;
                    }
                }
                Filter::Mask(name) => {
                    let mk = self
                        .masks
                        .iter()
                        .find(|(a, _)| a == name)
                        .map(|(_, m)| m)
                        .ok_or_else(|| GameOptError::UnknownMask {
                            name: name.clone(),
                            available: self.masks.iter().map(|(a, _)| a.clone()).collect(),
                        })?;
                    for (m, &v) in mask.iter_mut().zip(mk) {
                        *m &= v;
                    }
                }
            }
        }
        Ok(mask)
    }
}

pub(crate) fn check_model<M: Model>(model: &M, d: usize) -> Result<()> {
    if model.n_inputs() != d {
        return Err(GameOptError::FeatureMismatch {
            expected: model.n_inputs(),
            got: d,
        });
    }
    Ok(())
}

/// A game's starting model: `d` inputs and finite parameters (every game checks this first).
pub(crate) fn check_start<M: Model>(model: &M, d: usize) -> Result<()> {
    check_model(model, d)?;
    if let Some((index, &value)) = model
        .parameters()
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_finite())
    {
        return Err(GameOptError::NonFinite {
            what: "initial model parameters",
            index,
            value,
        });
    }
    Ok(())
}

/// Exact 0-1 values of the objective (error rate) and of every constraint `gᵢ` at one model, or
/// their expectation under a stochastic classifier.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// 0-1 error rate on all rows.
    pub error: f64,
    /// Constraint values `gᵢ` (violated when positive).
    pub constraints: Vec<f64>,
}

impl Evaluation {
    /// `maxᵢ gᵢ` (the paper's "Vio."); `-∞` without constraints.
    pub fn max_violation(&self) -> f64 {
        self.constraints
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// `maxᵢ gᵢ`, or 0 without constraints (for tables).
    pub fn max_violation_or_zero(&self) -> f64 {
        if self.constraints.is_empty() {
            0.0
        } else {
            self.max_violation()
        }
    }

    /// The expectation `Σₜ pₜ·evalₜ` of a mixture (rates are linear in the mixture weights).
    ///
    /// # Errors
    /// [`GameOptError::NoCandidates`] for an empty mixture, [`GameOptError::LengthMismatch`] when
    /// the evaluations have different constraint counts.
    pub fn mix(parts: &[(f64, &Evaluation)]) -> Result<Evaluation> {
        let first = parts
            .first()
            .ok_or(GameOptError::NoCandidates { what: "a mixture" })?;
        let m = first.1.constraints.len();
        let mut out = Evaluation {
            error: 0.0,
            constraints: vec![0.0; m],
        };
        for (w, e) in parts {
            if e.constraints.len() != m {
                return Err(GameOptError::LengthMismatch {
                    what: "constraint values",
                    expected: m,
                    got: e.constraints.len(),
                });
            }
            out.error += w * e.error;
            for (o, c) in out.constraints.iter_mut().zip(&e.constraints) {
                *o += w * c;
            }
        }
        Ok(out)
    }
}

/// A rate-constrained learning problem: examples plus constraints `gᵢ ≤ 0`, compiled.
///
/// Every constraint is compiled into per-row coefficients `(aᵣᵢ, bᵣᵢ)` and a constant `cᵢ` with
///
/// ```text
/// gᵢ(θ) = cᵢ + Σᵣ aᵣᵢ·I[f(xᵣ) ≥ 0] + bᵣᵢ·I[f(xᵣ) < 0]
/// ```
///
/// (denominators counted on these examples). The hinge proxy `g̃ᵢ ≥ gᵢ` first moves
/// `min(a, b)` into the constant (using `I⁺ + I⁻ = 1`, so both remaining coefficients are
/// non-negative, whatever the signs), then bounds `I[f ≥ 0] ≤ max(0, 1 + f/μ)` and
/// `I[f < 0] ≤ max(0, 1 − f/μ)` with margin `μ` — TFCO's `HingeLoss` for `μ = 1`.
///
/// The objective `g₀` is the 0-1 error rate; the θ-player trains on a surrogate
/// ([`ObjectiveLoss`](crate::ObjectiveLoss)).
///
/// # Examples
/// ```
/// use game_opt::{Examples, Problem, Rate, Subset};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(4, 1, &[-1.0, -0.5, 0.5, 1.0]);
/// let ex = Examples::new(&x, &[0, 1, 0, 1])?;
/// let recall = Rate::TruePositive(Subset::all()).expr().ge(0.75);
/// let problem = Problem::new(ex, vec![recall])?;
/// // Scores: rows 2 and 3 positive. Error 2/4; recall 1/2, so g = 0.75 − 0.5.
/// let e = problem.evaluate_scores(&[-1.0, -1.0, 1.0, 1.0])?;
/// assert!((e.error - 0.5).abs() < 1e-12);
/// assert!((e.constraints[0] - 0.25).abs() < 1e-12);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Problem {
    examples: Examples,
    constraints: Vec<Constraint>,
    m: usize,
    /// Row-major `n × m`.
    pos: Vec<f64>,
    neg: Vec<f64>,
    constant: Vec<f64>,
    /// Rows with a non-zero coefficient in some constraint.
    active: Vec<bool>,
}

impl Problem {
    /// Compiles the constraints on the examples and checks them.
    ///
    /// # Errors
    /// [`GameOptError::SingleClass`] when the labels have one class only; unknown attributes,
    /// groups or masks; [`GameOptError::MissingBaseline`]; [`GameOptError::EmptySubset`] for a
    /// denominator subset without rows; [`GameOptError::NonFinite`] for a non-finite coefficient;
    /// [`GameOptError::Contradictory`] when no per-row randomized prediction satisfies all
    /// constraints (checked exactly by an LP over the rows' distinct coefficient patterns, when
    /// there are at most 4,096 of them).
    pub fn new(examples: Examples, constraints: Vec<Constraint>) -> Result<Self> {
        let p = Self::compile(examples, constraints)?;
        p.check_consistent()?;
        Ok(p)
    }

    /// A problem without constraints (the "Unconstrained" baseline).
    ///
    /// # Errors
    /// [`GameOptError::SingleClass`].
    pub fn unconstrained(examples: Examples) -> Result<Self> {
        Self::new(examples, Vec::new())
    }

    /// The same constraints compiled on other examples (a validation or test split).
    /// The contradiction check is skipped: constraints are only evaluated there.
    ///
    /// # Errors
    /// As [`Problem::new`], except [`GameOptError::Contradictory`].
    pub fn on(&self, examples: Examples) -> Result<Self> {
        Self::compile(examples, self.constraints.clone())
    }

    /// Compiles constraints for evaluation only, without the contradiction check (a constraint
    /// set that no classifier satisfies can still be measured).
    ///
    /// # Errors
    /// As [`Problem::new`], except [`GameOptError::Contradictory`].
    pub fn for_evaluation(examples: Examples, constraints: Vec<Constraint>) -> Result<Self> {
        Self::compile(examples, constraints)
    }

    fn compile(examples: Examples, constraints: Vec<Constraint>) -> Result<Self> {
        let n = examples.n;
        let n_pos = examples.y.iter().filter(|&&b| b).count();
        if n_pos == 0 || n_pos == n {
            return Err(GameOptError::SingleClass {
                class: usize::from(n_pos == n),
                count: n,
            });
        }
        let m = constraints.len();
        let mut pos = vec![0.0; n * m];
        let mut neg = vec![0.0; n * m];
        let mut constant = vec![0.0; m];
        for (k, c) in constraints.iter().enumerate() {
            let e = c.expression();
            if !e.constant().is_finite() {
                return Err(GameOptError::NonFinite {
                    what: "constraint constant",
                    index: k,
                    value: e.constant(),
                });
            }
            constant[k] += e.constant();
            for (coef, atom) in e.terms() {
                if !coef.is_finite() {
                    return Err(GameOptError::NonFinite {
                        what: "constraint coefficient",
                        index: k,
                        value: *coef,
                    });
                }
                let (on, per) = match atom {
                    Atom::Predicted { on, per, .. } | Atom::Fraction { on, per } => (on, per),
                };
                let per_mask = examples.resolve(per, k)?;
                // Weighted size (the plain count without weights: a sum of exact 1.0s).
                let size: f64 = per_mask
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b)
                    .map(|(r, _)| examples.weight(r))
                    .sum();
                if size <= 0.0 {
                    return Err(GameOptError::EmptySubset {
                        constraint: k,
                        subset: per.describe(),
                    });
                }
                let on_mask = examples.resolve(on, k)?;
                let w = coef / size;
                match atom {
                    Atom::Fraction { .. } => {
                        let count: f64 = on_mask
                            .iter()
                            .enumerate()
                            .filter(|(_, b)| **b)
                            .map(|(r, _)| examples.weight(r))
                            .sum();
                        constant[k] += w * count;
                    }
                    Atom::Predicted { prediction, .. } => {
                        let target = if *prediction == Prediction::Positive {
                            &mut pos
                        } else {
                            &mut neg
                        };
                        for (r, _) in on_mask.iter().enumerate().filter(|(_, b)| **b) {
                            target[r * m + k] += w * examples.weight(r);
                        }
                    }
                }
            }
        }
        // Finite coefficients can still sum past f64::MAX (a coefficient of 1e308 summed over
        // the rows, found by the `rate_constraints` fuzz target): bound every constraint's value
        // by |constant| + Σ_rows max(|pos|, |neg|). The bound is kept below 1e150, not just
        // finite: the LP solver (consistency check, shrinking) squares coefficients, and
        // microlp asserts on an infinite squared norm (also found by the fuzz target).
        const MAX_MAGNITUDE: f64 = 1e150;
        let bound = |k: usize| {
            (0..n).fold(constant[k].abs(), |acc, r| {
                acc + pos[r * m + k].abs().max(neg[r * m + k].abs())
            })
        };
        if let Some((k, v)) = (0..m)
            .map(|k| (k, bound(k)))
            .find(|(_, v)| v.is_nan() || *v > MAX_MAGNITUDE)
        {
            return Err(GameOptError::InvalidParam {
                name: "constraint coefficients",
                value: format!("constraint {k} reaches {v}"),
                expected: "coefficients whose sums stay below 1e150 (the LP solver squares \
                           them): rescale the constraint (dividing all its coefficients and its \
                           constant by one positive number leaves it unchanged)",
            });
        }
        let active = (0..n)
            .map(|r| (0..m).any(|k| pos[r * m + k] != 0.0 || neg[r * m + k] != 0.0))
            .collect();
        Ok(Self {
            examples,
            constraints,
            m,
            pos,
            neg,
            constant,
            active,
        })
    }

    /// Minimum over per-row randomized predictions `q ∈ [0,1]ⁿ` of the maximum violation.
    fn check_consistent(&self) -> Result<()> {
        const MAX_PATTERNS: usize = 4096;
        const TOL: f64 = 1e-9;
        if self.m == 0 {
            return Ok(());
        }
        let mut patterns: BTreeMap<Vec<u64>, f64> = BTreeMap::new();
        for r in 0..self.examples.n {
            if !self.active[r] {
                continue;
            }
            let key: Vec<u64> = (0..self.m)
                .flat_map(|k| {
                    [
                        self.pos[r * self.m + k].to_bits(),
                        self.neg[r * self.m + k].to_bits(),
                    ]
                })
                .collect();
            *patterns.entry(key).or_insert(0.0) += 1.0;
            if patterns.len() > MAX_PATTERNS {
                return Ok(());
            }
        }
        let cells: Vec<(Vec<f64>, f64)> = patterns
            .into_iter()
            .map(|(k, c)| (k.into_iter().map(f64::from_bits).collect(), c))
            .collect();
        let min_violation = crate::shrink::min_max_violation_cells(&cells, &self.constant, self.m)?;
        if min_violation > TOL {
            return Err(GameOptError::Contradictory { min_violation });
        }
        Ok(())
    }

    /// The examples.
    pub fn examples(&self) -> &Examples {
        &self.examples
    }
    /// The constraints as given.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    /// Number of constraints `m`.
    pub fn n_constraints(&self) -> usize {
        self.m
    }
    /// Compiled coefficients of row `r`: `(a, b)` slices of length `m`.
    pub(crate) fn coefficients(&self, r: usize) -> (&[f64], &[f64]) {
        (
            &self.pos[r * self.m..(r + 1) * self.m],
            &self.neg[r * self.m..(r + 1) * self.m],
        )
    }
    pub(crate) fn constants(&self) -> &[f64] {
        &self.constant
    }
    pub(crate) fn is_active(&self, r: usize) -> bool {
        self.active[r]
    }

    /// Exact 0-1 error and constraint values at the given scores (positive iff score ≥ 0).
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`], [`GameOptError::NonFinite`] for a NaN score.
    pub fn evaluate_scores(&self, scores: &[f64]) -> Result<Evaluation> {
        self.check_scores(scores)?;
        let n = self.examples.n;
        let mut wrong = 0.0;
        let mut g = self.constant.clone();
        for (r, &f) in scores.iter().enumerate() {
            let positive = f >= 0.0;
            if positive != self.examples.y[r] {
                wrong += self.examples.weight(r);
            }
            if self.active[r] {
                let (a, b) = self.coefficients(r);
                for k in 0..self.m {
                    g[k] += if positive { a[k] } else { b[k] };
                }
            }
        }
        Ok(Evaluation {
            error: wrong / n as f64,
            constraints: g,
        })
    }

    /// Hinge proxies `g̃ᵢ` (margin `μ > 0`) at the given scores; `g̃ᵢ ≥ gᵢ` always.
    ///
    /// # Errors
    /// As [`Problem::evaluate_scores`]; [`GameOptError::InvalidParam`] for `μ ≤ 0`.
    pub fn proxy_constraints(&self, scores: &[f64], margin: f64) -> Result<Vec<f64>> {
        self.check_scores(scores)?;
        check_margin(margin)?;
        let mut g = self.constant.clone();
        for (r, &f) in scores.iter().enumerate() {
            if self.active[r] {
                let (a, b) = self.coefficients(r);
                for k in 0..self.m {
                    g[k] += hinge_term(a[k], b[k], f, margin).0;
                }
            }
        }
        // |f| / margin overflows for a tiny margin (1e-321 was found by the `rate_constraints`
        // fuzz target): a typed error instead of an infinite proxy.
        if g.iter().any(|v| !v.is_finite()) {
            return Err(GameOptError::InvalidParam {
                name: "hinge_margin",
                value: margin.to_string(),
                expected: "a margin large enough that |score| / margin stays finite",
            });
        }
        Ok(g)
    }

    /// Exact evaluation of one deterministic model.
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`]; non-finite scores.
    pub fn evaluate<M: Model>(&self, model: &M) -> Result<Evaluation> {
        let s = self.examples.scores(model)?;
        self.evaluate_scores(&s)
    }

    fn check_scores(&self, scores: &[f64]) -> Result<()> {
        if scores.len() != self.examples.n {
            return Err(GameOptError::LengthMismatch {
                what: "scores",
                expected: self.examples.n,
                got: scores.len(),
            });
        }
        if let Some((index, &value)) = scores.iter().enumerate().find(|(_, v)| v.is_nan()) {
            return Err(GameOptError::NonFinite {
                what: "scores",
                index,
                value,
            });
        }
        Ok(())
    }
}

pub(crate) fn check_margin(margin: f64) -> Result<()> {
    if !(margin.is_finite() && margin > 0.0) {
        return Err(GameOptError::InvalidParam {
            name: "hinge_margin",
            value: margin.to_string(),
            expected: "a finite margin > 0",
        });
    }
    Ok(())
}

/// Hinge upper bound of `a·I[f ≥ 0] + b·I[f < 0]` and its derivative in `f`.
///
/// ```text
/// m = min(a, b);  a·I⁺ + b·I⁻ = m + (a−m)·I⁺ + (b−m)·I⁻
///              ≤ m + (a−m)·max(0, 1 + f/μ) + (b−m)·max(0, 1 − f/μ)
/// ```
#[inline]
pub(crate) fn hinge_term(a: f64, b: f64, f: f64, margin: f64) -> (f64, f64) {
    let m = a.min(b);
    let (ap, bp) = (a - m, b - m);
    let up = 1.0 + f / margin;
    let down = 1.0 - f / margin;
    let mut value = m;
    let mut deriv = 0.0;
    if ap > 0.0 && up > 0.0 {
        value += ap * up;
        deriv += ap / margin;
    }
    if bp > 0.0 && down > 0.0 {
        value += bp * down;
        deriv -= bp / margin;
    }
    (value, deriv)
}
