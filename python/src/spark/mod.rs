//! `fairkit._core.spark`: the Rust side of `fairkit.spark` — exact, mergeable audit states.
//!
//! A Spark job calls this module in three places, and only through bytes:
//!
//! 1. on each executor, [`PartitionState`] decodes the partition's pyarrow batches (imported
//!    through the Arrow C Data Interface, no copy) with the `fairkit audit` command's decoder
//!    (`fair_audit::ingest`) into a `fair_audit::ingest::AuditState` and hands back its
//!    canonical bytes (a score column takes two more passes over score ranges,
//!    `scores.rs`: a distributed sweep);
//! 2. anywhere (executors in a tree-reduce, or the driver), [`merge_states`] merges two encoded
//!    states — associative, commutative and bit-exact, so the partitioning and the merge order
//!    never change a number;
//! 3. on the driver, `audit_document` (`document.rs`) turns the final bytes into the schema-v1
//!    report of the `fairkit audit` command (`fair_audit::run`, the command's own path, with
//!    the request Python passes as a dict): every slice's rates
//!    with intervals, the gaps with bootstrap intervals and permutation p-values and, with
//!    scores, the exact AUC per group, KS (DP-Δ, EO-Δ) and partial SP. That report is the
//!    result (`fairkit/spark/_result.py` is a typed view of it).
//!
//! The rates of a Spark audit are usually counted by a Spark SQL aggregate instead of step 1
//! (`counts.rs`: `CountedState` rebuilds the same state on the driver, byte for byte); step 1
//! runs when that count finds a bad value, to name it exactly.
//!
//! The single-machine path (`fairkit.spark.audit_arrow`) runs the same three calls on one
//! table, which is what makes "same numbers as one machine" a property of the state, not of
//! Spark.

pub(crate) mod counts;
pub(crate) mod document;
mod projection;
mod regression;
mod scores;

use crate::errors::{invalid, to_py_err};
use fair_audit::ingest::{
    AuditState, Decoder, FlagStyle, LabelPair, Roles, Typing, UnknownGroups, Unknowns,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the state functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PartitionState>()?;
    m.add_function(wrap_pyfunction!(merge_states, m)?)?;
    m.add_function(wrap_pyfunction!(state_info, m)?)?;
    m.add_function(wrap_pyfunction!(document::audit_document, m)?)?;
    m.add_function(wrap_pyfunction!(document::check_groups, m)?)?;
    m.add_function(wrap_pyfunction!(document::check_request, m)?)?;
    m.add_function(wrap_pyfunction!(document::audit_defaults, m)?)?;
    m.add_class::<counts::CountedState>()?;
    m.add_class::<counts::CountedScores>()?;
    m.add("COUNT_LAYOUT", counts::layout(m.py())?)?;
    projection::register(m)?;
    scores::register(m)?;
    regression::register(m)?;
    Ok(())
}

/// The audit state of one partition (or of a whole table on one machine): its rows decoded by
/// the audit's one decoder (`fair_audit::ingest`, the `fairkit audit` command's) and folded into
/// the finest groups' confusion cells. (Score metrics take their own passes: see `scores.rs`.)
#[pyclass(module = "fairkit._core.spark")]
pub struct PartitionState {
    pub(crate) decoder: Decoder,
    state: AuditState,
}

#[pymethods]
impl PartitionState {
    /// An empty state for the columns named; `origin` names the rows in messages.
    #[new]
    #[pyo3(signature = (label, pred, sensitive, score=None, weight=None, pos_label="1".to_string(), neg_label=None, origin="Arrow table".to_string(), unknowns="error", unknown_values=Vec::new(), lead=0))]
    #[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
    fn new(
        label: String,
        pred: String,
        sensitive: Vec<String>,
        score: Option<String>,
        weight: Option<String>,
        pos_label: String,
        neg_label: Option<String>,
        origin: String,
        unknowns: &str,
        unknown_values: Vec<String>,
        lead: usize,
    ) -> PyResult<Self> {
        if sensitive.is_empty() {
            return Err(invalid(
                "sensitive is empty: name at least one sensitive-feature column",
            ));
        }
        let roles = Roles {
            label,
            pred: Some(pred),
            score,
            sensitive,
            weight,
            numeric: false,
            unlabeled: false,
            missing_groups: false,
            inferred: Vec::new(),
            proxy: None,
            rank: None,
            relevance: None,
            query: false,
        };
        let mut decoder = Decoder::new(
            roles,
            LabelPair {
                positive: pos_label.clone(),
                negative: neg_label,
            },
            &origin,
            Typing::Typed,
            FlagStyle::Python,
        )
        .map_err(to_py_err)?;
        decoder.set_unknowns(unknown_groups(unknowns, &unknown_values, lead)?);
        Ok(Self {
            decoder,
            state: AuditState::new(&pos_label, 1),
        })
    }

    /// Checks that the batch's schema has every column, each typed for its role (no row is
    /// read: an empty batch of the data's schema checks the columns before any job runs).
    fn check(&self, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        self.decoder.check_schema(&rb.schema()).map_err(to_py_err)
    }

    /// Adds one pyarrow record batch (imported without a copy; decoded without the GIL).
    fn update(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let (decoder, state) = (&mut self.decoder, &mut self.state);
        py.detach(|| {
            let decoded = decoder.decode(&rb, None).map_err(to_py_err)?;
            state.add(&decoded, decoder, &[]).map_err(to_py_err)
        })
    }

    /// For a later pass over the same rows (the score passes): finest groups are looked up among
    /// `names` (the merged state's, [`state_info`]) and never added.
    fn freeze_groups(&mut self, names: Vec<String>) {
        self.decoder.freeze_groups(&names);
    }

    /// The state's canonical encoding, to ship to the driver.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state.to_bytes())
    }

    /// Rows added so far.
    fn total_rows(&self) -> u64 {
        self.state.total_rows()
    }
}

/// The decoder's reading of unknown sensitive values (the request's `unknowns` and
/// `unknown_values`, checked there first; `lead` leading `by` / `against` columns left out).
pub(crate) fn unknown_groups(
    unknowns: &str,
    values: &[String],
    lead: usize,
) -> PyResult<Option<UnknownGroups>> {
    let handling: Unknowns = unknowns
        .parse()
        .map_err(|e: fair_core::ParseEnumError| invalid(e.to_string()))?;
    Ok(UnknownGroups::new(handling, values, lead))
}

/// Merges two encoded audit states into one (the label pairs must agree). Decoding validates
/// the bytes; the GIL is released.
#[pyfunction]
fn merge_states<'py>(
    py: Python<'py>,
    left: Vec<u8>,
    right: Vec<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py.detach(|| {
        let decode = |b: &[u8]| AuditState::from_bytes(b).map_err(to_py_err);
        let mut a = decode(&left)?;
        a.merge(&decode(&right)?, FlagStyle::Python)
            .map_err(to_py_err)?;
        Ok::<_, PyErr>(a.to_bytes())
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// `(finest group names, negative label or None, total rows)` of an encoded audit state: the
/// group codes of the score pass index the names (sorted), and its decoders use the label pair.
#[pyfunction]
fn state_info(state: &[u8]) -> PyResult<(Vec<String>, Option<String>, u64)> {
    let s = AuditState::from_bytes(state).map_err(to_py_err)?;
    Ok((
        s.finest_names(),
        s.negative().map(str::to_string),
        s.total_rows(),
    ))
}
