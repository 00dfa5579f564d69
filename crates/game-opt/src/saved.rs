//! A fitted stochastic classifier as versioned bytes, and back.
//!
//! What prediction needs is the mixture: each component's weight and parameter vector θ (plus
//! the model family and its shape). The bytes hold exactly that — never training rows — so
//! their size is `O(components × parameters)`, independent of the number of rows fitted on.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKGO`,
//! format version `u8`, model tag `u8` (0 = [`Linear`], 1 = [`Mlp`]), inputs `d` and hidden
//! units `h` (`u64`, `h = 0` for linear), the component count `u64`, then per component its
//! weight (`f64` bit pattern) and θ as a `u64` length followed by `f64` bit patterns.
//! Decoding checks every length against the bytes that are left before allocating, rejects
//! NaN/inf, and re-validates the mixture with [`StochasticClassifier::new`]: truncated, hostile
//! or foreign bytes give [`GameOptError::Decode`], never a panic or a huge allocation.

use crate::error::{GameOptError as E, Result};
use crate::model::{Linear, Mlp, Model};
use crate::stochastic::StochasticClassifier;

const MAGIC: &[u8; 4] = b"FKGO";
/// Format version written by this build (and the only one it reads).
pub const GAME_OPT_FORMAT_VERSION: u8 = 1;
const VERSION: u8 = GAME_OPT_FORMAT_VERSION;
const WHAT: &str = "stochastic classifier";

const TAG_LINEAR: u8 = 0;
const TAG_MLP: u8 = 1;

/// A saved classifier of either model family, as [`SavedClassifier::from_bytes`] finds it.
#[derive(Debug, Clone, PartialEq)]
pub enum SavedClassifier {
    /// A mixture of linear models.
    Linear(StochasticClassifier<Linear>),
    /// A mixture of one-hidden-layer networks.
    Mlp(StochasticClassifier<Mlp>),
}

impl SavedClassifier {
    /// Decodes the bytes of [`StochasticClassifier::to_bytes`] whatever the model family.
    ///
    /// # Errors
    /// [`GameOptError::Decode`] for bytes that are not a saved classifier.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let (tag, d, h, components) = read(bytes)?;
        match tag {
            TAG_LINEAR => Ok(Self::Linear(rebuild(Linear::new(d), components)?)),
            _ => {
                let template = Mlp::new(d, h, 0).map_err(|e| decode(&e.to_string()))?;
                Ok(Self::Mlp(rebuild(template, components)?))
            }
        }
    }

    /// The classifier's bytes (as [`StochasticClassifier::to_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Self::Linear(c) => c.to_bytes(),
            Self::Mlp(c) => c.to_bytes(),
        }
    }
}

impl StochasticClassifier<Linear> {
    /// The mixture as versioned bytes (for pickling, a file or a broadcast); the size does not
    /// depend on the rows fitted on. [`StochasticClassifier::<Linear>::from_bytes`] restores a
    /// classifier equal to this one, so it predicts the same bits.
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Linear, StochasticClassifier};
    /// let clf = StochasticClassifier::new(vec![
    ///     (0.25, Linear::from_parts(&[1.0, -2.0], 0.5)?),
    ///     (0.75, Linear::from_parts(&[0.0, 1.0], -1.0)?),
    /// ])?;
    /// let restored = StochasticClassifier::<Linear>::from_bytes(&clf.to_bytes())?;
    /// assert_eq!(restored, clf);
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let d = self.components()[0].1.n_inputs();
        write(TAG_LINEAR, d, 0, self.components())
    }

    /// A linear mixture from [`StochasticClassifier::<Linear>::to_bytes`].
    ///
    /// # Errors
    /// [`GameOptError::Decode`] for bytes that are not a saved linear mixture (wrong magic or
    /// version, a network's bytes, truncated, trailing bytes, NaN/inf, invalid weights).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        match SavedClassifier::from_bytes(bytes)? {
            SavedClassifier::Linear(c) => Ok(c),
            SavedClassifier::Mlp(_) => Err(decode(
                "the bytes hold a mixture of networks, not of linear models",
            )),
        }
    }
}

impl StochasticClassifier<Mlp> {
    /// The mixture as versioned bytes (see [`StochasticClassifier::<Linear>::to_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let m = &self.components()[0].1;
        write(TAG_MLP, m.n_inputs(), m.hidden(), self.components())
    }

    /// A network mixture from [`StochasticClassifier::<Mlp>::to_bytes`].
    ///
    /// # Errors
    /// [`GameOptError::Decode`], as [`StochasticClassifier::<Linear>::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        match SavedClassifier::from_bytes(bytes)? {
            SavedClassifier::Mlp(c) => Ok(c),
            SavedClassifier::Linear(_) => Err(decode(
                "the bytes hold a mixture of linear models, not of networks",
            )),
        }
    }
}

fn write<M: Model>(tag: u8, d: usize, h: usize, components: &[(f64, M)]) -> Vec<u8> {
    let mut w = Writer::header();
    w.0.push(tag);
    w.count(d);
    w.count(h);
    w.count(components.len());
    for (weight, m) in components {
        w.float(*weight);
        w.floats(m.parameters());
    }
    w.0
}

type Components = Vec<(f64, Vec<f64>)>;

fn read(bytes: &[u8]) -> Result<(u8, usize, usize, Components)> {
    let mut r = Reader::open(bytes)?;
    let tag = r.byte()?;
    let d = r.count()?;
    let h = r.count()?;
    let expected = match tag {
        TAG_LINEAR if h == 0 => d.checked_add(1),
        TAG_LINEAR => return Err(decode(&format!("a linear model with {h} hidden units"))),
        TAG_MLP if h == 0 || d == 0 => {
            return Err(decode(&format!(
                "a network with {d} inputs and {h} hidden units (at least 1 of each)"
            )));
        }
        TAG_MLP => h
            .checked_mul(d)
            .and_then(|hd| hd.checked_add(h.checked_mul(2)?))
            .and_then(|p| p.checked_add(1)),
        other => return Err(decode(&format!("unknown model tag {other}"))),
    }
    .ok_or_else(|| decode("the model shape overflows"))?;
    let k = r.count()?;
    if k == 0 {
        return Err(decode("a mixture with no component"));
    }
    // Each component takes at least 8 + 8 + 8·expected bytes: check before allocating.
    let per = expected
        .checked_mul(8)
        .and_then(|b| b.checked_add(16))
        .ok_or_else(|| decode("the model shape overflows"))?;
    if k.checked_mul(per)
        .is_none_or(|need| need > bytes.len() - r.at)
    {
        return Err(decode(&format!(
            "{k} components of {expected} parameters do not fit in the bytes left"
        )));
    }
    let mut components = Vec::with_capacity(k);
    for _ in 0..k {
        let weight = r.finite("a mixture weight")?;
        let theta = r.floats("a component's parameters")?;
        if theta.len() != expected {
            return Err(decode(&format!(
                "a component has {} parameters, the model needs {expected}",
                theta.len()
            )));
        }
        components.push((weight, theta));
    }
    r.finish()?;
    Ok((tag, d, h, components))
}

fn rebuild<M: Model>(template: M, components: Components) -> Result<StochasticClassifier<M>> {
    let parts = components
        .into_iter()
        .map(|(w, theta)| {
            let mut m = template.clone();
            m.parameters_mut().copy_from_slice(&theta);
            (w, m)
        })
        .collect();
    StochasticClassifier::new(parts).map_err(|e| decode(&e.to_string()))
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
