//! The objective vector of Pareto fair PCA and its gradients (the "problem", kept apart from the
//! solver loop in [`crate::pareto`]).
//!
//! With `A_i = X_iᵀX_i` (centred rows), `S_i` the sum of the top-`r` eigenvalues of `A_i`, and
//! scale factors `c_i` (`1/n_i` per sample, `1` raw) and `c_0` (`1/n` or `1`), for any `d × r`
//! matrix `V` (orthonormal on the iterates; not at the unprojected Armijo trial points):
//!
//! ```text
//! v_0(V)  = c_0 (tr A − tr(VᵀAV))                 total loss           ∇v_0  = −2 c_0 A V
//! E_i(V)  = c_i (S_i − tr(VᵀA_iV))                disparity (eq. 4)    ∇E_i  = −2 c_i A_i V
//! Δ_ij(V) = E_i(V) − E_j(V)                       pairwise (eq. 11)    ∇Δ_ij = −2 (c_i A_i − c_j A_j) V
//! f_0 = v_0 + α‖V‖²,  f_l = ψ(v_l) + α‖V‖²         eq. (19)             G_l   = ψ'(v_l) ∇v_l + 2αV
//! ```
//!
//! For orthonormal `V` these are exactly the reconstruction losses of eqs. (2)–(4), because
//! `‖X − XVVᵀ‖² = ‖X‖² − tr(VᵀXᵀXV)` when `VᵀV = I`.

use crate::data::GroupedData;
use crate::error::Result;
use crate::linalg::{inner, top_eigenvectors};
use crate::params::{Geometry, LossScale, Normalization, Objectives, Penalty};
use nalgebra::DMatrix;

/// The objective vector of one fit.
pub(crate) struct Problem<'a> {
    data: &'a GroupedData,
    objectives: Objectives,
    penalty: Penalty,
    alpha: f64,
    group_scale: Vec<f64>,
    total_scale: f64,
    /// `S_i`: the variance group `i`'s own rank-`r` PCA captures (raw).
    best: Vec<f64>,
    /// `tr A` (raw).
    total_trace: f64,
    /// The pairs `i < j` of the pairwise objectives.
    pairs: Vec<(usize, usize)>,
}

/// Products and traces at one point `V`.
pub(crate) struct Evaluation {
    /// `A_i V` per group.
    products: Vec<DMatrix<f64>>,
    /// `tr(Vᵀ A_i V)` per group.
    captured: Vec<f64>,
    /// `‖V‖_F²`.
    sq_norm: f64,
}

/// Gradients at one point: raw (for the Armijo slopes) and normalized (for the QP).
pub(crate) struct GradientSet {
    /// `G_l` (Riemannian: projected onto the tangent space).
    pub raw: Vec<DMatrix<f64>>,
    /// `Ĝ_l` after normalization (Remark 1).
    pub normalized: Vec<DMatrix<f64>>,
}

impl<'a> Problem<'a> {
    pub fn new(
        data: &'a GroupedData,
        r: usize,
        objectives: Objectives,
        penalty: Penalty,
        scale: LossScale,
        alpha: f64,
    ) -> Result<Self> {
        let best = data
            .grams
            .iter()
            .map(|a| top_eigenvectors(a, r, "per-group PCA").map(|(_, s)| s))
            .collect::<Result<Vec<_>>>()?;
        let (group_scale, total_scale) = match scale {
            LossScale::Raw => (vec![1.0; data.k()], 1.0),
            LossScale::PerSample => (
                data.counts.iter().map(|&c| 1.0 / c as f64).collect(),
                1.0 / data.n as f64,
            ),
        };
        let k = data.k();
        let pairs = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect();
        Ok(Self {
            data,
            objectives,
            penalty,
            alpha,
            group_scale,
            total_scale,
            best,
            total_trace: data.total.trace(),
            pairs,
        })
    }

    /// Number of objectives `m`.
    pub fn n_objectives(&self) -> usize {
        self.objectives.count(self.data.k())
    }

    /// The products and traces at `v`.
    pub fn evaluate(&self, v: &DMatrix<f64>) -> Evaluation {
        let products: Vec<DMatrix<f64>> = self.data.grams.iter().map(|a| a * v).collect();
        let captured = products.iter().map(|p| inner(v, p)).collect();
        Evaluation {
            products,
            captured,
            sq_norm: v.norm_squared(),
        }
    }

    /// `E_i` on the objective's scale.
    pub fn disparities(&self, ev: &Evaluation) -> Vec<f64> {
        (0..self.data.k())
            .map(|i| self.group_scale[i] * (self.best[i] - ev.captured[i]))
            .collect()
    }

