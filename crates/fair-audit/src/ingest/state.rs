//! The mergeable audit state: per prediction source (the prediction column, or each threshold on
//! the score) the confusion cells of every finest group, and the label pair the rows used.
//! Partitions of one audit fold their rows separately and merge exactly (associative,
//! commutative, bit-exact), so one machine, a stream and a cluster build the same state; every
//! slice (each sensitive column, their intersection) is derived from it at the end.

use super::coders::LabelCoder;
use super::decode::{Decoded, Decoder};
use super::error::IngestError;
use super::{FlagStyle, GROUP_SEPARATOR};
use crate::compute::SliceDef;
use crate::error::AuditError;
use crate::finest::FinestGroups;
use fair_metrics::state::ConfusionState;

const MAGIC: &[u8; 4] = b"FKAS";
const VERSION: u8 = 1;
/// The encoding of a state holding rows set aside (`--unknowns exclude`): version 1 followed
/// by their counts. A state without such rows keeps version 1, byte for byte.
const VERSION_SET_ASIDE: u8 = 2;

/// The rows of an audit folded into exact, mergeable counts.
///
/// # Example
/// ```
/// use arrow_array::{Int64Array, RecordBatch, StringArray};
/// use fair_audit::ingest::{AuditState, Decoder, FlagStyle, LabelPair, Roles, Typing};
/// use std::sync::Arc;
///
/// let roles = Roles::new("y", Some("p"), None, &["g"], None);
/// let batch = |y: Vec<i64>, p: Vec<i64>, g: Vec<&str>| RecordBatch::try_from_iter([
///     ("y", Arc::new(Int64Array::from(y)) as _),
///     ("p", Arc::new(Int64Array::from(p)) as _),
///     ("g", Arc::new(StringArray::from(g)) as _),
/// ]).unwrap();
/// let mut parts = Vec::new();
/// for b in [batch(vec![1, 0], vec![1, 1], vec!["a", "b"]), batch(vec![0], vec![0], vec!["a"])] {
///     let mut dec = Decoder::new(roles.clone(), LabelPair::new("1", None), "part", Typing::Typed, FlagStyle::Python)?;
///     let mut state = AuditState::new("1", 1);
///     state.add(&dec.decode(&b, None)?, &dec, &[])?;
///     parts.push(state);
/// }
/// let mut merged = AuditState::from_bytes(&parts[0].to_bytes())?;
/// merged.merge(&parts[1], FlagStyle::Python)?;
/// assert_eq!(merged.total_rows(), 3);
/// assert_eq!(merged.negative(), Some("0"));
/// # Ok::<(), fair_audit::ingest::IngestError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AuditState {
    positive: String,
    pub(super) negative: Option<String>,
    /// `sources[s]`: the finest groups' confusion cells under prediction source `s`.
    pub(super) sources: Vec<ConfusionState>,
    /// `--unknowns exclude`: the rows set aside, counted (rows and exact weights, under label
    /// and prediction 0) by their group with the unknown values named
    /// [`UNKNOWN_GROUP`](super::UNKNOWN_GROUP).
    pub(super) set_aside: ConfusionState,
}

impl AuditState {
    /// An empty state for `sources` prediction sources (1 for a prediction column, or one per
    /// threshold) with the positive label value `positive`.
    pub fn new(positive: &str, sources: usize) -> Self {
        Self {
            positive: positive.to_string(),
            negative: None,
            sources: vec![ConfusionState::new(); sources.max(1)],
            set_aside: ConfusionState::new(),
        }
    }

    /// Adds one decoded batch: predictions from the prediction column, or `score >= t` for each
    /// threshold `t` (one source each, in order).
    ///
    /// # Errors
    /// [`IngestError::State`] when the thresholds do not match the sources, a threshold source
    /// has no score, or a weighted batch meets an unweighted state.
    pub fn add(
        &mut self,
        batch: &Decoded,
        decoder: &Decoder,
        thresholds: &[f64],
    ) -> Result<(), IngestError> {
        self.add_set_aside(batch, decoder)?;
        if batch.is_empty() {
            return Ok(());
        }
        if thresholds.len().max(1) != self.sources.len() {
            return Err(IngestError::State(format!(
                "{} prediction sources, {} thresholds",
                self.sources.len(),
                thresholds.len()
            )));
        }
        let weights = batch.weights.as_deref();
        for (s, state) in self.sources.iter_mut().enumerate() {
            let derived;
            let preds: &[usize] = match (thresholds.get(s), &batch.preds, &batch.scores) {
                (Some(&t), _, Some(scores)) => {
                    derived = scores
                        .iter()
                        .map(|&v| usize::from(v >= t))
                        .collect::<Vec<_>>();
                    &derived
                }
                (None, Some(p), _) => p,
                _ => {
                    return Err(IngestError::State(
                        "no prediction: give a prediction column, or a score with thresholds"
                            .into(),
                    ));
                }
            };
            state
                .update_coded(
                    &batch.labels,
                    preds,
                    &batch.finest,
                    decoder.finest_names(),
                    weights,
                )
                .map_err(|e| IngestError::State(e.to_string()))?;
        }
        if let Some(n) = decoder.labels().negative() {
            self.negative = Some(n.to_string());
        }
        Ok(())
    }

