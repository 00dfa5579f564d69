//! An [`AuditState`] from rows counted elsewhere: one aggregate row per distinct (sensitive
//! values, label value, prediction value), with its row count and, when weighted, the exact sums
//! of its weights and of their `f64` squares. A front end that can count exactly without handing
//! every row over (Spark SQL: `bigint` counts, mantissa sums per binary exponent; see
//! docs/spark.md) builds the state the row-by-row decoder builds, byte for byte: the aggregate
//! rows go through the same [`Decoder`] (label coder, column types, group names), so a label
//! value, a group name or a third label value means the same as it does row by row.

use super::decode::Decoder;
use super::error::IngestError;
use super::state::AuditState;
use arrow_array::RecordBatch;
use fair_metrics::state::ExactSumParts;

/// What one aggregate row counted.
#[derive(Debug, Clone, PartialEq)]
pub struct CellCounts {
    /// Rows (at least one).
    pub rows: u64,
    /// When weighted: the exact sum of the rows' weights, and of their `f64` squares `w * w`.
    pub weights: Option<(ExactSumParts, ExactSumParts)>,
}

impl AuditState {
    /// Adds rows counted elsewhere. `batch` holds one row per aggregate, with the label,
    /// prediction and sensitive columns of `decoder`'s roles in their original types (a score or
    /// weight column is neither needed nor read); `cells[i]` is what row `i` counted. The
    /// decoder codes the values as it codes single rows (its label coder learns the negative
    /// value here too), so the state equals the one built from the rows themselves.
    ///
    /// # Example
    /// ```
    /// use arrow_array::{BooleanArray, RecordBatch, StringArray};
    /// use fair_audit::ingest::{AuditState, CellCounts, Decoder, FlagStyle, LabelPair, Roles, Typing};
    /// use std::sync::Arc;
    ///
    /// let roles = Roles::new("y", Some("p"), None, &["g"], None);
    /// let dec = || Decoder::new(roles.clone(), LabelPair::new("true", None), "t", Typing::Typed, FlagStyle::Python);
    /// let batch = |y: Vec<bool>, p: Vec<bool>, g: Vec<&str>| RecordBatch::try_from_iter([
    ///     ("y", Arc::new(BooleanArray::from(y)) as _),
    ///     ("p", Arc::new(BooleanArray::from(p)) as _),
    ///     ("g", Arc::new(StringArray::from(g)) as _),
    /// ]).unwrap();
    /// // Row by row: a, a, b.
    /// let (mut d, mut rows) = (dec()?, AuditState::new("true", 1));
    /// rows.add(&d.decode(&batch(vec![true, true, false], vec![true, true, true], vec!["a", "a", "b"]), None)?, &d, &[])?;
    /// // Counted: (a, true, true) twice, (b, false, true) once.
    /// let (mut d, mut counted) = (dec()?, AuditState::new("true", 1));
    /// let cells = [CellCounts { rows: 2, weights: None }, CellCounts { rows: 1, weights: None }];
    /// counted.add_counted(&batch(vec![true, false], vec![true, true], vec!["a", "b"]), &mut d, &cells)?;
    /// assert_eq!(counted.to_bytes(), rows.to_bytes());
    /// # Ok::<(), fair_audit::ingest::IngestError>(())
    /// ```
    ///
    /// # Errors
    /// The decoder's [`IngestError`] for a value it refuses (a null, a third label value, a
    /// reserved character in a group name, a mistyped column); [`IngestError::State`] when
    /// `cells` does not match the batch, a row counts nothing, the state has several prediction
    /// sources, or weighted cells meet an unweighted state. On error the state is unchanged.
    pub fn add_counted(
        &mut self,
        batch: &RecordBatch,
        decoder: &mut Decoder,
        cells: &[CellCounts],
    ) -> Result<(), IngestError> {
        if cells.len() != batch.num_rows() {
            return Err(IngestError::State(format!(
                "{} aggregate rows, {} counts",
                batch.num_rows(),
                cells.len()
            )));
        }
        if self.finest().len() != 1 {
            return Err(IngestError::State(
                "counted cells need one prediction source (a prediction column)".into(),
            ));
        }
        let decoded = decoder.decode(batch, None)?;
        let Some(preds) = &decoded.preds else {
            return Err(IngestError::State(
                "counted cells need a prediction column".into(),
            ));
        };
        let names = decoder.finest_names();
        let mut state = self.clone();
        // `--unknowns exclude`: the aggregate rows set aside are counted apart, the others
        // (in batch order) are the decoded rows.
        let mut aside = decoded.set_aside.iter().peekable();
        let mut kept = 0;
        for (row, cell) in cells.iter().enumerate() {
            let weights = cell.weights.as_ref().map(|(w, sq)| (w, sq));
            if let Some(&(_, code)) = aside.next_if(|&&(r, _)| r == row) {
                state
                    .set_aside
                    .add_cell(&decoder.set_aside_names()[code], 0, 0, cell.rows, weights)
                    .map_err(|e| IngestError::State(e.to_string()))?;
                continue;
            }
            let i = kept;
            kept += 1;
            state.sources[0]
                .add_cell(
                    &names[decoded.finest[i]],
                    decoded.labels[i],
                    preds[i],
                    cell.rows,
                    weights,
                )
                .map_err(|e| IngestError::State(e.to_string()))?;
        }
        if let Some(n) = decoder.labels().negative() {
            state.negative = Some(n.to_string());
        }
        *self = state;
        Ok(())
    }
}
