//! A fitted fair SVM's scorer as versioned bytes, and back.
//!
//! Prediction needs the score function only: `xᵀw + b` for the linear model, and
//! `Σᵢ βᵢ K(xᵢ, x) + b` over the support vectors (rows with `βᵢ ≠ 0`) for the kernel model. A
//! [`FairSvmScorer`] holds exactly that — no labels, no protected classes, no refitting — so the
//! linear model's bytes are `O(d)` whatever the rows, and the kernel model's are
//! `O(support vectors × d)` (the support vectors *are* the kernel model).
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKSV`,
//! format version `u8`, model tag `u8` (0 = linear, 1 = kernel), the intercept (`f64` bit
//! pattern); linear: `w` as a `u64` length and `f64`s; kernel: kernel tag `u8` (0 = linear,
//! 1 = RBF γ, 2 = polynomial degree `u64`, γ, c₀), features `p` `u64`, the support vectors as a
//! `u64` length and `f64`s (row-major, `m × p`), then `β` (`m` values), written and read with [`fair_core::bytes`]. Decoding checks every
//! length against the bytes left before allocating, rejects NaN/inf and invalid kernels: bad
//! bytes give [`FairSvmError::Decode`](crate::FairSvmError::Decode), never a panic.

use crate::error::{FairSvmError as E, Result};
use crate::input::check_predict;
use crate::kernel::KernelFairSvm;
use crate::linear::SpectralFairSvm;
use crate::params::Kernel;
use fair_core::bytes::{DecodeError, Reader, Writer};
use nalgebra::{DMatrix, DVector};

const MAGIC: &[u8; 4] = b"FKSV";
/// Format version written by this build (and the only one it reads).
pub const FAIR_SVM_FORMAT_VERSION: u8 = 1;
const VERSION: u8 = FAIR_SVM_FORMAT_VERSION;
const WHAT: &str = "fair SVM";
/// Largest feature count a saved kernel model may declare (2²⁴).
const MAX_FEATURES: usize = 1 << 24;

/// The score function of a fitted fair SVM (linear or kernel), which is all prediction needs.
///
/// # Examples
/// ```
/// use fair_svm::{FairSvmScorer, SpectralFairSvm};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(8, 2, &[
///     -2.0, -3.0,  -1.0, 3.0,   1.0, -3.0,  2.0, 3.0,
///     -2.0, -0.1,  -1.0, 0.1,   1.0, -0.1,  2.0, 0.1,
/// ]);
/// let y = [0, 0, 1, 1, 0, 0, 1, 1];
/// let z = fair_svm::Groups::from_codes(&[1, 1, 1, 1, 0, 0, 0, 0])?;
/// let svm = SpectralFairSvm::params().lambda(0.1).d(0.1).mu(10.0).fit(&x, &y, &z)?;
/// let scorer = FairSvmScorer::from(&svm);
/// let restored = FairSvmScorer::from_bytes(&scorer.to_bytes())?;
/// assert_eq!(restored, scorer);
/// assert_eq!(restored.decision_function(&x)?, svm.decision_function(&x)?);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FairSvmScorer {
    intercept: f64,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Linear {
        weights: DVector<f64>,
    },
    Kernel {
        kernel: Kernel,
        support: DMatrix<f64>,
        coef: DVector<f64>,
    },
}

impl From<&SpectralFairSvm> for FairSvmScorer {
    fn from(m: &SpectralFairSvm) -> Self {
        Self {
            intercept: m.intercept(),
            kind: Kind::Linear {
                weights: m.weights().clone(),
            },
        }
    }
}

impl From<&KernelFairSvm> for FairSvmScorer {
    /// Keeps the rows with `βᵢ ≠ 0` (the support vectors) and their coefficients.
    fn from(m: &KernelFairSvm) -> Self {
        let x = m.training_rows();
        let keep: Vec<usize> = (0..m.beta().len())
            .filter(|&i| m.beta()[i] != 0.0)
            .collect();
        Self {
            intercept: m.intercept(),
            kind: Kind::Kernel {
                kernel: m.fitted_params().kernel(),
                support: x.select_rows(keep.iter()),
                coef: DVector::from_iterator(keep.len(), keep.iter().map(|&i| m.beta()[i])),
            },
        }
    }
}

impl FairSvmScorer {
    /// The intercept `b`.
    pub fn intercept(&self) -> f64 {
        self.intercept
    }

    /// Number of input features.
    pub fn n_features(&self) -> usize {
        match &self.kind {
            Kind::Linear { weights } => weights.len(),
            Kind::Kernel { support, .. } => support.ncols(),
        }
    }

