//! A fitted projection as versioned bytes, and back.
//!
//! `transform` needs the orthonormal basis `U` (d × r) and the centring vector `μ` (d) — nothing
//! of the fitting rows — so the bytes of a [`Projection`] are `O(d·r)` whatever the rows.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKPC`,
//! format version `u8`, `d` and `r` (`u64`), `U` column-major as a `u64` length and `f64` bit
//! patterns, then `μ` likewise. Decoding checks every length against the bytes left before
//! allocating, then validates with [`Projection::new`] (finite, orthonormal columns): bad bytes
//! give [`FairPcaError::Decode`], never a panic.

use crate::error::{FairPcaError as E, Result};
use crate::model::Projection;
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
        let mut w = Writer::header();
        w.count(self.n_features());
        w.count(self.rank());
        w.floats(self.basis().as_slice());
        w.floats(self.mean().as_slice());
        w.0
    }

    /// A projection from [`Projection::to_bytes`].
    ///
    /// # Errors
    /// [`FairPcaError::Decode`] for bytes that are not a saved projection (wrong magic or
    /// version, truncated, trailing bytes, NaN/inf, inconsistent shapes, a basis that is not
    /// orthonormal).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes)?;
        let d = r.count()?;
        let rank = r.count()?;
        let basis = r.floats("the basis")?;
        let mean = r.floats("the centring vector")?;
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
    fn finish(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(decode(&format!("trailing bytes after the saved {WHAT}")))
        }
    }
}