    /// Counts the rows a batch set aside ([`Decoded::set_aside`]); [`add`](Self::add) calls it,
    /// and a front end that folds a batch elsewhere (a regression audit's sums) calls it alone.
    ///
    /// # Errors
    /// [`IngestError::State`] when weighted rows meet unweighted ones.
    pub fn add_set_aside(&mut self, batch: &Decoded, decoder: &Decoder) -> Result<(), IngestError> {
        if batch.set_aside.is_empty() {
            return Ok(());
        }
        let codes: Vec<usize> = batch.set_aside.iter().map(|&(_, c)| c).collect();
        let zeros = vec![0; codes.len()];
        self.set_aside
            .update_coded(
                &zeros,
                &zeros,
                &codes,
                decoder.set_aside_names(),
                batch.set_aside_weights.as_deref(),
            )
            .map_err(|e| IngestError::State(e.to_string()))
    }

    /// The rows set aside (`--unknowns exclude`), by their group (the values of every
    /// sensitive column joined by [`GROUP_SEPARATOR`], the unknown ones named
    /// [`UNKNOWN_GROUP`](super::UNKNOWN_GROUP)); only their rows and weights are counted.
    pub fn set_aside(&self) -> &ConfusionState {
        &self.set_aside
    }

    /// Adds another part's rows. The two parts must have used the same label pair.
    ///
    /// # Errors
    /// [`IngestError::LabelsDisagree`] when the parts learned different negative values (the
    /// data holds three), [`IngestError::State`] when the states do not fit together.
    pub fn merge(&mut self, other: &AuditState, style: FlagStyle) -> Result<(), IngestError> {
        if other.positive != self.positive || other.sources.len() != self.sources.len() {
            return Err(IngestError::State(format!(
                "the parts were built with different settings (positive label {:?} vs {:?}, {} vs {} prediction sources)",
                self.positive,
                other.positive,
                self.sources.len(),
                other.sources.len()
            )));
        }
        if let (Some(a), Some(b)) = (&self.negative, &other.negative)
            && !LabelCoder::new(&self.positive, Some(a)).is_negative(b)
        {
            let (first, second) = if a <= b { (a, b) } else { (b, a) };
            return Err(IngestError::LabelsDisagree {
                origin: "the merged data".into(),
                positive: self.positive.clone(),
                first: first.clone(),
                second: second.clone(),
                pos_flag: style.flag("pos_label"),
                neg_flag: style.flag("neg_label"),
            });
        }
        for (a, b) in self.sources.iter_mut().zip(&other.sources) {
            a.merge(b).map_err(|e| IngestError::State(e.to_string()))?;
        }
        self.set_aside
            .merge(&other.set_aside)
            .map_err(|e| IngestError::State(e.to_string()))?;
        if self.negative.is_none() {
            self.negative.clone_from(&other.negative);
        }
        Ok(())
    }

    /// The positive label value.
    pub fn positive(&self) -> &str {
        &self.positive
    }

    /// The negative label value seen (or declared), `None` before one was seen.
    pub fn negative(&self) -> Option<&str> {
        self.negative.as_deref()
    }

    /// Rows folded in.
    pub fn total_rows(&self) -> u64 {
        self.sources[0].total_rows()
    }

    /// Whether the rows carried weights.
    pub fn is_weighted(&self) -> bool {
        self.sources[0].is_weighted()
    }

    /// The finest groups' names (values joined by [`GROUP_SEPARATOR`]), sorted.
    pub fn finest_names(&self) -> Vec<String> {
        self.sources[0].group_names()
    }

    /// The finest groups' state under each prediction source.
    pub fn finest(&self) -> &[ConfusionState] {
        &self.sources
    }

    /// The same rows with every finest group renamed by `name_of` (groups given the same name
    /// merged, exactly): how an audit over time drops or buckets its window column.
    pub fn regroup(&self, name_of: impl Fn(&str) -> String) -> AuditState {
        AuditState {
            positive: self.positive.clone(),
            negative: self.negative.clone(),
            sources: self.sources.iter().map(|s| s.regroup(&name_of)).collect(),
            set_aside: self.set_aside.regroup(&name_of),
        }
    }

