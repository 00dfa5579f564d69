//! `GroupRates` through pickle: `__reduce__` hands Python the rebuild function and one bytes
//! value, a versioned, checksummed encoding of the counts; rebuilding checks the checksum and
//! the counts (as building from rows does), so a damaged pickle is a `FairkitError`, never a
//! panic or a frame of wrong numbers.

use super::{Counted, GroupRates};
use crate::errors::invalid;
use fair_metrics::{CellSums, ConfusionCounts};
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};

/// Leading bytes of every encoding (format 1).
const MAGIC: &[u8; 8] = b"fkGR\x00\x00\x00\x01";
/// FNV-1a's 64-bit offset basis and prime.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// What a `GroupRates` is made of: the declared groups' names (NaN rows included), each kept
/// group's declared index, and the kept groups' counts — row counts `[tn, fp, fn, tp]`, or the
/// exact sums of every union of cells (16 per group) and pooled when weighted.
/// `kept` (one per group with rows) spread over the declared groups, `zero` for the others.
fn widen<T: Copy>(has_rows: &[bool], kept: Vec<T>, zero: T) -> Vec<T> {
    let mut it = kept.into_iter();
    has_rows
        .iter()
        .map(|&h| if h { it.next().unwrap_or(zero) } else { zero })
        .collect()
}

#[derive(Serialize, Deserialize)]
struct State {
    names: Vec<String>,
    slot: Vec<Option<usize>>,
    rows: Option<Vec<[f64; 4]>>,
    sums: Option<(Vec<Vec<f64>>, Vec<f64>)>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

fn damaged(why: impl std::fmt::Display) -> PyErr {
    invalid(format!(
        "this pickled fairkit GroupRates is damaged ({why}); pickle the MetricFrame again from \
         its data"
    ))
}

impl GroupRates {
    /// The encoding: [`MAGIC`], the FNV-1a hash of the body (8 bytes, little-endian), the body
    /// (the [`State`] as JSON; finite counts only, so JSON keeps every bit).
    pub(crate) fn to_pickle_bytes(&self) -> Vec<u8> {
        let names = self.confusion.names();
        let mut declared: Vec<String> = vec![String::new(); self.slot.len()];
        for (g, s) in self.slot.iter().enumerate() {
            if let Some(k) = s {
                declared[g] = names[*k].clone();
            }
        }
        let state = State {
            names: declared,
            slot: self.slot.clone(),
            rows: match self.confusion.cell_sums() {
                Some(_) => None,
                None => Some(
                    self.confusion
                        .by_group()
                        .iter()
                        .map(|c| [c.tn, c.fp, c.fn_, c.tp])
                        .collect(),
                ),
            },
            sums: self
                .confusion
                .cell_sums()
                .map(|(g, p)| (g.iter().map(|s| s.0.to_vec()).collect(), p.0.to_vec())),
        };
        let body = serde_json::to_vec(&state).unwrap_or_default();
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Rebuilds from [`to_pickle_bytes`](Self::to_pickle_bytes)'s encoding, checking it.
    pub(crate) fn from_pickle_bytes(bytes: &[u8]) -> PyResult<Self> {
        let head = MAGIC.len() + 8;
        if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
            return Err(damaged("it does not start with format 1's header"));
        }
        let mut hash = [0_u8; 8];
        hash.copy_from_slice(&bytes[MAGIC.len()..head]);
        let body = &bytes[head..];
        if fnv1a(body) != u64::from_le_bytes(hash) {
            return Err(damaged("its checksum does not match its contents"));
        }
        let state: State = serde_json::from_slice(body).map_err(damaged)?;
        let n_kept = state.slot.iter().flatten().count();
        let mut seen = vec![false; n_kept];
        for k in state.slot.iter().flatten() {
            if *k >= n_kept || std::mem::replace(&mut seen[*k], true) {
                return Err(damaged(
                    "its group slots are not a numbering of the kept groups",
                ));
            }
        }
        if state.names.len() != state.slot.len() {
            return Err(damaged("it has a different number of names and groups"));
        }
        let has_rows: Vec<bool> = state.slot.iter().map(Option::is_some).collect();
        // Kept groups in declared order must carry slots 0, 1, ... (as keep_groups_with_rows
        // numbers them); the counts are stored in slot order.
        if state
            .slot
            .iter()
            .flatten()
            .enumerate()
            .any(|(i, &k)| i != k)
        {
            return Err(damaged("its group slots are out of order"));
        }
        let counted = match (state.rows, state.sums) {
            (Some(rows), None) if rows.len() == n_kept => Counted::Rows(widen(
                &has_rows,
                rows.into_iter()
                    .map(|[tn, fp, fn_, tp]| ConfusionCounts { tp, fp, tn, fn_ })
                    .collect(),
                ConfusionCounts::default(),
            )),
            (None, Some((groups, pooled))) if groups.len() == n_kept => {
                let sixteen = |v: Vec<f64>| -> PyResult<CellSums> {
                    let a: [f64; 16] = v
                        .try_into()
                        .map_err(|_| damaged("a group's sums are not 16 numbers"))?;
                    Ok(CellSums(a))
                };
                let groups = groups
                    .into_iter()
                    .map(sixteen)
                    .collect::<PyResult<Vec<_>>>()?;
                Counted::Weighted(
                    widen(&has_rows, groups, CellSums([0.0; 16])),
                    sixteen(pooled)?,
                )
            }
            _ => return Err(damaged("its counts do not match its groups")),
        };
        GroupRates::keep_groups_with_rows(counted, &has_rows, state.names).map_err(damaged)
    }
}
