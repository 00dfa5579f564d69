//! Fitted projections: [`Projection`] (any method's basis plus centring) and [`FairPca`] (the
//! Pareto fair PCA model with its [`FitReport`]).

use crate::data::{centred, check_finite, prepare};
use crate::error::{FairPcaError, Result};
use crate::linalg::{orthonormality_error, random_frame, top_eigenvectors};
use crate::mw::MwFairPca;
use crate::params::{
    FairPcaParams, FairPcaValidParams, Geometry, MAX_OBJECTIVES, Objectives, StartSelection,
    StepRule,
};
use crate::pareto::{Outcome, run};
use crate::problem::Problem;
use crate::report::{FitReport, IterInfo, StartKind};
use fair_core::{NoObserver, Observe, Termination};
use fair_data::Groups;
use fair_metrics::pca_losses::{DEFAULT_ORTHONORMAL_TOLERANCE, PcaDisparity, pca_disparity};
use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Largest `max |UᵀU − I|` accepted by [`Projection::new`].
pub const ORTHONORMAL_TOLERANCE: f64 = 1e-8;

/// A linear projection `x ↦ (x − μ) U` onto `r` orthonormal directions, as fitted by any method
/// of this crate.
///
/// # Examples
/// ```
/// use fair_pca::Projection;
/// use nalgebra::{dmatrix, dvector};
/// let p = Projection::new(dmatrix![1.0; 0.0], dvector![1.0, 1.0])?;
/// let z = p.transform(&dmatrix![3.0, 5.0])?;
/// assert_eq!(z, dmatrix![2.0]);                          // (3 − 1, 5 − 1) · e₁
/// assert_eq!(p.reconstruct(&dmatrix![3.0, 5.0])?, dmatrix![3.0, 1.0]);
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    basis: DMatrix<f64>,
    mean: DVector<f64>,
}

impl Projection {
    /// A projection from a `d × r` basis with orthonormal columns and a centring vector of
    /// length `d`.
    ///
    /// # Errors
    /// [`FairPcaError::LengthMismatch`] when the shapes disagree or `r = 0` or `r > d`,
    /// [`FairPcaError::NonFinite`] for NaN/inf entries, [`FairPcaError::InvalidParameter`] when
    /// the columns are not orthonormal to [`ORTHONORMAL_TOLERANCE`].
    pub fn new(basis: DMatrix<f64>, mean: DVector<f64>) -> Result<Self> {
        let (d, r) = basis.shape();
        if mean.len() != d {
            return Err(FairPcaError::LengthMismatch {
                what: "centring vector (one entry per feature)",
                expected: d,
                got: mean.len(),
            });
        }
        if r == 0 || r > d {
            return Err(FairPcaError::LengthMismatch {
                what: "basis columns (need 1 <= r <= d)",
                expected: d,
                got: r,
            });
        }
        check_finite(&basis, "basis")?;
        check_finite(
            &DMatrix::from_column_slice(d, 1, mean.as_slice()),
            "centring vector",
        )?;
        let err = orthonormality_error(&basis);
        if err > ORTHONORMAL_TOLERANCE {
            return Err(FairPcaError::InvalidParameter {
                name: "basis",
                value: format!("a basis with max |UᵀU − I| = {err:e}"),
                expected: "orthonormal columns (max |UᵀU − I| <= 1e-8): orthonormalize it first",
            });
        }
        Ok(Self { basis, mean })
    }

    /// The `d × r` basis `U` (orthonormal columns).
    pub fn basis(&self) -> &DMatrix<f64> {
        &self.basis
    }

    /// The centring vector `μ` (zeros without centring).
    pub fn mean(&self) -> &DVector<f64> {
        &self.mean
    }

    /// Number of output dimensions `r`.
    pub fn rank(&self) -> usize {
        self.basis.ncols()
    }

    /// Number of input features `d`.
    pub fn n_features(&self) -> usize {
        self.basis.nrows()
    }