    /// Only the finest groups `keep` accepts (their cells unchanged).
    pub fn retain(&self, keep: impl Fn(&str) -> bool) -> AuditState {
        AuditState {
            positive: self.positive.clone(),
            negative: self.negative.clone(),
            sources: self
                .sources
                .iter()
                .map(|s| s.retain_groups(&keep))
                .collect(),
            set_aside: self.set_aside.clone(),
        }
    }

    /// `states[source][slice]` for the slices of `SliceDef::all(sensitive)`: each slice's groups
    /// are the finest groups merged by their values in the slice's columns (exact).
    ///
    /// # Errors
    /// [`AuditError::Input`] when a finest group name does not have one value per column.
    pub fn slice_states(
        &self,
        sensitive: &[String],
    ) -> Result<(Vec<SliceDef>, Vec<Vec<ConfusionState>>), AuditError> {
        let groups = FinestGroups::parse(&self.finest_names(), sensitive.len(), GROUP_SEPARATOR)?;
        let slices = SliceDef::all(sensitive);
        let states = self
            .sources
            .iter()
            .map(|finest| {
                slices
                    .iter()
                    .map(|s| groups.slice_state(s, finest))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((slices, states))
    }

    /// The canonical encoding (equal states, equal bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let with_set_aside = !self.set_aside.is_empty();
        out.push(if with_set_aside {
            VERSION_SET_ASIDE
        } else {
            VERSION
        });
        put_str(&mut out, &self.positive);
        match &self.negative {
            None => out.push(0),
            Some(n) => {
                out.push(1);
                put_str(&mut out, n);
            }
        }
        out.extend_from_slice(&(self.sources.len() as u64).to_le_bytes());
        for s in &self.sources {
            let b = s.to_bytes();
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(&b);
        }
        if with_set_aside {
            let b = self.set_aside.to_bytes();
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(&b);
        }
        out
    }

    /// Decodes [`to_bytes`](Self::to_bytes); truncated or foreign bytes are an error, never a
    /// panic.
    ///
    /// # Errors
    /// [`IngestError::State`] naming what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, IngestError> {
        let mut r = ByteReader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err(IngestError::State(
                "wrong magic bytes: not an encoded audit state".into(),
            ));
        }
        let version = r.take(1)?[0];
        if version != VERSION && version != VERSION_SET_ASIDE {
            return Err(IngestError::State(format!(
                "version {version}, this build reads versions {VERSION} and {VERSION_SET_ASIDE}"
            )));
        }
        let positive = r.str()?;
        let negative = match r.take(1)?[0] {
            0 => None,
            1 => Some(r.str()?),
            other => {
                return Err(IngestError::State(format!(
                    "bad negative-label tag {other}"
                )));
            }
        };
        let n = r.u64()?;
        if n == 0 || n > 1 << 20 {
            return Err(IngestError::State(format!("{n} prediction sources")));
        }
        let mut sources = Vec::new();
        for _ in 0..n {
            let len = r.u64()?;
            let b = r.take(usize::try_from(len).unwrap_or(usize::MAX))?;
            sources.push(
                ConfusionState::from_bytes(b).map_err(|e| IngestError::State(e.to_string()))?,
            );
        }
        let set_aside = if version == VERSION_SET_ASIDE {
            let len = r.u64()?;
            let b = r.take(usize::try_from(len).unwrap_or(usize::MAX))?;
            let s = ConfusionState::from_bytes(b).map_err(|e| IngestError::State(e.to_string()))?;
            if s.is_empty() {
                // Canonical: an empty set-aside is written as version 1.
                return Err(IngestError::State(
                    "version 2 with no rows set aside".into(),
                ));
            }
            s
        } else {
            ConfusionState::new()
        };
        if r.at != bytes.len() {
            return Err(IngestError::State(format!(
                "{} trailing bytes",
                bytes.len() - r.at
            )));
        }
        Ok(Self {
            positive,
            negative,
            sources,
            set_aside,
        })
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], IngestError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                IngestError::State(format!(
                    "truncated: {n} bytes wanted at offset {}, {} in all",
                    self.at,
                    self.bytes.len()
                ))
            })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u64(&mut self) -> Result<u64, IngestError> {
        let b = self.take(8)?;
        let mut a = [0_u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn str(&mut self) -> Result<String, IngestError> {
        let len = self.u64()?;
        let b = self.take(usize::try_from(len).unwrap_or(usize::MAX))?;
        String::from_utf8(b.to_vec()).map_err(|_| IngestError::State("a label is not UTF-8".into()))
    }
}
