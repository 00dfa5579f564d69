//! A fitted stochastic classifier as versioned bytes, and back.
//!
//! What prediction needs is the mixture: each component's weight and parameter vector θ (plus
//! the model family and its shape). The bytes hold exactly that — never training rows — so
//! their size is `O(components × parameters)`, independent of the number of rows fitted on.
//!
//! Layout (little-endian), in the style of `info-projection`'s saved projector: magic `FKGO`,
//! format version `u8`, model tag `u8` (0 = [`Linear`], 1 = [`Mlp`]), inputs `d` and hidden units
//! `h` (`u64`, `h = 0` for linear), the component count `u64`, then per component its weight (`f64`
//! bit pattern) and θ as a `u64` length followed by `f64` bit patterns, written and read with
//! [`fair_core::bytes`]. Decoding checks every length against the bytes that are left before
//! allocating, rejects NaN/inf, and re-validates the mixture with [`StochasticClassifier::new`]:
//! truncated, hostile or foreign bytes give [`GameOptError::Decode`], never a panic or a huge
//! allocation.

use crate::error::{GameOptError as E, Result};
use crate::model::{Linear, Mlp, Model};
use crate::stochastic::StochasticClassifier;
use fair_core::bytes::{DecodeError, Reader, Writer};

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
    /// [`GameOptError::Decode`](crate::GameOptError::Decode) for bytes that are not a saved classifier.
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
    /// [`GameOptError::Decode`](crate::GameOptError::Decode) for bytes that are not a saved linear mixture (wrong magic or
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
    /// [`GameOptError::Decode`](crate::GameOptError::Decode), as [`StochasticClassifier::<Linear>::from_bytes`].
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
    let mut w = Writer::with_header(MAGIC, VERSION);
    w.u8(tag);
    w.count(d);
    w.count(h);
    w.count(components.len());
    for (weight, m) in components {
        w.f64(*weight);
        w.f64s(m.parameters());
    }
    w.into_bytes()
}

type Components = Vec<(f64, Vec<f64>)>;

fn read(bytes: &[u8]) -> Result<(u8, usize, usize, Components)> {
    let mut r = Reader::open(bytes, MAGIC, VERSION, WHAT)?;
    let tag = r.u8("the model tag")?;
    let d = r.count("the input count d")?;
    let h = r.count("the hidden unit count h")?;
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
        tag => {
            return Err(DecodeError::UnknownTag {
                field: "model",
                tag,
            }
            .into());
        }
    }
    .ok_or_else(|| decode("the model shape overflows"))?;
    let k = r.count("the component count")?;
    if k == 0 {
        return Err(decode("a mixture with no component"));
    }
    // Each component takes at least 8 + 8 + 8·expected bytes: check before allocating.
    let per = expected
        .checked_mul(8)
        .and_then(|b| b.checked_add(16))
        .ok_or_else(|| decode("the model shape overflows"))?;
    r.room(k, per, "the mixture components")?;
    let mut components = Vec::with_capacity(k);
    for _ in 0..k {
        let weight = r.finite_f64("a mixture weight")?;
        let theta = r.finite_f64s("a component's parameters")?;
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
    DecodeError::Invalid(reason.to_owned()).into()
}

impl From<DecodeError> for E {
    fn from(e: DecodeError) -> Self {
        E::Decode {
            reason: e.to_string(),
        }
    }
}