    fn check_input(&self, x: &DMatrix<f64>) -> Result<()> {
        if x.ncols() != self.n_features() {
            return Err(FairPcaError::LengthMismatch {
                what: "columns of x (features the projection was fitted on)",
                expected: self.n_features(),
                got: x.ncols(),
            });
        }
        check_finite(x, "data matrix x")
    }

    /// `x − 1μᵀ`: the rows as every loss of this crate sees them.
    ///
    /// # Errors
    /// [`FairPcaError::LengthMismatch`] for a wrong number of columns,
    /// [`FairPcaError::NonFinite`] for NaN/inf entries.
    pub fn center(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        self.check_input(x)?;
        Ok(centred(x, &self.mean))
    }

    /// The `n × r` coordinates `(x − μ) U`.
    ///
    /// # Errors
    /// As [`center`](Self::center).
    pub fn transform(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        Ok(self.center(x)? * &self.basis)
    }

    /// The reconstruction `(x − μ) U Uᵀ + μ` in the original space.
    ///
    /// # Errors
    /// As [`center`](Self::center).
    pub fn reconstruct(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        let mut out = self.transform(x)? * self.basis.transpose();
        for (j, mut col) in out.column_iter_mut().enumerate() {
            let m = self.mean[j];
            col.apply(|v| *v += m);
        }
        Ok(out)
    }

    /// Per-group reconstruction losses, each group's own best rank-`r` loss, disparities `E_i`
    /// and pairwise disparities of this projection on `x`, raw and per sample, computed by
    /// [`fair_metrics::pca_losses::pca_disparity`] on the centred rows.
    ///
    /// # Errors
    /// As [`center`](Self::center); [`FairPcaError::Metric`] for what `fair-metrics` rejects
    /// (e.g. a declared group without rows, groups not covering the rows).
    pub fn losses(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<PcaDisparity> {
        let xc = self.center(x)?;
        Ok(pca_disparity(
            &xc,
            groups,
            &self.basis,
            DEFAULT_ORTHONORMAL_TOLERANCE,
        )?)
    }
}

/// Pareto fair PCA (Kamani, Haddadpour, Forsati & Mahdavi, Algorithm 1): a rank-`r` projection
/// whose per-group disparities `E_i` are balanced at a small cost in total reconstruction loss.
///
/// Fit with [`FairPca::params`]`(r)…`[`fit`](FairPcaParams::fit)`(&x, &groups)`.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_pca::FairPca;
/// use nalgebra::DMatrix;
/// // Group a varies along feature 0, group b along feature 1 (and a little along 0).
/// let x = DMatrix::from_fn(40, 3, |i, j| {
///     let t = ((i * 7919) % 23) as f64 / 23.0 - 0.5;
///     match (i % 2, j) { (0, 0) => 3.0 * t, (1, 1) => 2.0 * t, (1, 0) => 0.3 * t, _ => 0.1 * t }
/// });
/// let groups = Groups::from_codes(&(0..40).map(|i| i % 2).collect::<Vec<_>>())?;
/// let fair = FairPca::params(1).max_iter(300).fit(&x, &groups)?;
/// let vanilla = fair_pca::vanilla_pca(&x, 1, Default::default())?;
/// let (f, v) = (fair.losses(&x, &groups)?, vanilla.losses(&x, &groups)?);
/// assert!(f.per_sample.max_pairwise_gap < 0.5 * v.per_sample.max_pairwise_gap);
/// assert!(f.total_loss >= v.total_loss);                // vanilla PCA minimizes the total loss
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FairPca {
    projection: Projection,
    report: FitReport,
}

impl FairPca {
    /// Default settings for target dimension `r` (see [`FairPcaParams`]).
    pub fn params(r: usize) -> FairPcaParams {
        FairPcaParams::new(r)
    }

