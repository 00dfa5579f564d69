//! Baselines of the paper's Appendix G: the regularisation (penalty) methods (114) and (119) of
//! G.4, trained by plain subgradient descent from `w = 0` and evaluated at the last iterate; and
//! the pairwise methods (102)/(105)/(107) of G.3 ([`fit_pairwise`]), trained by projected gradient
//! with a clarabel QCQP projection.
//!
//! ```text
//! (114)  min_{w,θ} f_0(w) + (2λ/(β−α)) max_{p∈Î} max_k | (1/n_k) Σ_i σ(h_w(ξ_i^k) − θ_p) − p |
//! (119)  min_w     f_0(w) + (λ/(β−α)) max_{k≠k'} | c(S_k) − c(S_k') |,   c(S) = min{S,β} − min{S,α}
//! ```
//! with `S_k = (1/n_k) Σ_i σ(h_w(ξ_i^k) − θ̂)`. (119) is written with the max over pairs so it
//! also covers more than two groups (the paper's G = 2 drops it).

mod pairwise;

pub use pairwise::{PairwiseFit, PairwiseKind, PairwiseParams, fit_pairwise};

use crate::data::CrossData;
use crate::error::{DcOptError, Result, check_finite};
use crate::params::{Surrogate, at_least_one, positive_finite};
use fair_metrics::partial::PercentileInterval;

/// Which penalty.
///
/// # Examples
/// ```
/// use dc_opt::baselines::Penalty;
/// // `Display`: `partial_sp(p1, p2, …)` (the grid) or `partial_dp(threshold)`.
/// let sp = Penalty::PartialSp { grid: vec![0.2, 0.25, 0.3] };
/// assert_eq!(sp.to_string(), "partial_sp(0.2, 0.25, 0.3)");
/// assert_eq!("partial_sp(0.2, 0.25, 0.3)".parse::<Penalty>()?, sp);
/// assert_eq!("partial_dp( 0 )".parse::<Penalty>()?, Penalty::PartialDp { threshold: 0.0 });
/// assert!("partial_dp(0, 1)".parse::<Penalty>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Penalty {
    /// (114): partial statistical parity on the grid `Î` (auxiliary thresholds θ_p are trained
    /// too, started at `−σ⁻¹(p)`).
    PartialSp {
        /// The grid `Î ⊂ [α, β)`.
        grid: Vec<f64>,
    },
    /// (119): partial demographic parity at threshold θ̂.
    PartialDp {
        /// θ̂ (the paper uses 0).
        threshold: f64,
    },
}

/// Settings of the regularisation baseline.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `lambda` | 1.0 | ≥ 0 | penalty weight λ |
/// | `step` | 1e-3 | > 0 | constant step size (paper's grid 5e-4, 1e-3, 2e-3, 5e-3) |
/// | `iters` | 10 000 | ≥ 1 | subgradient steps |
/// | `surrogate` | `HardSigmoid` | | σ |
#[derive(Debug, Clone, PartialEq)]
pub struct RegularizedParams {
    /// λ.
    pub lambda: f64,
    /// Step size.
    pub step: f64,
    /// Iterations.
    pub iters: usize,
    /// σ.
    pub surrogate: Surrogate,
}

impl Default for RegularizedParams {
    fn default() -> Self {
        Self {
            lambda: 1.0,
            step: 1e-3,
            iters: 10_000,
            surrogate: Surrogate::HardSigmoid,
        }
    }
}

fn clipped_slope(s: f64, a: f64, b: f64) -> f64 {
    f64::from(u8::from(s > a && s < b))
}

