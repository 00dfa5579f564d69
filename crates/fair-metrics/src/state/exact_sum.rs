//! An exact, order-independent f64 sum: a thin wrapper over `bitrep`'s superaccumulator that adds
//! the traits the states need, and [`ExactSumParts`]: the same exact total assembled from
//! integer parts summed elsewhere.

use crate::error::{MetricError, Result};

/// The exact sum of the `f64` values added, rounded once when read. Adding and merging commute,
/// so any order and any partitioning of the same values give the same bits.
#[derive(Clone, Default)]
pub(crate) struct ExactSum(bitrep::SumF64);

impl ExactSum {
    /// Adds one value (the callers pass finite values only).
    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        self.0.add(x);
    }

    /// Adds every value of `other`.
    pub(crate) fn merge(&mut self, other: &ExactSum) {
        self.0.merge(&other.0);
    }

    /// The exactly rounded sum (`+inf` if it overflows `f64`).
    pub(crate) fn value(&self) -> f64 {
        self.0.value()
    }

    /// Canonical bytes (equal sums of equal multisets give equal bytes).
    pub(crate) fn to_bytes(&self) -> [u8; bitrep::SumF64::BYTES] {
        self.0.to_bytes()
    }

    /// Decodes [`to_bytes`](Self::to_bytes); `None` for corrupt bytes.
    pub(crate) fn from_bytes(bytes: &[u8; bitrep::SumF64::BYTES]) -> Option<Self> {
        bitrep::SumF64::from_bytes(bytes).map(Self)
    }

    /// The sum of `count` values whose exact total is `parts`: the state [`add`](Self::add)
    /// builds from those values, byte for byte (the accumulator holds the exact total in units
    /// of 2^-1074, a +∞ flag and the number of values added, zeros included).
    pub(crate) fn from_parts(parts: &ExactSumParts, count: u64) -> Self {
        let mut bytes = [0_u8; bitrep::SumF64::BYTES];
        for (i, limb) in parts.limbs.iter().enumerate() {
            bytes[i * 8..i * 8 + 8].copy_from_slice(&limb.to_le_bytes());
        }
        // Flag bits: NaN 1, +∞ 2, −∞ 4 (bitrep's layout; only +∞ can arise from values >= 0).
        bytes[LIMBS * 8] = if parts.infinite { 2 } else { 0 };
        bytes[LIMBS * 8 + 1..].copy_from_slice(&count.to_le_bytes());
        Self(bitrep::SumF64::from_bytes(&bytes).expect("only known flag bits are set"))
    }
}

/// 64-bit limbs of bitrep's accumulator: its byte form is the limbs, one flag byte and an
/// 8-byte count (`SumF64::to_bytes`).
const LIMBS: usize = (bitrep::SumF64::BYTES - 9) / 8;

/// Bits of the accumulator's integer below its sign bit: an exact total must stay below
/// 2^(TOP_BIT) units of 2^-1074 (bitrep's headroom: 2^63 values of the largest `f64`).
const TOP_BIT: u32 = (LIMBS * 64 - 1) as u32;

/// The exact total of a multiset of finite `f64` values `>= 0` (and whether `+∞` is among
/// them), given as integers times powers of two — for front ends that sum elsewhere, exactly:
/// Spark SQL sums each value's integer mantissa per binary exponent (docs/spark.md), and
/// [`ConfusionState::add_cell`](super::ConfusionState::add_cell) turns these parts into the
/// accumulator that adding the values one by one builds, byte for byte.
///
/// # Example
/// ```
/// use fair_metrics::state::ExactSumParts;
///
/// let mut parts = ExactSumParts::new();
/// // 0.1 + 0.2 exactly: 0.1 = 7205759403792794 × 2^-56, 0.2 = 7205759403792794 × 2^-55.
/// parts.add_scaled(7205759403792794, -56)?;
/// parts.add_scaled(7205759403792794, -55)?;
/// assert!(!parts.is_infinite());
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactSumParts {
    /// The total in units of 2^-1074, little-endian 64-bit limbs (bitrep's layout).
    limbs: [u64; LIMBS],
    infinite: bool,
}

