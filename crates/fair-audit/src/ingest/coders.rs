//! Turning cell values into typed columns: labels and predictions to 0/1, sensitive values to
//! group codes, scores and weights to finite `f64`.
//!
//! The coders live across batches, so a group keeps its code (and a label its meaning) for a
//! whole file, table or partition; every front end (the command's CSV and Parquet readers,
//! Python and Spark) decodes through them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast non-cryptographic hasher (the rotate–xor–multiply step of rustc's FxHash) for the
/// per-row lookups of group names and group tuples: SipHash (the std default, built to resist
/// hash flooding) was 10 % of an audit's time, and the keys here are a file's few group names.
#[derive(Debug, Clone, Copy, Default)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let mut tail = [0_u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ (rest.len() as u64) << 56);
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Maps the two values of the label (and prediction) column to 1 (positive) and 0 (negative).
///
/// The positive value is declared (`--pos-label`, default `1`). The negative value is declared
/// with `--neg-label` or, if not, is the first other value seen; any third value is an error.
/// Spellings are compared as text first, then as numbers (`1` = `1.0`), then as booleans
/// (`true` = `1`), so a label column read as integers, floats, booleans or text all work.
#[derive(Debug, Clone)]
pub struct LabelCoder {
    positive: String,
    negative: Option<String>,
    positive_num: Option<f64>,
    negative_num: Option<f64>,
}

/// What a label cell means: positive, negative, or a value outside the pair.
pub type LabelCode = Option<usize>;

fn as_number(v: &str) -> Option<f64> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Some(1.0),
        "false" => Some(0.0),
        t => t.parse::<f64>().ok().filter(|x| x.is_finite()),
    }
}

fn same_number(a: Option<f64>, b: Option<f64>) -> bool {
    matches!((a, b), (Some(x), Some(y)) if x.total_cmp(&y).is_eq())
}

impl LabelCoder {
    /// A coder with a declared positive value and optionally a declared negative one.
    pub fn new(positive: &str, negative: Option<&str>) -> Self {
        Self {
            positive: positive.to_string(),
            negative: negative.map(str::to_string),
            positive_num: as_number(positive),
            negative_num: negative.and_then(as_number),
        }
    }

    /// The positive value as declared.
    pub fn positive(&self) -> &str {
        &self.positive
    }

    /// The negative value: declared, or the first non-positive value seen (`None` before that).
    pub fn negative(&self) -> Option<&str> {
        self.negative.as_deref()
    }

    /// 1 for the positive value, 0 for the negative one, `None` for anything else.
    pub fn code(&mut self, value: &str) -> LabelCode {
        if value == self.positive {
            return Some(1);
        }
        if self.negative.as_deref() == Some(value) {
            return Some(0);
        }
        // Slow path: other spellings of the same values.
        let num = as_number(value);
        if same_number(num, self.positive_num) {
            return Some(1);
        }
        match &self.negative {
            Some(_) => same_number(num, self.negative_num).then_some(0),
            None => {
                self.negative = Some(value.to_string());
                self.negative_num = num;
                Some(0)
            }
        }
    }

    /// Whether `value` is another spelling of the negative value (`false` before one is known).
    pub fn is_negative(&self, value: &str) -> bool {
        self.negative.as_deref() == Some(value)
            || (self.negative.is_some() && same_number(as_number(value), self.negative_num))
    }

    /// The negative value as the error message shows it.
    pub fn negative_for_message(&self) -> String {
        self.negative
            .clone()
            .unwrap_or_else(|| "(none seen yet)".into())
    }
}

/// The group names of one sensitive column and the code of each, in order of first appearance.
#[derive(Debug, Clone, Default)]
pub struct GroupDictionary {
    index: FxHashMap<String, u32>,
    names: Vec<String>,
}

impl GroupDictionary {
    /// The code of `name`, adding it if new.
    pub fn code(&mut self, name: &str) -> u32 {
        if let Some(&c) = self.index.get(name) {
            return c;
        }
        let c = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.index.insert(name.to_string(), c);
        self.names.push(name.to_string());
        c
    }

    /// Names by code.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The code of `name` if it was seen.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }
}

/// A score or weight cell that is not usable.
#[derive(Debug, Clone, PartialEq)]
pub enum NumberProblem {
    /// Not a number at all.
    NotNumeric,
    /// NaN or ±inf.
    NonFinite(f64),
    /// Negative (weights only).
    Negative(f64),
}

/// Parses a numeric cell (surrounding spaces allowed).
pub fn parse_number(text: &str) -> Result<f64, NumberProblem> {
    let v = text
        .trim()
        .parse::<f64>()
        .map_err(|_| NumberProblem::NotNumeric)?;
    check_number(v, false)
}

/// Checks a number read from a typed column: finite, and `>= 0` when `non_negative`.
pub fn check_number(v: f64, non_negative: bool) -> Result<f64, NumberProblem> {
    if !v.is_finite() {
        Err(NumberProblem::NonFinite(v))
    } else if non_negative && v < 0.0 {
        Err(NumberProblem::Negative(v))
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_pair_is_learned_and_enforced() {
        let mut c = LabelCoder::new("yes", None);
        assert_eq!(c.code("no"), Some(0));
        assert_eq!(c.code("yes"), Some(1));
        assert_eq!(c.code("maybe"), None);
        assert_eq!(c.negative(), Some("no"));
    }

    #[test]
    fn numeric_and_boolean_spellings_match() {
        let mut c = LabelCoder::new("1", None);
        assert_eq!(c.code("1.0"), Some(1));
        assert_eq!(c.code("true"), Some(1));
        assert_eq!(c.code("0"), Some(0));
        assert_eq!(c.code("false"), Some(0));
        assert_eq!(c.code("0.0"), Some(0));
        assert_eq!(c.code("2"), None);
    }

    #[test]
    fn declared_negative_rejects_others() {
        let mut c = LabelCoder::new("1", Some("-1"));
        assert_eq!(c.code("0"), None);
        assert_eq!(c.code("-1"), Some(0));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number(" 0.25 "), Ok(0.25));
        assert_eq!(parse_number("abc"), Err(NumberProblem::NotNumeric));
        assert!(matches!(
            parse_number("NaN"),
            Err(NumberProblem::NonFinite(_))
        ));
        assert!(matches!(
            parse_number("-inf"),
            Err(NumberProblem::NonFinite(_))
        ));
        assert!(matches!(
            check_number(-1.0, true),
            Err(NumberProblem::Negative(_))
        ));
    }

    #[test]
    fn dictionary_codes_are_stable() {
        let mut d = GroupDictionary::default();
        assert_eq!(d.code("b"), 0);
        assert_eq!(d.code("a"), 1);
        assert_eq!(d.code("b"), 0);
        assert_eq!(d.names(), &["b".to_string(), "a".to_string()]);
    }
}
