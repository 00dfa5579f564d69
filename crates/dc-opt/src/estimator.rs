//! The partial-parity classifier as one estimator: settings → checked settings → fit → fitted
//! model, in the style of the other method crates (`game-opt`, `info-projection`) and linfa.
//!
//! [`PartialParity::params`] takes the fairness model ([`PartialConstraint`]), the percentile
//! interval, κ, the surrogate and IDCA's budget; [`PartialParityValidParams::fit`] takes plain
//! data (a dense feature matrix, 0/1 labels and [`Groups`]), builds the cross-term data and the
//! DC problem, runs IDCA from the problem's feasible start and returns a [`PartialParity`]: the
//! fitted [`CrossModel`] (weights and group names, saved as the crate's `FKDC` bytes) and the
//! solver's [`FitReport`] with its [`Termination`].

use crate::data::{CrossData, SparseRows};
use crate::error::{DcOptError, Result, check_len};
use crate::idca::Idca;
use crate::models::{DpVariant, PartialDp, PartialSp, percentile_grid};
use crate::observer::{FitReport, IterInfo};
use crate::params::Surrogate;
use crate::saved::CrossModel;
use fair_core::{NoObserver, Observe, Termination};
use fair_data::Groups;
use fair_metrics::partial::PercentileInterval;
use nalgebra::DMatrix;

/// Which fairness model constrains the scores on the percentile interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PartialConstraint {
    /// Partial statistical parity on a grid of percentiles (model (15), [`PartialSp`]): the
    /// groups' score percentiles agree on the interval.
    #[default]
    PercentileParity,
    /// Partial demographic parity (model (21), [`PartialDp`]): the groups' selection rates at
    /// the threshold agree where they fall in the interval.
    DemographicParity,
    /// The same on the positives (model (50)).
    EqualOpportunity,
    /// The same on both classes (model (56)).
    EqualizedOdds,
}

// The shared vocabulary's names (fair-core): "statistical_parity" is the alias of
// "demographic_parity", model (21), as in every estimator; model (15) is "percentile_parity".
fair_core::constraint_subset!(PartialConstraint, "PartialParity", {
    PercentileParity => PercentileParity,
    DemographicParity => DemographicParity,
    EqualOpportunity => EqualOpportunity,
    EqualizedOdds => EqualizedOdds,
});

impl PartialConstraint {
    /// The model (21) variant, `None` for the percentile grid model (15).
    pub fn dp_variant(self) -> Option<DpVariant> {
        match self {
            PartialConstraint::PercentileParity => None,
            PartialConstraint::DemographicParity => Some(DpVariant::DemographicParity),
            PartialConstraint::EqualOpportunity => Some(DpVariant::EqualOpportunity),
            PartialConstraint::EqualizedOdds => Some(DpVariant::EqualizedOdds),
        }
    }
}

/// Settings of the partial-parity classifier, with documented defaults.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `constraint` | `PercentileParity` | enum | the fairness model |
/// | `interval` | `(0.0, 0.5)` | `0 ≤ α < β ≤ 1` | percentile interval `[α, β)` |
/// | `kappa` | 0.05 | `[0, 1]` | tolerance κ of the constraint |
/// | `grid_size` | 10 | ≥ 1 | grid points `Î` (percentile parity only) |
/// | `threshold` | 0.0 | finite | θ̂ of the demographic-parity models |
/// | `surrogate` | `HardSigmoid` | enum | σ ≈ 1\[x > 0\] |
/// | `max_iter` | 40 | ≥ 1 | IDCA outer iterations K |
/// | `max_inner_iter` | 100 | ≥ 1 | inner switching-subgradient iterations T |
/// | `eps` | 1e-3 | > 0, finite | constraint tolerance ε of the inner solver |
/// | `checkpoints` | none | outer iterations | iterates kept by [`PartialParityValidParams::fit_cross`] |
///
/// # Errors
/// [`PartialParityParams::check`] returns [`DcOptError::InvalidParameter`] naming the first bad
/// setting.
///
/// # Examples
/// ```
/// use dc_opt::{PartialConstraint, PartialParity};
/// let p = PartialParity::params()
///     .constraint(PartialConstraint::DemographicParity)
///     .interval(0.2, 0.8)
///     .max_iter(5);
/// assert_eq!(p.clone().check()?.max_iter(), 5);
/// assert!(p.kappa(2.0).check().is_err());
/// assert!(PartialParity::params().interval(0.6, 0.4).check().is_err());
/// # Ok::<(), dc_opt::DcOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PartialParityParams(PartialParityValidParams);

