//! Whether a state holds weighted rows: fixed by its first non-empty batch, and the same for every
//! batch and partition after that (mixing would silently weigh some rows 1 and others not).

use super::codec::{Reader, Writer};
use crate::error::{MetricError, Result};

/// `None` until the first non-empty batch; then weighted or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Weighting(Option<bool>);

impl Weighting {
    /// Fails unless rows that are `weighted` (or not) may join this state.
    pub(crate) fn check(self, weighted: bool) -> Result<()> {
        match self.0 {
            Some(w) if w != weighted => Err(MetricError::InvalidParameter {
                name: "sample weights",
                value: if weighted { "given" } else { "absent" }.to_string(),
                expected: "the same choice for every batch and partition: weights everywhere or nowhere",
            }),
            _ => Ok(()),
        }
    }

    /// Records that rows joined (after [`check`](Self::check) passed).
    pub(crate) fn set(&mut self, weighted: bool) {
        self.0 = Some(weighted);
    }

    /// The weighting of another state, if it holds rows.
    pub(crate) fn known(self) -> Option<bool> {
        self.0
    }

    /// Whether the rows are weighted (`false` while empty).
    pub(crate) fn is_weighted(self) -> bool {
        self.0 == Some(true)
    }

    pub(crate) fn encode(self, w: &mut Writer) {
        w.u8(match self.0 {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        });
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Self> {
        match r.u8()? {
            0 => Ok(Self(None)),
            1 => Ok(Self(Some(false))),
            2 => Ok(Self(Some(true))),
            other => Err(r.error(format!("unknown weighting tag {other}"))),
        }
    }
}
