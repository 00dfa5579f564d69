//! Models: anything with scores and score gradients. A linear model and a one-hidden-layer ReLU
//! network ship with the crate.

use crate::error::{GameOptError, Result};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One example's features, dense and as its non-zeros (`cols` ascending, `vals` the matching
/// values): models may use either; the sparse view skips one-hot zeros.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// All features.
    pub dense: &'a [f64],
    /// Columns of the non-zero features, ascending.
    pub cols: &'a [u32],
    /// The non-zero values, matching `cols`.
    pub vals: &'a [f64],
}

/// A scoring model `f(x; θ)` predicting positive iff `f ≥ 0`: the thin trait the trainer needs.
///
/// Implement it to plug any differentiable model into the game. The trainer reads and writes the
/// flat parameter vector θ and asks for per-row scores and score gradients; rows always have
/// [`Model::n_inputs`] entries (checked before training).
///
/// # Examples
/// ```
/// use game_opt::{Linear, Model};
/// let mut m = Linear::new(2);
/// m.parameters_mut().copy_from_slice(&[1.0, -2.0, 0.5]); // w = (1, −2), b = 0.5
/// assert!((m.score(&[3.0, 1.0]) - 1.5).abs() < 1e-12);
/// let mut g = vec![0.0; 3];
/// m.add_gradient(&[3.0, 1.0], 2.0, &mut g);
/// assert_eq!(g, vec![6.0, 2.0, 2.0]);
/// ```
pub trait Model: Clone + Send + Sync + std::fmt::Debug {
    /// Number of input features.
    fn n_inputs(&self) -> usize;
    /// The flat parameter vector θ.
    fn parameters(&self) -> &[f64];
    /// Mutable access to θ.
    fn parameters_mut(&mut self) -> &mut [f64];
    /// Score `f(row; θ)`.
    fn score(&self, row: &[f64]) -> f64;
    /// Adds `weight · ∂f(row; θ)/∂θ` to `grad` (length `parameters().len()`).
    fn add_gradient(&self, row: &[f64], weight: f64, grad: &mut [f64]);
    /// Indices of parameters that are biases (not L2-regularised). Default: none.
    fn bias_indices(&self) -> Vec<usize> {
        Vec::new()
    }
    /// Score of a row given both views; the default uses the dense one. Overrides must agree
    /// with [`Model::score`] (the trainer and evaluation call this one).
    #[inline]
    fn score_row(&self, row: Row<'_>) -> f64 {
        self.score(row.dense)
    }
    /// [`Model::add_gradient`] given both views; the default uses the dense one.
    #[inline]
    fn add_gradient_row(&self, row: Row<'_>, weight: f64, grad: &mut [f64]) {
        self.add_gradient(row.dense, weight, grad);
    }
}

/// Linear model `f(x) = wᵀx + b`, θ = (w, b), initialised at 0 (Algorithm 3, line 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    theta: Vec<f64>,
}

impl Linear {
    /// A zero linear model on `d` features (`d + 1` parameters).
    pub fn new(d: usize) -> Self {
        Self {
            theta: vec![0.0; d + 1],
        }
    }
    /// From weights and bias.
    ///
    /// # Errors
    /// [`GameOptError::NonFinite`] for a non-finite parameter.
    pub fn from_parts(weights: &[f64], bias: f64) -> Result<Self> {
        let mut theta = weights.to_vec();
        theta.push(bias);
        check_finite(&theta)?;
        Ok(Self { theta })
    }
    /// The weights `w`.
    pub fn weights(&self) -> &[f64] {
        &self.theta[..self.theta.len() - 1]
    }
    /// The bias `b`.
    pub fn bias(&self) -> f64 {
        self.theta[self.theta.len() - 1]
    }
}

fn check_finite(theta: &[f64]) -> Result<()> {
    if let Some((index, &value)) = theta.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(GameOptError::NonFinite {
            what: "model parameters",
            index,
            value,
        });
    }
    Ok(())
}

