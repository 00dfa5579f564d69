//! The swap-regret λ-player of Algorithms 2–3 (Gordon, Greenwald & Marks 2008; paper App. C).

use crate::error::{GameOptError, Result};
use nalgebra::DMatrix;

/// Smallest log-entry kept in `log M`, so `M` stays strictly positive (Perron–Frobenius: then the
/// stationary distribution is unique and positive).
const LOG_FLOOR: f64 = -700.0;

/// A stationary distribution `λ ∈ Δᵏ` of a column-stochastic (the paper's "left-stochastic")
/// matrix: `Mλ = λ`, `λ ≥ 0`, `Σλ = 1`.
///
/// Solves `(M − I)λ = 0` with one row replaced by `1ᵀλ = 1` (LU), then polishes with a few
/// power steps `λ ← Mλ`; for a strictly positive `M` the residual `‖Mλ − λ‖∞` is at round-off
/// level. Falls back to averaged power iteration when the system is singular (reducible `M`).
///
/// # Errors
/// [`GameOptError::LengthMismatch`] for a non-square matrix, [`GameOptError::Empty`] for 0×0,
/// [`GameOptError::InvalidWeights`] when a column is not a distribution (tolerance 1e-9) or has
/// a non-finite entry.
///
/// # Examples
/// ```
/// use game_opt::stationary_distribution;
/// use nalgebra::DMatrix;
/// let m = DMatrix::from_row_slice(2, 2, &[0.9, 0.2, 0.1, 0.8]);
/// let l = stationary_distribution(&m)?;
/// assert!((l[0] - 2.0 / 3.0).abs() < 1e-12 && (l[1] - 1.0 / 3.0).abs() < 1e-12);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
pub fn stationary_distribution(m: &DMatrix<f64>) -> Result<Vec<f64>> {
    let k = m.nrows();
    if m.ncols() != k {
        return Err(GameOptError::LengthMismatch {
            what: "stochastic matrix columns",
            expected: k,
            got: m.ncols(),
        });
    }
    if k == 0 {
        return Err(GameOptError::Empty {
            what: "stochastic matrix",
        });
    }
    for (i, col) in m.column_iter().enumerate() {
        let s: f64 = col.iter().sum();
        if col.iter().any(|v| !v.is_finite() || *v < 0.0) || (s - 1.0).abs() > 1e-9 {
            return Err(GameOptError::InvalidWeights {
                reason: format!(
                    "column {i} of the stochastic matrix is not a distribution (sum {s})"
                ),
            });
        }
    }
    let mut a = m - DMatrix::<f64>::identity(k, k);
    for j in 0..k {
        a[(k - 1, j)] = 1.0;
    }
    let mut rhs = nalgebra::DVector::<f64>::zeros(k);
    rhs[k - 1] = 1.0;
    let solved = a.lu().solve(&rhs);
    let mut lambda: Vec<f64> = match solved {
        Some(v) if v.iter().all(|x| x.is_finite()) => v.iter().map(|x| x.max(0.0)).collect(),
        _ => averaged_power(m, 10_000),
    };
    normalise(&mut lambda);
    for _ in 0..4 {
        let next = m * nalgebra::DVector::from_column_slice(&lambda);
        lambda = next.iter().copied().collect();
        normalise(&mut lambda);
    }
    Ok(lambda)
}

fn normalise(v: &mut [f64]) {
    let s: f64 = v.iter().sum();
    if s > 0.0 && s.is_finite() {
        for x in v.iter_mut() {
            *x /= s;
        }
    } else {
        let u = 1.0 / v.len() as f64;
        v.iter_mut().for_each(|x| *x = u);
    }
}

fn averaged_power(m: &DMatrix<f64>, iters: usize) -> Vec<f64> {
    let k = m.nrows();
    let mut x = nalgebra::DVector::from_element(k, 1.0 / k as f64);
    let mut avg = nalgebra::DVector::zeros(k);
    for _ in 0..iters {
        x = m * x;
        avg += &x;
    }
    avg.iter().copied().collect()
}