    /// Algorithm 1 read as printed, the crate's default before issue 16: pairwise objectives
    /// (eq. 12), `ψ = ½z²`, per-sample losses, unit-normalized Euclidean gradients, `η_t = 1/√t`,
    /// `T = 500`, `tol = 1e-6`, vanilla PCA start. It ends at the iteration limit (its Euclidean
    /// `‖D‖` does not vanish on the frames) near the frame where all disparities are equal; see
    /// docs/results/fair-pca.md for how it compares with [`params`](Self::params).
    pub fn paper(r: usize) -> FairPcaParams {
        FairPcaParams::new(r)
            .objectives(Objectives::Pairwise)
            .geometry(Geometry::Euclidean)
            .step(StepRule::InverseSqrt { eta0: 1.0 })
            .max_iter(500)
            .tol(1e-6)
            .vanilla_start(true)
            .min_max_start(false)
    }

    /// The fitted projection.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// The `d × r` basis (orthonormal columns).
    pub fn basis(&self) -> &DMatrix<f64> {
        self.projection.basis()
    }

    /// How the fit ended, per start.
    pub fn report(&self) -> &FitReport {
        &self.report
    }

    /// `(x − μ) U`; see [`Projection::transform`].
    ///
    /// # Errors
    /// As [`Projection::transform`].
    pub fn transform(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        self.projection.transform(x)
    }

    /// Per-group losses and disparities on `x`; see [`Projection::losses`].
    ///
    /// # Errors
    /// As [`Projection::losses`].
    pub fn losses(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<PcaDisparity> {
        self.projection.losses(x, groups)
    }
}

impl FairPcaParams {
    /// Validates the settings, then fits on `x` (`n × d`, rows = samples) with one group code per
    /// row.
    ///
    /// # Errors
    /// [`FairPcaError::InvalidParameter`] (settings), then as [`FairPcaValidParams::fit`].
    pub fn fit(self, x: &DMatrix<f64>, groups: &Groups) -> Result<FairPca> {
        self.check()?.fit(x, groups)
    }

