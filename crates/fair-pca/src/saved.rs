//! A fitted projection as versioned bytes, and back.
//!
//! `transform` needs the orthonormal basis `U` (d × r) and the centring vector `μ` (d) — nothing
//! of the fitting rows — so the bytes of a [`Projection`] are `O(d·r)` whatever the rows.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKPC`,
//! format version `u8`, `d` and `r` (`u64`), `U` column-major as a `u64` length and `f64` bit
//! patterns, then `μ` likewise, written and read with [`fair_core::bytes`]. Decoding checks every length against the bytes left before
//! allocating, then validates with [`Projection::new`] (finite, orthonormal columns): bad bytes
//! give [`FairPcaError::Decode`](crate::FairPcaError::Decode), never a panic.

use crate::error::{FairPcaError as E, Result};
use crate::model::Projection;
use fair_core::bytes::{DecodeError, Reader, Writer};
use nalgebra::{DMatrix, DVector};

const MAGIC: &[u8; 4] = b"FKPC";
/// Format version written by this build (and the only one it reads).
pub const FAIR_PCA_FORMAT_VERSION: u8 = 1;
const VERSION: u8 = FAIR_PCA_FORMAT_VERSION;
const WHAT: &str = "projection";

impl Projection {
    /// The projection as versioned bytes; [`Projection::from_bytes`] gives an equal projection
    /// back, which transforms to the same bits.
    ///
    /// # Examples
    /// ```
    /// use fair_pca::Projection;
    /// use nalgebra::{DMatrix, DVector};
    /// let p = Projection::new(
    ///     DMatrix::from_column_slice(3, 1, &[1.0, 0.0, 0.0]),
    ///     DVector::from_vec(vec![0.5, 1.0, 2.0]),
    /// )?;
    /// let restored = Projection::from_bytes(&p.to_bytes())?;
    /// assert_eq!(restored, p);
    /// # Ok::<(), fair_pca::FairPcaError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(MAGIC, VERSION);
        w.count(self.n_features());
        w.count(self.rank());
        w.f64s(self.basis().as_slice());
        w.f64s(self.mean().as_slice());
        w.into_bytes()
    }

    /// A projection from [`Projection::to_bytes`].
    ///
    /// # Errors
    /// [`FairPcaError::Decode`](crate::FairPcaError::Decode) for bytes that are not a saved projection (wrong magic or
    /// version, truncated, trailing bytes, NaN/inf, inconsistent shapes, a basis that is not
    /// orthonormal).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, MAGIC, VERSION, WHAT)?;
        let d = r.count("the feature count d")?;
        let rank = r.count("the rank r")?;
        let basis = r.finite_f64s("the basis")?;
        let mean = r.finite_f64s("the centring vector")?;
        r.finish()?;
        if basis.len() != d.saturating_mul(rank) || mean.len() != d {
            return Err(decode(&format!(
                "{} basis values and {} means for d = {d}, r = {rank}",
                basis.len(),
                mean.len()
            )));
        }
        Projection::new(DMatrix::from_vec(d, rank, basis), DVector::from_vec(mean))
            .map_err(|e| decode(&e.to_string()))
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
