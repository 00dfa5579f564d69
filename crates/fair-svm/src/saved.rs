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
//! `u64` length and `f64`s (row-major, `m × p`), then `β` (`m` values). Decoding checks every
//! length against the bytes left before allocating, rejects NaN/inf and invalid kernels: bad
//! bytes give [`FairSvmError::Decode`], never a panic.

use crate::error::{FairSvmError as E, Result};
use crate::input::check_predict;
use crate::kernel::KernelFairSvm;
use crate::linear::SpectralFairSvm;
use crate::params::Kernel;
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
    /// [`FairSvmError::LengthMismatch`] for a different number of features,
    /// [`FairSvmError::NonFinite`] for NaN/inf.
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
        let mut w = Writer::header();
        match &self.kind {
            Kind::Linear { weights } => {
                w.0.push(0);
                w.float(self.intercept);
                w.floats(weights.as_slice());
            }
            Kind::Kernel {
                kernel,
                support,
                coef,
            } => {
                w.0.push(1);
                w.float(self.intercept);
                match *kernel {
                    Kernel::Linear => w.0.push(0),
                    Kernel::Rbf { gamma } => {
                        w.0.push(1);
                        w.float(gamma);
                    }
                    Kernel::Polynomial {
                        degree,
                        gamma,
                        coef0,
                    } => {
                        w.0.push(2);
                        w.count(degree as usize);
                        w.float(gamma);
                        w.float(coef0);
                    }
                }
                w.count(support.ncols());
                w.floats(support.transpose().as_slice());
                w.floats(coef.as_slice());
            }
        }
        w.0
    }

    /// A scorer from [`FairSvmScorer::to_bytes`].
    ///
    /// # Errors
    /// [`FairSvmError::Decode`] for bytes that are not a saved fair SVM (wrong magic or
    /// version, truncated, trailing bytes, NaN/inf, an invalid kernel, inconsistent lengths).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes)?;
        let tag = r.byte()?;
        let intercept = r.finite("the intercept")?;
        let kind = match tag {
            0 => {
                let weights = r.floats("the weights")?;
                if weights.is_empty() {
                    return Err(decode("a linear model with no weights"));
                }
                Kind::Linear {
                    weights: DVector::from_vec(weights),
                }
            }
            1 => {
                let kernel = match r.byte()? {
                    0 => Kernel::Linear,
                    1 => Kernel::Rbf {
                        gamma: r.finite("the kernel gamma")?,
                    },
                    2 => {
                        let degree = u32::try_from(r.count()?)
                            .map_err(|_| decode("the kernel degree does not fit 32 bits"))?;
                        Kernel::Polynomial {
                            degree,
                            gamma: r.finite("the kernel gamma")?,
                            coef0: r.finite("the kernel coef0")?,
                        }
                    }
                    other => return Err(decode(&format!("unknown kernel tag {other}"))),
                };
                kernel
                    .check()
                    .map_err(|e| decode(&format!("invalid kernel: {e}")))?;
                let p = r.count()?;
                let flat = r.floats("the support vectors")?;
                let coef = r.floats("the dual coefficients")?;
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
            other => return Err(decode(&format!("unknown model tag {other}"))),
        };
        r.finish()?;
        Ok(Self { intercept, kind })
    }
}

fn decode(reason: &str) -> E {
    E::Decode {
        reason: reason.to_owned(),
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn header() -> Self {
        let mut w = Writer(Vec::new());
        w.0.extend_from_slice(MAGIC);
        w.0.push(VERSION);
        w
    }
    fn count(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    fn float(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_bits().to_le_bytes());
    }
    fn floats(&mut self, xs: &[f64]) {
        self.count(xs.len());
        xs.iter().for_each(|&x| self.float(x));
    }
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    /// Checks the magic and the format version.
    fn open(bytes: &'b [u8]) -> Result<Self> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err(decode(&format!(
                "not a saved {WHAT} (the bytes do not start with {})",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let version = r.byte()?;
        if version != VERSION {
            return Err(decode(&format!(
                "saved with format version {version}; this build reads version {VERSION}"
            )));
        }
        Ok(r)
    }
    fn take(&mut self, len: usize) -> Result<&'b [u8]> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| decode("truncated (the bytes end inside a field)"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
    fn count(&mut self) -> Result<usize> {
        usize::try_from(self.u64()?).map_err(|_| decode("a count does not fit this platform"))
    }
    fn float(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    /// A finite float (NaN and ±inf are decode errors).
    fn finite(&mut self, what: &str) -> Result<f64> {
        let x = self.float()?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(decode(&format!("{what} is not finite ({x})")))
        }
    }
    /// A length-prefixed vector of finite floats; the length is checked against the bytes that
    /// are left before anything is allocated.
    fn floats(&mut self, what: &str) -> Result<Vec<f64>> {
        let n = self.count()?;
        let bytes = self.take(n.checked_mul(8).ok_or_else(|| decode("length overflow"))?)?;
        let xs: Vec<f64> = bytes
            .chunks_exact(8)
            .map(|b| f64::from_bits(u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))))
            .collect();
        if let Some(x) = xs.iter().find(|x| !x.is_finite()) {
            return Err(decode(&format!("{what} has a non-finite value ({x})")));
        }
        Ok(xs)
    }
    fn finish(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(decode(&format!("trailing bytes after the saved {WHAT}")))
        }
    }
}
