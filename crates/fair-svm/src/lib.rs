//! Spectral fair SVMs, linear and kernel, fair at every threshold.
//!
//! Olfat & Aswani, "Spectral Algorithms for Computing Fair Support Vector Machines" (AISTATS
//! 2018). A classifier `sign(s(x) + t)` is fair at level Δ for demographic parity when, for
//! **every** threshold t, the positive rates of the two protected classes z = ±1 differ by at
//! most Δ (eq. (2)); Δ is the Kolmogorov–Smirnov distance between the two groups' score
//! distributions (`fair_metrics::ks::ks_statistic`). Equal opportunity (eq. (3)) is the same
//! on the rows with y = +1.
//!
//! The score distributions are matched in their first two moments:
//!
//! ```text
//! mean:       |mᵀw| ≤ d,             m = mean(x | z=+1) − mean(x | z=−1)          (8)
//! covariance: μ · |wᵀ(Σ₊ − Σ₋)w|     (penalty; Σ± = group covariances, 1/#P)    (10), (16)
//! ```
//!
//! The covariance term is nonconvex (`Σ₊ − Σ₋` is indefinite). Its spectral split
//! `Σ₊ − Σ₋ = U₊ − U₋` ([`SpectralSplit`], eqs. (20)–(22)) writes it as a difference of convex
//! quadratics, and the convex–concave procedure linearises the concave part at the current
//! iterate: each iteration (eq. (23)) is a convex problem with a quadratic objective and two
//! convex quadratic constraints, solved as a second-order cone program by clarabel. The
//! penalised objective never increases along the iterations.
//!
//! | model | paper | settings |
//! |---|---|---|
//! | [`SpectralFairSvm`] with [`SpectralFairSvmParams::plain`] | LSVM, eq. (5) | d = ∞, μ = 0 |
//! | [`SpectralFairSvm`] with [`SpectralFairSvmParams::zafar`] | ZSVM, eqs. (5)+(8) (Zafar et al. 2017) | d, μ = 0 |
//! | [`SpectralFairSvm`] | SSVM, eq. (23) | d, μ > 0 |
//! | [`KernelFairSvm`] | kernel SSVM, eqs. (13), (15), (17)–(18), (27) | kernel, d, μ |
//!
//! Every fit returns a [`FitReport`] (a [`Termination`], the per-iteration history of objective,
//! slack τ, mean and covariance gaps); `fit_with_observer` additionally calls an observer ([`Observe`]) once per
//! convex–concave iteration. The linear subproblems are solved on a working set of rows near the
//! margin (exact; see [`SpectralFairSvm`]).
//!
//! Conventions the paper leaves open, fixed here (λ, d and μ depend on them): the hinge loss is
//! **averaged**, `(1/n)Σuᵢ + λ‖w‖²`; `m` is the raw mean difference of eq. (8) (not normalised);
//! `Σ±` use `1/#P` as in eq. (16). The kernel dual carries the standard ½, the box bound
//! `C = 1/(2λn)` and the penalty weight `μ/(2λ)`, so that λ, d and μ are on the scale of the
//! linear primal for the linear kernel (the same problem for the plain SVM; the paper puts the
//! fairness terms on β inside the dual, which is not the dual of the primal's fair terms, so the
//! fair kernel fits with the linear kernel differ from the linear fair fits).
//!
//! Inputs follow the other fairkit methods: labels are 0/1 classes (`&[usize]`, class 1 is
//! positive — the paper's y = +1) and the protected attribute is a [`Groups`] with exactly two
//! groups: **group code 1 (the second of [`Groups::names`]) is the paper's z = +1** and code 0 is
//! z = −1 (the fit is symmetric in the two, up to the sign of the reported mean and covariance
//! gaps). [`one_vs_rest`] merges a many-group attribute into two. The paper's ±1 encoding is
//! formed inside the crate.
//!
//! # Example
//! ```
//! use fair_svm::{SpectralFairSvm, Termination};
//! use fair_data::{FairSvmSynthetic, Standardizer};
//! use fair_metrics::ks::ks_statistic;
//!
//! let data = FairSvmSynthetic::new().seed(1).generate()?.data;     // the paper's 2-D generator
//! let x = Standardizer::fit(data.x())?.transform(data.x())?;
//! let y = data.y();                  // classes 0 ("y=-1") and 1 ("y=+1")
//! let z = data.groups("z")?;         // groups "z=-1" (code 0) and "z=+1" (code 1)
//!
//! let plain = SpectralFairSvm::params().lambda(0.01).d(f64::INFINITY).mu(0.0).fit(&x, y, z)?;
//! let zafar = SpectralFairSvm::params().lambda(0.01).d(0.075).mu(0.0).fit(&x, y, z)?;
//! let fair = SpectralFairSvm::params().lambda(0.01).d(0.075).mu(0.1).fit(&x, y, z)?;
//! assert_eq!(fair.report().status, Termination::Converged);
//! // The mean constraint holds, and the covariance penalty shrinks the variance gap.
//! assert!(fair.report().mean_gap.abs() <= 0.075 + 1e-6);
//! assert!(fair.report().covariance_gap.abs() < zafar.report().covariance_gap.abs());
//! // The objective never increases along the convex–concave iterations.
//! let h = &fair.report().history;
//! assert!(h.windows(2).all(|p| p[1].objective <= p[0].objective + 1e-7));
//!
//! // All-threshold demographic-parity gap (KS) of the training scores.
//! let delta = |s: nalgebra::DVector<f64>| ks_statistic(s.as_slice(), z, None).map(|k| k.max);
//! assert!(delta(zafar.decision_function(&x)?)? < delta(plain.decision_function(&x)?)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod ccp;
mod cv;
mod error;
mod input;
mod kernel;
mod linear;
mod params;
mod saved;
mod socp;
mod spectral;

pub use ccp::{FitReport, IterInfo};
pub use cv::{LambdaSearch, LambdaSearchResult};
pub use error::{FairSvmError, Result, SolverFailure};
/// The sensitive-group type every fairkit method takes (from `fair-core`).
pub use fair_core::Groups;
/// The shared vocabulary: observers see an [`IterInfo`] per iterate ([`Observe`]), and a fit
/// ends with a [`Termination`] (an observer's stop is `Ok` with [`Termination::Interrupted`]).
pub use fair_core::{NoObserver, Observe, Termination};
pub use input::one_vs_rest;
pub use kernel::{EXACT_FACTOR_TOL, KernelFairSvm};
pub use linear::SpectralFairSvm;
pub use params::{
    CovarianceNormalisation, CovariancePenalty, Fairness, Kernel, KernelFairSvmParams,
    KernelFairSvmValidParams, MeanVector, PAPER_D_GRID, SpectralFairSvmParams,
    SpectralFairSvmValidParams,
};
pub use saved::{FAIR_SVM_FORMAT_VERSION, FairSvmScorer};
pub use spectral::{GroupMoments, SpectralSplit, kernel_group_covariances};