/// The λ-player of the proxy-Lagrangian: a column-stochastic `(m+1)×(m+1)` matrix `M` kept in
/// log space, playing `λ = π(M)`, updated multiplicatively (Algorithm 3, lines 8–9):
///
/// ```text
/// M̃ = M ⊙ exp(η·Δ·λᵀ),   M_{:,i} = M̃_{:,i} / ‖M̃_{:,i}‖₁
/// ```
///
/// where `Δ = (0, g₁, …, g_m)` are the λ-gains. Each column is its own Hedge learner, so the
/// played sequence has low *swap* regret (Lemma 9: `≤ 2B√((m+1)ln(m+1)/T)` with
/// `η = √((m+1)ln(m+1)/(T B²))`). Starts uniform (all entries `1/(m+1)`), as in the paper.
///
/// # Examples
/// ```
/// use game_opt::SwapRegretPlayer;
/// let mut p = SwapRegretPlayer::new(3, 0.5)?;
/// let l = p.distribution()?;
/// assert!((l[0] - 1.0 / 3.0).abs() < 1e-12);
/// p.update(&[0.0, 1.0, 0.0], &l)?; // constraint 1 violated: mass moves to λ₂
/// let l2 = p.distribution()?;
/// assert!(l2[1] > l[1]);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SwapRegretPlayer {
    k: usize,
    /// Column-major: entry (j, i) at `i·k + j`.
    log_m: Vec<f64>,
    eta: f64,
}

impl SwapRegretPlayer {
    /// A uniform player over `k = m + 1` actions with step size `eta`.
    ///
    /// # Errors
    /// [`GameOptError::InvalidParam`] for `k == 0` or a non-positive / non-finite `eta`.
    pub fn new(k: usize, eta: f64) -> Result<Self> {
        if k == 0 {
            return Err(GameOptError::InvalidParam {
                name: "actions",
                value: "0".into(),
                expected: "at least 1 (m + 1)",
            });
        }
        if !(eta.is_finite() && eta > 0.0) {
            return Err(GameOptError::InvalidParam {
                name: "lr_lambda",
                value: eta.to_string(),
                expected: "finite and > 0",
            });
        }
        Ok(Self {
            k,
            log_m: vec![-(k as f64).ln(); k * k],
            eta,
        })
    }

    /// The current matrix `M`.
    pub fn matrix(&self) -> DMatrix<f64> {
        DMatrix::from_column_slice(self.k, self.k, &self.log_m).map(f64::exp)
    }

    /// The stationary distribution `π(M)` (the λ to play).
    ///
    /// # Errors
    /// Only on numerical breakdown (non-finite entries).
    pub fn distribution(&self) -> Result<Vec<f64>> {
        stationary_distribution(&self.matrix())
    }

    /// One multiplicative step with gains `Δ` (length `m + 1`) at the played `λ`.
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`]; [`GameOptError::NonFiniteGradient`] for non-finite gains.
    pub fn update(&mut self, gains: &[f64], lambda: &[f64]) -> Result<()> {
        let k = self.k;
        for (what, v) in [("gains", gains), ("lambda", lambda)] {
            if v.len() != k {
                return Err(GameOptError::LengthMismatch {
                    what,
                    expected: k,
                    got: v.len(),
                });
            }
        }
        if gains.iter().chain(lambda).any(|v| !v.is_finite()) {
            return Err(GameOptError::NonFiniteGradient {
                what: "λ-player gains",
                iteration: 0,
            });
        }
        for (i, &li) in lambda.iter().enumerate() {
            let col = &mut self.log_m[i * k..(i + 1) * k];
            for (c, g) in col.iter_mut().zip(gains) {
                *c += self.eta * g * li;
            }
            let mx = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lse = mx + col.iter().map(|c| (c - mx).exp()).sum::<f64>().ln();
            for c in col.iter_mut() {
                *c = (*c - lse).max(LOG_FLOOR);
            }
        }
        Ok(())
    }
}