/// Checked settings of the partial-parity classifier; only these can fit. Read-only getters.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialParityValidParams {
    constraint: PartialConstraint,
    interval: (f64, f64),
    kappa: f64,
    grid_size: usize,
    threshold: f64,
    surrogate: Surrogate,
    max_iter: usize,
    max_inner_iter: usize,
    eps: f64,
    checkpoints: Vec<usize>,
}

impl Default for PartialParityParams {
    fn default() -> Self {
        Self(PartialParityValidParams {
            constraint: PartialConstraint::PercentileParity,
            interval: (0.0, 0.5),
            kappa: 0.05,
            grid_size: 10,
            threshold: 0.0,
            surrogate: Surrogate::HardSigmoid,
            max_iter: 40,
            max_inner_iter: 100,
            eps: 1e-3,
            checkpoints: Vec::new(),
        })
    }
}

macro_rules! setter {
    ($(#[$doc:meta])* $name:ident: $t:ty) => {
        $(#[$doc])*
        pub fn $name(mut self, v: $t) -> Self {
            self.0.$name = v;
            self
        }
    };
}

impl PartialParityParams {
    /// The defaults of the table above.
    pub fn new() -> Self {
        Self::default()
    }
    setter!(/// The fairness model.
        constraint: PartialConstraint);
    setter!(/// Tolerance κ.
        kappa: f64);
    setter!(/// Grid points of the percentile-parity model.
        grid_size: usize);
    setter!(/// θ̂ of the demographic-parity models.
        threshold: f64);
    setter!(/// The surrogate σ.
        surrogate: Surrogate);
    setter!(/// IDCA outer iterations K.
        max_iter: usize);
    setter!(/// Inner iterations T per outer iteration.
        max_inner_iter: usize);
    setter!(/// Constraint tolerance ε.
        eps: f64);
    setter!(/// Outer iterations whose iterates [`PartialParityValidParams::fit_cross`] keeps
        /// (model selection by validation, the paper's G.2.2 protocol).
        checkpoints: Vec<usize>);

    /// The percentile interval `[alpha, beta)`.
    pub fn interval(mut self, alpha: f64, beta: f64) -> Self {
        self.0.interval = (alpha, beta);
        self
    }

    /// Validates every setting.
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for the first setting out of range (an invalid interval
    /// is [`DcOptError::Metric`], as `fair_metrics::partial::PercentileInterval` rejects it).
    pub fn check(self) -> Result<PartialParityValidParams> {
        let p = self.0;
        p.percentile_interval()?;
        let bad = |name: &'static str, value: String, expected: &'static str| {
            Err(DcOptError::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if !(0.0..=1.0).contains(&p.kappa) {
            return bad("kappa", p.kappa.to_string(), "a value in [0, 1]");
        }
        if p.grid_size == 0 {
            return bad("grid_size", "0".into(), ">= 1");
        }
        if !p.threshold.is_finite() {
            return bad("threshold", p.threshold.to_string(), "a finite number");
        }
        if p.max_iter == 0 {
            return bad("max_iter", "0".into(), ">= 1");
        }
        if p.max_inner_iter == 0 {
            return bad("max_inner_iter", "0".into(), ">= 1");
        }
        if !(p.eps.is_finite() && p.eps > 0.0) {
            return bad("eps", p.eps.to_string(), "a finite value > 0");
        }
        Ok(p)
    }

    /// Checks the settings and fits (see [`PartialParityValidParams::fit`]).
    ///
    /// # Errors
    /// As [`PartialParityParams::check`] and [`PartialParityValidParams::fit`].
    pub fn fit(self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<PartialParity> {
        self.check()?.fit(x, y, groups)
    }

    /// Checks the settings and fits with an observer (see
    /// [`PartialParityValidParams::fit_with_observer`]).
    ///
    /// # Errors
    /// As [`PartialParityParams::fit`].
    pub fn fit_with_observer<O: Observe<IterInfo> + ?Sized>(
        self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut O,
    ) -> Result<PartialParity> {
        self.check()?.fit_with_observer(x, y, groups, observer)
    }
}

impl fair_core::ParamGuard for PartialParityParams {
    type Checked = PartialParityValidParams;
    type Error = DcOptError;
    fn check_ref(&self) -> Result<PartialParityValidParams> {
        self.clone().check()
    }
}

impl PartialParityValidParams {
    /// The fairness model.
    pub fn constraint(&self) -> PartialConstraint {
        self.constraint
    }
    /// The interval `(α, β)`.
    pub fn interval(&self) -> (f64, f64) {
        self.interval
    }
    /// Tolerance κ.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }
    /// Grid points of the percentile-parity model.
    pub fn grid_size(&self) -> usize {
        self.grid_size
    }
    /// θ̂.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }
    /// The surrogate.
    pub fn surrogate(&self) -> Surrogate {
        self.surrogate
    }
    /// IDCA outer iterations K.
    pub fn max_iter(&self) -> usize {
        self.max_iter
    }
    /// Inner iterations T.
    pub fn max_inner_iter(&self) -> usize {
        self.max_inner_iter
    }
    /// Constraint tolerance ε.
    pub fn eps(&self) -> f64 {
        self.eps
    }
    /// The kept outer iterations.
    pub fn checkpoints(&self) -> &[usize] {
        &self.checkpoints
    }

    fn percentile_interval(&self) -> Result<PercentileInterval> {
        Ok(PercentileInterval::new(self.interval.0, self.interval.1)?)
    }

    /// Fits on dense features `x` (N × d), 0/1 labels `y` and the rows' `groups` (at least two
    /// non-empty groups).
    ///
    /// # Errors
    /// [`DcOptError::NonFinite`] for NaN/∞ features, [`DcOptError::LengthMismatch`] when `y` or
    /// `groups` do not have one entry per row, [`DcOptError::LabelOutOfRange`],
    /// [`DcOptError::TooFewGroups`], [`DcOptError::EmptyGroup`] (e.g. a group without positives
    /// under equal opportunity), [`DcOptError::InfeasibleStart`] when `eps` is below the
    /// violation of the model's start, [`DcOptError::Numerical`] if the iterates break down.
    pub fn fit(&self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<PartialParity> {
        self.fit_with_observer(x, y, groups, &mut NoObserver)
    }

    /// [`fit`](Self::fit), calling `observer` after every outer iteration; its
    /// `ControlFlow::Break` stops the fit, which then ends with [`Termination::Interrupted`]
    /// and the last iterate.
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    pub fn fit_with_observer<O: Observe<IterInfo> + ?Sized>(
        &self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut O,
    ) -> Result<PartialParity> {
        let rows = SparseRows::from_dense(x)?;
        self.fit_sparse_with_observer(&rows, y, groups, observer)
    }

    /// [`fit_with_observer`](Self::fit_with_observer) on sparse rows.
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    pub fn fit_sparse_with_observer<O: Observe<IterInfo> + ?Sized>(
        &self,
        x: &SparseRows,
        y: &[usize],
        groups: &Groups,
        observer: &mut O,
    ) -> Result<PartialParity> {
        let data = CrossData::new(x, y, groups)?;
        let (weights, report) = self.fit_data(&data, observer)?;
        Ok(PartialParity {
            model: CrossModel::new(weights, groups.names().to_vec())?,
            report,
        })
    }

    /// The IDCA settings of this estimator.
    fn idca(&self) -> crate::idca::IdcaParams {
        Idca::params()
            .outer_iters(self.max_iter)
            .inner_iters(self.max_inner_iter)
            .eps(self.eps)
            .checkpoints(self.checkpoints.clone())
    }

    /// The DC problem of the fairness model on prepared data.
    fn problem<'a>(&self, data: &'a CrossData) -> Result<Problem<'a>> {
        let interval = self.percentile_interval()?;
        Ok(match self.constraint.dp_variant() {
            None => {
                let grid = percentile_grid(interval, self.kappa, self.grid_size)?;
                Problem::Sp(PartialSp::new(
                    data,
                    interval,
                    self.kappa,
                    grid,
                    self.surrogate,
                )?)
            }
            Some(variant) => Problem::Dp(PartialDp::new(
                data,
                interval,
                self.kappa,
                self.threshold,
                self.surrogate,
                variant,
            )?),
        })
    }

    /// Builds the DC problem on prepared cross-term data and runs IDCA from its feasible start;
    /// returns the weights `w` (length `2d + 2`) and the report.
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    pub fn fit_data<O: Observe<IterInfo> + ?Sized>(
        &self,
        data: &CrossData,
        observer: &mut O,
    ) -> Result<(Vec<f64>, FitReport)> {
        let fit = self.solve(data, None, observer)?;
        let nw = data.dim().min(fit.x.len());
        Ok((fit.x[..nw].to_vec(), fit.report))
    }

    /// The whole IDCA run on prepared cross-term data, from the model's feasible start or from
    /// `start` (a previous run's last iterate `x`, to continue it): the last iterate, the
    /// iterates at the [`checkpoints`](PartialParityParams::checkpoints) and the report. The
    /// variable `x` may hold auxiliary entries after the weights (percentile parity's `θ`); its
    /// first `data.dim()` entries are `w`. This is what model selection over outer iterations
    /// (the paper's G.2.2 protocol) needs; [`fit`](Self::fit) is the plain estimator.
    ///
    /// # Errors
    /// As [`fit`](Self::fit), and [`DcOptError::InfeasibleStart`] for a `start` that violates a
    /// constraint by more than `eps`.
    pub fn fit_cross(&self, data: &CrossData, start: Option<&[f64]>) -> Result<Idca> {
        self.solve(data, start, &mut NoObserver)
    }

    /// `(f_0(x), max_i f_i(x))` of the fairness model on `data` at a variable `x` of
    /// [`fit_cross`](Self::fit_cross).
    ///
    /// # Errors
    /// As the problem's construction in [`fit`](Self::fit).
    pub fn objective_and_violation(&self, data: &CrossData, x: &[f64]) -> Result<(f64, f64)> {
        Ok(match self.problem(data)? {
            Problem::Sp(p) => crate::problem::objective_and_violation(&p, x),
            Problem::Dp(p) => crate::problem::objective_and_violation(&p, x),
        })
    }

    fn solve<O: Observe<IterInfo> + ?Sized>(
        &self,
        data: &CrossData,
        start: Option<&[f64]>,
        observer: &mut O,
    ) -> Result<Idca> {
        let idca = self.idca();
        match self.problem(data)? {
            Problem::Sp(p) => {
                let x0 = start.map_or_else(|| p.initial_point(), <[f64]>::to_vec);
                idca.fit_with_observer(&p, &x0, observer)
            }
            Problem::Dp(p) => {
                let x0 = start.map_or_else(|| p.initial_point(), <[f64]>::to_vec);
                idca.fit_with_observer(&p, &x0, observer)
            }
        }
    }
}

/// The DC problem of one fairness model.
enum Problem<'a> {
    Sp(PartialSp<'a>),
    Dp(PartialDp<'a>),
}

/// A fitted partial-parity classifier: the cross-term model `h_w(ξ, γ) = ⟨w, (1, ξ, γ, γξ)⟩`
/// (`γ` = group code + 1) and the report of its fit.
///
/// # Examples
/// ```
/// use dc_opt::{CrossModel, PartialConstraint, PartialParity, Termination};
/// use fair_data::Groups;
/// use nalgebra::DMatrix;
/// // 40 rows, one feature; the label follows the feature, shifted in group "b".
/// let n = 40;
/// let x = DMatrix::from_fn(n, 1, |i, _| (i % 20) as f64 / 10.0 - 1.0);
/// let codes: Vec<usize> = (0..n).map(|i| i / 20).collect();
/// let y: Vec<usize> = (0..n).map(|i| usize::from(x[(i, 0)] + 0.3 * codes[i] as f64 > 0.0)).collect();
/// let groups = Groups::new(codes, vec!["a".into(), "b".into()])?;
///
/// let fitted = PartialParity::params()
///     .constraint(PartialConstraint::DemographicParity)
///     .max_iter(5)
///     .max_inner_iter(50)
///     .fit(&x, &y, &groups)?;
/// assert_eq!(fitted.termination(), Termination::MaxIterations);
/// assert_eq!(fitted.weights().len(), 4); // 2d + 2
/// let labels = fitted.predict(&x, &groups)?;
/// assert_eq!(labels.len(), n);
///
/// // Saved as the crate's versioned bytes (weights and group names only).
/// let restored = CrossModel::from_bytes(&fitted.to_bytes())?;
/// assert_eq!(&restored, fitted.model());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PartialParity {
    model: CrossModel,
    report: FitReport,
}

impl PartialParity {
    /// Default settings (see [`PartialParityParams`]).
    pub fn params() -> PartialParityParams {
        PartialParityParams::new()
    }

    /// The fitted model (weights and group names).
    pub fn model(&self) -> &CrossModel {
        &self.model
    }

    /// The fitted model, by value.
    pub fn into_model(self) -> CrossModel {
        self.model
    }

    /// The weights `w` (length `2d + 2`).
    pub fn weights(&self) -> &[f64] {
        self.model.weights()
    }

    /// The solver's report.
    pub fn report(&self) -> &FitReport {
        &self.report
    }

    /// How the fit ended.
    pub fn termination(&self) -> Termination {
        self.report.status
    }

    /// Scores `⟨w, (1, ξ, γ, γξ)⟩` of dense rows with their groups (positive favours class 1).
    ///
    /// # Errors
    /// [`DcOptError::NonFinite`] for NaN/∞ features; [`DcOptError::LengthMismatch`] when the
    /// feature count or the number of groups differs from the fit's, or `groups` does not have
    /// one entry per row.
    pub fn decision_function(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<Vec<f64>> {
        check_len(
            "groups (as at fit)",
            self.model.group_names().len(),
            groups.n_groups(),
        )?;
        self.model.scores(&SparseRows::from_dense(x)?, groups)
    }

    /// Class 1 where the score is positive, else 0.
    ///
    /// # Errors
    /// As [`decision_function`](Self::decision_function).
    pub fn predict(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<Vec<usize>> {
        Ok(self
            .decision_function(x, groups)?
            .into_iter()
            .map(|s| usize::from(s > 0.0))
            .collect())
    }

    /// The model's versioned bytes ([`CrossModel::to_bytes`]; the report is not saved).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.model.to_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 60 rows, two features; the label follows the first feature, shifted in group 1.
    fn toy() -> (DMatrix<f64>, Vec<usize>, Groups) {
        let n = 60;
        let x = DMatrix::from_fn(n, 2, |i, j| {
            let t = (i % 30) as f64 / 15.0 - 1.0;
            if j == 0 {
                t
            } else {
                ((i * 7) % 11) as f64 / 11.0
            }
        });
        let codes: Vec<usize> = (0..n).map(|i| i / 30).collect();
        let y = (0..n)
            .map(|i| usize::from(x[(i, 0)] + 0.4 * codes[i] as f64 > 0.0))
            .collect();
        let groups = Groups::new(codes, vec!["a".into(), "b".into()]).unwrap();
        (x, y, groups)
    }

    fn quick() -> PartialParityParams {
        PartialParity::params().max_iter(3).max_inner_iter(30)
    }

    #[test]
    fn every_constraint_fits_and_predicts() {
        let (x, y, g) = toy();
        for c in [
            PartialConstraint::PercentileParity,
            PartialConstraint::DemographicParity,
            PartialConstraint::EqualOpportunity,
            PartialConstraint::EqualizedOdds,
        ] {
            let fit = quick().constraint(c).fit(&x, &y, &g).unwrap();
            assert_eq!(fit.weights().len(), 6, "{c}");
            assert_eq!(fit.report().iterations, 3, "{c}");
            let s = fit.decision_function(&x, &g).unwrap();
            let p = fit.predict(&x, &g).unwrap();
            assert!(s.iter().zip(&p).all(|(s, &p)| (p == 1) == (*s > 0.0)));
            assert_eq!(fit.model().group_names(), ["a", "b"]);
        }
    }

    /// The estimator is exactly the hand-assembled IDCA it replaces.
    #[test]
    fn matches_the_assembled_idca() {
        let (x, y, g) = toy();
        let rows = SparseRows::from_dense(&x).unwrap();
        let data = CrossData::new(&rows, &y, &g).unwrap();
        let interval = PercentileInterval::new(0.0, 0.5).unwrap();
        let grid = percentile_grid(interval, 0.05, 10).unwrap();
        let model = PartialSp::new(&data, interval, 0.05, grid, Surrogate::HardSigmoid).unwrap();
        let idca = Idca::params()
            .outer_iters(3)
            .inner_iters(30)
            .eps(1e-3)
            .fit(&model, &model.initial_point())
            .unwrap();
        let fit = quick().fit(&x, &y, &g).unwrap();
        assert_eq!(fit.weights(), model.weights(&idca.x));
        assert_eq!(
            fit.report().objective.to_bits(),
            idca.report.objective.to_bits()
        );
    }

    /// IDCA carries only the iterate between outer iterations: two runs of 2 and 1 outer
    /// iterations through `fit_cross` end where one run of 3 does, with the checkpoints kept.
    #[test]
    fn fit_cross_continues_and_keeps_checkpoints() {
        let (x, y, g) = toy();
        let rows = SparseRows::from_dense(&x).unwrap();
        let data = CrossData::new(&rows, &y, &g).unwrap();
        let p = quick().checkpoints(vec![1, 2]).check().unwrap();
        let whole = p.fit_cross(&data, None).unwrap();
        assert_eq!(whole.checkpoints.len(), 2);
        let first = quick().max_iter(2).check().unwrap();
        let first = first.fit_cross(&data, None).unwrap();
        let rest = quick().max_iter(1).check().unwrap();
        let rest = rest.fit_cross(&data, Some(&first.x)).unwrap();
        assert_eq!(rest.x, whole.x);
        let (obj, viol) = p.objective_and_violation(&data, &whole.x).unwrap();
        assert_eq!(obj.to_bits(), whole.report.objective.to_bits());
        assert_eq!(viol.to_bits(), whole.report.max_violation.to_bits());
        let (w, _) = p.fit_data(&data, &mut NoObserver).unwrap();
        assert_eq!(w, whole.x[..data.dim()]);
    }

    #[test]
    fn observer_interrupts() {
        let (x, y, g) = toy();
        let mut stop = |_: &IterInfo| std::ops::ControlFlow::Break(());
        let fit = quick().fit_with_observer(&x, &y, &g, &mut stop).unwrap();
        assert_eq!(fit.termination(), Termination::Interrupted);
    }

    #[test]
    fn bad_settings_are_typed_errors() {
        let invalid =
            |p: PartialParityParams| matches!(p.check(), Err(DcOptError::InvalidParameter { .. }));
        assert!(invalid(quick().kappa(-0.1)));
        assert!(invalid(quick().kappa(f64::NAN)));
        assert!(invalid(quick().grid_size(0)));
        assert!(invalid(quick().threshold(f64::INFINITY)));
        assert!(invalid(quick().max_iter(0)));
        assert!(invalid(quick().max_inner_iter(0)));
        assert!(invalid(quick().eps(0.0)));
        assert!(matches!(
            quick().interval(0.5, 0.5).check(),
            Err(DcOptError::Metric(_))
        ));
        use fair_core::ParamGuard;
        assert!(quick().check_ref().is_ok());
    }

    #[test]
    fn bad_data_are_typed_errors() {
        let (x, y, g) = toy();
        let p = quick().check().unwrap();
        // Length mismatch.
        assert!(matches!(
            p.fit(&x, &y[1..], &g),
            Err(DcOptError::LengthMismatch { .. })
        ));
        // NaN.
        let mut nan = x.clone();
        nan[(3, 1)] = f64::NAN;
        assert!(matches!(
            p.fit(&nan, &y, &g),
            Err(DcOptError::NonFinite { .. })
        ));
        // One group.
        let one = Groups::new(vec![0; x.nrows()], vec!["a".into()]).unwrap();
        assert!(matches!(
            p.fit(&x, &y, &one),
            Err(DcOptError::TooFewGroups { got: 1 })
        ));
        // A label that is not 0/1.
        let mut y2 = y.clone();
        y2[0] = 2;
        assert!(matches!(
            p.fit(&x, &y2, &g),
            Err(DcOptError::LabelOutOfRange { .. })
        ));
        // Equal opportunity without positives in a group.
        let y0: Vec<usize> = (0..x.nrows())
            .map(|i| usize::from(i < 30 && y[i] == 1))
            .collect();
        assert!(matches!(
            quick()
                .constraint(PartialConstraint::EqualOpportunity)
                .fit(&x, &y0, &g),
            Err(DcOptError::EmptyGroup { group: 1, .. })
        ));
        // Prediction with other groups or features.
        let fit = p.fit(&x, &y, &g).unwrap();
        assert!(matches!(
            fit.decision_function(&x, &one),
            Err(DcOptError::LengthMismatch { .. })
        ));
        let narrow = x.columns(0, 1).into_owned();
        assert!(matches!(
            fit.decision_function(&narrow, &g),
            Err(DcOptError::LengthMismatch { .. })
        ));
    }

    /// Infeasible settings are refused before IDCA runs: κ outside [0, 1] (no band) or an
    /// empty interval. The models' own starts are feasible for every accepted κ, even κ = 0
    /// (the start then lies on the constraints' boundary).
    #[test]
    fn infeasible_settings_are_refused() {
        let (x, y, g) = toy();
        assert!(matches!(
            quick().kappa(1.5).fit(&x, &y, &g),
            Err(DcOptError::InvalidParameter { name: "kappa", .. })
        ));
        assert!(quick().interval(0.4, 1.2).fit(&x, &y, &g).is_err());
        for c in [
            PartialConstraint::PercentileParity,
            PartialConstraint::EqualizedOdds,
        ] {
            let fit = quick().kappa(0.0).constraint(c).fit(&x, &y, &g).unwrap();
            assert!(fit.report().max_violation.is_finite(), "{c}");
        }
    }

    #[test]
    fn constraint_names_round_trip() {
        for name in PartialConstraint::NAMES {
            let c: PartialConstraint = name.parse().unwrap();
            assert_eq!(c.to_string(), *name);
        }
        assert_eq!(
            "true_positive_rate_parity".parse::<PartialConstraint>(),
            Ok(PartialConstraint::EqualOpportunity)
        );
        // The shared vocabulary: statistical parity is demographic parity (model (21)).
        assert_eq!(
            "statistical_parity".parse::<PartialConstraint>(),
            Ok(PartialConstraint::DemographicParity)
        );
        fair_core::assert_constraint_subset::<PartialConstraint>();
    }
}