impl Model for Linear {
    fn n_inputs(&self) -> usize {
        self.theta.len() - 1
    }
    fn parameters(&self) -> &[f64] {
        &self.theta
    }
    fn parameters_mut(&mut self) -> &mut [f64] {
        &mut self.theta
    }
    #[inline]
    fn score(&self, row: &[f64]) -> f64 {
        let d = self.theta.len() - 1;
        let mut s = self.theta[d];
        for (w, x) in self.theta[..d].iter().zip(row) {
            s += w * x;
        }
        s
    }
    #[inline]
    fn add_gradient(&self, row: &[f64], weight: f64, grad: &mut [f64]) {
        let d = self.theta.len() - 1;
        for (g, x) in grad.iter_mut().zip(row).take(d) {
            *g += weight * x;
        }
        if let Some(g) = grad.get_mut(d) {
            *g += weight;
        }
    }
    fn bias_indices(&self) -> Vec<usize> {
        vec![self.theta.len() - 1]
    }
    /// Sums over the non-zeros only, in column order: the same value as [`Model::score`] (the
    /// skipped terms are exact zeros).
    #[inline]
    fn score_row(&self, row: Row<'_>) -> f64 {
        let d = self.theta.len() - 1;
        let mut s = self.theta[d];
        for (&c, x) in row.cols.iter().zip(row.vals) {
            s += self.theta[c as usize] * x;
        }
        s
    }
    #[inline]
    fn add_gradient_row(&self, row: Row<'_>, weight: f64, grad: &mut [f64]) {
        let d = self.theta.len() - 1;
        if grad.len() != d + 1 {
            return self.add_gradient(row.dense, weight, grad);
        }
        for (&c, x) in row.cols.iter().zip(row.vals) {
            grad[c as usize] += weight * x;
        }
        grad[d] += weight;
    }
}

/// A two-layer ReLU network `f(x) = w₂ᵀ relu(W₁x + b₁) + b₂` ("2-layer NN" of the paper's
/// Table 3).
///
/// θ layout: `W₁` (`h × d`, row-major), `b₁` (`h`), `w₂` (`h`), `b₂`. `W₁` and `w₂` start
/// uniform in `±√(6/fan_in)` (He-uniform) from a seeded ChaCha8 stream, biases at 0.
///
/// # Examples
/// ```
/// use game_opt::{Mlp, Model};
/// let net = Mlp::new(3, 10, 7)?;
/// assert_eq!(net.parameters().len(), 3 * 10 + 10 + 10 + 1);
/// assert_eq!(net, Mlp::new(3, 10, 7)?); // same seed, same weights
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp {
    d: usize,
    h: usize,
    theta: Vec<f64>,
}

impl Mlp {
    /// A network with `d` inputs and `hidden` ReLU units, initialised from `seed`.
    ///
    /// # Errors
    /// [`GameOptError::InvalidParam`] for `hidden == 0` or `d == 0`.
    pub fn new(d: usize, hidden: usize, seed: u64) -> Result<Self> {
        if hidden == 0 || d == 0 {
            return Err(GameOptError::InvalidParam {
                name: "hidden / inputs",
                value: format!("{hidden} / {d}"),
                expected: "at least one hidden unit and one input",
            });
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut theta = vec![0.0; hidden * d + 2 * hidden + 1];
        let l1 = (6.0 / d as f64).sqrt();
        for w in &mut theta[..hidden * d] {
            *w = rng.random_range(-l1..l1);
        }
        let l2 = (6.0 / hidden as f64).sqrt();
        let off = hidden * d + hidden;
        for w in &mut theta[off..off + hidden] {
            *w = rng.random_range(-l2..l2);
        }
        Ok(Self {
            d,
            h: hidden,
            theta,
        })
    }
    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.h
    }
    #[inline]
    fn pre_activation_sparse(&self, j: usize, row: Row<'_>) -> f64 {
        let w = &self.theta[j * self.d..(j + 1) * self.d];
        let mut z = self.theta[self.h * self.d + j];
        for (&c, x) in row.cols.iter().zip(row.vals) {
            z += w[c as usize] * x;
        }
        z
    }
    #[inline]
    fn pre_activation(&self, j: usize, row: &[f64]) -> f64 {
        let w = &self.theta[j * self.d..(j + 1) * self.d];
        let mut z = self.theta[self.h * self.d + j];
        for (a, b) in w.iter().zip(row) {
            z += a * b;
        }
        z
    }
}