impl Default for ExactSumParts {
    fn default() -> Self {
        Self::new()
    }
}

impl ExactSumParts {
    /// Zero.
    pub fn new() -> Self {
        Self {
            limbs: [0; LIMBS],
            infinite: false,
        }
    }

    /// Adds `integer × 2^exponent` exactly.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when `exponent < -1074` (below the smallest `f64`
    /// step, which no sum of `f64` values needs) or the total would pass the accumulator's
    /// capacity (far beyond any sum of 2^63 finite `f64` values).
    pub fn add_scaled(&mut self, integer: u128, exponent: i32) -> Result<()> {
        if integer == 0 {
            return Ok(());
        }
        let shift = exponent
            .checked_add(1074)
            .and_then(|s| u32::try_from(s).ok())
            .ok_or_else(|| MetricError::InvalidParameter {
                name: "exponent",
                value: exponent.to_string(),
                expected: "at least -1074 (the step of the smallest f64)",
            })?;
        let too_big = || MetricError::InvalidParameter {
            name: "exact sum",
            value: format!("{integer} × 2^{exponent} added"),
            expected: "a total below 2^1101 (2^63 values of the largest f64)",
        };
        if shift + (128 - integer.leading_zeros()) > TOP_BIT {
            return Err(too_big());
        }
        // integer << (shift % 64) spans at most three limbs from limb shift / 64.
        let (limb, off) = ((shift / 64) as usize, shift % 64);
        let (lo, hi) = (integer as u64, (integer >> 64) as u64);
        let spill = |x: u64| if off == 0 { 0 } else { x >> (64 - off) };
        let words = [lo << off, (hi << off) | spill(lo), spill(hi)];
        // In place when the total cannot pass the capacity: the words stop below the top limb,
        // which holds less than 2^62, so a carry reaching it leaves its top bit clear. Row-by-row
        // callers add millions of values, and copying the limbs for each was most of their cost.
        if limb + 3 < LIMBS - 1 && self.limbs[LIMBS - 1] < 1 << 62 {
            let mut carry = 0_u64;
            for (i, add) in words.into_iter().enumerate() {
                let (v, c1) = self.limbs[limb + i].overflowing_add(add);
                let (v, c2) = v.overflowing_add(carry);
                self.limbs[limb + i] = v;
                carry = u64::from(c1) + u64::from(c2);
            }
            let mut i = limb + 3;
            while carry != 0 {
                let (v, c) = self.limbs[i].overflowing_add(carry);
                self.limbs[i] = v;
                carry = u64::from(c);
                i += 1;
            }
            return Ok(());
        }
        let mut sum = self.limbs;
        let mut carry = 0_u64;
        for (i, add) in words.into_iter().enumerate().map(|(i, a)| (limb + i, a)) {
            if i >= LIMBS {
                if add != 0 {
                    return Err(too_big());
                }
                continue;
            }
            let (v, c1) = sum[i].overflowing_add(add);
            let (v, c2) = v.overflowing_add(carry);
            sum[i] = v;
            carry = u64::from(c1) + u64::from(c2);
        }
        let mut i = limb + 3;
        while carry != 0 && i < LIMBS {
            let (v, c) = sum[i].overflowing_add(carry);
            sum[i] = v;
            carry = u64::from(c);
            i += 1;
        }
        if carry != 0 || sum[LIMBS - 1] >> 63 != 0 {
            return Err(too_big());
        }
        self.limbs = sum;
        Ok(())
    }

    /// Records that `+∞` is among the values (an `f64` square that overflowed, say).
    pub fn add_infinity(&mut self) {
        self.infinite = true;
    }

