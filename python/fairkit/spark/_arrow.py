"""Arrow record batches → the numpy views the Rust state reads. Runs on Spark executors.

Only pyarrow and numpy are used here (no pandas), so executors need neither pandas nor any
row-by-row Python: each batch costs a handful of vectorised Arrow kernels and one Rust call.
The same code runs on one machine in :func:`fairkit.spark.audit_arrow`, which is what makes the
two paths give the same state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from fairkit._core import FairkitError
from fairkit._core import spark as _core

# Separator of the values of several sensitive features in one group name (ASCII unit
# separator: never part of a printable value; a value containing it is rejected).
GROUP_SEPARATOR = "\x1f"


@dataclass(frozen=True)
class AuditColumns:
    """Which columns an audit reads, and how (plain data: pickled to every executor)."""

    label: str
    pred: str
    sensitive: tuple
    score: Optional[str] = None
    weight: Optional[str] = None
    pos_label: Any = 1


def _no_nulls(col: pa.ChunkedArray | pa.Array, name: str) -> None:
    if col.null_count:
        raise FairkitError(
            f"column {name!r} has {col.null_count} null value(s) in this batch: "
            "drop or fill them before the audit (e.g. df.dropna(subset=[...]))"
        )


def _binary(col, name: str, pos_label: Any) -> np.ndarray:
    """``col == pos_label`` as a numpy bool array."""
    _no_nulls(col, name)
    try:
        eq = pc.equal(col, pa.scalar(pos_label).cast(col.type))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as e:
        raise FairkitError(
            f"column {name!r} of type {col.type} cannot be compared with pos_label={pos_label!r}: {e}"
        ) from e
    return np.asarray(eq.to_numpy(zero_copy_only=False), dtype=bool)


def _float(col, name: str) -> np.ndarray:
    _no_nulls(col, name)
    try:
        f = pc.cast(col, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise FairkitError(f"column {name!r} of type {col.type} is not numeric: {e}") from e
    return np.ascontiguousarray(f.to_numpy(zero_copy_only=False), dtype=np.float64)


def _value_name(v: Any) -> str:
    return str(v)


def group_codes(columns: Sequence, names: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Batch-local group codes ``0..k`` and the group names they stand for.

    One feature: the name is ``str(value)``. Several: the values' strings joined by
    :data:`GROUP_SEPARATOR` (the result object splits them back into tuples).
    """
    per_feature = []
    for col, name in zip(columns, names):
        _no_nulls(col, name)
        enc = pc.dictionary_encode(col)
        if isinstance(enc, pa.ChunkedArray):
            enc = enc.combine_chunks()
        values = [_value_name(v) for v in enc.dictionary.to_pylist()]
        if any(GROUP_SEPARATOR in v for v in values):
            raise FairkitError(
                f"column {name!r} holds a value containing the control character \\x1f, "
                "which fairkit uses to join several sensitive features: remove it"
            )
        codes = np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
        per_feature.append((codes, values))
    if len(per_feature) == 1:
        codes, values = per_feature[0]
        return np.ascontiguousarray(codes), values
    combined = np.zeros(len(per_feature[0][0]), dtype=np.int64)
    for codes, values in per_feature:
        combined = combined * max(len(values), 1) + codes
    uniq, local = np.unique(combined, return_inverse=True)
    group_names = []
    for c in uniq.tolist():
        parts = []
        for codes, values in reversed(per_feature):
            k = max(len(values), 1)
            parts.append(values[c % k])
            c //= k
        group_names.append(GROUP_SEPARATOR.join(reversed(parts)))
    return np.ascontiguousarray(local, dtype=np.int64), group_names


def update_state(state: "_core.PartitionState", batch: pa.RecordBatch, cols: AuditColumns) -> None:
    """Adds one Arrow batch (or table) to a Rust partition state."""
    if batch.num_rows == 0:
        return
    y = _binary(batch.column(cols.label), cols.label, cols.pos_label)
    p = _binary(batch.column(cols.pred), cols.pred, cols.pos_label)
    codes, names = group_codes([batch.column(s) for s in cols.sensitive], cols.sensitive)
    weight = _float(batch.column(cols.weight), cols.weight) if cols.weight else None
    state.update(y, p, codes, names, sample_weight=weight)


def partition_states(batches: Iterable[pa.RecordBatch], cols: AuditColumns):
    """The ``mapInArrow`` function: one output row (the encoded state) per partition.

    Empty partitions (no batch or zero-row batches) still send an empty state, which merges as
    the identity.
    """
    state = _core.PartitionState()
    for batch in batches:
        update_state(state, batch, cols)
    yield pa.RecordBatch.from_arrays([pa.array([state.to_bytes()], pa.binary())],
                                     names=["confusion"])


# -- the score pass: a distributed sweep over score ranges ---------------------------------------

def score_batch(segment: "_core.ScoreSegment", batch: pa.RecordBatch, cols: AuditColumns,
                index: dict) -> None:
    """Adds one batch's (label, finest group, score, weight) to a score segment; ``index`` maps
    the audit's finest group names (from the confusion pass) to their codes."""
    if batch.num_rows == 0:
        return
    y = _binary(batch.column(cols.label), cols.label, cols.pos_label)
    local, names = group_codes([batch.column(s) for s in cols.sensitive], cols.sensitive)
    try:
        lookup = np.array([index[n] for n in names], dtype=np.int64)
    except KeyError as e:
        raise FairkitError(
            f"group {e.args[0]!r} appears in the score pass but not in the counting pass: the "
            "DataFrame changed between the passes (cache or checkpoint it)"
        ) from None
    codes = np.ascontiguousarray(lookup[local]) if len(lookup) else local
    score = _float(batch.column(cols.score), cols.score)
    weight = _float(batch.column(cols.weight), cols.weight) if cols.weight else None
    segment.update(y, codes, score, weight)


def score_totals_rows(batches: Iterable[pa.RecordBatch], cols: AuditColumns, index: dict):
    """First score pass (``mapInArrow``): each range partition's score totals."""
    from pyspark import TaskContext

    segment = _core.ScoreSegment(cols.weight is not None, False)
    for batch in batches:
        score_batch(segment, batch, cols, index)
    yield pa.RecordBatch.from_arrays(
        [pa.array([TaskContext.get().partitionId()], pa.int32()),
         pa.array([segment.totals()], pa.binary())],
        names=["pid", "totals"],
    )


def score_segment_rows(batches: Iterable[pa.RecordBatch], cols: AuditColumns, index: dict,
                       totals: bytes, above: dict, interval: tuple):
    """Second score pass (``mapInArrow``): each range partition swept from the totals of the
    ranges above it."""
    from pyspark import TaskContext

    pid = TaskContext.get().partitionId()
    segment = _core.ScoreSegment(cols.weight is not None, True)
    for batch in batches:
        score_batch(segment, batch, cols, index)
    names = sorted(index, key=index.get)
    swept = segment.sweep(names, totals, above[pid], interval, len(cols.sensitive))
    yield pa.RecordBatch.from_arrays(
        [pa.array([pid], pa.int32()), pa.array([swept], pa.binary())],
        names=["pid", "segment"],
    )
