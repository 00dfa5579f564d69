//! A fitted linear cross-term model as versioned bytes, and back.
//!
//! The partial-parity models ([`crate::PartialSp`], [`crate::PartialDp`]) train the weights `w`
//! of the score `h_w(ξ, γ) = ⟨w, (1, ξ, γ, γξ)⟩` (`γ` = group code + 1). Prediction needs `w` and
//! the groups' names (to map a row's group to its code) — nothing of the training rows — so a
//! [`CrossModel`] holds exactly those and its bytes are `O(d + groups)`.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKDC`,
//! format version `u8`, `w` as a `u64` length and `f64` bit patterns, the group count `u64`,
//! then each name as a `u64` length and UTF-8 bytes, written and read with
//! [`fair_core::bytes`]. Decoding checks every length against the bytes that are left before
//! allocating and rejects NaN/inf: bad bytes give [`DcOptError::Decode`](crate::DcOptError::Decode), never a panic.

use crate::data::{SparseRows, cross_dim, cross_scores};
use crate::error::{DcOptError as E, Result};
use fair_core::bytes::{DecodeError, Reader, Writer};
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
    /// [`DcOptError::LengthMismatch`](crate::DcOptError::LengthMismatch) for a length that is not `2d + 2` with `d >= 1` or no group
    /// names; [`DcOptError::NonFinite`](crate::DcOptError::NonFinite) for NaN/inf weights.
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
        let mut w = Writer::with_header(MAGIC, VERSION);
        w.f64s(&self.weights);
        w.count(self.group_names.len());
        self.group_names.iter().for_each(|name| w.str(name));
        w.into_bytes()
    }

    /// A model from [`CrossModel::to_bytes`].
    ///
    /// # Errors
    /// [`DcOptError::Decode`](crate::DcOptError::Decode) for bytes that are not a saved model (wrong magic or version,
    /// truncated, trailing bytes, NaN/inf, wrong lengths).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, MAGIC, VERSION, WHAT)?;
        let weights = r.finite_f64s("the model weights")?;
        let n = r.count("the group count")?;
        let group_names = r.strings(n, "a group name")?;
        r.finish()?;
        Self::new(weights, group_names).map_err(|e| decode(&e.to_string()))
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
