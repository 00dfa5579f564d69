//! A fitted linear cross-term model as versioned bytes, and back.
//!
//! The partial-parity models ([`crate::PartialSp`], [`crate::PartialDp`]) train the weights `w`
//! of the score `h_w(ξ, γ) = ⟨w, (1, ξ, γ, γξ)⟩` (`γ` = group code + 1). Prediction needs `w` and
//! the groups' names (to map a row's group to its code) — nothing of the training rows — so a
//! [`CrossModel`] holds exactly those and its bytes are `O(d + groups)`.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKDC`,
//! format version `u8`, `w` as a `u64` length and `f64` bit patterns, the group count `u64`,
//! then each name as a `u64` length and UTF-8 bytes. Decoding checks every length against the
//! bytes that are left before allocating and rejects NaN/inf: bad bytes give
//! [`DcOptError::Decode`], never a panic.

use crate::data::{SparseRows, cross_dim, cross_scores};
use crate::error::{DcOptError as E, Result};
use fair_data::Groups;

const MAGIC: &[u8; 4] = b"FKDC";
/// Format version written by this build (and the only one it reads).
pub const DC_OPT_FORMAT_VERSION: u8 = 1;
const VERSION: u8 = DC_OPT_FORMAT_VERSION;
const WHAT: &str = "cross-term model";

/// A fitted linear cross-term model: the weights `w` (length `2d + 2`) and the group names it
/// was fitted with, in code order.
///
/// # Examples
/// ```
/// use dc_opt::{CrossModel, SparseRows};
/// use fair_data::Groups;
/// use nalgebra::DMatrix;
/// // d = 1: w = (bias, w_x, w_γ, w_γx).
/// let model = CrossModel::new(vec![0.5, 1.0, -0.25, 0.0], vec!["a".into(), "b".into()])?;
/// let restored = CrossModel::from_bytes(&model.to_bytes())?;
/// assert_eq!(restored, model);
/// let x = SparseRows::from_dense(&DMatrix::from_row_slice(2, 1, &[1.0, 2.0]))?;
/// let groups = Groups::new(vec![0, 1], vec!["a".into(), "b".into()])?;
/// assert_eq!(restored.scores(&x, &groups)?, vec![1.25, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CrossModel {
    weights: Vec<f64>,
    group_names: Vec<String>,
}

impl CrossModel {
    /// A model from its weights (`2d + 2` finite values, `d >= 1`) and group names (at least one).
    ///
    /// # Errors
    /// [`DcOptError::LengthMismatch`] for a length that is not `2d + 2` with `d >= 1` or no group
    /// names; [`DcOptError::NonFinite`] for NaN/inf weights.
    pub fn new(weights: Vec<f64>, group_names: Vec<String>) -> Result<Self> {
        let d = weights.len().saturating_sub(2) / 2;
        if d == 0 || cross_dim(d) != weights.len() {
            return Err(E::LengthMismatch {
                what: "model weights (2d + 2, d >= 1)",
                expected: cross_dim(d.max(1)),
                got: weights.len(),
            });
        }
        if group_names.is_empty() {
            return Err(E::LengthMismatch {
                what: "group names (at least one)",
                expected: 1,
                got: 0,
            });
        }
        if let Some(index) = weights.iter().position(|w| !w.is_finite()) {
            return Err(E::NonFinite {
                what: "model weights",
                index,
            });
        }
        Ok(Self {
            weights,
            group_names,
        })
    }

    /// The weights `w`.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The group names, in code order.
    pub fn group_names(&self) -> &[String] {
        &self.group_names
    }

    /// Number of input features `d`.
    pub fn n_features(&self) -> usize {
        (self.weights.len() - 2) / 2
    }

    /// Scores of rows `x` with groups `groups` (see [`crate::cross_scores`]).
    ///
    /// # Errors
    /// As [`crate::cross_scores`].
    pub fn scores(&self, x: &SparseRows, groups: &Groups) -> Result<Vec<f64>> {
        cross_scores(&self.weights, x, groups)
    }

    /// The model as versioned bytes; [`CrossModel::from_bytes`] gives an equal model back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::header();
        w.floats(&self.weights);
        w.count(self.group_names.len());
        for name in &self.group_names {
            w.count(name.len());
            w.0.extend_from_slice(name.as_bytes());
        }
        w.0
    }

    /// A model from [`CrossModel::to_bytes`].
    ///
    /// # Errors
    /// [`DcOptError::Decode`] for bytes that are not a saved model (wrong magic or version,
    /// truncated, trailing bytes, NaN/inf, wrong lengths).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes)?;
        let weights = r.floats("the model weights")?;
        let n = r.count()?;
        // Every name takes at least its 8-byte length: cap the allocation by the bytes left.
        if n.checked_mul(8)
            .is_none_or(|need| need > bytes.len() - r.at)
        {
            return Err(decode(&format!(
                "{n} group names do not fit in the bytes left"
            )));
        }
        let mut group_names = Vec::with_capacity(n);
        for _ in 0..n {
            group_names.push(r.string()?);
        }
        r.finish()?;
        Self::new(weights, group_names).map_err(|e| decode(&e.to_string()))
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
    fn string(&mut self) -> Result<String> {
        let len = self.count()?;
        let s = std::str::from_utf8(self.take(len)?).map_err(|_| decode("a name is not UTF-8"))?;
        Ok(s.to_owned())
    }
    fn finish(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(decode(&format!("trailing bytes after the saved {WHAT}")))
        }
    }
}