    /// Whether `+∞` is among the values.
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// Adds one value `x >= 0` exactly (`+∞` is recorded as [`add_infinity`](Self::add_infinity)
    /// does): for front ends that add row by row what another adds from parts, so both round
    /// the same exact total once.
    ///
    /// ```
    /// use fair_metrics::state::ExactSumParts;
    /// let (mut a, mut b) = (ExactSumParts::new(), ExactSumParts::new());
    /// for x in [0.1, 0.2, 0.3] { a.add(x)?; }
    /// for x in [0.3, 0.2, 0.1] { b.add(x)?; }
    /// assert_eq!(a, b);
    /// assert_eq!(a.value(), 0.6); // the exact total 0.6000000000000000055… rounded once
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for a negative or NaN value, or a total past the
    /// accumulator's capacity.
    pub fn add(&mut self, x: f64) -> Result<()> {
        if x.is_nan() || x < 0.0 {
            return Err(MetricError::InvalidParameter {
                name: "exact sum",
                value: x.to_string(),
                expected: "values >= 0",
            });
        }
        if x.is_infinite() {
            self.add_infinity();
            return Ok(());
        }
        let bits = x.to_bits();
        let (exp, frac) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
        if exp == 0 {
            self.add_scaled(u128::from(frac), -1074)
        } else {
            self.add_scaled(u128::from(frac | 1 << 52), exp - 1075)
        }
    }

    /// Adds every value of `other` exactly.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the total passes the accumulator's capacity.
    pub fn merge(&mut self, other: &Self) -> Result<()> {
        let mut sum = self.limbs;
        let mut carry = 0_u64;
        for (s, &o) in sum.iter_mut().zip(&other.limbs) {
            let (v, c1) = s.overflowing_add(o);
            let (v, c2) = v.overflowing_add(carry);
            *s = v;
            carry = u64::from(c1) + u64::from(c2);
        }
        if carry != 0 || sum[LIMBS - 1] >> 63 != 0 {
            return Err(MetricError::InvalidParameter {
                name: "exact sum",
                value: "two totals merged".into(),
                expected: "a total below 2^1101 (2^63 values of the largest f64)",
            });
        }
        self.limbs = sum;
        self.infinite |= other.infinite;
        Ok(())
    }

    /// The exact total rounded once to the nearest `f64` (`+∞` when it holds `+∞` or
    /// overflows).
    pub fn value(&self) -> f64 {
        ExactSum::from_parts(self, 0).value()
    }

    /// Compares two exact totals (`+∞` above every finite total, equal to itself).
    pub fn total_cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.infinite, other.infinite) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            (false, false) => self.limbs.iter().rev().cmp(other.limbs.iter().rev()),
        }
    }
}

impl PartialEq for ExactSum {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bytes() == other.0.to_bytes()
    }
}

