//! Settings: fairness level and tie handling, checked once by [`ParamGuard`].

use crate::error::{FairRegressionError as E, Result};
use fair_core::ParamGuard;

/// Settings of the barycenter post-processor (unchecked; [`ParamGuard::check`] validates).
///
/// # Examples
/// ```
/// use fair_regression::{ParamGuard, WassersteinBarycenter};
/// let params = WassersteinBarycenter::params().alpha(0.25).check()?;
/// assert_eq!(params.alphas(), &[0.25]);
/// assert!(WassersteinBarycenter::params().alpha(1.5).check().is_err());
/// # Ok::<(), fair_regression::FairRegressionError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BarycenterParams {
    pub(crate) alpha: Vec<f64>,
    pub(crate) sigma: f64,
    pub(crate) seed: u64,
}

/// Checked settings: only these fit.
#[derive(Debug, Clone, PartialEq)]
pub struct BarycenterValidParams(pub(crate) BarycenterParams);

impl Default for BarycenterParams {
    fn default() -> Self {
        Self {
            alpha: vec![0.0],
            sigma: 0.0,
            seed: 0,
        }
    }
}

impl BarycenterParams {
    /// The fairness level on the geodesic, the same for every attribute: the output is
    /// `(1 − alpha)·fair + alpha·original` (equipy's `epsilon`). `0` (default) is the barycenter
    /// (demographic parity), `1` the original predictions.
    #[must_use]
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = vec![alpha];
        self
    }

    /// One fairness level per sensitive attribute, in the order of the attributes (equipy's
    /// `MultiWasserstein` `epsilon` list); its length is checked against the attributes at fit.
    #[must_use]
    pub fn alpha_per_attribute(mut self, alphas: Vec<f64>) -> Self {
        self.alpha = alphas;
        self
    }

    /// Half-width of the uniform jitter `U[−sigma, sigma]` added to the predictions before the
    /// CDFs and quantiles are taken (equipy's `sigma`, the paper's tie breaking). `0` (default):
    /// no jitter, deterministic, equal to equipy's `FairWasserstein(sigma=0)`.
    #[must_use]
    pub fn sigma(mut self, sigma: f64) -> Self {
        self.sigma = sigma;
        self
    }

    /// Seed of the jitter's ChaCha8 streams (unused when `sigma = 0`).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

impl ParamGuard for BarycenterParams {
    type Checked = BarycenterValidParams;
    type Error = E;

    fn check_ref(&self) -> Result<BarycenterValidParams> {
        if self.alpha.is_empty() {
            return Err(E::InvalidParameter {
                name: "alpha",
                value: "[]".into(),
                expected: "one level in [0, 1], or one per sensitive attribute",
            });
        }
        if let Some(a) = self.alpha.iter().find(|a| !(0.0..=1.0).contains(*a)) {
            return Err(E::InvalidParameter {
                name: "alpha",
                value: a.to_string(),
                expected: "a number in [0, 1] (0 = fully fair, 1 = the original predictions)",
            });
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(E::InvalidParameter {
                name: "sigma",
                value: self.sigma.to_string(),
                expected: "a finite number >= 0 (0 = no jitter)",
            });
        }
        Ok(BarycenterValidParams(self.clone()))
    }
}

impl BarycenterValidParams {
    /// The fairness level(s): one for every attribute, or one per attribute.
    pub fn alphas(&self) -> &[f64] {
        &self.0.alpha
    }

    /// The jitter half-width.
    pub fn sigma(&self) -> f64 {
        self.0.sigma
    }

    /// The jitter seed.
    pub fn seed(&self) -> u64 {
        self.0.seed
    }
}