/// Trains the regularisation baseline; returns the weights `w` (length `2d + 2`).
///
/// # Errors
/// [`DcOptError::InvalidParameter`] for λ < 0, a non-positive step, zero iterations, or grid
/// points outside `[α, β)`; [`DcOptError::Numerical`] if the iterates diverge.
pub fn fit_regularized(
    data: &CrossData,
    interval: PercentileInterval,
    penalty: &Penalty,
    params: &RegularizedParams,
) -> Result<Vec<f64>> {
    if !(params.lambda.is_finite() && params.lambda >= 0.0) {
        return Err(DcOptError::InvalidParameter {
            name: "lambda",
            value: format!("{}", params.lambda),
            expected: "a finite value >= 0",
        });
    }
    positive_finite("step", params.step)?;
    at_least_one("iters", params.iters)?;
    let (a, b) = (interval.alpha(), interval.beta());
    let sur = params.surrogate;
    let nw = data.dim();
    let g = data.n_groups();
    let grid: &[f64] = match penalty {
        Penalty::PartialSp { grid } => {
            check_finite("grid Î", grid)?;
            if grid.is_empty() || grid.iter().any(|p| !(a..b).contains(p)) {
                return Err(DcOptError::InvalidParameter {
                    name: "grid Î",
                    value: format!("{grid:?}"),
                    expected: "a non-empty grid inside [α, β)",
                });
            }
            grid
        }
        Penalty::PartialDp { threshold } => {
            check_finite("threshold θ̂", &[*threshold])?;
            &[]
        }
    };
    let mut x = vec![0.0; nw + grid.len()];
    for (j, &p) in grid.iter().enumerate() {
        x[nw + j] = -sur.inverse(p.clamp(1e-9, 1.0 - 1e-9));
    }
    let n = data.n_rows();
    let mut scores = vec![0.0; n];
    let mut coef = vec![0.0; n];
    let mut grad = vec![0.0; x.len()];
    let mut means = vec![0.0; g];
    let dsig = |z: f64| sur.dplus(z) - sur.dminus(z);
    for it in 0..params.iters {
        data.scores_into(&x[..nw], &mut scores);
        data.logistic_coef(&scores, &mut coef);
        grad.fill(0.0);
        data.add_xt_mul(&coef, 0..n, &mut grad[..nw]);
        match penalty {
            Penalty::PartialSp { .. } => {
                // Argmax over (p, k) of |mean σ − p|.
                let (mut best, mut arg) = (f64::NEG_INFINITY, (0, 0, 1.0));
                for (j, &p) in grid.iter().enumerate() {
                    for k in 0..g {
                        let rows = data.group(k);
                        let nk = rows.len() as f64;
                        let m = scores[rows]
                            .iter()
                            .map(|&s| sur.value(s - x[nw + j]))
                            .sum::<f64>()
                            / nk;
                        if (m - p).abs() > best {
                            best = (m - p).abs();
                            arg = (j, k, (m - p).signum());
                        }
                    }
                }
                let (j, k, sign) = arg;
                let wgt = 2.0 * params.lambda / (b - a) * sign;
                let rows = data.group(k);
                let nk = rows.len() as f64;
                let mut total = 0.0;
                for r in rows.clone() {
                    let c = wgt * dsig(scores[r] - x[nw + j]) / nk;
                    coef[r] = c;
                    total += c;
                }
                data.add_xt_mul(&coef, rows, &mut grad[..nw]);
                grad[nw + j] -= total;
            }
            Penalty::PartialDp { threshold } => {
                for (k, mk) in means.iter_mut().enumerate() {
                    let rows = data.group(k);
                    *mk = scores[rows.clone()]
                        .iter()
                        .map(|&s| sur.value(s - threshold))
                        .sum::<f64>()
                        / rows.len() as f64;
                }
                let c = |s: f64| s.clamp(a, b) - a;
                let (mut best, mut arg) = (f64::NEG_INFINITY, (0, 1));
                for k in 0..g {
                    for k2 in 0..g {
                        if k != k2 && c(means[k]) - c(means[k2]) > best {
                            best = c(means[k]) - c(means[k2]);
                            arg = (k, k2);
                        }
                    }
                }
                let (k, k2) = arg;
                let wgt = params.lambda / (b - a);
                for (grp, sign) in [(k, 1.0), (k2, -1.0)] {
                    let rows = data.group(grp);
                    let nk = rows.len() as f64;
                    let slope = clipped_slope(means[grp], a, b);
                    for r in rows.clone() {
                        coef[r] = wgt * sign * slope * dsig(scores[r] - threshold) / nk;
                    }
                    data.add_xt_mul(&coef, rows, &mut grad[..nw]);
                }
            }
        }
        for (xi, gi) in x.iter_mut().zip(&grad) {
            *xi -= params.step * gi;
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(DcOptError::Numerical {
                stage: "regularised baseline",
                reason: format!("iterate became non-finite at step {it}"),
            });
        }
    }
    x.truncate(nw);
    Ok(x)
}

/// `Display`: `partial_sp(p1, p2, …)` (the grid `Î`, possibly empty: `partial_sp()`) or
/// `partial_dp(threshold)`, each `f64` in Rust's shortest round-trip form, so `FromStr` gives the
/// same penalty back (it parses; the fit validates).
impl std::fmt::Display for Penalty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Penalty::PartialSp { grid } => {
                f.write_str("partial_sp(")?;
                for (i, p) in grid.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")
            }
            Penalty::PartialDp { threshold } => write!(f, "partial_dp({threshold})"),
        }
    }
}

impl std::str::FromStr for Penalty {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the name and the numbers).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || {
            fair_core::ParseEnumError::new(
                "penalty",
                s,
                &["partial_sp(p1, p2, ...)", "partial_dp(threshold)"],
            )
        };
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let values: Vec<f64> = args
            .iter()
            .map(|a| a.parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| error())?;
        match (name, values.as_slice()) {
            ("partial_sp", _) => Ok(Penalty::PartialSp { grid: values }),
            ("partial_dp", &[threshold]) => Ok(Penalty::PartialDp { threshold }),
            _ => Err(error()),
        }
    }
}