    /// The total loss `v_0` on the objective's scale.
    pub fn total_loss(&self, ev: &Evaluation) -> f64 {
        self.total_scale * (self.total_trace - ev.captured.iter().sum::<f64>())
    }

    /// `max_{i<j} |E_i − E_j|` on the objective's scale.
    pub fn max_gap(disparities: &[f64]) -> f64 {
        let hi = disparities
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let lo = disparities.iter().copied().fold(f64::INFINITY, f64::min);
        hi - lo
    }

    /// The quantities inside `ψ`: `v_0` first, then `Δ_ij` (pairwise) or `E_i` (single).
    fn inner_values(&self, ev: &Evaluation) -> Vec<f64> {
        let e = self.disparities(ev);
        let mut v = vec![self.total_loss(ev)];
        if self.objectives != Objectives::Pairwise {
            v.extend(e.iter().copied());
        }
        if self.objectives != Objectives::Single {
            v.extend(self.pairs.iter().map(|&(i, j)| e[i] - e[j]));
        }
        v
    }

    /// The objective vector `f(V)` of eq. (19).
    pub fn values(&self, ev: &Evaluation) -> Vec<f64> {
        let reg = self.alpha * ev.sq_norm;
        self.inner_values(ev)
            .iter()
            .enumerate()
            .map(|(l, &z)| {
                if l == 0 {
                    z + reg
                } else {
                    self.penalty.value(z) + reg
                }
            })
            .collect()
    }

    /// Raw and normalized gradients of every objective at `v` (orthonormal).
    pub fn gradients(
        &self,
        v: &DMatrix<f64>,
        ev: &Evaluation,
        geometry: Geometry,
        normalization: Normalization,
    ) -> GradientSet {
        // base_i = A_i V, or its tangent part (I − VVᵀ) A_i V.
        let tangent: Option<Vec<DMatrix<f64>>> = match geometry {
            Geometry::Euclidean => None,
            Geometry::Riemannian => Some(
                ev.products
                    .iter()
                    .map(|p| p - v * (v.transpose() * p))
                    .collect(),
            ),
        };
        let base: &[DMatrix<f64>] = tangent.as_deref().unwrap_or(&ev.products);
        let reg = match geometry {
            Geometry::Euclidean => Some(v * (2.0 * self.alpha)),
            Geometry::Riemannian => None,
        };
        let values = self.inner_values(ev);
        let inner_grads = self.combine(base);
        // A tangent gradient that is rounding noise next to its Euclidean size is zero: without
        // this, normalizing it would turn noise into a unit vote (e.g. ∇L at vanilla PCA).
        let negligible: Vec<bool> = match geometry {
            Geometry::Euclidean => vec![false; inner_grads.len()],
            Geometry::Riemannian => self
                .combine(&ev.products)
                .iter()
                .zip(&inner_grads)
                .map(|(eu, tan)| tan.norm() <= RIEMANNIAN_FLOOR * eu.norm())
                .collect(),
        };
        let mut raw = Vec::with_capacity(inner_grads.len());
        let mut normalized = Vec::with_capacity(inner_grads.len());
        for (l, h) in inner_grads.into_iter().enumerate() {
            let slope = if l == 0 {
                1.0
            } else {
                self.penalty.slope(values[l])
            };
            let mut g = &h * slope;
            if let Some(r) = &reg {
                g += r;
            }
            let n = match normalization {
                Normalization::Unit => g.norm(),
                Normalization::PenaltySlope => h.norm(),
                Normalization::None => 1.0,
            };
            let gn = if n > f64::MIN_POSITIVE && n.is_finite() && !negligible[l] {
                &g / n
            } else {
                DMatrix::zeros(g.nrows(), g.ncols())
            };
            if negligible[l] {
                g.fill(0.0);
            }
            raw.push(g);
            normalized.push(gn);
        }
        GradientSet { raw, normalized }
    }

    /// The gradients `∇v_l` of the quantities inside `ψ`, from `base_i = A_i V` (or its tangent
    /// part).
    fn combine(&self, base: &[DMatrix<f64>]) -> Vec<DMatrix<f64>> {
        let mut out: Vec<DMatrix<f64>> = Vec::with_capacity(self.n_objectives());
        let mut total = DMatrix::<f64>::zeros(base[0].nrows(), base[0].ncols());
        for b in base {
            total += b;
        }
        out.push(total * (-2.0 * self.total_scale));
        if self.objectives != Objectives::Pairwise {
            for (i, b) in base.iter().enumerate() {
                out.push(b * (-2.0 * self.group_scale[i]));
            }
        }
        if self.objectives != Objectives::Single {
            for &(i, j) in &self.pairs {
                out.push(
                    &base[i] * (-2.0 * self.group_scale[i])
                        + &base[j] * (2.0 * self.group_scale[j]),
                );
            }
        }
        out
    }
}