    /// Support vectors kept (0 for the linear model).
    pub fn n_support_vectors(&self) -> usize {
        match &self.kind {
            Kind::Linear { .. } => 0,
            Kind::Kernel { support, .. } => support.nrows(),
        }
    }

    /// Scores of new rows (linear: the same bits as [`SpectralFairSvm::decision_function`]).
    ///
    /// # Errors
    /// [`FairSvmError::LengthMismatch`](crate::FairSvmError::LengthMismatch) for a different number of features,
    /// [`FairSvmError::NonFinite`](crate::FairSvmError::NonFinite) for NaN/inf.
    pub fn decision_function(&self, x: &DMatrix<f64>) -> Result<DVector<f64>> {
        check_predict(x, self.n_features())?;
        match &self.kind {
            Kind::Linear { weights } => Ok((x * weights).add_scalar(self.intercept)),
            Kind::Kernel {
                kernel,
                support,
                coef,
            } => {
                let k = kernel.matrix(x, support)?;
                Ok((k * coef).add_scalar(self.intercept))
            }
        }
    }

    /// The scorer as versioned bytes; [`FairSvmScorer::from_bytes`] gives an equal scorer back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(MAGIC, VERSION);
        match &self.kind {
            Kind::Linear { weights } => {
                w.u8(0);
                w.f64(self.intercept);
                w.f64s(weights.as_slice());
            }
            Kind::Kernel {
                kernel,
                support,
                coef,
            } => {
                w.u8(1);
                w.f64(self.intercept);
                match *kernel {
                    Kernel::Linear => w.u8(0),
                    Kernel::Rbf { gamma } => {
                        w.u8(1);
                        w.f64(gamma);
                    }
                    Kernel::Polynomial {
                        degree,
                        gamma,
                        coef0,
                    } => {
                        w.u8(2);
                        w.count(degree as usize);
                        w.f64(gamma);
                        w.f64(coef0);
                    }
                }
                w.count(support.ncols());
                w.f64s(support.transpose().as_slice());
                w.f64s(coef.as_slice());
            }
        }
        w.into_bytes()
    }

    /// A scorer from [`FairSvmScorer::to_bytes`].
    ///
    /// # Errors
    /// [`FairSvmError::Decode`](crate::FairSvmError::Decode) for bytes that are not a saved fair SVM (wrong magic or
    /// version, truncated, trailing bytes, NaN/inf, an invalid kernel, inconsistent lengths).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, MAGIC, VERSION, WHAT)?;
        let tag = r.u8("the model tag")?;
        let intercept = r.finite_f64("the intercept")?;
        let kind = match tag {
            0 => {
                let weights = r.finite_f64s("the weights")?;
                if weights.is_empty() {
                    return Err(decode("a linear model with no weights"));
                }
                Kind::Linear {
                    weights: DVector::from_vec(weights),
                }
            }
            1 => {
                let kernel = match r.u8("the kernel tag")? {
                    0 => Kernel::Linear,
                    1 => Kernel::Rbf {
                        gamma: r.finite_f64("the kernel gamma")?,
                    },
                    2 => {
                        let degree = u32::try_from(r.count("the kernel degree")?)
                            .map_err(|_| decode("the kernel degree does not fit 32 bits"))?;
                        Kernel::Polynomial {
                            degree,
                            gamma: r.finite_f64("the kernel gamma")?,
                            coef0: r.finite_f64("the kernel coef0")?,
                        }
                    }
                    tag => {
                        return Err(DecodeError::UnknownTag {
                            field: "kernel",
                            tag,
                        }
                        .into());
                    }
                };
                kernel
                    .check()
                    .map_err(|e| decode(&format!("invalid kernel: {e}")))?;
                let p = r.count("the feature count")?;
                let flat = r.finite_f64s("the support vectors")?;
                let coef = r.finite_f64s("the dual coefficients")?;
                // With no support vectors p is not bounded by the bytes: cap it.
                if p == 0 || p > MAX_FEATURES || flat.len() != coef.len().saturating_mul(p) {
                    return Err(decode(&format!(
                        "{} support-vector values for {} coefficients of {p} features",
                        flat.len(),
                        coef.len()
                    )));
                }
                Kind::Kernel {
                    kernel,
                    support: DMatrix::from_row_slice(coef.len(), p, &flat),
                    coef: DVector::from_vec(coef),
                }
            }
            tag => {
                return Err(DecodeError::UnknownTag {
                    field: "model",
                    tag,
                }
                .into());
            }
        };
        r.finish()?;
        Ok(Self { intercept, kind })
    }
}

fn decode(reason: &str) -> E {
    DecodeError::Invalid(reason.to_owned()).into()
}

impl From<DecodeError> for E {
    fn from(e: DecodeError) -> Self {
        E::Decode {
            reason: e.to_string(),
        }
    }
}