impl Model for Mlp {
    fn n_inputs(&self) -> usize {
        self.d
    }
    fn parameters(&self) -> &[f64] {
        &self.theta
    }
    fn parameters_mut(&mut self) -> &mut [f64] {
        &mut self.theta
    }
    fn score(&self, row: &[f64]) -> f64 {
        let w2 = self.h * self.d + self.h;
        let mut f = self.theta[w2 + self.h];
        for j in 0..self.h {
            let z = self.pre_activation(j, row);
            if z > 0.0 {
                f += self.theta[w2 + j] * z;
            }
        }
        f
    }
    fn add_gradient(&self, row: &[f64], weight: f64, grad: &mut [f64]) {
        if grad.len() != self.theta.len() {
            return;
        }
        let (d, h) = (self.d, self.h);
        let w2 = h * d + h;
        for j in 0..h {
            let z = self.pre_activation(j, row);
            if z > 0.0 {
                grad[w2 + j] += weight * z;
                let back = weight * self.theta[w2 + j];
                for (g, x) in grad[j * d..(j + 1) * d].iter_mut().zip(row) {
                    *g += back * x;
                }
                grad[h * d + j] += back;
            }
        }
        grad[w2 + h] += weight;
    }
    fn score_row(&self, row: Row<'_>) -> f64 {
        let w2 = self.h * self.d + self.h;
        let mut f = self.theta[w2 + self.h];
        for j in 0..self.h {
            let z = self.pre_activation_sparse(j, row);
            if z > 0.0 {
                f += self.theta[w2 + j] * z;
            }
        }
        f
    }
    fn add_gradient_row(&self, row: Row<'_>, weight: f64, grad: &mut [f64]) {
        if grad.len() != self.theta.len() {
            return;
        }
        let (d, h) = (self.d, self.h);
        let w2 = h * d + h;
        for j in 0..h {
            let z = self.pre_activation_sparse(j, row);
            if z > 0.0 {
                grad[w2 + j] += weight * z;
                let back = weight * self.theta[w2 + j];
                let gj = &mut grad[j * d..(j + 1) * d];
                for (&c, x) in row.cols.iter().zip(row.vals) {
                    gj[c as usize] += back * x;
                }
                grad[h * d + j] += back;
            }
        }
        grad[w2 + h] += weight;
    }
    fn bias_indices(&self) -> Vec<usize> {
        let (d, h) = (self.d, self.h);
        let mut v: Vec<usize> = (h * d..h * d + h).collect();
        v.push(h * d + 2 * h);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sparse paths give exactly the dense paths' scores and gradients.
    fn check_same<M: Model>(model: &M) {
        let dense = [0.0, 1.5, 0.0, 0.0, -2.0, 0.0];
        let cols = [1u32, 4];
        let vals = [1.5, -2.0];
        let row = Row {
            dense: &dense,
            cols: &cols,
            vals: &vals,
        };
        assert_eq!(
            model.score(&dense).to_bits(),
            model.score_row(row).to_bits()
        );
        let n = model.parameters().len();
        let (mut a, mut b) = (vec![0.25; n], vec![0.25; n]);
        model.add_gradient(&dense, 0.7, &mut a);
        model.add_gradient_row(row, 0.7, &mut b);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b));
    }

    #[test]
    fn sparse_rows_match_dense_rows() -> Result<()> {
        let lin = Linear::from_parts(&[0.3, -1.1, 2.0, 0.5, 0.9, -0.4], 0.2)?;
        check_same(&lin);
        for seed in 0..5 {
            check_same(&Mlp::new(6, 4, seed)?);
        }
        Ok(())
    }
}