/// A Riemannian gradient below this fraction of its Euclidean gradient counts as zero.
const RIEMANNIAN_FLOOR: f64 = 1e-9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::prepare;
    use crate::params::Centering;
    use fair_data::Groups;
    use nalgebra::dmatrix;

    /// Two groups in R³: group a spread along e₁ (values ±2), group b along e₂ (values ±1, two
    /// rows each); no centring, raw scale.
    fn toy() -> GroupedData {
        let x = dmatrix![
            2.0, 0.0, 0.0;
            -2.0, 0.0, 0.0;
            0.0, 1.0, 0.0;
            0.0, -1.0, 0.0
        ];
        let g = Groups::from_labels(&["a", "a", "b", "b"]);
        prepare(&x, &g, 1, Centering::None).unwrap()
    }

    #[test]
    fn losses_by_hand() {
        let data = toy();
        let p = Problem::new(
            &data,
            1,
            Objectives::Pairwise,
            Penalty::Square,
            LossScale::Raw,
            0.0,
        )
        .unwrap();
        // V = e₁: group a loses nothing (E_a = 0), group b loses its 2 (E_b = 2 − 0 = 2).
        let v = dmatrix![1.0; 0.0; 0.0];
        let ev = p.evaluate(&v);
        assert_eq!(p.disparities(&ev), vec![0.0, 2.0]);
        assert!((p.total_loss(&ev) - 2.0).abs() < 1e-15);
        // f = [L, ½Δ²] = [2, ½·(0 − 2)²] = [2, 2].
        assert_eq!(p.values(&ev), vec![2.0, 2.0]);
    }

    #[test]
    fn per_sample_scale_divides_by_group_size() {
        let data = toy();
        let p = Problem::new(
            &data,
            1,
            Objectives::Single,
            Penalty::Abs,
            LossScale::PerSample,
            0.0,
        )
        .unwrap();
        let v = dmatrix![1.0; 0.0; 0.0];
        let ev = p.evaluate(&v);
        // E_b / n_b = 2 / 2 = 1; total 2 / 4 = 0.5; f = [0.5, |0|, |1|].
        assert_eq!(p.values(&ev), vec![0.5, 0.0, 1.0]);
    }

    #[test]
    fn gradients_match_finite_differences() {
        let data = toy();
        for objectives in [
            Objectives::Pairwise,
            Objectives::Single,
            Objectives::SingleAndPairwise,
        ] {
            let p = Problem::new(
                &data,
                1,
                objectives,
                Penalty::Square,
                LossScale::PerSample,
                0.3,
            )
            .unwrap();
            let v = dmatrix![0.6; 0.64; 0.48];
            let ev = p.evaluate(&v);
            let g = p.gradients(&v, &ev, Geometry::Euclidean, Normalization::None);
            let h = 1e-6;
            for l in 0..p.n_objectives() {
                for i in 0..3 {
                    let mut vp = v.clone();
                    let mut vm = v.clone();
                    vp[i] += h;
                    vm[i] -= h;
                    let fd =
                        (p.values(&p.evaluate(&vp))[l] - p.values(&p.evaluate(&vm))[l]) / (2.0 * h);
                    assert!(
                        (fd - g.raw[l][i]).abs() < 1e-6,
                        "{objectives:?} objective {l}, coordinate {i}: fd {fd} vs {}",
                        g.raw[l][i]
                    );
                }
            }
        }
    }

    #[test]
    fn riemannian_gradient_of_the_loss_vanishes_at_vanilla_pca() {
        let data = toy();
        let p = Problem::new(
            &data,
            1,
            Objectives::Pairwise,
            Penalty::Square,
            LossScale::Raw,
            0.0,
        )
        .unwrap();
        // Vanilla PCA of A = diag(8, 2, 0) is e₁.
        let v = dmatrix![1.0; 0.0; 0.0];
        let ev = p.evaluate(&v);
        let eu = p.gradients(&v, &ev, Geometry::Euclidean, Normalization::Unit);
        let ri = p.gradients(&v, &ev, Geometry::Riemannian, Normalization::Unit);
        // Euclidean ∇L = −2AV = (−16, 0, 0): normal to the frame, not zero.
        assert!((eu.raw[0][0] + 16.0).abs() < 1e-12);
        assert!(ri.raw[0].norm() < 1e-300);
    }
}
