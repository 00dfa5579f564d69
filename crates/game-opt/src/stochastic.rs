//! Stochastic classifiers: finite mixtures of deterministic models.

use crate::error::{GameOptError, Result};
use crate::model::Model;
use crate::problem::{Evaluation, Problem, check_model};
use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A mixture `Σₜ pₜ·δ(θₜ)` of deterministic models: to classify a row, draw a model with
/// probability `pₜ` and use its prediction.
///
/// Predictions are reproducible for a given seed (one ChaCha8 draw per row, in row order).
/// Rates are linear in the mixture weights, so [`StochasticClassifier::evaluate`] reports the
/// exact expected error and constraint values `Σₜ pₜ·gᵢ(θₜ)` — no sampling.
///
/// # Examples
/// ```
/// use game_opt::{Linear, StochasticClassifier};
/// use nalgebra::DMatrix;
/// let yes = Linear::from_parts(&[0.0], 1.0)?;  // always positive
/// let no = Linear::from_parts(&[0.0], -1.0)?;  // always negative
/// let clf = StochasticClassifier::new(vec![(0.25, yes), (0.75, no)])?;
/// let x = DMatrix::zeros(1000, 1);
/// assert!((clf.positive_probability(&x)?[0] - 0.25).abs() < 1e-12);
/// let a = clf.predict(&x, 42)?;
/// assert_eq!(a, clf.predict(&x, 42)?); // same seed, same predictions
/// let share = a.iter().sum::<usize>() as f64 / 1000.0;
/// assert!((share - 0.25).abs() < 0.05);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StochasticClassifier<M> {
    components: Vec<(f64, M)>,
}

impl<M: Model> StochasticClassifier<M> {
    /// A mixture from `(weight, model)` pairs. Zero-weight components are dropped.
    ///
    /// # Errors
    /// [`GameOptError::NoCandidates`] when empty; [`GameOptError::InvalidWeights`] for negative
    /// or non-finite weights, or weights not summing to 1 (±1e-9); [`GameOptError::LengthMismatch`]
    /// when the models take different numbers of inputs.
    pub fn new(components: Vec<(f64, M)>) -> Result<Self> {
        if components.is_empty() {
            return Err(GameOptError::NoCandidates {
                what: "a stochastic classifier",
            });
        }
        if let Some((w, _)) = components.iter().find(|(w, _)| !w.is_finite() || *w < 0.0) {
            return Err(GameOptError::InvalidWeights {
                reason: format!("weight {w} is negative or not finite"),
            });
        }
        let s: f64 = components.iter().map(|(w, _)| w).sum();
        if (s - 1.0).abs() > 1e-9 {
            return Err(GameOptError::InvalidWeights {
                reason: format!("weights sum to {s}, not 1"),
            });
        }
        let d = components[0].1.n_inputs();
        if let Some((_, m)) = components.iter().find(|(_, m)| m.n_inputs() != d) {
            return Err(GameOptError::LengthMismatch {
                what: "model inputs in the mixture",
                expected: d,
                got: m.n_inputs(),
            });
        }
        Ok(Self {
            components: components.into_iter().filter(|(w, _)| *w > 0.0).collect(),
        })
    }

    /// A deterministic classifier (one component).
    pub fn deterministic(model: M) -> Self {
        Self {
            components: vec![(1.0, model)],
        }
    }

    /// The `(weight, model)` components.
    pub fn components(&self) -> &[(f64, M)] {
        &self.components
    }

    fn check_x(&self, x: &DMatrix<f64>) -> Result<()> {
        let d = self.components[0].1.n_inputs();
        if x.ncols() != d {
            return Err(GameOptError::FeatureMismatch {
                expected: d,
                got: x.ncols(),
            });
        }
        Ok(())
    }

    /// `P(predict 1 | x) = Σₜ pₜ·I[fₜ(x) ≥ 0]` for every row.
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`].
    pub fn positive_probability(&self, x: &DMatrix<f64>) -> Result<Vec<f64>> {
        self.check_x(x)?;
        let mut row = vec![0.0; x.ncols()];
        Ok((0..x.nrows())
            .map(|i| {
                row.iter_mut().enumerate().for_each(|(j, v)| *v = x[(i, j)]);
                self.components
                    .iter()
                    .filter(|(_, m)| m.score(&row) >= 0.0)
                    .map(|(w, _)| w)
                    .sum::<f64>()
                    .min(1.0)
            })
            .collect())
    }

    /// Sampled 0/1 predictions: for each row in order, one uniform draw from
    /// `ChaCha8Rng::seed_from_u64(seed)` picks the component.
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`].
    pub fn predict(&self, x: &DMatrix<f64>, seed: u64) -> Result<Vec<usize>> {
        self.check_x(x)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut row = vec![0.0; x.ncols()];
        let last = self.components.len() - 1;
        Ok((0..x.nrows())
            .map(|i| {
                let u: f64 = rng.random();
                let mut acc = 0.0;
                let mut pick = last;
                for (t, (w, _)) in self.components.iter().enumerate() {
                    acc += w;
                    if u < acc {
                        pick = t;
                        break;
                    }
                }
                row.iter_mut().enumerate().for_each(|(j, v)| *v = x[(i, j)]);
                usize::from(self.components[pick].1.score(&row) >= 0.0)
            })
            .collect())
    }

    /// Exact expected error and constraint values on a problem: `Σₜ pₜ·eval(θₜ)`.
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`].
    pub fn evaluate(&self, problem: &Problem) -> Result<Evaluation> {
        check_model(&self.components[0].1, problem.examples().n_features())?;
        let evals = self
            .components
            .iter()
            .map(|(_, m)| problem.evaluate(m))
            .collect::<Result<Vec<_>>>()?;
        let parts: Vec<(f64, &Evaluation)> = self
            .components
            .iter()
            .zip(&evals)
            .map(|((w, _), e)| (*w, e))
            .collect();
        Evaluation::mix(&parts)
    }
}
