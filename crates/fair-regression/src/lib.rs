//! Fair regression by post-processing to the Wasserstein barycenter (Chzhen, Denis, Hebiri,
//! Oneto & Pontil, "Fair regression with Wasserstein barycenters", NeurIPS 2020; Le Gouic,
//! Loubes & Rigollet, "Projection to fairness in statistical learning", 2020).
//!
//! # The method
//!
//! Among all predictions whose distribution does not depend on the group (demographic parity),
//! the one closest in squared error to a regressor `f` is, when the group `s` is known at
//! prediction time, `f*(x, s) = Σ_t p_t Q_t(F_s(f(x, s)))`: each prediction goes through its
//! own group's CDF `F_s`, then through the weighted average of the groups' quantile functions
//! `Q_t` (weights `p_t`, the groups' shares). The distribution of `f*` is the Wasserstein-2
//! barycenter of the groups' prediction distributions. Here `F_s` and `Q_t` are empirical,
//! fitted on a calibration sample of predictions (see [`FittedBarycenter`]); any number of
//! groups.
//!
//! **Fairness level.** [`BarycenterParams::alpha`] moves along the Wasserstein geodesic between
//! the original and the fair predictions: `(1 − alpha)·f* + alpha·f` (equipy's `epsilon`;
//! `alpha = 0` is fully fair, `1` the original). Each group's distance to the barycenter scales
//! by `alpha`, so the unfairness `U = Σ_s p_s W₂²(law of the group s predictions, barycenter)`
//! scales by `alpha²`: Chzhen & Schreuder's "α-relative improvement" (Ann. Statist. 2022,
//! `U(f) ≤ α_CS · U(f_original)`) is reached at `alpha = √α_CS`.
//!
//! **Several sensitive attributes** are made fair in sequence, as equipy's `MultiWasserstein`
//! (Hu, Ratz & Charpentier, AAAI 2024): the first attribute's groups are aligned within each
//! combination of the later attributes' groups (a stratum where the first attribute has a single
//! group is left as it is), then the second attribute's within each combination of the later
//! ones, …, and the last attribute's over all rows. Each attribute is fitted on the previous
//! one's fully fair output; `alpha` may be one level for all or one per attribute.
//!
//! # Conventions, and which ones are the default
//!
//! The empirical CDF and quantile function are equipy's (`F(x) = #{v <= x}/n`, the quantile the
//! linear interpolation of the sorted values at levels `k/(n − 1)`; see `quantile.rs`), so that
//! with `sigma = 0` the output equals equipy's `FairWasserstein(sigma=0)` /
//! `MultiWasserstein(sigma=0)` (to 1e-9 in `python/tests/test_fair_regression.py`).
//!
//! **Ties.** The paper breaks ties in the predictions with a uniform jitter `U[−σ, σ]` (equipy's
//! `sigma`, default `1e-4` there). The default here is `sigma = 0`: no jitter, so the map is a
//! deterministic, monotone function of the prediction and the group (the same person gets the
//! same prediction, pickles and restores to the same bits, and equals equipy's deterministic
//! output); regression outputs are rarely tied. Tied predictions of a group then share one fair
//! value (the one at the top of their CDF step), so a group with many ties keeps an atom and
//! its distribution differs from the barycenter by at most the mass of its largest tie.
//! [`BarycenterParams::sigma`] `> 0` adds the paper's jitter from seeded ChaCha8 streams
//! ([`BarycenterParams::seed`]): reproducible, but not bit-equal to equipy's jitter, which
//! draws from Python's `random.Random(2023)`.
//!
//! **Not copied from equipy:** it clips the output to `[0, 1]` when every prediction passed to
//! `transform` lies in `[0, 1]` (meant for scores); this crate never clips (the map of
//! predictions inside the fitted range stays inside it anyway). equipy joins the other
//! attributes' values as strings without a separator to name a stratum (`"1"+"12"` and
//! `"11"+"2"` collide); strata here are keyed by group codes.
//!
//! This convention maps a group's smallest fitted prediction to the quantile level `1/n`, not
//! `0` (its CDF starts at `1/n`, the quantile grid at 0): an `O(1/n)` offset from the exact
//! pushforward that vanishes with the sample, kept because equipy is the reference the issue
//! measures against and a second convention would give a second set of numbers to explain.
//!
//! **Exactness at alpha = 0.** On the fitted rows without ties, group `s`'s fair values are
//! `B(k/n_s)`, `k = 1..n_s`, for the one increasing map `B = Σ_t p_t Q_t`: two groups of equal
//! size get identical values (Kolmogorov–Smirnov distance 0), and in general the KS distance
//! between two groups is below `1/min(n_s, n_t)` (each group's empirical CDF at `B(u)` is within
//! `1/n_s` of `u`).
//!
//! # Example
//!
//! ```
//! use fair_regression::{ParamGuard, WassersteinBarycenter};
//! use fair_core::Groups;
//! // Group "b" is predicted 1 higher than group "a".
//! let y = [0.0, 1.0, 2.0, 1.0, 2.0, 3.0];
//! let g = Groups::from_labels(&["a", "a", "a", "b", "b", "b"]);
//! let params = WassersteinBarycenter::params().check()?;
//! let fitted = params.fit(&y, &[g.clone()], None)?;
//! // Equal shares: both groups get the average of the two quantile functions at their CDF
//! // levels 1/3, 2/3, 1 (equipy's convention: the quantile grid runs from 0 to 1).
//! let fair = fitted.transform(&y, &[g.clone()])?;
//! let expected = [7.0 / 6.0, 11.0 / 6.0, 2.5, 7.0 / 6.0, 11.0 / 6.0, 2.5];
//! assert!(fair.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-12));
//! // alpha = 1 keeps the original predictions, alpha = 0.5 goes half way.
//! assert_eq!(fitted.transform_with_alpha(&y, &[g.clone()], &[1.0])?, y.to_vec());
//! let half = fitted.transform_with_alpha(&y, &[g], &[0.5])?;
//! assert!((half[0] - 0.5 * (fair[0] + y[0])).abs() < 1e-12);
//! # Ok::<(), fair_regression::FairRegressionError>(())
//! ```
#![forbid(unsafe_code)]

mod error;
mod model;
mod params;
mod quantile;
mod saved;

pub use error::{FairRegressionError, Result};
pub use fair_core::{Groups, ParamGuard};
pub use model::{FittedBarycenter, WassersteinBarycenter};
pub use params::{BarycenterParams, BarycenterValidParams};
pub use saved::FAIR_REGRESSION_FORMAT_VERSION;