    /// As [`fit`](Self::fit), reporting every iteration to `observer`.
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    pub fn fit_with_observer(
        self,
        x: &DMatrix<f64>,
        groups: &Groups,
        observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
    ) -> Result<FairPca> {
        self.check()?.fit_with_observer(x, groups, observer)
    }
}

impl FairPcaValidParams {
    /// Fits Pareto fair PCA on `x` (`n × d`) with one group code per row.
    ///
    /// # Errors
    /// [`FairPcaError::LengthMismatch`] when `groups` does not have one code per row,
    /// [`FairPcaError::InvalidRank`] unless `1 ≤ r < d`, [`FairPcaError::NonFinite`] for NaN/inf
    /// in `x`, [`FairPcaError::TooFewGroups`] for fewer than two groups,
    /// [`FairPcaError::GroupTooSmall`] for a group with fewer than `r` rows (or none),
    /// [`FairPcaError::UnsupportedGroupCount`] for more than [`MAX_OBJECTIVES`] objectives,
    /// [`FairPcaError::Numerical`] if an eigen-solver or SVD fails or an iterate becomes
    /// non-finite.
    pub fn fit(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<FairPca> {
        self.fit_with_observer(x, groups, &mut NoObserver)
    }

    /// As [`fit`](Self::fit), reporting every iteration to `observer`. When the observer
    /// returns [`ControlFlow::Break`](std::ops::ControlFlow::Break) the fit ends with `Ok`: the
    /// remaining starts are skipped, the model holds the best start so far and the report says
    /// [`Termination::Interrupted`].
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    ///
    /// # Examples
    /// ```
    /// use fair_pca::{FairPca, IterInfo, Termination};
    /// use fair_data::Groups;
    /// use fair_core::ControlFlow;
    /// use nalgebra::DMatrix;
    /// let x = DMatrix::from_fn(40, 3, |i, j| {
    ///     let t = ((i * 7919) % 23) as f64 / 23.0 - 0.5;
    ///     match (i % 2, j) { (0, 0) => 3.0 * t, (1, 1) => 2.0 * t, (1, 0) => 0.3 * t, _ => 0.1 * t }
    /// });
    /// let groups = Groups::from_codes(&(0..40).map(|i| i % 2).collect::<Vec<_>>())?;
    /// let mut seen = 0;
    /// let mut stop_at_first = |_: &IterInfo<'_>| {
    ///     seen += 1;
    ///     ControlFlow::Break(())
    /// };
    /// let fit = FairPca::params(1).max_iter(300).check()?.fit_with_observer(&x, &groups, &mut stop_at_first)?;
    /// assert_eq!(fit.report().status, Termination::Interrupted);
    /// assert_eq!(seen, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fit_with_observer(
        &self,
        x: &DMatrix<f64>,
        groups: &Groups,
        observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
    ) -> Result<FairPca> {
        let clock = Instant::now();
        let data = prepare(x, groups, self.rank, self.centering)?;
        let k = data.k();
        let m = self.objectives.count(k);
        if m > MAX_OBJECTIVES {
            return Err(FairPcaError::UnsupportedGroupCount {
                method: "Pareto fair PCA",
                supported: "at most 256 objectives (22 groups single-and-pairwise, 23 pairwise, 255 single)",
                got: k,
                hint: "use Objectives::Single or merge small groups",
            });
        }
        let problem = Problem::new(
            &data,
            self.rank,
            self.objectives,
            self.penalty,
            self.scale,
            self.alpha,
        )?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let fixed: Vec<StartKind> = [
            (self.vanilla_start, StartKind::VanillaPca),
            (self.min_max_start, StartKind::MinMax),
        ]
        .into_iter()
        .filter_map(|(on, kind)| on.then_some(kind))
        .collect();
        let n_starts = fixed.len() + self.random_starts;
        let mut outcomes: Vec<Outcome> = Vec::with_capacity(n_starts);
        let mut stopped = false;
        for s in 0..n_starts {
            let (kind, u0) = match fixed.get(s) {
                Some(StartKind::VanillaPca) => {
                    let (u, _) = top_eigenvectors(&data.total, self.rank, "vanilla PCA start")?;
                    (StartKind::VanillaPca, u)
                }
                Some(_) => {
                    let (u, _) = MwFairPca::params(self.rank)
                        .centering(self.centering)
                        .check()?
                        .solve(&data)?;
                    (StartKind::MinMax, u)
                }
                None => {
                    let index = s - fixed.len();
                    (
                        StartKind::Random { index },
                        random_frame(data.d, self.rank, &mut rng)?,
                    )
                }
            };
            let outcome = run(&problem, u0, self, s, kind, observer)?;
            stopped = outcome.report.status.is_interrupted();
            outcomes.push(outcome);
            if stopped {
                break;
            }
        }
        let selected = select(&outcomes, self.selection);
        let chosen = &outcomes[selected];
        let report = FitReport {
            status: if stopped {
                Termination::Interrupted
            } else {
                chosen.report.status
            },
            iterations: chosen.report.iterations,
            objective: chosen.report.total_loss,
            max_violation: chosen.report.max_gap,
            scale: self.scale,
            selected_start: selected,
            starts: outcomes.iter().map(|o| o.report.clone()).collect(),
            elapsed: clock.elapsed(),
        };
        let basis = outcomes.swap_remove(selected).basis;
        Ok(FairPca {
            projection: Projection::new(basis, data.mean)?,
            report,
        })
    }
}

/// Index of the kept start (never empty: at least one start always runs).
fn select(outcomes: &[Outcome], rule: StartSelection) -> usize {
    let key = |o: &Outcome| match rule {
        StartSelection::Fairest => (o.report.max_gap, o.report.total_loss),
        StartSelection::LowestLoss => (o.report.total_loss, o.report.max_gap),
    };
    (0..outcomes.len())
        .min_by(|&a, &b| {
            let (ka, kb) = (key(&outcomes[a]), key(&outcomes[b]));
            ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })
        .unwrap_or(0)
}