impl std::fmt::Debug for ExactSum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExactSum({})", self.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x = m × 2^e` with an integer `m < 2^53` (finite `x >= 0`).
    fn split(x: f64) -> (u128, i32) {
        let bits = x.to_bits();
        let (exp, frac) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
        if exp == 0 {
            (u128::from(frac), -1074)
        } else {
            (u128::from(frac | 1 << 52), exp - 1075)
        }
    }

    fn by_values(values: &[f64]) -> ExactSum {
        let mut s = ExactSum::default();
        values.iter().for_each(|&v| s.add(v));
        s
    }

    #[test]
    fn parts_give_the_accumulator_of_the_values() {
        let values = [
            0.0,
            -0.0,
            5e-324,
            1e-310,
            f64::MIN_POSITIVE,
            1e-300,
            0.1,
            0.2,
            0.3,
            1.0,
            3.0,
            123.456,
            2f64.powi(52),
            1e300,
            f64::MAX,
            f64::MAX,
        ];
        let mut parts = ExactSumParts::new();
        for &v in &values {
            let (m, e) = split(v);
            parts.add_scaled(m, e).unwrap();
        }
        let n = values.len() as u64;
        assert_eq!(ExactSum::from_parts(&parts, n), by_values(&values));
        // Mantissas pre-summed per exponent (as Spark sums them), at other scales.
        let mut grouped = ExactSumParts::new();
        grouped.add_scaled(3 << 40, -1074 - 40 + 40).unwrap();
        let mut single = ExactSumParts::new();
        for _ in 0..3 {
            single.add_scaled(1 << 40, -1074).unwrap();
        }
        assert_eq!(grouped, single);
        // Wide integers across limb boundaries, every offset within a limb.
        for shift in [0, 1, 31, 63, 64, 65, 127, 1000, 2000] {
            let mut a = ExactSumParts::new();
            a.add_scaled(u128::MAX >> 3, shift - 1074).unwrap();
            a.add_scaled(u128::MAX >> 3, shift - 1074).unwrap();
            let mut b = ExactSumParts::new();
            b.add_scaled((u128::MAX >> 3) << 1, shift - 1074).unwrap();
            assert_eq!(a, b, "shift {shift}");
        }
    }

    #[test]
    fn added_values_merge_compare_and_round_once() {
        let values = [0.1, 0.2, 0.3, 1e-310, 5e-324, 1e300, 3.0];
        let mut rows = ExactSumParts::new();
        let mut parts = ExactSumParts::new();
        for &v in &values {
            rows.add(v).unwrap();
            let (m, e) = split(v);
            parts.add_scaled(m, e).unwrap();
        }
        assert_eq!(rows, parts);
        assert_eq!(rows.value().to_bits(), by_values(&values).value().to_bits());
        // Merging two halves gives the whole; twice a half compares with the whole.
        let (mut a, mut b) = (ExactSumParts::new(), ExactSumParts::new());
        values[..3].iter().for_each(|&v| a.add(v).unwrap());
        values[3..].iter().for_each(|&v| b.add(v).unwrap());
        let mut merged = a.clone();
        merged.merge(&b).unwrap();
        assert_eq!(merged, rows);
        let mut half = ExactSumParts::new();
        half.add(0.3).unwrap();
        let mut twice = half.clone();
        twice.merge(&half).unwrap();
        let mut whole = ExactSumParts::new();
        whole.add(0.6).unwrap();
        // The double 0.6 is exactly twice the double 0.3 (same mantissa, next exponent).
        assert_eq!(twice.total_cmp(&whole), std::cmp::Ordering::Equal);
        whole.add(5e-324).unwrap();
        assert_eq!(twice.total_cmp(&whole), std::cmp::Ordering::Less);
        assert!(ExactSumParts::new().add(-1.0).is_err());
        let mut inf = ExactSumParts::new();
        inf.add(f64::INFINITY).unwrap();
        assert_eq!(inf.total_cmp(&whole), std::cmp::Ordering::Greater);
    }

    #[test]
    fn infinity_and_limits() {
        let mut parts = ExactSumParts::new();
        parts.add_scaled(1, 0).unwrap();
        parts.add_infinity();
        assert_eq!(
            ExactSum::from_parts(&parts, 2),
            by_values(&[1.0, f64::INFINITY])
        );
        assert!(parts.add_scaled(1, -1075).is_err());
        assert!(parts.add_scaled(u128::MAX, 2000).is_err());
        // Up to 2^63 values of f64::MAX fit.
        let (m, e) = split(f64::MAX);
        let mut big = ExactSumParts::new();
        big.add_scaled(m << 62, e).unwrap();
        assert!(big.add_scaled(m << 62, e).is_ok());
        let v = ExactSum::from_parts(&big, 2).value();
        assert!(v.is_infinite() && v > 0.0);
    }

    proptest::proptest! {
        /// Values of every magnitude, added one by one (in place below the top limbs, through
        /// a copy near them), give the exact sum of the values, whatever their order.
        #[test]
        fn added_values_are_the_exact_sum(
            raw in proptest::collection::vec((0_u64..1 << 52, -1074_i32..=971, 1_usize..4), 1..60),
        ) {
            let values: Vec<f64> = raw
                .iter()
                .flat_map(|&(m, e, k)| std::iter::repeat_n(m as f64 * 2f64.powi(e.max(-1022)) * 2f64.powi((e + 1022).min(0)), k))
                .filter(|v| v.is_finite())
                .collect();
            let mut forward = ExactSumParts::new();
            values.iter().for_each(|&v| forward.add(v).unwrap());
            let mut backward = ExactSumParts::new();
            values.iter().rev().for_each(|&v| backward.add(v).unwrap());
            proptest::prop_assert_eq!(&forward, &backward);
            proptest::prop_assert_eq!(forward.value().to_bits(), by_values(&values).value().to_bits());
        }
    }
}
