//! A fitted post-processor as versioned bytes, and back.
//!
//! The map needs every group's sorted (jittered) fitted predictions — the empirical CDF and
//! quantile function *are* those values — so the bytes are `O(rows)`: 8 bytes per fitted row
//! per attribute (16 with weights), plus names and shares.
//!
//! Layout (little-endian), written and read with [`fair_core::bytes`]: magic `FKWB`, format
//! version `u8`; the levels `alpha` (`[f64]`), `sigma` (`f64`), the seed (`u64`); the attribute
//! count K and each attribute's group names (a count, then strings); then per attribute j its
//! strata (a count), each as its key (K − j − 1 counts), its shares (`[f64]`, one per group of
//! the attribute) and per group a presence flag, then the sorted values (`[f64]`) and a flag for
//! cumulative weights (`[f64]`). Decoding checks every length against the bytes left before
//! allocating and validates every value, so bad bytes are
//! [`FairRegressionError::Decode`](crate::FairRegressionError::Decode), never a panic.

use crate::error::{FairRegressionError as E, Result};
use crate::model::{FittedBarycenter, Step, Stratum};
use crate::params::BarycenterParams;
use crate::quantile::GroupFit;
use fair_core::ParamGuard;
use fair_core::bytes::{DecodeError, Reader, Writer};
use std::collections::HashSet;

const MAGIC: &[u8; 4] = b"FKWB";
/// Format version written by this build (and the only one it reads).
pub const FAIR_REGRESSION_FORMAT_VERSION: u8 = 1;
const WHAT: &str = "Wasserstein-barycenter post-processor";

impl FittedBarycenter {
    /// The fitted post-processor as versioned bytes (for pickling, a file or a broadcast);
    /// [`FittedBarycenter::from_bytes`] gives one that transforms to the same bits.
    ///
    /// # Examples
    /// ```
    /// use fair_regression::{FittedBarycenter, ParamGuard, WassersteinBarycenter};
    /// use fair_core::Groups;
    /// let y = [0.3, 0.1, 0.8, 0.5, 0.9];
    /// let g = Groups::from_labels(&["a", "a", "b", "b", "b"]);
    /// let fitted = WassersteinBarycenter::params().alpha(0.5).check()?.fit(&y, &[g.clone()], None)?;
    /// let restored = FittedBarycenter::from_bytes(&fitted.to_bytes())?;
    /// assert_eq!(restored.transform(&y, &[g.clone()])?, fitted.transform(&y, &[g])?);
    /// # Ok::<(), fair_regression::FairRegressionError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(MAGIC, FAIR_REGRESSION_FORMAT_VERSION);
        w.f64s(&self.params.alpha);
        w.f64(self.params.sigma);
        w.u64(self.params.seed);
        w.count(self.names.len());
        for names in &self.names {
            w.count(names.len());
            names.iter().for_each(|s| w.str(s));
        }
        for step in &self.steps {
            w.count(step.strata.len());
            for stratum in &step.strata {
                stratum.key.iter().for_each(|&c| w.count(c));
                w.f64s(&stratum.shares);
                for group in &stratum.groups {
                    w.bool(group.is_some());
                    if let Some(g) = group {
                        w.f64s(&g.values);
                        w.bool(g.cumulative.is_some());
                        if let Some(c) = &g.cumulative {
                            w.f64s(c);
                        }
                    }
                }
            }
        }
        w.into_bytes()
    }

    /// A post-processor from [`FittedBarycenter::to_bytes`].
    ///
    /// # Errors
    /// [`FairRegressionError::Decode`](crate::FairRegressionError::Decode) for bytes that are
    /// not a saved post-processor (wrong magic or version, truncated, trailing bytes, NaN,
    /// unsorted values, shares that are not a distribution, keys out of range).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, MAGIC, FAIR_REGRESSION_FORMAT_VERSION, WHAT)?;
        let alpha = r.f64s("the fairness levels alpha")?;
        let sigma = r.f64("the jitter sigma")?;
        let seed = r.u64("the seed")?;
        let params = BarycenterParams { alpha, sigma, seed };
        params.check_ref().map_err(|e| invalid(e.to_string()))?;
        let k = r.count("the attribute count")?;
        // Each attribute takes at least its 8-byte name count and a strata count.
        r.room(k, 16, "the attribute count")?;
        if k == 0 || (params.alpha.len() != 1 && params.alpha.len() != k) {
            return Err(invalid(format!(
                "{k} attributes with {} levels alpha",
                params.alpha.len()
            )));
        }
        let mut names = Vec::with_capacity(k);
        for _ in 0..k {
            let m = r.count("a group count")?;
            let group_names = r.strings(m, "a group name")?;
            if m < 2 {
                return Err(invalid(format!("an attribute with {m} groups")));
            }
            names.push(group_names);
        }
        let mut steps = Vec::with_capacity(k);
        for j in 0..k {
            let count = r.count("a stratum count")?;
            r.room(count, 8, "a stratum count")?;
            let mut strata = Vec::with_capacity(count);
            let mut keys = HashSet::new();
            for _ in 0..count {
                let key = (j + 1..k)
                    .map(|l| {
                        let c = r.count("a stratum key")?;
                        if c >= names[l].len() {
                            return Err(invalid(format!("stratum key code {c} of attribute {l}")));
                        }
                        Ok(c)
                    })
                    .collect::<Result<Vec<_>>>()?;
                if !keys.insert(key.clone()) {
                    return Err(invalid(format!("stratum key {key:?} repeated")));
                }
                let shares = r.finite_f64s("the shares")?;
                let groups = (0..names[j].len())
                    .map(|_| read_group(&mut r))
                    .collect::<Result<Vec<_>>>()?;
                check_shares(&shares, &groups)?;
                strata.push(Stratum {
                    key,
                    groups,
                    shares,
                });
            }
            if j + 1 == k && count != 1 {
                return Err(invalid(format!("{count} strata for the last attribute")));
            }
            steps.push(Step::new(strata));
        }
        r.finish()?;
        Ok(Self {
            params,
            names,
            steps,
        })
    }
}

fn read_group(r: &mut Reader<'_>) -> Result<Option<GroupFit>> {
    if !r.bool("a group's presence flag")? {
        return Ok(None);
    }
    let values = r.finite_f64s("a group's sorted values")?;
    if values.is_empty() || values.windows(2).any(|w| w[1] < w[0]) {
        return Err(invalid("a group's values are empty or not sorted".into()));
    }
    let cumulative = if r.bool("the weights flag")? {
        let c = r.finite_f64s("a group's cumulative weights")?;
        if c.len() != values.len() || c[0] <= 0.0 || c.windows(2).any(|w| w[1] < w[0]) {
            return Err(invalid(
                "cumulative weights must be positive, non-decreasing and one per value".into(),
            ));
        }
        Some(c)
    } else {
        None
    };
    Ok(Some(GroupFit { values, cumulative }))
}

fn check_shares(shares: &[f64], groups: &[Option<GroupFit>]) -> Result<()> {
    let total: f64 = shares.iter().sum();
    let consistent = shares.len() == groups.len()
        && shares
            .iter()
            .zip(groups)
            // An absent group has no share; a present one's may underflow to 0 beside huge weights.
            .all(|(&s, g)| (0.0..=1.0).contains(&s) && (g.is_some() || s <= 0.0))
        && (total - 1.0).abs() <= 1e-9;
    if consistent {
        Ok(())
    } else {
        Err(invalid(format!(
            "shares {shares:?} are not a distribution over the present groups"
        )))
    }
}

fn invalid(reason: String) -> E {
    DecodeError::Invalid(reason).into()
}

impl From<DecodeError> for E {
    fn from(e: DecodeError) -> Self {
        E::Decode {
            reason: e.to_string(),
        }
    }
}
